"""Outbound webhooks: the campaign's events posted to the forum's or chat's channel.

The moderator adds an address and picks its events; each entry of the campaign log of an event it picked
becomes a delivery (one per webhook and event: the unique key), posted by a Celery task with a short timeout
and retried with backoff, each try recorded with its status code. The game never waits for an endpoint: the
deliveries are written after the game's commit and posted by the worker.

Addresses on private, loopback or link-local networks are refused (the server must not be made to post into
its own network) unless ``WEBHOOKS_ALLOW_PRIVATE`` is set (the tests' local receiver).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import logging
import secrets
import socket
import urllib.error
import urllib.request
from functools import partial
from typing import Any
from urllib.parse import urlsplit

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.urls import NoReverseMatch, reverse
from django.utils import timezone, translation
from django.utils.functional import Promise

from campaign.errors import Invalid, NotFound
from campaign.logtext import entry_names, sentence
from campaign.models import Campaign, LogEntry
from campaign.services import log_subscribe, require_moderator
from notifications import messages as m
from notifications.models import Webhook, WebhookDelivery
from notifications.services.mail import site_url

log = logging.getLogger(__name__)

TIMEOUT = 5  # seconds an endpoint has to answer (in the worker)
MAX_ATTEMPTS = 6
SIGNATURE_HEADER = "X-Limes-Signature"

# The events a webhook may pick, each with its name and the campaign log's kinds that make it.
EVENTS: dict[str, tuple[Promise, tuple[str, ...]]] = {
    "turn_changed": (m.EVENT_TURN_CHANGED, ("economic_phase_ended", "faction_turn_passed", "faction_turn_expired")),
    "battle_scheduled": (m.EVENT_BATTLE_SCHEDULED, ("battle_scheduled",)),
    "battle_started": (m.EVENT_BATTLE_STARTED, ("battle_started",)),
    "battle_ended": (m.EVENT_BATTLE_ENDED, ("battle_resolved",)),
    "retreat_done": (m.EVENT_RETREAT_DONE, ("retreat_applied",)),
    "quick_battle_resolved": (m.EVENT_QUICK_BATTLE, ("quick_battle_resolved",)),
}
EVENT_OF_KIND = {kind: event for event, (_label, kinds) in EVENTS.items() for kind in kinds}


def subscribe() -> None:
    """Hear the campaign log's entries of every event a webhook may pick (from the app's ready())."""
    log_subscribe(kinds=EVENT_OF_KIND, listener=entry_post)


def _check_url(url: str) -> str:
    url = (url or "").strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Invalid(m.WEBHOOK_BAD_URL, field="url")
    if getattr(settings, "WEBHOOKS_ALLOW_PRIVATE", False):
        return url
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(parts.hostname, parts.port or 443)}
    except (socket.gaierror, UnicodeError) as error:
        raise Invalid(m.WEBHOOK_UNRESOLVED, field="url") from error
    for address in addresses:
        ip = ipaddress.ip_address(address.split("%")[0])
        if not ip.is_global:
            raise Invalid(m.WEBHOOK_PRIVATE_URL, field="url")
    return url


@transaction.atomic
def webhook_create(*, actor: Any, campaign: Campaign, url: str, format: str, events: list[str],
                   language: str = "en") -> Webhook:
    """Add a webhook to the campaign (moderator); its secret is in the answer, to be shown once."""
    require_moderator(actor, campaign)
    url = _check_url(url)
    if format not in Webhook.Format.values:
        raise Invalid(m.WEBHOOK_BAD_FORMAT, field="format")
    if not events:
        raise Invalid(m.WEBHOOK_NO_EVENTS, field="events")
    for event in events:
        if event not in EVENTS:
            raise Invalid(m.WEBHOOK_BAD_EVENT, field="events", params={"value": event})
    if language not in dict(settings.LANGUAGES):
        language = settings.LANGUAGE_CODE
    webhook = Webhook.objects.create(campaign=campaign, url=url, format=format, events=sorted(set(events)),
                                     language=language, secret=secrets.token_hex(32))
    from campaign.services import log_append

    log_append(campaign=campaign, kind="webhook_added", actor=actor, rule="M1",
               data={"webhook": webhook.pk, "events": webhook.events, "format": format})
    return webhook


def _webhook_of(campaign: Campaign, webhook_id: int) -> Webhook:
    webhook = Webhook.objects.filter(campaign=campaign, pk=webhook_id).first()
    if webhook is None:
        raise NotFound(m.WEBHOOK_UNKNOWN, field="webhook")
    return webhook


@transaction.atomic
def webhook_delete(*, actor: Any, campaign: Campaign, webhook_id: int) -> None:
    """Remove a webhook and its deliveries (moderator)."""
    require_moderator(actor, campaign)
    _webhook_of(campaign, webhook_id).delete()


@transaction.atomic
def webhook_resend(*, actor: Any, campaign: Campaign, delivery_id: int) -> WebhookDelivery:
    """Post a failed delivery again (moderator): its tries start anew."""
    require_moderator(actor, campaign)
    delivery = WebhookDelivery.objects.select_for_update().filter(pk=delivery_id, webhook__campaign=campaign).first()
    if delivery is None:
        raise NotFound(m.WEBHOOK_UNKNOWN, field="delivery")
    if delivery.status != WebhookDelivery.Status.DELIVERED:
        delivery.status = WebhookDelivery.Status.PENDING
        delivery.attempts = 0
        delivery.save(update_fields=["status", "attempts"])
        transaction.on_commit(partial(_queue, delivery.pk), robust=True)
    return delivery


def _links(campaign: Campaign, entry: LogEntry) -> dict[str, str]:
    battle = (entry.data or {}).get("battle")
    links = {"campaign": site_url(reverse("campaign", args=[campaign.slug]))}
    if isinstance(battle, int):
        names = {"schedule": "battle-schedule", "report": "battle-report", "replay": "battle-replay"}
        if entry.kind == "battle_resolved":
            names["picture"] = "battle-board-png"  # the board as it ended
        for name, url_name in names.items():
            try:
                links[name] = site_url(reverse(url_name, args=[campaign.slug, battle]))
            except NoReverseMatch:
                continue
    return links


def webhook_body(*, webhook: Webhook, entry: LogEntry, event: str) -> dict[str, Any]:
    """What is posted for one event: the generic JSON or a Discord message, in the webhook's language."""
    campaign = entry.campaign
    with translation.override(webhook.language):
        text = sentence(entry, entry_names(campaign, [entry]))
        links = _links(campaign, entry)
        if webhook.format == Webhook.Format.DISCORD:
            lines = [f"**{campaign.name}** · {text}"] + [f"<{url}>" for key, url in links.items() if key != "campaign"]
            return {"content": "\n".join(lines)[:2000], "username": "Limes", "allowed_mentions": {"parse": []}}
        return {
            "event": event, "campaign": {"slug": campaign.slug, "name": campaign.name}, "turn": entry.turn,
            "text": text, "data": entry.data, "winner": (entry.data or {}).get("winner"), "links": links,
            "at": entry.created_at.isoformat(), "entry": entry.pk,
        }


def entry_post(entry_id: int) -> None:
    """The deliveries of one campaign log entry to every webhook that picked its event (after commit)."""
    try:
        entry = LogEntry.objects.select_related("campaign").filter(pk=entry_id).first()
        event = EVENT_OF_KIND.get(entry.kind) if entry is not None else None
        if entry is None or event is None:
            return
        for webhook in Webhook.objects.filter(campaign_id=entry.campaign_id):
            if event not in webhook.events:
                continue
            delivery, made = WebhookDelivery.objects.get_or_create(
                webhook=webhook, key=f"log:{entry.pk}",
                defaults={"event": event, "body": webhook_body(webhook=webhook, entry=entry, event=event)},
            )
            if made:
                _queue(delivery.pk)
    except Exception:
        log.exception("could not write the webhook deliveries of log entry %s", entry_id)


def _queue(delivery_id: int) -> None:
    try:
        current_app.tasks["notifications.webhook_deliver"].apply_async((delivery_id,))
    except Exception:  # the broker is down: the moderator sees the delivery pending and can resend it
        log.exception("could not queue webhook delivery %s", delivery_id)


def signature(secret: str, body: bytes) -> str:
    """The signature header's value: ``sha256=`` and the HMAC-SHA256 of the body under the secret."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


class DeliveryFailed(Exception):
    """The endpoint did not take the delivery (the task retries)."""


def webhook_deliver(*, delivery_id: int, last_try: bool = False) -> str:
    """Post one delivery unless it was delivered: ``delivered``, ``duplicate`` or ``skipped``; raises
    ``DeliveryFailed`` when the endpoint failed (after recording the try)."""
    with transaction.atomic():
        # The row stays locked while posting: a second run of the task waits, then sees it delivered.
        delivery = (WebhookDelivery.objects.select_for_update(of=("self",)).select_related("webhook")
                    .filter(pk=delivery_id).first())
        if delivery is None:
            return "skipped"
        if delivery.status == WebhookDelivery.Status.DELIVERED:
            return "duplicate"
        webhook = delivery.webhook
        body = json.dumps(delivery.body, ensure_ascii=False, separators=(",", ":")).encode()
        headers = {"Content-Type": "application/json", "User-Agent": "Limes-Webhook/1",
                   "X-Limes-Event": delivery.event, "X-Limes-Delivery": delivery.key}
        if webhook.format == Webhook.Format.JSON:
            headers[SIGNATURE_HEADER] = signature(webhook.secret, body)
        request = urllib.request.Request(webhook.url, data=body, headers=headers, method="POST")
        delivery.attempts += 1
        code: int | None = None
        error = ""
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:  # noqa: S310 (checked scheme)
                code = answer.status
        except urllib.error.HTTPError as failure:
            code, error = failure.code, f"HTTP {failure.code}"
        except (urllib.error.URLError, OSError, ValueError) as failure:
            error = str(getattr(failure, "reason", failure))[:300]
        delivery.status_code = code
        delivery.error = error
        ok = code is not None and 200 <= code < 300
        if ok:
            delivery.status = WebhookDelivery.Status.DELIVERED
            delivery.delivered_at = timezone.now()
        elif last_try or delivery.attempts >= MAX_ATTEMPTS:
            delivery.status = WebhookDelivery.Status.FAILED
        delivery.save(update_fields=["status", "status_code", "error", "attempts", "delivered_at"])
    if not ok:
        raise DeliveryFailed(error or f"HTTP {code}")
    return "delivered"
