from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StrategicConfig(AppConfig):
    name = "strategic"
    verbose_name = _("Strategic map")
