"""The WWII skirmish match pages (in the "matches" namespace: ``matches.urls`` includes them)."""

from django.urls import path

import blitz_site.text  # noqa: F401  (registers the <token:...> converter)
from matches.ww2 import helper, summary, views

urlpatterns = [
    path("new/ww2/", views.ww2_new, name="ww2-new"),
    path("<int:pk>/ww2/event", views.ww2_event, name="ww2-event"),
    path("<int:pk>/ww2/poll", views.ww2_poll, name="ww2-poll"),
    path("watch/<token:slug>/ww2/poll", views.ww2_watch_poll, name="ww2-watch-poll"),
    path("<int:pk>/ww2/do/<slug:what>/<slug:unit>/", helper.ww2_helper, name="ww2-do"),
    path("<int:pk>/ww2/summary/", summary.ww2_summary, name="ww2-summary"),
    path("<int:pk>/ww2/log.md", summary.ww2_log_markdown, name="ww2-log-md"),
    path("watch/<token:slug>/ww2/summary/", summary.ww2_watch_summary, name="ww2-watch-summary"),
]
