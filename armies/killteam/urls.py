"""The Kill Team editor (under /armies/, in the ``armies`` namespace) and its profile pages in
My datacards (at the top level); included from ``armies/urls.py``."""

from django.urls import path

import blitz_site.text  # noqa: F401  (registers the <token:...> converter)
from armies.killteam import pack_views, ploys, views

urlpatterns = [
    path("<int:pk>/team/rename", views.team_rename, name="team-rename"),
    path("<int:pk>/team/grenades", views.team_grenades, name="team-grenades"),
    path("<int:pk>/team/ploys/add", ploys.ploy_add, name="team-ploy-add"),
    path("<int:pk>/team/ploys/remove", ploys.ploy_remove, name="team-ploy-remove"),
    path("<int:pk>/team/kit", views.team_kit, name="team-kit"),
    path(
        "<int:pk>/team/update-profiles",
        views.team_update_profiles,
        name="team-update-profiles",
    ),
    path("<int:pk>/team/new-profile", views.team_new_profile, name="team-new-profile"),
    path("<int:pk>/team/operatives/add", views.operative_add, name="operative-add"),
    path("<int:pk>/team/operatives/<int:operative>/", views.operative_edit, name="operative-edit"),
    path(
        "<int:pk>/team/operatives/<int:operative>/remove",
        views.operative_remove,
        name="operative-remove",
    ),
]

datacard_urlpatterns = [
    path(
        "datacards/<int:pk>/profiles/export.json",
        pack_views.profiles_export,
        name="datacard-profiles-export",
    ),
    path(
        "r/<token:slug>/profiles/copy",
        pack_views.team_profiles_copy,
        name="roster-shared-profiles-copy",
    ),
    path("datacards/<int:pk>/profiles/new", views.profile_new, name="datacard-profile-new"),
    path(
        "datacards/<int:pk>/profiles/<token:profile_id>/",
        views.profile_edit,
        name="datacard-profile-edit",
    ),
    path(
        "datacards/<int:pk>/profiles/<token:profile_id>/delete",
        views.profile_delete,
        name="datacard-profile-delete",
    ),
]
