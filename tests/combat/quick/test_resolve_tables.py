"""Q3–Q5: every margin band of every outcome table, at both of its ends."""

from __future__ import annotations

import pytest

from combat.dice import FixedDice
from combat.quick.model import Commander, QuickBattle, QuickResult, QuickSide, QuickUnit, UnitOutcome
from combat.quick.resolve import band_of, resolve_quick_battle

MADE = [1, 1, 1]  # 3: every Morale roll succeeds
FAILED = [6, 6, 6]  # 18: every Morale roll fails, by 8 against Morale 10
TEN = [3, 3, 4]  # each commander rolls 10, so his margin is his skill minus 10

HOLDS, RETREAT, ROUT = UnitOutcome.HOLDS, UnitOutcome.RETREAT, UnitOutcome.ROUT
SURRENDER, BACK = UnitOutcome.SURRENDER, UnitOutcome.THROWN_BACK


def fight(
    winner: str,
    margin: int,
    morale_dice: list[int],
    *,
    open_field: bool = False,
    loser_units: int = 2,
    nowhere: bool = False,
) -> QuickResult:
    """The winner's side has unit ``w``; the loser's has ``l1``, ``l2``…; contest won by ``margin``."""
    win = QuickSide(Commander("Winner", 10 + margin, 10 + margin), (QuickUnit("w", 10, 5),))
    lose = QuickSide(
        Commander("Loser", 10, 10),
        tuple(QuickUnit(f"l{i}", 10, 5) for i in range(1, loser_units + 1)),
        nowhere_to_retreat=nowhere,
    )
    attacker, defender = (win, lose) if winner == "attacker" else (lose, win)
    battle = QuickBattle(attacker, defender, men=1000, open_field=open_field)
    dice = FixedDice(TEN + TEN + morale_dice)
    result = resolve_quick_battle(battle, dice)
    assert dice.used == len(dice.values)
    return result


def outcomes(result: QuickResult) -> dict[str, UnitOutcome]:
    return {unit.id: unit.outcome for unit in result.units}


def morale_modifiers(result: QuickResult) -> list[int]:
    return [roll.modifier for roll in result.rolls[2:]]


@pytest.mark.parametrize(
    ("margin", "label", "name"),
    [
        (0, "0-3", "no clear winner"),
        (3, "0-3", "no clear winner"),
        (4, "4-7", "minor victory"),
        (7, "4-7", "minor victory"),
        (8, "8-12", "major victory"),
        (12, "8-12", "major victory"),
        (13, "13-16", "great victory"),
        (16, "13-16", "great victory"),
        (17, "17+", "overwhelming victory"),
        (30, "17+", "overwhelming victory"),
    ],
)
def test_q3_q5_margin_bands(margin: int, label: str, name: str) -> None:
    assert band_of(margin)[1:] == (label, name)


@pytest.mark.parametrize("margin", [0, 3])
def test_q3_no_clear_winner_every_unit_of_both_sides_rolls(margin: int) -> None:
    # The attacker's unit w rolls first, then l1 and l2; l2 fails by 8 and routs.
    result = fight("attacker", margin, MADE + MADE + FAILED, open_field=True)
    assert (result.table.value, result.band) == ("A", "0-3")
    assert outcomes(result) == {"w": HOLDS, "l1": HOLDS, "l2": ROUT}


@pytest.mark.parametrize(
    ("margin", "label", "modifier"),
    [
        (4, "4-7", 0),  # minor victory
        (7, "4-7", 0),
        (8, "8-12", -2),  # major victory: loser's Morale -2
        (12, "8-12", -2),
        (13, "13-16", -4),  # great victory: loser's Morale -4
        (16, "13-16", -4),
    ],
)
def test_q3_each_losing_unit_retreats_or_routs(margin: int, label: str, modifier: int) -> None:
    result = fight("defender", margin, MADE + FAILED, open_field=True)
    assert (result.table.value, result.band, result.winner) == ("A", label, "defender")
    assert outcomes(result) == {"w": HOLDS, "l1": RETREAT, "l2": ROUT}
    assert morale_modifiers(result) == [modifier, modifier]


@pytest.mark.parametrize("margin", [17, 20])
def test_q3_overwhelming_victory_the_loser_routs_without_rolling(margin: int) -> None:
    result = fight("attacker", margin, [], open_field=True)
    assert (result.band, outcomes(result)) == ("17+", {"w": HOLDS, "l1": ROUT, "l2": ROUT})
    assert len(result.rolls) == 2


@pytest.mark.parametrize("margin", [0, 3])
def test_q4_no_clear_winner_throws_the_attacker_back(margin: int) -> None:
    result = fight("defender", margin, [])
    assert (result.table.value, result.band) == ("B", "0-3")
    assert outcomes(result) == {"w": HOLDS, "l1": BACK, "l2": BACK}
    assert result.next_day_morale == (-2, 0)


@pytest.mark.parametrize(
    ("margin", "label", "modifier"),
    [
        (4, "4-7", 0),  # minor victory
        (7, "4-7", 0),
        (8, "8-12", -2),  # major victory: as minor with Morale -2
        (12, "8-12", -2),
    ],
)
def test_q4_the_attacker_holds_when_half_make_morale(margin: int, label: str, modifier: int) -> None:
    result = fight("defender", margin, MADE + FAILED)
    assert (result.table.value, result.band) == ("B", label)
    assert outcomes(result) == {"w": HOLDS, "l1": HOLDS, "l2": HOLDS}
    assert morale_modifiers(result) == [modifier, modifier]


@pytest.mark.parametrize("margin", [4, 12])
def test_q4_the_attacker_retreats_in_good_order_when_fewer_than_half_make_morale(margin: int) -> None:
    result = fight("defender", margin, MADE + FAILED + FAILED, loser_units=3)
    assert outcomes(result) == {"w": HOLDS, "l1": RETREAT, "l2": RETREAT, "l3": RETREAT}


@pytest.mark.parametrize(
    ("margin", "label", "modifier"),
    [
        (13, "13-16", 0),  # great victory
        (16, "13-16", 0),
        (17, "17+", -2),  # overwhelming victory: as great with Morale -2
        (25, "17+", -2),
    ],
)
def test_q4_each_attacking_unit_retreats_or_routs(margin: int, label: str, modifier: int) -> None:
    result = fight("defender", margin, MADE + FAILED)
    assert (result.table.value, result.band) == ("B", label)
    assert outcomes(result) == {"w": HOLDS, "l1": RETREAT, "l2": ROUT}
    assert morale_modifiers(result) == [modifier, modifier]


@pytest.mark.parametrize(
    ("margin", "label", "next_day"),
    [
        (1, "1-3", (0, 0)),  # no clear winner: no penalty next day
        (3, "1-3", (0, 0)),
        (4, "4-7", (0, -2)),  # minor victory: the defender has Morale -2 next day
        (7, "4-7", (0, -2)),
    ],
)
def test_q5_both_sides_hold(margin: int, label: str, next_day: tuple[int, int]) -> None:
    result = fight("attacker", margin, [])
    assert (result.table.value, result.band, result.next_day_morale) == ("C", label, next_day)
    assert outcomes(result) == {"w": HOLDS, "l1": HOLDS, "l2": HOLDS}


@pytest.mark.parametrize("margin", [8, 12])
def test_q5_major_victory_the_defender_holds_when_half_make_morale(margin: int) -> None:
    result = fight("attacker", margin, MADE + FAILED)
    assert (result.band, outcomes(result)) == ("8-12", {"w": HOLDS, "l1": HOLDS, "l2": HOLDS})
    assert not result.position_taken


@pytest.mark.parametrize("margin", [8, 12])
def test_q5_major_victory_the_defender_retreats_when_fewer_than_half_make_morale(margin: int) -> None:
    result = fight("attacker", margin, MADE + FAILED + FAILED, loser_units=3)
    assert outcomes(result) == {"w": HOLDS, "l1": RETREAT, "l2": RETREAT, "l3": RETREAT}


def test_q5_footnote_after_a_major_victory_each_unit_rolls_again_at_plus_2() -> None:
    # Fewer than half make Morale and there is nowhere to go: second rolls, l1 holds, l2 and l3 surrender.
    result = fight(
        "attacker", 8, MADE + FAILED + FAILED + MADE + FAILED + FAILED, loser_units=3, nowhere=True
    )
    assert outcomes(result) == {"w": HOLDS, "l1": HOLDS, "l2": SURRENDER, "l3": SURRENDER}
    assert morale_modifiers(result) == [0, 0, 0, 2, 2, 2]


@pytest.mark.parametrize(
    ("margin", "label", "modifier", "captured"),
    [
        (13, "13-16", 0, False),  # great victory: the attacker takes the position
        (16, "13-16", 0, False),
        (17, "17+", -2, True),  # overwhelming victory: and captures the enemy commander
        (22, "17+", -2, True),
    ],
)
def test_q5_each_defending_unit_retreats_or_routs(
    margin: int, label: str, modifier: int, captured: bool
) -> None:
    result = fight("attacker", margin, MADE + FAILED)
    assert (result.table.value, result.band) == ("C", label)
    assert outcomes(result) == {"w": HOLDS, "l1": RETREAT, "l2": ROUT}
    assert morale_modifiers(result) == [modifier, modifier]
    assert (result.position_taken, result.commander_captured) == (True, captured)


@pytest.mark.parametrize("margin", [13, 17])
def test_q5_with_nowhere_to_flee_a_failed_unit_surrenders(margin: int) -> None:
    # l1 makes Morale, cannot retreat and makes the second roll at +2: it holds.
    result = fight("attacker", margin, MADE + FAILED + MADE, nowhere=True)
    assert outcomes(result) == {"w": HOLDS, "l1": HOLDS, "l2": SURRENDER}
