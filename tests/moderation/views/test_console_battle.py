"""M1, T10.4, T11, T7.6: the battle console — interception record, rulings, ending the battle, dice on demand."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from campaign.models import LogEntry
from moderation.models import InterceptionRuling
from moderation.selectors.interceptions import interception_record
from tactical.models import BattleEvent, LiveBattle
from tests.factories import client_for
from tests.tactical.builders import units_of


def _client(world: Any, role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(getattr(world, role))
    return client


def _api(world: Any, role: str) -> Any:
    return client_for(None if role == "anonymous" else getattr(world, role))


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("anonymous", 403),
        ("observer", 403),
        ("east_general", 403),  # a player
        ("west_leader", 403),
        ("other_moderator", 403),
        ("moderator", 200),
    ],
)
def test_who_opens_the_battle_console(world: Any, live: LiveBattle, role: str, status: int) -> None:
    assert _client(world, role).get(f"/c/limes/battles/{live.pk}/console/").status_code == status


@pytest.mark.parametrize("role", ["anonymous", "observer", "east_general", "west_leader", "other_moderator"])
def test_nobody_but_the_moderator_ends_the_battle(world: Any, live: LiveBattle, role: str) -> None:
    response = _api(world, role).post(
        f"/api/moderation/campaigns/limes/battles/{live.pk}/end/",
        {"winner": "attacker", "reason": "Rain"},
        format="json",
    )
    assert response.status_code == 403
    live.refresh_from_db()
    assert live.status == "live"


def test_the_record_says_when_the_turn_ended_and_when_the_interception_came(intercepted: LiveBattle) -> None:
    [entry] = interception_record(battle=intercepted)
    ended = BattleEvent.objects.get(battle=intercepted, version=21)
    declared = BattleEvent.objects.get(battle=intercepted, version=22)
    assert (entry.version, entry.unit, entry.target, entry.volley) == (
        22,
        units_of(intercepted, "defender")[1],
        units_of(intercepted, "attacker")[0],
        False,
    )
    assert (entry.turn_ended_at, entry.ended_side, entry.declared_at, entry.declared_by) == (
        ended.created_at,
        "attacker",
        declared.created_at,
        "west_leader",
    )


def test_every_participant_reads_the_record(world: Any, intercepted: LiveBattle) -> None:
    body = client_for().get(f"/api/moderation/campaigns/limes/battles/{intercepted.pk}/interceptions/").json()
    assert [(i["version"], i["ruling"]) for i in body] == [(22, None)]


def _rule(world: Any, battle: LiveBattle, **overrides: Any) -> Any:
    data = {
        "version": 22,
        "unit": units_of(battle, "defender")[1],
        "verdict": "confirmed",
        "reason": "Declared 2 s after the turn ended",
        **overrides,
    }
    return _client(world, "moderator").post(f"/c/limes/battles/{battle.pk}/console/rule/", data)


def test_a_ruling_is_recorded_and_logged_with_its_reason(world: Any, intercepted: LiveBattle) -> None:
    assert _rule(world, intercepted).status_code == 302
    ruling = InterceptionRuling.objects.get()
    entry = LogEntry.objects.get(kind="interception_ruled")
    interceptor = units_of(intercepted, "defender")[1]
    assert (ruling.verdict, ruling.unit, ruling.log_entry) == ("confirmed", interceptor, entry)
    assert (entry.reason, entry.rule, entry.data["verdict"], entry.data["unit"]) == (
        "Declared 2 s after the turn ended",
        "T10.4",
        "confirmed",
        int(interceptor[1:]),
    )


@pytest.mark.parametrize(
    ("overrides", "status", "message"),
    [
        (
            {"version": 21},
            404,
            "No such interception was declared in this battle (T10.4).",
        ),  # nothing declared there
        ({"unit": "u0"}, 404, "No such interception was declared in this battle (T10.4)."),
        ({"reason": ""}, 400, "Give a reason: it is written into the log every participant reads (M1)."),
        ({"verdict": "maybe"}, 400, "Rule &#x27;confirmed&#x27; or &#x27;overruled&#x27;."),
    ],
)
def test_a_bad_ruling_is_refused_and_changes_nothing(
    world: Any, intercepted: LiveBattle, overrides: dict[str, Any], status: int, message: str
) -> None:
    response = _rule(world, intercepted, **overrides)
    assert response.status_code == status
    assert message in response.content.decode()
    assert not InterceptionRuling.objects.exists()
    assert not LogEntry.objects.filter(kind="interception_ruled").exists()


def test_an_interception_is_ruled_on_once(world: Any, intercepted: LiveBattle) -> None:
    _rule(world, intercepted)
    assert _rule(world, intercepted, verdict="overruled").status_code == 409
    assert InterceptionRuling.objects.get().verdict == "confirmed"


def test_ending_the_battle_logs_the_reason_and_reveals_the_seed(world: Any, live: LiveBattle) -> None:
    response = _client(world, "moderator").post(
        f"/c/limes/battles/{live.pk}/console/end/",
        {"winner": "defender", "reason": "The attacker left the forum"},
    )
    assert response.status_code == 302
    live.refresh_from_db()
    entry = LogEntry.objects.get(kind="battle_ended_by_moderator")
    assert (live.status, live.record.winner) == ("ended", "defender")
    assert (entry.reason, entry.data) == (
        "The attacker left the forum",
        {"battle": live.pk, "version": live.version, "winner": "defender"},
    )
    last = BattleEvent.objects.get(battle=live, version=live.version)
    assert [e["type"] for e in last.events][:2] == ["battle_ended", "seed_revealed"]


def test_ending_the_battle_without_a_reason_is_refused(world: Any, live: LiveBattle) -> None:
    response = _client(world, "moderator").post(
        f"/c/limes/battles/{live.pk}/console/end/", {"winner": "defender", "reason": ""}
    )
    assert response.status_code == 400
    live.refresh_from_db()
    assert (live.status, LogEntry.objects.filter(kind="battle_ended_by_moderator").exists()) == (
        "live",
        False,
    )


def test_an_ended_battle_cannot_be_ended_again(world: Any, live: LiveBattle) -> None:
    client = _client(world, "moderator")
    client.post(f"/c/limes/battles/{live.pk}/console/end/", {"winner": "defender", "reason": "Gone"})
    response = client.post(
        f"/c/limes/battles/{live.pk}/console/end/", {"winner": "attacker", "reason": "Back"}
    )
    assert response.status_code == 409
    assert LogEntry.objects.filter(kind="battle_ended_by_moderator").count() == 1


def test_a_die_nobody_needs_is_refused(world: Any, fought: LiveBattle) -> None:
    response = _api(world, "moderator").post(
        f"/api/moderation/campaigns/limes/battles/{fought.pk}/dice/roll/", {"reason": "Again"}, format="json"
    )
    fought.refresh_from_db()
    assert (response.status_code, response.json()["rule"]) == (409, "T7.6")
    assert (fought.rolls_used, fought.version) == (1, 24)


def test_the_console_lists_the_t7_6_rolls(world: Any, fought: LiveBattle) -> None:
    page = _client(world, "moderator").get(f"/c/limes/battles/{fought.pk}/console/").content.decode()
    die = BattleEvent.objects.get(battle=fought, version=24).dice[0]
    assert f"#0: <strong>{die}</strong> — T7.6:" in page
