from django.urls import include, path

from armies.urls import datacard_urlpatterns, shared_urlpatterns
from blitz_site import accounts, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("ping", views.ping, name="ping"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("offline", views.offline, name="offline"),
    path("accounts/", include(accounts.urlpatterns)),
    path("armies/", include("armies.urls")),
    path("matches/", include("matches.urls")),
    *shared_urlpatterns,
    *datacard_urlpatterns,
]
