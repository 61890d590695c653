from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TacticalConfig(AppConfig):
    name = "tactical"
    verbose_name = _("Tactical battles")

    def ready(self) -> None:
        # The clock queues its timer task by name from Celery's registry (services/clock.py imports no task
        # module): every process registers the tasks at start.
        from tactical import tasks  # noqa: F401
