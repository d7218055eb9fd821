from django.apps import AppConfig


class BlitzSiteConfig(AppConfig):
    name = "blitz_site"
    verbose_name = "Blitz"

    def ready(self) -> None:
        from blitz_site import middleware  # noqa: F401  (connects the login signal)
