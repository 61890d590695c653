"""Q1 and Q7 details of the quick battle's Python API: skill, Luck, dice, health after a rout."""

from __future__ import annotations

import json

import pytest

from combat.dice import FixedDice, SeededDice
from combat.errors import IllegalAction, InvalidAction
from combat.quick.model import Commander, QuickBattle, QuickSide, QuickUnit, Skill
from combat.quick.resolve import resolve_quick_battle, rout_health


def battle(
    men: int = 1000, *, attacker_luck: bool = False, defender_luck: bool = False, **kw: object
) -> QuickBattle:
    attacker = QuickSide(Commander("Camillus", 12, 9, attacker_luck), (QuickUnit("a1", 10, 5),))
    defender = QuickSide(Commander("Egnatius", 11, 13, defender_luck), (QuickUnit("d1", 10, 5),))
    return QuickBattle(attacker, defender, men=men, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("health", "loss", "left"),
    [
        (5, 0.5, 2.5),  # half of 5
        (4.5, 0.5, 2),  # 2.25 rounds up to 2.5
        (3, 0.5, 1.5),
        (1, 0.5, 0.5),
        (0.5, 0.5, 0),  # 0.25 rounds up to 0.5: nothing is left
        (5, 0.25, 3.5),  # 1.25 rounds up to 1.5
        (5, 1, 0),
    ],
)
def test_q7_rout_health_loss_rounds_up_to_a_half_line(health: float, loss: float, left: float) -> None:
    assert rout_health(health, loss) == left


@pytest.mark.parametrize(
    ("men", "skill", "targets"), [(199, Skill.TACTICS, (9, 13)), (200, Skill.STRATEGY, (12, 11))]
)
def test_q1_tactics_below_200_men(men: int, skill: Skill, targets: tuple[int, int]) -> None:
    result = resolve_quick_battle(battle(men), FixedDice([3, 3, 3] * 2 + [1, 1, 1] * 2))
    assert result.skill is skill
    assert (result.rolls[0].target, result.rolls[1].target) == targets


def test_q1_luck_is_not_used_when_ahead() -> None:
    # Egnatius (Luck) rolls 5 against 11 and leads Camillus's 9 against 12: no reroll.
    result = resolve_quick_battle(battle(defender_luck=True), FixedDice([3, 3, 3, 1, 2, 2]))
    assert [r.purpose for r in result.rolls] == ["contest (strategy)", "contest (strategy)"]
    assert (result.attacker_margin, result.defender_margin, result.table.value) == (3, 6, "B")


def test_q1_both_lucky_the_defender_answers_the_attackers_final_roll() -> None:
    # Camillus 15 (-3) behind Egnatius 9 (+2): rerolls 4 (+8); Egnatius, now behind, rerolls 18 and keeps +2.
    dice = FixedDice([5, 5, 5, 3, 3, 3, 1, 1, 2, 6, 6, 6, 1, 1, 1])
    result = resolve_quick_battle(battle(attacker_luck=True, defender_luck=True), dice)
    assert [(r.roller, r.margin, r.kept) for r in result.rolls[:4]] == [
        ("Camillus", -3, False),
        ("Egnatius", 2, True),
        ("Camillus", 8, True),
        ("Egnatius", -7, False),
    ]
    assert (result.margin, result.band) == (6, "4-7")


def test_q1_seeded_dice_give_the_same_battle_again() -> None:
    first = resolve_quick_battle(battle(), SeededDice(b"campaign-7 battle-3"))
    again = resolve_quick_battle(battle(), SeededDice(b"campaign-7 battle-3"))
    assert first == again


def test_q7_the_result_is_json_for_the_campaign_log() -> None:
    result = resolve_quick_battle(battle(), FixedDice([3, 3, 3] * 2))
    data = json.loads(json.dumps(result.to_dict()))
    assert data["rolls"][0] == {
        "side": "attacker",
        "roller": "Camillus",
        "purpose": "contest (strategy)",
        "target": 12,
        "modifier": 0,
        "dice": [3, 3, 3],
        "total": 9,
        "margin": 3,
        "success": True,
        "kept": True,
    }


def test_q6_a_storm_needs_a_siege() -> None:
    with pytest.raises(InvalidAction) as error:
        resolve_quick_battle(battle(storm=True), FixedDice([]))
    assert error.value.field == "storm"


def test_q6_a_siege_without_a_storm_rolls_no_dice() -> None:
    dice = FixedDice([3, 3, 3] * 2)
    with pytest.raises(IllegalAction) as error:
        resolve_quick_battle(battle(siege=True), dice)
    assert (error.value.rule, dice.used) == ("Q6", 0)
