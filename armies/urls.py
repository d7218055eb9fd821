from django.urls import path

from armies import views

app_name = "armies"

urlpatterns = [
    path("", views.roster_list, name="roster-list"),
]
