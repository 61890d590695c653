from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CampaignConfig(AppConfig):
    name = "campaign"
    verbose_name = _("Campaigns")

    def ready(self) -> None:
        # Before any URL module is read: every route's row ids use the ``id`` converter.
        from campaign.converters import register

        register()
        # Every process registers the app's Celery tasks at start, as the other apps do (the clocks queue theirs
        # by name from the registry).
        from campaign import tasks  # noqa: F401
