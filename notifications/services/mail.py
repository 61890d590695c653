"""The mails: queued after commit, sent by a Celery task that records each delivery once.

A mail is sent only to a verified address, in its reader's language and time zone, with a one-click link that
switches that kind of mail off. The task may run twice (a retry after a timeout that did deliver, a worker
killed after sending): the delivery's unique key, inserted in the same transaction as the sending, lets only
one run send. A mail server that is down makes the task retry with backoff; the game never waits for it.
"""

from __future__ import annotations

import logging
import zoneinfo

from celery import current_app
from django.conf import settings
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from notifications.kinds import KINDS
from notifications.models import EmailDelivery, Notification, Profile
from notifications.selectors.inbox import notice_text

log = logging.getLogger(__name__)


def site_url(path: str) -> str:
    """The absolute address of a path of the site (links in mails)."""
    return settings.SITE_URL.rstrip("/") + path


def _queue(name: str, *args: object) -> None:
    # By name: the task module imports these services.
    try:
        current_app.tasks[name].apply_async(args)
    except Exception:  # the broker is down: the notice stays in the inbox, only the mail is lost
        log.exception("could not queue %s%s", name, args)


def mailed_to(notice: Notification) -> str | None:
    """The verified address a notice is mailed to, or None (no address, not verified, switched off)."""
    user = notice.user
    profile = Profile.objects.filter(user=user).first()
    kind = KINDS.get(notice.kind)
    if profile is None or kind is None or not user.email or profile.email_verified != user.email:
        return None
    if kind.preference in profile.email_off:
        return None
    return user.email


def email_queue(*, notification_id: int) -> None:
    """Queue the mail of a notice (after commit)."""
    _queue("notifications.email_send", notification_id)


def _reader(profile: Profile | None) -> tuple[str, zoneinfo.ZoneInfo]:
    language = (profile.language if profile else "") or settings.LANGUAGE_CODE
    zone = zoneinfo.ZoneInfo((profile.timezone if profile else "") or "UTC")
    return language, zone


def email_deliver(*, notification_id: int) -> str:
    """Send the mail of one notice once: ``sent``, ``duplicate`` (sent before) or ``skipped``.

    Raises when the mail server refuses, having recorded nothing, so that the task's retry sends it.
    """
    from notifications.services.accounts import unsubscribe_token

    notice = Notification.objects.select_related("user", "campaign").filter(pk=notification_id).first()
    if notice is None:
        return "skipped"
    to = mailed_to(notice)
    if to is None:
        return "skipped"
    profile = Profile.objects.filter(user=notice.user).first()
    language, zone = _reader(profile)
    kind = KINDS[notice.kind]
    token = unsubscribe_token(user_id=notice.user_id, preference=kind.preference)
    unsubscribe = site_url(reverse("unsubscribe", args=[token]))
    with translation.override(language), timezone.override(zone):
        context = {
            "text": notice_text(kind=notice.kind, params=notice.params, campaign=notice.campaign),
            "link": site_url(notice.link) if notice.link else "",
            "label": str(kind.label),
            "unsubscribe": unsubscribe,
            "preferences": site_url(reverse("notification-preferences")),
        }
        subject = f"{str(kind.label)} · {notice.campaign.name if notice.campaign else 'Limes'}"
        body = render_to_string("notifications/email.txt", context)
    message = EmailMessage(
        subject=subject, body=body, to=[to],
        headers={"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                 "Content-Language": language},
    )
    try:
        with transaction.atomic():
            EmailDelivery.objects.create(key=notice.key, notification=notice, to=to)
            message.send()
    except IntegrityError:
        return "duplicate"
    return "sent"


def verification_send(*, user_id: int) -> str:
    """Mail the link that verifies the user's present address, in his language."""
    from django.contrib.auth import get_user_model

    from notifications.services.accounts import verify_token

    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None or not user.email:
        return "skipped"
    language, zone = _reader(Profile.objects.filter(user=user).first())
    with translation.override(language):
        link = site_url(reverse("email-verify", args=[verify_token(user=user)]))
        body = render_to_string("notifications/verify_email.txt", {"link": link, "name": user.username})
        subject = str(translation.gettext("Confirm your e-mail address · Limes"))
    EmailMessage(subject=subject, body=body, to=[user.email], headers={"Content-Language": language}).send()
    return "sent"


def verification_queue(*, user_id: int) -> None:
    """Queue the verification mail (after commit)."""
    transaction.on_commit(lambda: _queue("notifications.verification_send", user_id), robust=True)
