"""The end of a battle (T11) handed to the strategic stage (S10), and the log that replays it (M2, M3)."""

from __future__ import annotations

from typing import Any

from combat.dice import seeded_roll
from strategic.models import Army, Battle, Unit
from tactical.models import BattleEvent, LiveBattle
from tests.tactical.builders import act, march_into_contact


def test_a_concession_resolves_the_record_for_the_other_side(world: Any, record: Battle, live: LiveBattle) -> None:
    act(live, world.east_general, {"do": "concede", "side": "attacker"})
    record.refresh_from_db()
    live.refresh_from_db()
    assert (record.status, record.winner, live.status, live.deadline) == ("resolved", "defender", "ended", None)


def test_the_losing_attacker_must_retreat(world: Any, live: LiveBattle) -> None:
    act(live, world.east_general, {"do": "concede", "side": "attacker"})
    assert Army.objects.get(pk=world.east_army.pk).must_retreat is True


def test_the_end_event_reveals_the_seed_and_reports_the_result(world: Any, live: LiveBattle) -> None:
    result = act(live, world.moderator, {"do": "end_battle", "winner": "attacker"})
    live.refresh_from_db()
    types = [e["type"] for e in result.events]
    assert types == ["battle_ended", "seed_revealed", "result_applied"]
    assert result.events[1]["seed"] == bytes(live.seed).hex()


def test_melee_damage_reaches_the_strategic_units(world: Any, live: LiveBattle) -> None:
    march_into_contact(live, world)
    act(live, world.east_general, {"do": "end_turn"})  # West's second unit could intercept: the window opens
    act(live, world.west_leader, {"do": "end_interceptions"})  # melee: 3 against 3, each keeps 2 of 5
    act(live, world.moderator, {"do": "end_battle", "winner": "defender"})
    east, west = world.east_army.units.order_by("id")[0], world.west_army.units.order_by("id")[0]
    assert (Unit.objects.get(pk=east.pk).health_halves, Unit.objects.get(pk=west.pk).health_halves) == (4, 4)


def test_every_die_in_the_log_derives_from_the_sealed_seed(world: Any, live: LiveBattle) -> None:
    march_into_contact(live, world)
    act(live, world.east_general, {"do": "end_turn"})
    live.refresh_from_db()
    rolls = [(row.rolls_before + i, value) for row in BattleEvent.objects.filter(battle=live)
             for i, value in enumerate(row.dice)]
    assert all(seeded_roll(bytes(live.seed), number) == value for number, value in rolls)
    assert live.rolls_used == len(rolls)
