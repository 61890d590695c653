"""URL routes of the inbox and of the campaign's webhooks (the moderator's console)."""

from django.urls import URLPattern, path

from notifications.views import inbox, webhooks

urlpatterns: list[URLPattern] = [
    path("notifications/", inbox.inbox_page, name="notifications"),
    path("notifications/<id:notification_id>/read/", inbox.notice_open, name="notification-read"),
    path("notifications/read/", inbox.notices_read_all, name="notifications-read-all"),
    path("c/<slug:slug>/console/webhooks/", webhooks.webhooks_page, name="webhooks"),
]
