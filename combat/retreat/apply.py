"""Retreat on the strategic map (RULES.md R1–R5): checking and applying the commander's choice."""

from __future__ import annotations

from dataclasses import replace

from combat.errors import IllegalAction, InvalidAction
from combat.retreat.model import (
    MAX_PROVINCES_ENTERED,
    ArmyUnit,
    BorderKind,
    RetreatChoice,
    RetreatInput,
    RetreatOptions,
    RetreatResult,
    RouteOption,
    Side,
)
from combat.retreat.routes import end_problem, neighbours, retreat_options


def _check_route(inp: RetreatInput, route: tuple[str, ...], options: RetreatOptions) -> RouteOption:
    """The route option for ``route``, or ``IllegalAction`` naming the first rule it breaks."""
    graph = neighbours(inp)
    here = inp.battle_province
    entered: set[str] = set()
    for i, there in enumerate(route):
        if there not in inp.provinces:
            raise InvalidAction(f"choice.route[{i}]", f"unknown province {there!r}", code="unknown_province",
                                params={"province": there})
        if there not in graph[here]:
            raise IllegalAction("R1.3", f"{here} and {there} do not share a border", code="retreat_no_border",
                                 params={"from": here, "to": there})
        kind = graph[here][there]
        if kind is not BorderKind.NORMAL:
            raise IllegalAction(
                "R1.3", f"a retreat may not cross the {kind.value} border from {here} to {there}",
                code="retreat_border_kind", params={"border": kind.value, "from": here, "to": there},
            )
        if i == 0 and inp.side is Side.ATTACKER and there != inp.attacker_origin:
            raise IllegalAction("R1.1", f"the attacker must first retreat into {inp.attacker_origin}",
                                 code="retreat_attacker_origin", params={"province": inp.attacker_origin})
        if inp.side is Side.DEFENDER and there == inp.attacker_origin:
            raise IllegalAction("R1.2", f"the defender may not enter {there}, where the attacker came from",
                                 code="retreat_defender_origin", params={"province": there})
        if there in entered or there == inp.battle_province:
            raise IllegalAction("R1.3", f"a retreat may not re-enter {there}", code="retreat_reenter",
                                 params={"province": there})
        if i >= MAX_PROVINCES_ENTERED:
            raise IllegalAction(
                "R1.3", f"a retreat may not enter more than {MAX_PROVINCES_ENTERED} provinces",
                code="retreat_too_long", params={"count": MAX_PROVINCES_ENTERED},
            )
        entered.add(there)
        here = there
    problem = end_problem(inp, here, options.army_size)
    if problem is not None:
        rule, reason, code = problem
        raise IllegalAction(rule, reason, code=code, params={"province": here})
    for option in options.routes:
        if option.path == route:
            return option
    nearest = ", ".join(options.destinations) or "none within reach"
    raise IllegalAction(
        "R1.3", f"{here} is farther from the battle than the nearest eligible province ({nearest})",
        code="retreat_not_nearest", params={"province": here, "nearest": list(options.destinations)},
    )


def _not_in_army(field: str, unit_id: str) -> InvalidAction:
    return InvalidAction(field, f"unit {unit_id!r} is not in the retreating army", code="unit_not_in_army",
                         params={"unit": unit_id})


def _listed_twice(field: str, unit_id: str) -> InvalidAction:
    return InvalidAction(field, f"unit {unit_id!r} is listed twice", code="unit_listed_twice",
                         params={"unit": unit_id})


def _pick(
    units: list[ArmyUnit], chosen: tuple[str, ...], count: int, field: str, weakest: bool
) -> list[ArmyUnit]:
    """``count`` units: the chosen ids first, then the weakest (or the healthiest), ties by id."""
    by_id = {u.id: u for u in units}
    picked: list[ArmyUnit] = []
    for i, unit_id in enumerate(chosen):
        if unit_id not in by_id:
            raise _not_in_army(f"{field}[{i}]", unit_id)
        if by_id[unit_id] in picked:
            raise _listed_twice(f"{field}[{i}]", unit_id)
        picked.append(by_id[unit_id])
    rest = [u for u in units if u not in picked]
    rest.sort(key=lambda u: (u.health if weakest else -u.health, u.id))
    return picked + rest[: max(0, count - len(picked))]


def _swept_units(inp: RetreatInput, option: RouteOption) -> list[ArmyUnit]:
    """R2: the units each sweep picks up, as listed in the province: own first, then allied."""
    units: list[ArmyUnit] = []
    for sweep in option.swept:
        province = inp.provinces[sweep.province]
        for key, listed, count, whose, code in (
            ("own_units", province.own_units, sweep.count - sweep.allied, f"units of {inp.faction}",
             "sweep_own_units_unlisted"),
            ("allied_units", province.allied_units, sweep.allied, "allied units", "sweep_allied_units_unlisted"),
        ):
            if not count:
                continue
            if len(listed) != count:
                raise InvalidAction(
                    f"provinces.{sweep.province}.{key}",
                    f"the route sweeps up {count} {whose} here: list them with id and health",
                    code=code, params={"count": count, "province": sweep.province},
                )
            units.extend(sorted(listed, key=lambda u: (u.faction, u.id)))
    return units


def apply_retreat(inp: RetreatInput, choice: RetreatChoice) -> RetreatResult:
    """Check ``choice`` against R1–R5 and return where the army went and what is left of it."""
    options = retreat_options(inp)
    all_ids = {u.id for u in inp.units}
    if inp.sallied:
        if choice.route or choice.sea_port is not None:
            raise IllegalAction("R3", "an army that sallied from the city must retreat back into it",
                                 code="retreat_sallied")
        _check_lost(choice, 0)
        return RetreatResult("fortress", inp.battle_province, (), inp.units, (), (), (), (), 0)
    if choice.fortress_units:
        for i, unit_id in enumerate(choice.fortress_units):
            if unit_id not in all_ids:
                raise _not_in_army(f"choice.fortress_units[{i}]", unit_id)
            if unit_id in choice.fortress_units[:i]:
                raise _listed_twice(f"choice.fortress_units[{i}]", unit_id)
        if options.fortress is None:
            raise IllegalAction(
                "R3", "only a defender may retreat into a friendly fortress city of the battle province",
                code="retreat_no_fortress",
            )
        if len(choice.fortress_units) > options.fortress.room:
            raise IllegalAction("R3", f"the city has room for {options.fortress.room} more units",
                                 code="retreat_fortress_full", params={"count": options.fortress.room})
    in_city = tuple(u for u in inp.units if u.id in choice.fortress_units)
    rest = tuple(u for u in inp.units if u.id not in choice.fortress_units)
    prefix = "fortress+" if in_city else ""
    if not rest:
        if choice.route or choice.sea_port is not None:
            raise IllegalAction("R1.3", "every unit went into the city: nothing is left to retreat",
                                 code="retreat_nothing_left")
        _check_lost(choice, 0)
        return RetreatResult("fortress", inp.battle_province, (), in_city, (), (), (), (), 0)
    # R3 is the only split allowed: the rest retreats as one army, so its options are its own.
    rest_options = retreat_options(replace(inp, units=rest)) if in_city else options
    if choice.route and choice.sea_port is not None:
        raise IllegalAction("R1.3", "the army may not split: choose a route or a port, not both",
                             code="retreat_split")
    if choice.route:
        return _apply_route(inp, choice, rest, rest_options, in_city, prefix)
    if choice.sea_port is not None:
        return _apply_sea(inp, choice, rest, rest_options, in_city, prefix)
    if rest_options.routes or rest_options.sea is not None:
        raise IllegalAction("R1", "the beaten army must retreat: choose a route or a port", code="retreat_required")
    _check_lost(choice, 0)
    reason = rest_options.land_blocked_reason or "R1.4: the army cannot retreat"
    return RetreatResult(prefix + "destroyed", None, (), in_city, (), (), (), rest, 0, reason)


def _check_lost(choice: RetreatChoice, losses: int) -> None:
    if len(choice.lost_units) > losses:
        costs = f"{losses} unit" + ("" if losses == 1 else "s")
        raise IllegalAction("R4", f"the retreat costs {costs}, {len(choice.lost_units)} were chosen",
                             code="retreat_losses", params={"count": losses, "chosen": len(choice.lost_units)})


def _apply_route(
    inp: RetreatInput,
    choice: RetreatChoice,
    rest: tuple[ArmyUnit, ...],
    options: RetreatOptions,
    in_city: tuple[ArmyUnit, ...],
    prefix: str,
) -> RetreatResult:
    option = _check_route(replace(inp, units=rest), choice.route, options)
    swept = _swept_units(inp, option)
    army = list(rest) + swept
    _check_lost(choice, option.losses)
    # R4 interpretation: the commander's chosen units go first, then the least healthy.
    lost = _pick(army, choice.lost_units, option.losses, "choice.lost_units", weakest=True)
    remaining = tuple(u for u in army if u not in lost)
    return RetreatResult(
        prefix + "route",
        option.destination,
        option.path,
        in_city,
        remaining,
        tuple(swept),
        tuple(lost),
        (),
        option.penalty,
    )


def _apply_sea(
    inp: RetreatInput,
    choice: RetreatChoice,
    rest: tuple[ArmyUnit, ...],
    options: RetreatOptions,
    in_city: tuple[ArmyUnit, ...],
    prefix: str,
) -> RetreatResult:
    sea = options.sea
    port = choice.sea_port
    if sea is None:
        raise IllegalAction("R5", "the army cannot retreat by sea from here", code="retreat_no_sea")
    if port not in sea.ports:
        raise IllegalAction("R5", f"{port} is not a friendly port free of enemy and third-power units",
                             code="retreat_bad_port", params={"province": port})
    _check_lost(choice, 0)
    capacity = len(rest) if sea.capacity is None else sea.capacity
    if len(choice.sea_units) > capacity:
        raise IllegalAction("R5", f"the ships carry at most {capacity} units", code="retreat_ships_full",
                             params={"count": capacity})
    # Interpretation: without a choice the healthiest units embark; the rest cannot split off by
    # land (R1.3) and are destroyed.
    going = _pick(list(rest), choice.sea_units, capacity, "choice.sea_units", weakest=False)
    left = tuple(u for u in rest if u not in going)
    kept = tuple(u for u in rest if u in going)
    reason = f"R5: the ships carry {capacity} units; the rest are destroyed" if left else None
    return RetreatResult(prefix + "sea", port, (), in_city, kept, (), (), left, 0, reason)
