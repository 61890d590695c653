"""Quick battle (RULES.md Q1–Q7): the commanders' contest, the outcome tables and Morale.

``resolve_quick_battle(battle, dice)`` consumes every die from ``dice`` in a fixed order (the
attacker's contest roll, the defender's, Luck rerolls, then Morale rolls: attacker's units before the
defender's, each side by unit id) and returns every roll for the campaign log.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from combat.dice import Dice
from combat.errors import IllegalAction, InvalidAction
from combat.quick.model import (
    TACTICS_BELOW_MEN,
    QuickBattle,
    QuickResult,
    QuickSide,
    QuickUnit,
    Roll,
    Skill,
    Table,
    UnitOutcome,
    UnitResult,
)

ATTACKER = "attacker"
DEFENDER = "defender"

# Q3–Q5: the lower bound of every margin band and its name.
BANDS: tuple[tuple[int, str, str], ...] = (
    (17, "17+", "overwhelming victory"),
    (13, "13-16", "great victory"),
    (8, "8-12", "major victory"),
    (4, "4-7", "minor victory"),
    (0, "0-3", "no clear winner"),
)

# The loser's Morale modifier in each band, per table (index: 0 for 0–3 … 4 for 17+).
TABLE_A_MORALE = (0, 0, -2, -4, 0)
TABLE_B_MORALE = (0, 0, -2, 0, -2)
TABLE_C_MORALE = (0, 0, 0, 0, -2)
# Q5 footnote: the second roll of a defender with nowhere to go.
NOWHERE_BONUS = 2
# Q4 0–3 and Q5 4–7: the Morale penalty the loser carries to the next day.
NEXT_DAY_PENALTY = -2


def band_of(margin: int) -> tuple[int, str, str]:
    """The band index (0 for 0–3 … 4 for 17+), its label and its name for a margin of victory."""
    for index, (low, label, name) in enumerate(BANDS):
        if margin >= low:
            return len(BANDS) - 1 - index, label, name
    raise InvalidAction("margin", "must not be negative", code="negative")


def rout_health(health: float, loss: float) -> float:
    """Q7: health left after a rout: the loss share of current health, rounded up to a half line."""
    lost = Fraction(health) * Fraction(str(loss))
    halves = -(-lost * 2 // 1)
    return float(max(Fraction(0), Fraction(health) - Fraction(halves, 2)))


@dataclass
class _Roller:
    """Rolls 3d6 from the injected dice and remembers every roll in order."""

    dice: Dice
    rolls: list[Roll] = field(default_factory=list)

    def roll(self, side: str, roller: str, purpose: str, target: int, modifier: int = 0) -> Roll:
        dice = (self.dice.roll(6), self.dice.roll(6), self.dice.roll(6))
        result = Roll(side, roller, purpose, target, dice, modifier)
        self.rolls.append(result)
        return result

    def discard(self, roll: Roll) -> None:
        index = next(i for i, r in enumerate(self.rolls) if r is roll)
        self.rolls[index] = replace(roll, kept=False)


def validate_battle(battle: QuickBattle) -> None:
    """Raise ``InvalidAction`` for a malformed battle and ``IllegalAction`` for Q6."""
    if battle.men <= 0:
        raise InvalidAction("men", "must be a positive number of men", code="men_not_positive")
    if not 0 <= battle.rout_health_loss <= 1:
        raise InvalidAction("rout_health_loss", "must be between 0 and 1", code="rout_loss_range")
    ids: set[str] = set()
    for name, side in ((ATTACKER, battle.attacker), (DEFENDER, battle.defender)):
        if not side.units:
            raise InvalidAction(f"{name}.units", "a side needs at least one unit", code="side_without_units",
                                params={"side": name})
        for unit in side.units:
            if unit.id in ids:
                raise InvalidAction(f"{name}.units", f"unit id {unit.id!r} is used twice", code="unit_id_used_twice",
                                    params={"unit": unit.id})
            ids.add(unit.id)
    if battle.storm and not battle.siege:
        raise InvalidAction("storm", "only a siege can be stormed", code="storm_without_siege")
    if battle.siege and not battle.storm:
        # Interpretation of Q6: a siege is settled by the quick battle only when the attacker storms;
        # otherwise it goes on by other means (hunger, bribery) and no table applies.
        raise IllegalAction(
            "Q6", "in a siege the quick battle applies only when the attacker storms the city",
            code="quick_siege_without_storm",
        )


def _contest(battle: QuickBattle, roller: _Roller, skill: Skill) -> tuple[int, int]:
    """Q1: both commanders roll; Luck rerolls once and keeps the better. Returns both margins."""
    sides = ((ATTACKER, battle.attacker), (DEFENDER, battle.defender))
    first: dict[str, Roll] = {}
    for name, side in sides:
        target = side.commander.strategy if skill is Skill.STRATEGY else side.commander.tactics
        first[name] = roller.roll(name, side.commander.name, f"contest ({skill.value})", target)
    margins = {name: roll.margin for name, roll in first.items()}
    # Interpretation: a commander with Luck rerolls when he is not ahead after the first rolls;
    # the attacker decides first, the defender against the attacker's final margin.
    for name, side in sides:
        other = DEFENDER if name == ATTACKER else ATTACKER
        if side.commander.luck and margins[name] <= margins[other]:
            again = roller.roll(name, side.commander.name, "contest, Luck reroll", first[name].target)
            if again.margin > first[name].margin:
                roller.discard(first[name])
                margins[name] = again.margin
            else:
                roller.discard(again)
    return margins[ATTACKER], margins[DEFENDER]


def _morale(
    roller: _Roller, name: str, side: QuickSide, unit: QuickUnit, modifier: int, purpose: str
) -> Roll:
    """Q2: 3d6 against the unit's Morale, with the side's carried modifier and the table's."""
    total = side.morale_modifier + modifier
    return roller.roll(name, unit.id, purpose, unit.morale + total, total)


def _sorted(side: QuickSide) -> list[QuickUnit]:
    return sorted(side.units, key=lambda u: u.id)


def _everyone_rolls(roller: _Roller, battle: QuickBattle) -> dict[str, UnitOutcome]:
    """Q3 0–3: every unit of both sides rolls; success holds, failure by 1–4 retreats, 5+ routs."""
    outcomes: dict[str, UnitOutcome] = {}
    for name, side in ((ATTACKER, battle.attacker), (DEFENDER, battle.defender)):
        for unit in _sorted(side):
            roll = _morale(roller, name, side, unit, 0, "Morale: hold, retreat or rout")
            if roll.success:
                outcomes[unit.id] = UnitOutcome.HOLDS
            elif roll.margin >= -4:
                outcomes[unit.id] = UnitOutcome.RETREAT
            else:
                outcomes[unit.id] = UnitOutcome.ROUT
    return outcomes


def _each_retreats_or_routs(
    roller: _Roller, name: str, side: QuickSide, modifier: int, nowhere_applies: bool
) -> dict[str, UnitOutcome]:
    """Each unit retreats in good order on success, else routs; with nowhere to go the Q5 footnote."""
    outcomes: dict[str, UnitOutcome] = {}
    nowhere = nowhere_applies and side.nowhere_to_retreat
    must_retreat: list[QuickUnit] = []
    for unit in _sorted(side):
        roll = _morale(roller, name, side, unit, modifier, "Morale: retreat in good order or rout")
        if roll.success:
            outcomes[unit.id] = UnitOutcome.RETREAT
            must_retreat.append(unit)
        else:
            outcomes[unit.id] = UnitOutcome.SURRENDER if nowhere else UnitOutcome.ROUT
    if nowhere:
        outcomes.update(_nowhere_to_go(roller, name, side, must_retreat))
    return outcomes


def _half_hold(
    roller: _Roller, name: str, side: QuickSide, modifier: int, nowhere_applies: bool
) -> dict[str, UnitOutcome]:
    """The army holds if at least half its units make Morale; otherwise all retreat in good order."""
    units = _sorted(side)
    made = sum(
        _morale(roller, name, side, unit, modifier, "Morale: the army holds if half make it").success
        for unit in units
    )
    if 2 * made >= len(units):
        return {unit.id: UnitOutcome.HOLDS for unit in units}
    if nowhere_applies and side.nowhere_to_retreat:
        return _nowhere_to_go(roller, name, side, units)
    return {unit.id: UnitOutcome.RETREAT for unit in units}


def _nowhere_to_go(
    roller: _Roller, name: str, side: QuickSide, units: list[QuickUnit]
) -> dict[str, UnitOutcome]:
    """Q5 footnote: each unit that must retreat but cannot rolls again at +2: hold or surrender."""
    outcomes: dict[str, UnitOutcome] = {}
    for unit in units:
        # Interpretation: the second roll is at +2 on the unit's Morale; the table's penalty does not
        # carry into it.
        roll = _morale(roller, name, side, unit, NOWHERE_BONUS, "Morale again: nowhere to retreat")
        outcomes[unit.id] = UnitOutcome.HOLDS if roll.success else UnitOutcome.SURRENDER
    return outcomes


def _all(side: QuickSide, outcome: UnitOutcome) -> dict[str, UnitOutcome]:
    return {unit.id: outcome for unit in side.units}


@dataclass(frozen=True)
class _Ruling:
    """What a table makes of the contest: the winner, every unit's outcome and what the battle leaves."""

    table: Table
    winner: str | None
    band_label: str
    outcomes: dict[str, UnitOutcome]
    next_day: tuple[int, int] = (0, 0)
    position_taken: bool = False
    captured: bool = False


def resolve_quick_battle(battle: QuickBattle, dice: Dice) -> QuickResult:
    """Resolve a whole battle by the quick contest (Q1–Q7), consuming every die from ``dice``."""
    validate_battle(battle)
    roller = _Roller(dice)
    skill = Skill.TACTICS if battle.men < TACTICS_BELOW_MEN else Skill.STRATEGY
    att_margin, def_margin = _contest(battle, roller, skill)
    # Interpretation: margins compare even when both fail (failing by 2 beats failing by 5, by 3).
    margin = abs(att_margin - def_margin)
    band, label, name = band_of(margin)
    if battle.open_field:
        ruling = _open_field(roller, battle, att_margin, def_margin, band, label)
    elif att_margin > def_margin:
        ruling = _attacker_wins(roller, battle, band, label)
    else:
        ruling = _defender_holds(roller, battle, band, label)
    return QuickResult(
        skill=skill,
        attacker_margin=att_margin,
        defender_margin=def_margin,
        winner=ruling.winner,
        margin=margin,
        table=ruling.table,
        band=ruling.band_label,
        result=name,
        units=_unit_results(battle, ruling.outcomes),
        next_day_morale=ruling.next_day,
        position_taken=ruling.position_taken,
        commander_captured=ruling.captured,
        rolls=tuple(roller.rolls),
    )


def _open_field(roller: _Roller, battle: QuickBattle, att_margin: int, def_margin: int, band: int,
                label: str) -> _Ruling:
    """Q3: in the open field the better margin wins, equal margins have no winner (table A)."""
    winner = None if att_margin == def_margin else (ATTACKER if att_margin > def_margin else DEFENDER)
    return _Ruling(Table.A, winner, label, _table_a(roller, battle, winner, band))


def _attacker_wins(roller: _Roller, battle: QuickBattle, band: int, label: str) -> _Ruling:
    """Q5, table C: the attacker holds; the defender holds, half-holds, or retreats or routs by the band."""
    next_day = (0, 0)
    position_taken = captured = False
    outcomes = _all(battle.attacker, UnitOutcome.HOLDS)
    if band == 0:
        label = "1-3"
        outcomes.update(_all(battle.defender, UnitOutcome.HOLDS))
    elif band == 1:
        outcomes.update(_all(battle.defender, UnitOutcome.HOLDS))
        next_day = (0, NEXT_DAY_PENALTY)
    elif band == 2:
        outcomes.update(_half_hold(roller, DEFENDER, battle.defender, TABLE_C_MORALE[band], True))
    else:
        position_taken, captured = True, band == 4
        outcomes.update(
            _each_retreats_or_routs(roller, DEFENDER, battle.defender, TABLE_C_MORALE[band], True)
        )
    return _Ruling(Table.C, ATTACKER, label, outcomes, next_day, position_taken, captured)


def _defender_holds(roller: _Roller, battle: QuickBattle, band: int, label: str) -> _Ruling:
    """Q4, table B: the defender holds; the attacker is thrown back, half-holds, or retreats or routs."""
    # Interpretation: equal margins are a win by 0 for the defender, who still holds the field
    # (as in T11); table C starts at 1.
    next_day = (0, 0)
    outcomes = _all(battle.defender, UnitOutcome.HOLDS)
    if band == 0:
        outcomes.update(_all(battle.attacker, UnitOutcome.THROWN_BACK))
        next_day = (NEXT_DAY_PENALTY, 0)
    elif band in (1, 2):
        outcomes.update(_half_hold(roller, ATTACKER, battle.attacker, TABLE_B_MORALE[band], False))
    else:
        outcomes.update(
            _each_retreats_or_routs(roller, ATTACKER, battle.attacker, TABLE_B_MORALE[band], False)
        )
    return _Ruling(Table.B, DEFENDER, label, outcomes, next_day)


def _table_a(roller: _Roller, battle: QuickBattle, winner: str | None, band: int) -> dict[str, UnitOutcome]:
    """Q3, the open-field table."""
    if band == 0:
        return _everyone_rolls(roller, battle)
    # A margin of 4 or more always has a winner.
    loser_name = DEFENDER if winner == ATTACKER else ATTACKER
    winning = battle.attacker if winner == ATTACKER else battle.defender
    losing = battle.defender if winner == ATTACKER else battle.attacker
    outcomes = _all(winning, UnitOutcome.HOLDS)
    if band == 4:
        outcomes.update(_all(losing, UnitOutcome.ROUT))
    else:
        outcomes.update(_each_retreats_or_routs(roller, loser_name, losing, TABLE_A_MORALE[band], False))
    return outcomes


def _unit_results(battle: QuickBattle, outcomes: dict[str, UnitOutcome]) -> tuple[UnitResult, ...]:
    """Q7: a rout costs health; everything else keeps it."""
    results: list[UnitResult] = []
    for name, side in ((ATTACKER, battle.attacker), (DEFENDER, battle.defender)):
        for unit in _sorted(side):
            outcome = outcomes[unit.id]
            after = (
                rout_health(unit.health, battle.rout_health_loss)
                if outcome is UnitOutcome.ROUT
                else unit.health
            )
            results.append(UnitResult(name, unit.id, outcome, unit.health, after))
    return tuple(results)
