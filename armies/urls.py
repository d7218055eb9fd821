from django.urls import path

import blitz_site.text  # noqa: F401  (registers the <token:...> converter)
from armies import pack_views, views
from armies.killteam import views as team_views

app_name = "armies"

urlpatterns = [
    path("", views.roster_list, name="roster-list"),
    path("new", views.roster_create, name="roster-create"),
    path("import", views.roster_import, name="roster-import"),
    path("<int:pk>/", views.roster_edit, name="roster-edit"),
    path("<int:pk>/rename", views.roster_rename, name="roster-rename"),
    path("<int:pk>/tv-limit", views.roster_tv_limit, name="roster-tv-limit"),
    path("<int:pk>/duplicate", views.roster_duplicate, name="roster-duplicate"),
    path("<int:pk>/delete", views.roster_delete, name="roster-delete"),
    path("<int:pk>/restore", views.roster_restore, name="roster-restore"),
    path("<int:pk>/groups/add", views.group_add, name="group-add"),
    path("<int:pk>/groups/<int:group>/remove", views.group_remove, name="group-remove"),
    path("<int:pk>/groups/<int:group>/upgrade", views.group_upgrade, name="group-upgrade"),
    path("<int:pk>/groups/<int:group>/models/add", views.model_add, name="model-add"),
    path(
        "<int:pk>/groups/<int:group>/models/<int:model>/remove",
        views.model_remove,
        name="model-remove",
    ),
    path(
        "<int:pk>/groups/<int:group>/models/<int:model>/option",
        views.model_option,
        name="model-option",
    ),
    path(
        "<int:pk>/groups/<int:group>/models/<int:model>/option-all",
        views.model_option_all,
        name="model-option-all",
    ),
    path("<int:pk>/cards", views.roster_cards, name="roster-cards"),
    path("<int:pk>/text", views.roster_text, name="roster-text"),
    path("<int:pk>/export.md", views.roster_export_markdown, name="roster-export-md"),
    path("<int:pk>/export.json", views.roster_export_json, name="roster-export-json"),
    path("<int:pk>/share/new", views.roster_share_new, name="roster-share-new"),
    path("<int:pk>/share/revoke", views.roster_share_revoke, name="roster-share-revoke"),
    path("<int:pk>/pack", pack_views.roster_pack, name="roster-pack"),
    # The Kill Team editor (armies/killteam/views.py)
    path("<int:pk>/team/rename", team_views.team_rename, name="team-rename"),
    path("<int:pk>/team/grenades", team_views.team_grenades, name="team-grenades"),
    path("<int:pk>/team/new-profile", team_views.team_new_profile, name="team-new-profile"),
    path("<int:pk>/team/operatives/add", team_views.operative_add, name="operative-add"),
    path(
        "<int:pk>/team/operatives/<int:operative>/",
        team_views.operative_edit,
        name="operative-edit",
    ),
    path(
        "<int:pk>/team/operatives/<int:operative>/remove",
        team_views.operative_remove,
        name="operative-remove",
    ),
]

# Share links live at the top level: /r/<slug>
shared_urlpatterns = [
    path("r/<token:slug>", views.roster_shared, name="roster-shared"),
    path("r/<token:slug>/qr.svg", views.roster_shared_qr, name="roster-shared-qr"),
    path("r/<token:slug>/copy", views.roster_shared_copy, name="roster-shared-copy"),
]

# My datacards (/datacards/) and their share links (/d/<slug>), at the top level too.
datacard_urlpatterns = [
    path("datacards/", pack_views.datacard_library, name="datacards"),
    path("datacards/new", pack_views.datacard_pack_create, name="datacard-pack-create"),
    path("datacards/import", pack_views.datacard_pack_import, name="datacard-pack-import"),
    path("datacards/<int:pk>/export.toml", pack_views.datacard_export, name="datacard-export"),
    path("datacards/<int:pk>/share/new", pack_views.datacard_share_new, name="datacard-share-new"),
    path(
        "datacards/<int:pk>/share/revoke",
        pack_views.datacard_share_revoke,
        name="datacard-share-revoke",
    ),
    path("datacards/<int:pk>/delete", pack_views.datacard_delete, name="datacard-delete"),
    # Kill Team profiles (before the model and weapon pages, whose pattern they would match)
    path("datacards/<int:pk>/profiles/new", team_views.profile_new, name="datacard-profile-new"),
    path(
        "datacards/<int:pk>/profiles/<token:profile_id>/",
        team_views.profile_edit,
        name="datacard-profile-edit",
    ),
    path(
        "datacards/<int:pk>/profiles/<token:profile_id>/delete",
        team_views.profile_delete,
        name="datacard-profile-delete",
    ),
    path(
        "datacards/<int:pk>/<token:kind>/<token:entry_id>",
        pack_views.datacard_edit,
        name="datacard-edit",
    ),
    path("d/<token:slug>", pack_views.datacard_shared, name="datacard-shared"),
    path("d/<token:slug>/copy", pack_views.datacard_shared_copy, name="datacard-shared-copy"),
]
