from django.urls import include, path

from armies.urls import shared_urlpatterns
from blitz_site import accounts, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include(accounts.urlpatterns)),
    path("armies/", include("armies.urls")),
    path("matches/", include("matches.urls")),
    *shared_urlpatterns,
]
