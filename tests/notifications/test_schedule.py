"""Battle scheduling (S7) across time zones: proposals, both sides accepting, the notices and mails, the .ics,
rescheduling and the commander who does not come."""

from __future__ import annotations

import html
import re
import zoneinfo
from datetime import UTC, datetime
from typing import Any

import icalendar
import pytest
from django.test import Client
from django.utils import timezone

from campaign import services as campaign_services
from campaign.errors import Forbidden, Invalid
from campaign.models import LogEntry
from notifications.models import Notification, Profile
from notifications.selectors.inbox import notice_text
from strategic.messages import SCHEDULE_FORBIDDEN, SCHEDULE_PAST, SCHEDULE_SIDE
from strategic.models import Battle
from strategic.services import moves
from strategic.services import schedule as services

AT = datetime(2030, 1, 2, 15, 30, tzinfo=UTC)
LATER = datetime(2030, 1, 3, 17, 0, tzinfo=UTC)


def _text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", response.content.decode()))


@pytest.fixture
def battle(world: Any, django_capture_on_commit_callbacks: Any) -> Battle:
    with django_capture_on_commit_callbacks(execute=True):
        campaign_services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
        moves.army_move(actor=world.east_general, army=world.east_army, destination=world.dalmatia)
    Profile.objects.create(user=world.east_general, timezone="Europe/Moscow")
    Profile.objects.create(user=world.west_leader, timezone="America/New_York")
    return Battle.objects.get()


def _schedule(world: Any, battle: Battle, capture: Any, at: datetime = AT) -> Battle:
    with capture(execute=True):
        [time] = services.battle_times_propose(actor=world.moderator, battle=battle, times=[at])
        services.battle_time_accept(actor=world.east_general, battle=battle, time_id=time.pk)
        services.battle_time_accept(actor=world.west_leader, battle=battle, time_id=time.pk)
    return Battle.objects.get(pk=battle.pk)


def test_s7_when_both_sides_accept_one_time_the_battle_is_scheduled_and_everyone_told(
    world: Any, battle: Battle, django_capture_on_commit_callbacks: Any
) -> None:
    scheduled = _schedule(world, battle, django_capture_on_commit_callbacks)
    assert scheduled.scheduled_at == AT
    told = sorted(Notification.objects.filter(kind="battle_scheduled").values_list("user__username", flat=True))
    assert told == ["east_general", "east_leader", "moderator", "west_leader"]
    assert LogEntry.objects.filter(kind="battle_scheduled").values_list("data__at", flat=True)[0] == AT.isoformat()


def test_s7_one_side_alone_does_not_schedule(world: Any, battle: Battle) -> None:
    [time] = services.battle_times_propose(actor=world.east_general, battle=battle, times=[AT])
    services.battle_time_accept(actor=world.east_general, battle=battle, time_id=time.pk)
    assert Battle.objects.get(pk=battle.pk).scheduled_at is None


def test_s7_moscow_and_new_york_see_the_same_instant_on_the_page(
    world: Any, battle: Battle, django_capture_on_commit_callbacks: Any
) -> None:
    _schedule(world, battle, django_capture_on_commit_callbacks)
    url = f"/c/limes/battles/{battle.pk}/schedule/"
    seen = {}
    for user in (world.east_general, world.west_leader):
        client = Client()
        client.force_login(user)
        seen[user.username] = re.search(r'class="scheduled">Scheduled for <time[^>]*>([^<]*)<',
                                        client.get(url).content.decode()).group(1)
    assert seen == {"east_general": "2030-01-02 18:30 UTC+03:00", "west_leader": "2030-01-02 10:30 UTC-05:00"}


def test_s7_moscow_and_new_york_get_the_same_instant_in_their_ics(
    world: Any, battle: Battle, django_capture_on_commit_callbacks: Any
) -> None:
    _schedule(world, battle, django_capture_on_commit_callbacks)
    starts = {}
    for user in (world.east_general, world.west_leader):
        client = Client()
        client.force_login(user)
        answer = client.get(f"/c/limes/battles/{battle.pk}/schedule.ics")
        assert answer["Content-Type"] == "text/calendar; charset=utf-8"
        event = icalendar.Calendar.from_ical(answer.content).walk("VEVENT")[0]
        starts[user.username] = event.decoded("dtstart")
    assert {n: (s.isoformat(), str(s.tzinfo)) for n, s in starts.items()} == {
        "east_general": ("2030-01-02T18:30:00+03:00", "Europe/Moscow"),
        "west_leader": ("2030-01-02T10:30:00-05:00", "America/New_York"),
    }
    assert starts["east_general"] == starts["west_leader"] == AT


@pytest.mark.usefixtures("eager")
def test_s7_moscow_and_new_york_are_mailed_the_same_instant(
    world: Any, battle: Battle, smtp: Any, django_capture_on_commit_callbacks: Any
) -> None:
    for user in (world.east_general, world.west_leader):
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
        Profile.objects.filter(user=user).update(email_verified=user.email)
    _schedule(world, battle, django_capture_on_commit_callbacks)
    # Run eagerly, the 15 minutes' reminder is mailed at once too: the first mail is the scheduled one.
    bodies: dict[str, list[str]] = {}
    for to, message in smtp.messages:
        bodies.setdefault(to[0], []).append(message.get_content().splitlines()[0])
    assert bodies == {
        "east_general@example.org": [
            "The battle in Dalmatia (Limes) is scheduled for 2030-01-02 18:30 UTC+03:00.",
            "The battle in Dalmatia (Limes) starts in 15 minutes, at 2030-01-02 18:30 UTC+03:00.",
        ],
        "west_leader@example.org": [
            "The battle in Dalmatia (Limes) is scheduled for 2030-01-02 10:30 UTC-05:00.",
            "The battle in Dalmatia (Limes) starts in 15 minutes, at 2030-01-02 10:30 UTC-05:00.",
        ],
    }
    assert f"https://limes.example/c/limes/battles/{battle.pk}/schedule/" in smtp.messages[0][1].get_content()


def test_s7_the_propose_form_reads_the_time_in_the_readers_zone(world: Any, battle: Battle) -> None:
    client = Client()
    client.force_login(world.east_general)  # Moscow
    answer = client.post(f"/c/limes/battles/{battle.pk}/schedule/act/", {"do": "propose", "time1": "2030-01-02T18:30"})
    assert answer.status_code == 302
    assert battle.times.get().at == AT


def test_s7_refusals_name_the_rule_and_field(world: Any, battle: Battle) -> None:
    with pytest.raises(Forbidden) as stranger:
        services.battle_times_propose(actor=world.outsider, battle=battle, times=[AT])
    with pytest.raises(Invalid) as past:
        services.battle_times_propose(actor=world.moderator, battle=battle, times=[datetime(2020, 1, 1, tzinfo=UTC)])
    [time] = services.battle_times_propose(actor=world.moderator, battle=battle, times=[AT])
    with pytest.raises(Forbidden) as wrong_side:
        services.battle_time_accept(actor=world.east_general, battle=battle, time_id=time.pk, side="defender")
    assert [str(e.value.message) for e in (stranger, past, wrong_side)] == [
        str(SCHEDULE_FORBIDDEN), str(SCHEDULE_PAST), str(SCHEDULE_SIDE)
    ]
    client = Client()
    client.force_login(world.outsider)
    answer = client.post(f"/c/limes/battles/{battle.pk}/schedule/act/", {"do": "propose", "time1": "2030-01-02T18:30"})
    assert (answer.status_code, str(SCHEDULE_FORBIDDEN) in _text(answer)) == (403, True)
    bad = Client()
    bad.force_login(world.moderator)
    answer = bad.post(f"/c/limes/battles/{battle.pk}/schedule/act/", {"do": "propose", "time1": "tomorrow"})
    assert (answer.status_code, "Give a date and time (YYYY-MM-DD HH:MM)." in _text(answer)) == (400, True)


def test_s7_a_rescheduled_battle_is_told_as_moved_and_both_steps_are_logged(
    world: Any, battle: Battle, django_capture_on_commit_callbacks: Any
) -> None:
    _schedule(world, battle, django_capture_on_commit_callbacks)
    services.battle_schedule_clear(actor=world.moderator, battle=battle, reason="Aetius is travelling")
    assert Battle.objects.get(pk=battle.pk).scheduled_at is None
    _schedule(world, battle, django_capture_on_commit_callbacks, at=LATER)
    moved = Notification.objects.get(user=world.west_leader, kind="battle_moved")
    assert moved.params["at"] == LATER.isoformat()
    assert list(LogEntry.objects.filter(kind__startswith="battle_sched").values_list("kind", "reason")) == [
        ("battle_scheduled", ""), ("battle_schedule_cleared", "Aetius is travelling"), ("battle_scheduled", ""),
    ]


def test_s7_the_reminder_goes_out_for_the_current_time_only(
    world: Any, battle: Battle, django_capture_on_commit_callbacks: Any
) -> None:
    _schedule(world, battle, django_capture_on_commit_callbacks)
    assert services.battle_reminder_send(battle_id=battle.pk, at=LATER.isoformat()) is False
    assert services.battle_reminder_send(battle_id=battle.pk, at=AT.isoformat()) is True
    assert services.battle_reminder_send(battle_id=battle.pk, at=AT.isoformat()) is True
    notice = Notification.objects.get(user=world.east_general, kind="battle_soon")
    with timezone.override(zoneinfo.ZoneInfo("Europe/Moscow")):
        text = notice_text(kind=notice.kind, params=notice.params, campaign=notice.campaign)
    assert text == "The battle in Dalmatia (Limes) starts in 15 minutes, at 2030-01-02 18:30 UTC+03:00."
    assert Notification.objects.filter(kind="battle_soon").count() == 4  # once, though sent twice


def test_s7_a_commander_who_does_not_come_is_logged_when_the_moderator_starts_anyway(
    world: Any, battle: Battle, django_capture_on_commit_callbacks: Any
) -> None:
    _schedule(world, battle, django_capture_on_commit_callbacks)
    client = Client()
    client.force_login(world.moderator)
    answer = client.post(f"/c/limes/battles/{battle.pk}/schedule/act/",
                         {"do": "no_show", "side": "defender", "reason": "Aetius did not come"})
    assert answer["Location"] == f"/c/limes/battles/{battle.pk}/console/"
    entry = LogEntry.objects.get(kind="battle_started_anyway")
    assert (entry.data["side"], entry.reason) == ("defender", "Aetius did not come")
