"""The mecha tracker's pages (in the "matches" namespace: ``matches.urls`` includes them)."""

from django.urls import path

import blitz_site.text  # noqa: F401  (registers the <token:...> converter)
from matches.mecha import attack, summary, views

urlpatterns = [
    path("new/mecha/", views.mecha_new, name="mecha-new"),
    path("<int:pk>/mecha/event", views.mecha_event, name="mecha-event"),
    path("<int:pk>/mecha/poll", views.mecha_poll, name="mecha-poll"),
    path("watch/<token:slug>/mecha/poll", views.mecha_watch_poll, name="mecha-watch-poll"),
    path("<int:pk>/mecha/attack/", attack.mecha_attack, name="mecha-attack"),
    path("<int:pk>/mecha/attack/apply", attack.mecha_attack_apply, name="mecha-attack-apply"),
    path("<int:pk>/mecha/summary/", summary.mecha_summary, name="mecha-summary"),
    path("<int:pk>/mecha/log.md", summary.mecha_log_markdown, name="mecha-log-md"),
    path(
        "watch/<token:slug>/mecha/summary/", summary.mecha_watch_summary, name="mecha-watch-summary"
    ),
]
