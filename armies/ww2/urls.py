"""The WWII force editor (under /armies/, in the ``armies`` namespace) and the page of what
its rules text gives; included from ``armies/urls.py``."""

from django.urls import path

from armies.ww2 import views

urlpatterns = [
    path("ww2/rules", views.rules_page, name="ww2-rules"),
    path("<int:pk>/force/rename", views.force_rename, name="ww2-rename"),
    path("<int:pk>/force/vehicles/new", views.vehicle_new, name="ww2-vehicle-new"),
    path("<int:pk>/force/vehicles/<slug:vehicle>/", views.vehicle_edit, name="ww2-vehicle-edit"),
    path(
        "<int:pk>/force/vehicles/<slug:vehicle>/remove",
        views.vehicle_remove,
        name="ww2-vehicle-remove",
    ),
    path("<int:pk>/force/infantry/add", views.soldier_add, name="ww2-soldier-add"),
    path("<int:pk>/force/infantry/<slug:soldier>/", views.soldier_edit, name="ww2-soldier-edit"),
    path(
        "<int:pk>/force/infantry/<slug:soldier>/remove",
        views.soldier_remove,
        name="ww2-soldier-remove",
    ),
]

datacard_urlpatterns: list = []  # the text gives no datacards to keep
