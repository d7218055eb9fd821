from django.urls import path

from matches import views

app_name = "matches"

urlpatterns = [
    path("", views.match_list, name="match-list"),
]
