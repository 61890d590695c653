from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StrategicConfig(AppConfig):
    name = "strategic"
    verbose_name = _("Strategic map")

    def ready(self) -> None:
        # Registered once the models are loaded, not when the views happen to be imported: the log reads
        # strategic entries from any page, command or task. Registration only fills dictionaries, and no
        # other app registers the same kinds, so it is safe whenever it runs. The clocks queue their tasks by
        # name from Celery's registry, so every process registers them at start, not when a worker imports them.
        from strategic import logtext, tasks  # noqa: F401  (tasks: registers the Celery tasks, see below)

        logtext.register()
