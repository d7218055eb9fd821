"""The roster pages every game shares; each game's own pages are in its URLconf (its builder's
``urls``, ``armies/<game>/urls.py``), included here: their names stay in the ``armies`` namespace,
their datacard pages at the top level."""

from importlib import import_module

from django.urls import include, path

import blitz_site.text  # noqa: F401  (registers the <token:...> converter)
from armies import pack_views, systems, views

GAME_URLS = [import_module(builder.urls) for builder in systems.every() if builder.urls]

app_name = "armies"

urlpatterns = [
    path("", views.roster_list, name="roster-list"),
    path("new", views.roster_create, name="roster-create"),
    path("import", views.roster_import, name="roster-import"),
    path("<int:pk>/", views.roster_edit, name="roster-edit"),
    path("<int:pk>/duplicate", views.roster_duplicate, name="roster-duplicate"),
    path("<int:pk>/delete", views.roster_delete, name="roster-delete"),
    path("<int:pk>/restore", views.roster_restore, name="roster-restore"),
    path("<int:pk>/cards", views.roster_cards, name="roster-cards"),
    path("<int:pk>/text", views.roster_text, name="roster-text"),
    path("<int:pk>/export.md", views.roster_export_markdown, name="roster-export-md"),
    path("<int:pk>/export.json", views.roster_export_json, name="roster-export-json"),
    path("<int:pk>/share/new", views.roster_share_new, name="roster-share-new"),
    path("<int:pk>/share/revoke", views.roster_share_revoke, name="roster-share-revoke"),
    *(path("", include(game.urlpatterns)) for game in GAME_URLS),
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
    path("datacards/<int:pk>/share/new", pack_views.datacard_share_new, name="datacard-share-new"),
    path(
        "datacards/<int:pk>/share/revoke",
        pack_views.datacard_share_revoke,
        name="datacard-share-revoke",
    ),
    path("datacards/<int:pk>/delete", pack_views.datacard_delete, name="datacard-delete"),
    path("datacards/<int:pk>/restore", pack_views.datacard_restore, name="datacard-restore"),
    *(pattern for game in GAME_URLS for pattern in game.datacard_urlpatterns),
    path("d/<token:slug>", pack_views.datacard_shared, name="datacard-shared"),
    path("d/<token:slug>/copy", pack_views.datacard_shared_copy, name="datacard-shared-copy"),
]
