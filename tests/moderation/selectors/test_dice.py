"""M2: anyone can check every die of a battle from the revealed seed; a changed log is caught."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from combat.dice import seed_commitment, seeded_roll
from moderation.selectors.dice import dice_report
from strategic.services.quick_battles import quick_battle_resolve
from tactical.models import BattleEvent, LiveBattle
from tests.moderation.builders import end


def _url(battle: LiveBattle) -> str:
    return f"/c/limes/battles/{battle.pk}/dice/"


def _tamper(sql: str, params: list[Any]) -> None:
    """Change a log row behind the application's back (on PostgreSQL with triggers off for this statement)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(sql, params)
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = origin")


def test_the_commitment_is_published_and_the_seed_kept_secret_while_the_battle_lasts(
    fought: LiveBattle,
) -> None:
    report = dice_report(battle=fought.record)
    assert report is not None
    assert (report.commitment, report.seed, report.commitment_ok) == (fought.seed_commitment, None, None)
    logged = BattleEvent.objects.get(battle=fought, version=24).dice
    assert [(r.number, r.logged, r.recomputed) for r in report.rolls] == [(0, logged[0], None)]
    assert "secret until the battle ends" in Client().get(_url(fought)).content.decode()


def test_after_the_end_every_logged_roll_equals_its_recomputation(world: Any, fought: LiveBattle) -> None:
    end(fought, world)
    report = dice_report(battle=fought.record)
    assert report is not None
    assert report.seed == bytes(fought.seed).hex()
    assert [(r.logged, r.recomputed, r.matches) for r in report.rolls] == [
        (seeded_roll(bytes(fought.seed), 0), seeded_roll(bytes(fought.seed), 0), True)
    ]
    assert (report.commitment_ok, report.verified, report.problems) == (True, True, [])


def test_the_roll_says_who_asked_when_and_why(world: Any, fought: LiveBattle) -> None:
    roll = dice_report(battle=fought.record).rolls[0]  # type: ignore[union-attr]
    row = BattleEvent.objects.get(battle=fought, version=24)
    assert (roll.asked_by, roll.at) == ("moderator", row.created_at)  # M2: the moderator asked for it
    assert roll.why.startswith("T7.6: ")
    assert "destroyed each other" in roll.why
    assert roll.why.endswith("v24: The moderator rolled the T7.6 die: Both units fell.")


def test_the_page_shows_the_match(world: Any, fought: LiveBattle) -> None:
    end(fought, world)
    page = Client().get(_url(fought)).content.decode()
    assert bytes(fought.seed).hex() in page
    assert "every roll verified" in page
    assert 'class="match"' in page


# The changed die can change the board the log replays to: the dice page, not the replay check, must catch it.
@pytest.mark.log_tampered
def test_a_changed_die_in_the_log_is_a_mismatch(world: Any, fought: LiveBattle) -> None:
    end(fought, world)
    true_value = seeded_roll(bytes(fought.seed), 0)
    _tamper(
        "UPDATE tactical_battleevent SET dice = %s WHERE battle_id = %s AND version = 24",
        [f"[{true_value % 6 + 1}]", fought.pk],
    )
    report = dice_report(battle=fought.record)
    assert [(r.logged, r.recomputed, r.matches) for r in report.rolls] == [  # type: ignore[union-attr]
        (true_value % 6 + 1, true_value, False)
    ]
    assert report.verified is False  # type: ignore[union-attr]
    assert "MISMATCH" in Client().get(_url(fought)).content.decode()


def test_a_revealed_seed_that_does_not_match_the_commitment_is_flagged(
    world: Any, fought: LiveBattle
) -> None:
    end(fought, world)
    last = BattleEvent.objects.filter(battle=fought).order_by("-version").first()
    assert last is not None
    forged = [e if e["type"] != "seed_revealed" else {**e, "seed": "00" * 32} for e in last.events]
    _tamper("UPDATE tactical_battleevent SET events = %s WHERE id = %s", [json.dumps(forged), last.pk])
    report = dice_report(battle=fought.record)
    assert (report.seed, report.commitment_ok, report.verified) == ("00" * 32, False, False)  # type: ignore[union-attr]
    assert "does not match the published commitment" in Client().get(_url(fought)).content.decode()


def test_a_quick_battle_s_rolls_are_recomputed_from_its_seed(world: Any, record: Any) -> None:
    seed = bytes(range(32))
    quick = quick_battle_resolve(actor=world.moderator, battle=record, skill="strategy", seed=seed)
    report = dice_report(battle=record)
    assert report is not None and report.kind == "quick"
    logged = [die for roll in quick.result["rolls"] for die in roll["dice"]]
    assert [r.logged for r in report.rolls] == logged
    assert [r.recomputed for r in report.rolls] == [seeded_roll(seed, n) for n in range(len(logged))]
    assert (report.commitment, report.commitment_ok, report.verified) == (seed_commitment(seed), True, True)


def test_a_battle_with_no_dice_has_no_page(world: Any, record: Any) -> None:
    assert Client().get(f"/c/limes/battles/{record.pk}/dice/").status_code == 404


def test_the_dice_api_gives_the_same_check(world: Any, fought: LiveBattle) -> None:
    end(fought, world)
    body = Client().get(f"/api/moderation/campaigns/limes/battles/{fought.pk}/dice/").json()
    assert (body["kind"], body["commitment_ok"], body["verified"]) == ("tactical", True, True)
    assert [r["matches"] for r in body["rolls"]] == [True]
