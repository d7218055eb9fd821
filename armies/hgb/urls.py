"""The Heavy Gear Blitz editor's changes (under /armies/, in the ``armies`` namespace) and its
datacard pages (at the top level); included from ``armies/urls.py``."""

from django.urls import path, register_converter

import blitz_site.text  # noqa: F401  (registers the <token:...> converter)
from armies.hgb import datacards, entry_views, views
from rules.hgb.datapack import FIELDS


class DatacardKind:
    """``<datacard_kind:kind>``: what a pack holds figures of ("models" or "weapons"), so the
    datacard page's path is its own and no other game's page behind it depends on order."""

    regex = "|".join(FIELDS)

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(DatacardKind, "datacard_kind")

urlpatterns = [
    path("<int:pk>/pack", datacards.roster_pack, name="roster-pack"),
    path("<int:pk>/rename", views.roster_rename, name="roster-rename"),
    path("<int:pk>/tv-limit", views.roster_tv_limit, name="roster-tv-limit"),
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
]

datacard_urlpatterns = [
    path("datacards/<int:pk>/my-rosters", entry_views.datacard_rosters, name="datacard-rosters"),
    path(
        "datacards/<int:pk>/card/<token:model_id>",
        entry_views.datacard_card,
        name="datacard-card",
    ),
    path("datacards/<int:pk>/paste", entry_views.datacard_paste, name="datacard-paste"),
    path("datacards/<int:pk>/figures.csv", entry_views.datacard_table, name="datacard-table"),
    path("datacards/<int:pk>/export.toml", datacards.datacard_export, name="datacard-export"),
    path(
        "datacards/<int:pk>/<datacard_kind:kind>/<token:entry_id>",
        datacards.datacard_edit,
        name="datacard-edit",
    ),
]
