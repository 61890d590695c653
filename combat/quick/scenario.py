"""``python -m combat quick FILE``: resolve a quick battle (Q1–Q7) from a JSON scenario.

The format is documented in ``docs/combat-after-battle.md``. Dice come from the file: a ``dice``
list, or a ``seed`` string for the verifiable seeded dice (M2). Exit codes: 0 resolved, 3 refused
(Q6), with ``"rejected"`` naming the rule; a malformed file raises ``InvalidAction``.
"""

from __future__ import annotations

from typing import Any

from combat.dice import Dice, FixedDice, SeededDice
from combat.errors import IllegalAction, InvalidAction
from combat.jsonread import array, boolean, field, integer, number, obj, path_of, string
from combat.quick.model import Commander, QuickBattle, QuickSide, QuickUnit
from combat.quick.resolve import resolve_quick_battle


def _side(data: dict[str, Any], name: str) -> QuickSide:
    side = obj(field(data, name, ""), name)
    cpath = path_of(name, "commander")
    commander = obj(field(side, "commander", name), cpath)
    units: list[QuickUnit] = []
    for i, raw in enumerate(array(side, "units", name)):
        upath = path_of(path_of(name, "units"), i)
        item = obj(raw, upath)
        health = number(item, "health", upath)
        if health <= 0 or health * 2 != int(health * 2):
            raise InvalidAction(path_of(upath, "health"), "must be a positive multiple of 0.5")
        units.append(QuickUnit(string(item, "id", upath), integer(item, "morale", upath), health))
    return QuickSide(
        commander=Commander(
            name=string(commander, "name", cpath),
            strategy=integer(commander, "strategy", cpath),
            tactics=integer(commander, "tactics", cpath),
            luck=boolean(commander, "luck", cpath),
        ),
        units=tuple(units),
        morale_modifier=integer(side, "morale_modifier", name, 0),
        nowhere_to_retreat=boolean(side, "nowhere_to_retreat", name),
    )


def parse_battle(data: dict[str, Any]) -> QuickBattle:
    """The ``QuickBattle`` of a scenario, or ``InvalidAction`` naming the bad field."""
    return QuickBattle(
        attacker=_side(data, "attacker"),
        defender=_side(data, "defender"),
        men=integer(data, "men", ""),
        open_field=boolean(data, "open_field", ""),
        siege=boolean(data, "siege", ""),
        storm=boolean(data, "storm", ""),
        rout_health_loss=number(data, "rout_health_loss", "", 0.5),
    )


def parse_dice(data: dict[str, Any]) -> Dice:
    """A fixed list of dice (``dice``) or seeded dice (``seed``)."""
    if "seed" in data:
        return SeededDice(string(data, "seed", "").encode())
    values = array(data, "dice", "")
    for i, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise InvalidAction(f"dice[{i}]", "must be a whole number from 1 to 6")
    return FixedDice(list(values))


def run(data: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Resolve the scenario's battle; the result lists every roll."""
    battle = parse_battle(data)
    dice = parse_dice(data)
    try:
        result = resolve_quick_battle(battle, dice)
    except IllegalAction as error:
        return 3, {"result": None, "rejected": {"rule": error.rule, "reason": error.reason}}
    out: dict[str, Any] = {"result": result.to_dict()}
    if isinstance(dice, FixedDice):
        out["dice_used"] = dice.used
        out["dice_left"] = len(dice.values) - dice.used
    return 0, out
