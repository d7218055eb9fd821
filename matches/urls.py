from django.urls import include, path

import blitz_site.text  # noqa: F401  (registers the <token:...> converter)
from matches import history, streams, views
from matches.systems import TRACKERS

app_name = "matches"

# The pages every match has, whatever its game; then each game's own (``matches.systems`` names
# them), in this namespace too.
urlpatterns = [
    path("", views.match_list, name="match-list"),
    path("join/<token:slug>/", views.match_join, name="match-join"),
    path("watch/<token:slug>/", views.match_watch, name="match-watch"),
    path("watch/<token:slug>/stream", streams.watch_stream, name="watch-stream"),
    path("watch/<token:slug>/overlay/", views.match_overlay, name="match-overlay"),
    path("<int:pk>/", views.match_board, name="match-board"),
    path("<int:pk>/stream", streams.match_stream, name="stream"),
    path("<int:pk>/join-link/", views.match_join_link, name="match-join-link"),
    path("<int:pk>/join-qr.svg", views.match_join_qr, name="match-join-qr"),
    path("roster/<int:pk>/", history.roster_history, name="roster-history"),
    *(path("", include(tracker.urls_path)) for tracker in TRACKERS.values()),
]
