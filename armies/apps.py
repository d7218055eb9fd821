from django.apps import AppConfig


class ArmiesConfig(AppConfig):
    name = "armies"
    verbose_name = "Rosters"

    def ready(self) -> None:
        from armies import owners  # noqa: F401  (connects the login signal)
