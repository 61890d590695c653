from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        # The tasks are registered in every process (the services queue them by name), and the campaign log's
        # entries that concern someone become notices: campaign sits below this app and cannot call it, so it
        # tells its subscribers (campaign.services.log_subscribe) after commit, with the entry's id only.
        from notifications import tasks  # noqa: F401
        from notifications.services import campaign_events, webhooks

        campaign_events.subscribe()
        webhooks.subscribe()
        from campaign.logtext import register_sentences

        register_sentences({"webhook_added": _("A webhook was added for the campaign's events.")})
