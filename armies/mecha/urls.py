"""The mecha force editor (under /armies/, in the ``armies`` namespace): unit and weapon cards,
their removal (asked first), and the page of what the rules text gives."""

from django.urls import path

import blitz_site.text  # noqa: F401  (registers the <token:...> converter)
from armies.mecha import views

UNIT = "<int:pk>/force/units/<token:unit>/"

datacard_urlpatterns: list = []  # no datacard library: cards are typed in the force

urlpatterns = [
    path("mecha/rules", views.rules_page, name="mecha-rules"),
    path("<int:pk>/force/units/new", views.unit_edit, name="mecha-unit-new"),
    path(UNIT, views.unit_edit, name="mecha-unit-edit"),
    path(f"{UNIT}remove", views.unit_remove, name="mecha-unit-remove"),
    path(f"{UNIT}weapons/new", views.weapon_edit, name="mecha-weapon-new"),
    path(f"{UNIT}weapons/<token:weapon>/", views.weapon_edit, name="mecha-weapon-edit"),
    path(f"{UNIT}weapons/<token:weapon>/remove", views.weapon_remove, name="mecha-weapon-remove"),
]
