"""Kill Team's match pages (in the "matches" namespace: ``matches.urls`` includes them)."""

from django.urls import path

import blitz_site.text  # noqa: F401  (registers the <token:...> converter)
from matches.killteam import fight, shoot, summary, views

urlpatterns = [
    path("new/killteam/", views.kt_new, name="kt-new"),
    path("<int:pk>/kt/event", views.kt_event, name="kt-event"),
    path("<int:pk>/kt/poll", views.kt_poll, name="kt-poll"),
    path("watch/<token:slug>/kt/poll", views.kt_watch_poll, name="kt-watch-poll"),
    path("<int:pk>/kt/shoot/", shoot.shoot_helper, name="kt-shoot"),
    path("<int:pk>/kt/shoot/apply", shoot.shoot_apply, name="kt-shoot-apply"),
    path("<int:pk>/kt/summary/", summary.kt_summary, name="kt-summary"),
    path("<int:pk>/kt/log.md", summary.kt_log_markdown, name="kt-log-md"),
    path("watch/<token:slug>/kt/summary/", summary.kt_watch_summary, name="kt-watch-summary"),
    path("<int:pk>/kt/fight/", fight.fight_helper, name="kt-fight"),
    path("<int:pk>/kt/fight/apply", fight.fight_apply, name="kt-fight-apply"),
]
