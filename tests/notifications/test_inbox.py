"""The inbox: who gets which notice (S4, S7, R1, M1, M3), its sentence in the reader's zone, read marks, the bell."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from campaign import services as campaign_services
from campaign.errors import Forbidden
from campaign.instants import moment
from campaign.models import Campaign, Membership
from notifications.consumers import NotificationConsumer
from notifications.messages import NOT_YOURS
from notifications.models import Notification, Profile
from notifications.services import inbox
from notifications.services.reminders import turn_hour_left_notify
from strategic.services import moves
from tests.factories import InvitationFactory, UserFactory


def _text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", response.content.decode()))


def _kinds(user: Any) -> list[tuple[str, str]]:
    return [(n.kind, n.link) for n in Notification.objects.filter(user=user).order_by("id")]


@pytest.fixture
def east_turn(world: Any, django_capture_on_commit_callbacks: Any) -> Any:
    with django_capture_on_commit_callbacks(execute=True):
        campaign_services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    return world


def test_s4_the_first_faction_hears_its_turn_began(east_turn: Any) -> None:
    w = east_turn
    assert (_kinds(w.east_leader), _kinds(w.east_general), _kinds(w.west_leader)) == (
        [("turn_began", "/c/limes/turn/")], [("turn_began", "/c/limes/turn/")], []
    )


def test_s4_a_pass_tells_the_next_faction_its_deadline_in_the_readers_zone(
    east_turn: Any, django_capture_on_commit_callbacks: Any
) -> None:
    w = east_turn
    Profile.objects.create(user=w.west_leader, timezone="Europe/Moscow")
    with django_capture_on_commit_callbacks(execute=True):
        campaign_services.faction_turn_pass(actor=w.east_leader, faction=w.east)
    deadline = Campaign.objects.get(pk=w.campaign.pk).faction_deadline
    client = Client()
    client.force_login(w.west_leader)
    page = _text(client.get("/notifications/"))
    local = timezone.localtime(deadline, timezone=__import__("zoneinfo").ZoneInfo("Europe/Moscow"))
    assert (f"Your faction Western Rome may act in Limes, turn 1: the deadline is "
            f"{local:%Y-%m-%d %H:%M} UTC+03:00.") in page
    assert '<span class="bell-count">1</span>' in client.get("/").content.decode()


def test_s7_a_battle_tells_the_commanders_of_both_sides_with_their_army(
    east_turn: Any, django_capture_on_commit_callbacks: Any
) -> None:
    w = east_turn
    with django_capture_on_commit_callbacks(execute=True):
        moves.army_move(actor=w.east_general, army=w.east_army, destination=w.dalmatia)
    client = Client()
    texts = {}
    for user in (w.east_general, w.west_leader, w.east_leader):
        client.force_login(user)
        texts[user.username] = [t for t in re.findall(r'notice-text">([^<]*)<', client.get("/notifications/")
                                .content.decode()) if "battle" in t]
    assert texts == {
        "east_general": ["A battle began in Dalmatia (Limes): your army Danube army fights in it."],
        "west_leader": ["A battle began in Dalmatia (Limes): your army Field army fights in it."],
        "east_leader": ["A battle began in Dalmatia (Limes): your army Danube army fights in it."],
    }


def test_the_same_event_told_twice_is_one_notice(world: Any) -> None:
    event = {"kind": "invited", "user_ids": [world.outsider.pk], "key": "test:1",
             "params": {"campaign": "Limes", "role": "observer"}}
    first = inbox.notify(**event)
    again = inbox.notify(**event)
    assert (len(first), again, Notification.objects.filter(user=world.outsider).count()) == (1, [], 1)


def test_m1_an_accepted_invitation_and_a_role_given_are_told(
    world: Any, django_capture_on_commit_callbacks: Any
) -> None:
    newcomer = UserFactory(username="newcomer")
    invite = InvitationFactory(campaign=world.campaign, role=Membership.Role.OBSERVER)
    with django_capture_on_commit_callbacks(execute=True):
        campaign_services.invitation_accept(user=newcomer, token=invite.token)
    with django_capture_on_commit_callbacks(execute=True):
        campaign_services.membership_set(actor=world.moderator, campaign=world.campaign, user=newcomer,
                                         role=Membership.Role.MODERATOR)
    client = Client()
    client.force_login(newcomer)
    page = _text(client.get("/notifications/"))
    assert "You joined Limes as Observer." in page and "You were given the role Moderator in Limes." in page


def test_s4_one_hour_left_is_told_once(east_turn: Any) -> None:
    w = east_turn
    Campaign.objects.filter(pk=w.campaign.pk).update(faction_deadline=timezone.now() + timedelta(minutes=50))
    assert (turn_hour_left_notify(), turn_hour_left_notify()) == (2, 0)
    assert [k for k, _link in _kinds(w.east_general)] == ["turn_began", "turn_hour_left"]


def test_marking_one_and_all_read(east_turn: Any) -> None:
    w = east_turn
    inbox.notify(kind="invited", user_ids=[w.east_general.pk], key="test:2",
                 params={"campaign": "Limes", "role": "observer"})
    client = Client()
    client.force_login(w.east_general)
    first = Notification.objects.filter(user=w.east_general).order_by("id").first()
    assert client.post(f"/notifications/{first.pk}/read/", {"go": "1"})["Location"] == "/c/limes/turn/"
    assert Notification.objects.filter(user=w.east_general, read_at__isnull=True).count() == 1
    client.post("/notifications/read/")
    assert Notification.objects.filter(user=w.east_general, read_at__isnull=True).count() == 0
    assert '<span class="bell-count" hidden>0</span>' in client.get("/").content.decode()


def test_a_notice_of_someone_else_cannot_be_marked(east_turn: Any) -> None:
    notice = Notification.objects.filter(user=east_turn.east_general).first()
    with pytest.raises(Forbidden) as refused:
        inbox.notification_read(user=east_turn.west_leader, notification_id=notice.pk)
    assert str(refused.value.message) == str(NOT_YOURS)
    client = Client()
    client.force_login(east_turn.west_leader)
    assert client.post(f"/notifications/{notice.pk}/read/").status_code == 403


def test_moment_writes_the_offset_of_the_active_zone() -> None:
    import zoneinfo
    from datetime import UTC, datetime

    when = datetime(2030, 1, 2, 15, 30, tzinfo=UTC)
    with timezone.override(zoneinfo.ZoneInfo("America/New_York")):
        new_york = moment(when)
    with timezone.override(zoneinfo.ZoneInfo("Europe/Moscow")):
        moscow = moment(when)
    assert (new_york, moscow, moment(when)) == (
        "2030-01-02 10:30 UTC-05:00", "2030-01-02 18:30 UTC+03:00", "2030-01-02 15:30 UTC"
    )


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
async def test_the_bell_socket_hears_the_count_rise() -> None:
    user = await sync_to_async(UserFactory)(username="listener")
    communicator = WebsocketCommunicator(NotificationConsumer.as_asgi(), "/ws/notifications/")
    communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    assert await communicator.receive_json_from(timeout=5) == {"type": "unread", "count": 0}
    await sync_to_async(inbox.notify)(kind="invited", user_ids=[user.pk], key="test:3",
                                      params={"campaign": "Limes", "role": "observer"})
    assert await communicator.receive_json_from(timeout=5) == {"type": "unread", "count": 1}
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_guest_socket_is_refused() -> None:
    from django.contrib.auth.models import AnonymousUser

    communicator = WebsocketCommunicator(NotificationConsumer.as_asgi(), "/ws/notifications/")
    communicator.scope["user"] = AnonymousUser()
    connected, code = await communicator.connect()
    assert (connected, code) == (False, 4403)


def test_m3_an_answered_dispute_is_told_to_its_author(east_turn: Any, django_capture_on_commit_callbacks: Any) -> None:
    from campaign.models import LogEntry
    from moderation.services.disputes import dispute_answer, dispute_open

    w = east_turn
    entry = LogEntry.objects.filter(campaign=w.campaign).last()
    dispute = dispute_open(actor=w.west_leader, campaign=w.campaign, ref=f"L{entry.pk}", text="Why?")
    with django_capture_on_commit_callbacks(execute=True):
        dispute_answer(actor=w.moderator, dispute=dispute, answer="The order stands (S4).")
    notice = Notification.objects.get(user=w.west_leader, kind="dispute_answered")
    client = Client()
    client.force_login(w.west_leader)
    assert "The moderator of Limes answered your dispute: The order stands (S4)." in _text(
        client.get("/notifications/"))
    assert notice.link.startswith("/c/limes/log/")


def test_r1_the_beaten_army_is_told_to_choose_its_retreat_before_the_deadline(
    east_turn: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from strategic.models import Battle
    from strategic.services.battles import battle_result_apply

    w = east_turn
    with django_capture_on_commit_callbacks(execute=True):
        moves.army_move(actor=w.east_general, army=w.east_army, destination=w.dalmatia)
    battle = Battle.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        battle_result_apply(battle=battle, winner=Battle.Side.ATTACKER, unit_changes=[], reason="T11")
    notice = Notification.objects.get(user=w.west_leader, kind="retreat_waits")
    assert (notice.link, notice.params["army"]) == (f"/c/limes/retreat/{w.west_army.pk}/", "Field army")
    assert not Notification.objects.filter(user=w.east_general, kind="retreat_waits").exists()


def test_the_commanders_are_told_the_board_opened_for_deployment(db: Any, django_capture_on_commit_callbacks: Any) -> None:
    from tests.browser.builders import example_battle

    with django_capture_on_commit_callbacks(execute=True):
        ex = example_battle(deploy=False)
    told = sorted(Notification.objects.filter(kind="deployment_open").values_list("user__username", "link"))
    assert told == [("east", f"/battles/{ex.battle.pk}/"), ("west", f"/battles/{ex.battle.pk}/")]
