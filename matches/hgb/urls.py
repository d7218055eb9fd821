"""Heavy Gear Blitz's match pages (in the "matches" namespace: ``matches.urls`` includes them)."""

from django.urls import path

import blitz_site.text  # noqa: F401  (registers the <token:...> converter)
from matches.hgb import views
from matches.hgb.attack import views as attack_views

urlpatterns = [
    path("new/", views.match_new, name="match-new"),
    path("watch/<token:slug>/poll", views.match_watch_poll, name="match-watch-poll"),
    path("watch/<token:slug>/summary/", views.match_watch_summary, name="match-watch-summary"),
    path("<int:pk>/event", views.match_event, name="match-event"),
    path("<int:pk>/poll", views.match_poll, name="match-poll"),
    path("<int:pk>/end-round/", views.match_end_round, name="match-end-round"),
    path("<int:pk>/end/", views.match_end, name="match-end"),
    path("<int:pk>/summary/", views.match_summary, name="match-summary"),
    path("<int:pk>/log.md", views.match_log_markdown, name="match-log-md"),
    # The attack helper
    path("<int:pk>/attack/", attack_views.attack_helper, name="attack-helper"),
    path("<int:pk>/attack/apply", attack_views.attack_apply, name="attack-apply"),
    path("<int:pk>/attack/dice", attack_views.attack_dice, name="attack-dice"),
    path("<int:pk>/attack/figure", attack_views.attack_figure, name="attack-figure"),
    path("<int:pk>/attack/save-figure", attack_views.attack_save_figure, name="attack-save-figure"),
    path("<int:pk>/attack/observe/", attack_views.attack_observe, name="attack-observe"),
    path("<int:pk>/attack/ecm/", attack_views.attack_ecm, name="attack-ecm"),
    path("<int:pk>/attack/ecm/apply", attack_views.attack_ecm_apply, name="attack-ecm-apply"),
    path("<int:pk>/attack/house-rule", attack_views.attack_house_rule, name="attack-house-rule"),
    path(
        "<int:pk>/attack/designation/",
        attack_views.attack_designation,
        name="attack-designation",
    ),
    path(
        "<int:pk>/attack/designation/apply",
        attack_views.attack_designation_apply,
        name="attack-designation-apply",
    ),
]
