from django.urls import path

import blitz_site.text  # noqa: F401  (registers the <token:...> converter)
from matches import history
from matches.hgb import views
from matches.hgb.attack import views as attack_views
from matches.killteam import fight as kt_fight
from matches.killteam import shoot as kt_shoot
from matches.killteam import summary as kt_summary
from matches.killteam import views as kt_views
from matches.systems import heavy_gear_only as hgb

app_name = "matches"

urlpatterns = [
    path("", views.match_list, name="match-list"),
    path("new/", views.match_new, name="match-new"),
    path("join/<token:slug>/", views.match_join, name="match-join"),
    path("watch/<token:slug>/", views.match_watch, name="match-watch"),
    path("watch/<token:slug>/poll", hgb(views.match_watch_poll), name="match-watch-poll"),
    path("watch/<token:slug>/summary/", hgb(views.match_watch_summary), name="match-watch-summary"),
    path("<int:pk>/", views.match_board, name="match-board"),
    path("<int:pk>/event", hgb(views.match_event), name="match-event"),
    path("<int:pk>/poll", hgb(views.match_poll), name="match-poll"),
    path("<int:pk>/end-round/", hgb(views.match_end_round), name="match-end-round"),
    path("<int:pk>/end/", hgb(views.match_end), name="match-end"),
    path("<int:pk>/summary/", hgb(views.match_summary), name="match-summary"),
    path("<int:pk>/log.md", hgb(views.match_log_markdown), name="match-log-md"),
    path("<int:pk>/join-link/", views.match_join_link, name="match-join-link"),
    path("<int:pk>/join-qr.svg", views.match_join_qr, name="match-join-qr"),
    path("roster/<int:pk>/", history.roster_history, name="roster-history"),
    # Kill Team (matches/killteam/)
    path("new/killteam/", kt_views.kt_new, name="kt-new"),
    path("<int:pk>/kt/event", kt_views.kt_event, name="kt-event"),
    path("<int:pk>/kt/poll", kt_views.kt_poll, name="kt-poll"),
    path("watch/<token:slug>/kt/poll", kt_views.kt_watch_poll, name="kt-watch-poll"),
    path("<int:pk>/kt/shoot/", kt_shoot.shoot_helper, name="kt-shoot"),
    path("<int:pk>/kt/shoot/apply", kt_shoot.shoot_apply, name="kt-shoot-apply"),
    path("<int:pk>/kt/summary/", kt_summary.kt_summary, name="kt-summary"),
    path("<int:pk>/kt/log.md", kt_summary.kt_log_markdown, name="kt-log-md"),
    path("watch/<token:slug>/kt/summary/", kt_summary.kt_watch_summary, name="kt-watch-summary"),
    path("<int:pk>/kt/fight/", kt_fight.fight_helper, name="kt-fight"),
    path("<int:pk>/kt/fight/apply", kt_fight.fight_apply, name="kt-fight-apply"),
    # The attack helper (matches/hgb/attack/views.py)
    path("<int:pk>/attack/", hgb(attack_views.attack_helper), name="attack-helper"),
    path("<int:pk>/attack/apply", hgb(attack_views.attack_apply), name="attack-apply"),
    path("<int:pk>/attack/dice", hgb(attack_views.attack_dice), name="attack-dice"),
    path("<int:pk>/attack/figure", hgb(attack_views.attack_figure), name="attack-figure"),
    path(
        "<int:pk>/attack/save-figure",
        hgb(attack_views.attack_save_figure),
        name="attack-save-figure",
    ),
    path("<int:pk>/attack/ecm/", hgb(attack_views.attack_ecm), name="attack-ecm"),
    path("<int:pk>/attack/ecm/apply", hgb(attack_views.attack_ecm_apply), name="attack-ecm-apply"),
    path(
        "<int:pk>/attack/house-rule", hgb(attack_views.attack_house_rule), name="attack-house-rule"
    ),
    path(
        "<int:pk>/attack/designation/",
        hgb(attack_views.attack_designation),
        name="attack-designation",
    ),
    path(
        "<int:pk>/attack/designation/apply",
        hgb(attack_views.attack_designation_apply),
        name="attack-designation-apply",
    ),
]
