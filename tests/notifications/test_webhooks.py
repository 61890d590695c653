"""Outbound webhooks against a local HTTP receiver: the body, the signature, retries after failures, never a
delivery twice, the moderator's page, and the refusal of private addresses."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.test import Client

from campaign import services as campaign_services
from campaign.errors import Forbidden, Invalid
from notifications.messages import WEBHOOK_PRIVATE_URL
from notifications.models import Webhook, WebhookDelivery
from notifications.services import webhooks
from notifications.tasks import webhook_deliver

pytestmark = pytest.mark.usefixtures("eager")


class Receiver:
    """A local HTTP endpoint: answers ``codes`` in turn (then 204) and keeps every post."""

    def __init__(self) -> None:
        self.posts: list[tuple[dict[str, str], bytes]] = []
        self.codes: list[int] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.posts.append((dict(self.headers), body))
                code = receiver.codes.pop(0) if receiver.codes else 204
                self.send_response(code)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)


@pytest.fixture
def receiver(settings: Any) -> Iterator[Receiver]:
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    settings.SITE_URL = "https://limes.example"
    made = Receiver()
    made.thread.start()
    try:
        yield made
    finally:
        made.server.shutdown()
        made.server.server_close()


@pytest.fixture
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("notifications.tasks.WEBHOOK_BACKOFF", 0)


def _hook(world: Any, url: str, fmt: str = "json", events: list[str] | None = None) -> Webhook:
    return webhooks.webhook_create(actor=world.moderator, campaign=world.campaign, url=url, format=fmt,
                                   events=events or ["turn_changed"])


def _turn(world: Any, capture: Any) -> None:
    with capture(execute=True):
        campaign_services.economic_phase_end(actor=world.moderator, campaign=world.campaign)


def test_the_turn_change_is_posted_signed(world: Any, receiver: Receiver, django_capture_on_commit_callbacks: Any) -> None:
    hook = _hook(world, receiver.url)
    _turn(world, django_capture_on_commit_callbacks)
    [(headers, body)] = receiver.posts
    expected = "sha256=" + hmac.new(hook.secret.encode(), body, hashlib.sha256).hexdigest()
    data = json.loads(body)
    assert (headers["X-Limes-Signature"], headers["X-Limes-Event"], headers["Content-Type"]) == (
        expected, "turn_changed", "application/json"
    )
    assert (data["event"], data["campaign"], data["turn"], data["links"]["campaign"]) == (
        "turn_changed", {"slug": "limes", "name": "Limes"}, 1, "https://limes.example/c/limes/"
    )
    assert data["text"].startswith("The economic phase of turn 1 ended")
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.status_code, delivery.attempts) == ("delivered", 204, 1)


def test_a_discord_webhook_gets_a_message(world: Any, receiver: Receiver,
                                          django_capture_on_commit_callbacks: Any) -> None:
    _hook(world, receiver.url, fmt="discord")
    _turn(world, django_capture_on_commit_callbacks)
    [(headers, body)] = receiver.posts
    data = json.loads(body)
    assert ("X-Limes-Signature" in headers, data["username"], data["allowed_mentions"]) == (False, "Limes",
                                                                                           {"parse": []})
    assert data["content"].startswith("**Limes** · The economic phase of turn 1 ended")


def test_after_two_failures_the_third_try_delivers(world: Any, receiver: Receiver, no_backoff: None,
                                                   django_capture_on_commit_callbacks: Any) -> None:
    _hook(world, receiver.url)
    receiver.codes = [500, 503]
    _turn(world, django_capture_on_commit_callbacks)
    assert len(receiver.posts) == 3
    assert receiver.posts[0][1] == receiver.posts[2][1]  # the same body each try
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.status_code, delivery.attempts) == ("delivered", 204, 3)


def test_a_delivered_event_is_never_posted_twice(world: Any, receiver: Receiver,
                                                 django_capture_on_commit_callbacks: Any) -> None:
    _hook(world, receiver.url)
    _turn(world, django_capture_on_commit_callbacks)
    delivery = WebhookDelivery.objects.get()
    assert webhook_deliver.apply(args=[delivery.pk]).get() == "duplicate"
    webhooks.entry_post(int(delivery.key.split(":")[1]))  # the same log entry told again
    assert (len(receiver.posts), WebhookDelivery.objects.count()) == (1, 1)


def test_a_dead_endpoint_fails_the_delivery_not_the_game_and_the_moderator_resends(
    world: Any, receiver: Receiver, no_backoff: None, django_capture_on_commit_callbacks: Any
) -> None:
    _hook(world, receiver.url)
    receiver.codes = [500] * webhooks.MAX_ATTEMPTS
    _turn(world, django_capture_on_commit_callbacks)
    world.campaign.refresh_from_db()
    delivery = WebhookDelivery.objects.get()
    assert (world.campaign.phase, delivery.status, delivery.status_code, delivery.attempts) == (
        "strategic", "failed", 500, webhooks.MAX_ATTEMPTS
    )
    client = Client()
    client.force_login(world.moderator)
    page = client.get("/c/limes/console/webhooks/").content.decode()
    assert 'class="delivery-failed"' in page and "Send again" in page
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post("/c/limes/console/webhooks/", {"do": "resend", "delivery": delivery.pk})
    assert answer.status_code == 302
    delivery.refresh_from_db()
    assert (delivery.status, delivery.status_code) == ("delivered", 204)


def test_the_page_shows_the_secret_once(world: Any, receiver: Receiver) -> None:
    client = Client()
    client.force_login(world.moderator)
    added = client.post("/c/limes/console/webhooks/", {"do": "add", "url": receiver.url, "format": "json",
                                                       "language": "en", "events": ["battle_ended", "turn_changed"]})
    hook = Webhook.objects.get()
    assert (added.status_code, hook.events, hook.secret in added.content.decode()) == (
        200, ["battle_ended", "turn_changed"], True
    )
    assert hook.secret not in client.get("/c/limes/console/webhooks/").content.decode()


def test_only_a_moderator_adds_a_webhook(world: Any, receiver: Receiver) -> None:
    with pytest.raises(Forbidden):
        webhooks.webhook_create(actor=world.east_leader, campaign=world.campaign, url=receiver.url, format="json",
                                events=["turn_changed"])
    client = Client()
    client.force_login(world.east_leader)
    assert client.get("/c/limes/console/webhooks/").status_code == 403


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:8000/hook",  # loopback
    "http://10.0.0.5/hook",  # a private network
    "http://169.254.169.254/latest/meta-data/",  # link-local: a cloud's metadata service
    "http://[::1]/hook",  # loopback, IPv6
])
def test_private_addresses_are_refused(world: Any, url: str) -> None:
    with pytest.raises(Invalid) as refused:
        webhooks.webhook_create(actor=world.moderator, campaign=world.campaign, url=url, format="json",
                                events=["turn_changed"])
    assert (str(refused.value.message), refused.value.errors) == (
        str(WEBHOOK_PRIVATE_URL), {"url": [str(WEBHOOK_PRIVATE_URL)]}
    )


def test_t11_a_battle_ended_posts_the_winner_the_report_and_the_board_picture(
    world: Any, receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    from strategic.models import Battle
    from strategic.services import moves
    from strategic.services.battles import battle_result_apply

    _hook(world, receiver.url, events=["battle_ended"])
    _turn(world, django_capture_on_commit_callbacks)
    moves.army_move(actor=world.east_general, army=world.east_army, destination=world.dalmatia)
    battle = Battle.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        battle_result_apply(battle=battle, winner=Battle.Side.ATTACKER, unit_changes=[], reason="T11")
    [(headers, body)] = receiver.posts
    data = json.loads(body)
    base = f"https://limes.example/c/limes/battles/{battle.pk}"
    assert (headers["X-Limes-Event"], data["winner"], data["links"]["report"], data["links"]["picture"]) == (
        "battle_ended", "attacker", f"{base}/report.txt", f"{base}/board.png"
    )


def test_the_board_picture_link_answers_the_last_board(db: Any) -> None:
    from tests.browser.builders import example_battle

    ex = example_battle()
    answer = Client().get(f"/c/{ex.campaign.slug}/battles/{ex.battle.pk}/board.png")
    assert (answer.status_code, answer["Content-Type"], answer.content[:8]) == (200, "image/png", b"\x89PNG\r\n\x1a\n")
    assert answer["Content-Disposition"] == f'inline; filename="battle-{ex.battle.pk}-v{ex.battle.version}.png"'
