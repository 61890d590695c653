"""Celery tasks of notifications: thin, they load by id and call a service."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from notifications.services import mail, reminders, webhooks

WEBHOOK_BACKOFF = 5  # seconds before a webhook's first retry; doubled each time
RETRY_BACKOFF = 30  # seconds before the first retry of a mail; doubled each time (at most 10 minutes)


@shared_task(name="notifications.email_send", bind=True, max_retries=6)
def email_send(self: Any, notification_id: int) -> str:
    """Mail one notice (once, however often this runs); a refusing mail server is retried with backoff."""
    try:
        return mail.email_deliver(notification_id=notification_id)
    except Exception as error:
        raise self.retry(exc=error, countdown=min(600, RETRY_BACKOFF * 2**self.request.retries)) from error


@shared_task(name="notifications.verification_send", bind=True, max_retries=6)
def verification_send(self: Any, user_id: int) -> str:
    """Mail the link that verifies the user's address."""
    try:
        return mail.verification_send(user_id=user_id)
    except Exception as error:
        raise self.retry(exc=error, countdown=min(600, RETRY_BACKOFF * 2**self.request.retries)) from error


@shared_task(name="notifications.turn_hour_left")
def turn_hour_left() -> int:
    """Tell the acting factions whose deadline is an hour away or less (S4); answers how many were told."""
    return reminders.turn_hour_left_notify()


@shared_task(name="notifications.webhook_deliver", bind=True, max_retries=webhooks.MAX_ATTEMPTS - 1)
def webhook_deliver(self: Any, delivery_id: int) -> str:
    """Post one webhook delivery; an endpoint that fails is tried again with backoff (5 s, 10 s, 20 s ...)."""
    last = self.request.retries >= self.max_retries
    try:
        return webhooks.webhook_deliver(delivery_id=delivery_id, last_try=last)
    except webhooks.DeliveryFailed as error:
        if last:
            return "failed"
        raise self.retry(exc=error, countdown=min(600, WEBHOOK_BACKOFF * 2**self.request.retries)) from error
