"""``python -m combat retreat FILE``: read a retreat scenario (JSON), list the options, apply a choice.

The format is documented in ``docs/combat-after-battle.md``. Exit codes: 0 listed (and applied),
3 the choice was refused (``"rejected"`` names the rule); a malformed file raises ``InvalidAction``.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, TypeVar

from combat.errors import IllegalAction, InvalidAction
from combat.jsonread import array, boolean, field, integer, number, obj, path_of, string, strings
from combat.politics import SupportChange
from combat.retreat.apply import apply_retreat
from combat.retreat.model import (
    ArmyUnit,
    Border,
    BorderKind,
    Fortress,
    Province,
    RetreatChoice,
    RetreatInput,
    Side,
)
from combat.retreat.routes import retreat_options

KindT = TypeVar("KindT", bound=Enum)


def _unit(data: Any, path: str) -> ArmyUnit:
    item = obj(data, path)
    unit_id = string(item, "id", path)
    health = number(item, "health", path)
    if health <= 0 or health * 2 != int(health * 2):
        raise InvalidAction(path_of(path, "health"), "must be a positive multiple of 0.5")
    return ArmyUnit(unit_id, health)


def _units(data: dict[str, Any], key: str, parent: str, required: bool) -> tuple[ArmyUnit, ...]:
    items = array(data, key, parent) if required else array(data, key, parent, [])
    where = path_of(parent, key)
    return tuple(_unit(item, path_of(where, i)) for i, item in enumerate(items))


def _allied_units(data: dict[str, Any], parent: str) -> tuple[ArmyUnit, ...]:
    where = path_of(parent, "allied_units")
    units = []
    for i, item in enumerate(array(data, "allied_units", parent, [])):
        unit = _unit(item, path_of(where, i))
        units.append(ArmyUnit(unit.id, unit.health, string(item, "faction", path_of(where, i))))
    return tuple(units)


def _enum(value: Any, kinds: type[KindT], path: str) -> KindT:
    names = [str(k.value) for k in kinds]
    if value not in names:
        raise InvalidAction(path, f"must be one of {', '.join(names)}")
    return kinds(value)


def _province(name: str, data: Any) -> Province:
    path = f"provinces.{name}"
    item = obj(data, path)
    fortress = None
    if field(item, "fortress", path, None) is not None:
        fpath = path_of(path, "fortress")
        fdata = obj(item["fortress"], fpath)
        capacity = integer(fdata, "capacity", fpath, 3)
        garrison = integer(fdata, "garrison", fpath, 0)
        if capacity < 0 or garrison < 0:
            raise InvalidAction(fpath, "capacity and garrison must not be negative")
        gpath = path_of(fpath, "allied_garrison")
        guests = obj(field(fdata, "allied_garrison", fpath, {}), gpath)
        allied_garrison = {faction: integer(guests, faction, gpath) for faction in sorted(guests)}
        fortress = Fortress(string(fdata, "holder", fpath), capacity, garrison, allied_garrison)
    counts = obj(field(item, "units", path, {}), path_of(path, "units"))
    units: dict[str, int] = {}
    for faction in sorted(counts):
        units[faction] = integer(counts, faction, path_of(path, "units"))
        if units[faction] < 0:
            raise InvalidAction(path_of(path_of(path, "units"), faction), "must not be negative")
    return Province(
        name=name,
        controller=string(item, "controller", path, None),
        port=boolean(item, "port", path),
        fortress=fortress,
        tribe=boolean(item, "tribe", path),
        units=units,
        own_units=_units(item, "own_units", path, required=False),
        allied_units=_allied_units(item, path),
    )


def _borders(data: dict[str, Any]) -> tuple[Border, ...]:
    borders: list[Border] = []
    for i, raw in enumerate(array(data, "borders", "")):
        path = f"borders[{i}]"
        item = obj(raw, path)
        ends = strings(item, "between", path)
        if len(ends) != 2 or ends[0] == ends[1]:
            raise InvalidAction(path_of(path, "between"), "must name two different provinces")
        kind = _enum(field(item, "kind", path, "normal"), BorderKind, path_of(path, "kind"))
        borders.append(Border(ends[0], ends[1], kind))
    return tuple(borders)


def parse_input(data: dict[str, Any]) -> RetreatInput:
    """The ``RetreatInput`` of a scenario, or ``InvalidAction`` naming the bad field."""
    army = obj(field(data, "army", ""), "army")
    relations = obj(field(data, "relations", "", {}), "relations")
    battle = obj(field(data, "battle", ""), "battle")
    provinces_data = obj(field(data, "provinces", ""), "provinces")
    provinces = {name: _province(name, provinces_data[name]) for name in sorted(provinces_data)}
    inp = RetreatInput(
        faction=string(army, "faction", "army"),
        side=_enum(field(army, "side", "army"), Side, "army.side"),
        units=_units(army, "units", "army", required=True),
        battle_province=string(battle, "province", "battle"),
        attacker_origin=string(battle, "attacker_origin", "battle"),
        provinces=provinces,
        borders=_borders(data),
        allies=frozenset(strings(relations, "allies", "relations")),
        enemies=frozenset(strings(relations, "enemies", "relations")),
        sallied=boolean(army, "sallied", "army"),
        sea_movement=boolean(army, "sea_movement", "army"),
        naval_capacity=integer(army, "naval_capacity", "army", 0),
        came_by_sea=boolean(army, "came_by_sea", "army"),
        sweep_allies=boolean(data, "sweep_allies", "", True),
    )
    if inp.faction in inp.enemies or inp.allies & inp.enemies:
        raise InvalidAction("relations", "a faction cannot be both friendly and at war")
    return inp


def parse_choice(data: Any) -> RetreatChoice:
    """The commander's ``RetreatChoice`` of a scenario."""
    item = obj(data, "choice")
    return RetreatChoice(
        route=strings(item, "route", "choice"),
        sea_port=string(item, "sea_port", "choice", None),
        fortress_units=strings(item, "fortress_units", "choice"),
        sea_units=strings(item, "sea_units", "choice"),
        lost_units=strings(item, "lost_units", "choice"),
    )


def run(data: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """List the options of the scenario and, if it has a ``choice``, apply it."""
    inp = parse_input(data)
    choice = parse_choice(data["choice"]) if data.get("choice") is not None else None
    politics = obj(field(data, "politics", "", {}), "politics")
    lost_in_battle = integer(politics, "lost_in_battle", "politics", 0)
    lost_to_events = integer(politics, "lost_to_events", "politics", 0)
    # R6 caps the losses at what the beaten side had; by default its units before the battle.
    army_units = integer(politics, "army_units", "politics") if "army_units" in politics else None
    options = retreat_options(inp)
    out: dict[str, Any] = {"options": options.to_dict(), "result": None}
    if choice is None:
        return 0, out
    try:
        result = apply_retreat(inp, choice)
    except IllegalAction as error:
        out["rejected"] = {"rule": error.rule, "reason": error.reason}
        return 3, out
    out["result"] = result.to_dict()
    support = SupportChange(
        army_units=army_units
        if army_units is not None
        else len(inp.units) + len(result.swept_units) + lost_in_battle,
        lost_in_battle=lost_in_battle,
        lost_in_retreat=result.units_lost,
        lost_to_events=lost_to_events,
    )
    out["support"] = support.to_dict()
    return 0, out
