from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TacticalConfig(AppConfig):
    name = "tactical"
    verbose_name = _("Tactical battles")
