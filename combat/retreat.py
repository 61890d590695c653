"""Retreat on the strategic map (RULES.md R1–R5): the legal options, then applying a choice.

``retreat_options(inp)`` lists what the beaten army may do; ``apply_retreat(inp, choice)`` checks a
choice against those options (``IllegalAction`` naming the rule) and returns the army that remains.
Everything iterates in sorted order, so the same input always gives the same output.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

from combat.errors import IllegalAction, InvalidAction
from combat.retreat_model import (
    MAX_PROVINCES_ENTERED,
    ArmyUnit,
    BorderKind,
    FortressOption,
    Penalty,
    Province,
    RetreatChoice,
    RetreatInput,
    RetreatOptions,
    RetreatResult,
    RouteOption,
    SeaOption,
    Side,
    Sweep,
)


def validate_input(inp: RetreatInput) -> None:
    """Raise ``InvalidAction`` when the input does not describe a possible situation."""
    if not inp.units:
        raise InvalidAction("units", "the retreating army has no units")
    ids = [u.id for u in inp.units]
    if len(set(ids)) != len(ids):
        raise InvalidAction("units", "unit ids must be unique")
    for name, key in (
        (inp.battle_province, "battle.province"),
        (inp.attacker_origin, "battle.attacker_origin"),
    ):
        if name not in inp.provinces:
            raise InvalidAction(key, f"unknown province {name!r}")
    for i, border in enumerate(inp.borders):
        for end in (border.a, border.b):
            if end not in inp.provinces:
                raise InvalidAction(f"borders[{i}]", f"unknown province {end!r}")
    for name, province in inp.provinces.items():
        for faction, n in province.units.items():
            if n < 0:
                raise InvalidAction(f"provinces.{name}.units.{faction}", "must not be negative")
        fortress = province.fortress
        if fortress is not None and fortress.garrison > province.units.get(fortress.holder, 0):
            raise InvalidAction(
                f"provinces.{name}.fortress.garrison", "is larger than the holder's units in the province"
            )
    if inp.naval_capacity < 0:
        raise InvalidAction("naval_capacity", "must not be negative")


def _neighbours(inp: RetreatInput) -> dict[str, dict[str, BorderKind]]:
    graph: dict[str, dict[str, BorderKind]] = {name: {} for name in inp.provinces}
    for border in inp.borders:
        graph[border.a][border.b] = border.kind
        graph[border.b][border.a] = border.kind
    return graph


def _may_step(inp: RetreatInput, step: int, province: str) -> bool:
    """R1.1 and R1.2, which depend only on where the step goes."""
    if province == inp.battle_province:
        # Interpretation: the battle province counts as already entered (R1.3 no re-entry).
        return False
    if inp.side is Side.ATTACKER and step == 0:
        return province == inp.attacker_origin
    if inp.side is Side.DEFENDER:
        return province != inp.attacker_origin
    return True


def _enemy_units(inp: RetreatInput, province: Province) -> int:
    return province.count(inp.enemies)


def _third_power_units(inp: RetreatInput, province: Province) -> int:
    return sum(n for f, n in province.units.items() if n > 0 and inp.is_third_power(f))


def _end_problem(inp: RetreatInput, name: str, army_size: int) -> tuple[str, str] | None:
    """Why an army of ``army_size`` may not end its retreat in ``name`` (rule, reason), or None."""
    province = inp.provinces[name]
    if _enemy_units(inp, province):
        return "R1.3", f"{name} holds enemy units"
    if _third_power_units(inp, province):
        return "R1.3", f"{name} holds units of a third power"
    # Interpretation: the size compared is the army as it leaves the battle, before any sweeping
    # (R2 happens on the route, after the destination is chosen).
    friendly_control = province.controller in inp.friendly
    if not friendly_control and province.count(inp.friendly) <= army_size:
        return "R1", f"{name} is neither under friendly control nor holds more friendly units than the army"
    return None


def _distances(inp: RetreatInput, graph: dict[str, dict[str, BorderKind]]) -> dict[str, int]:
    """Provinces entered on the shortest legal retreat to each province, without the 4 limit."""
    distances: dict[str, int] = {}
    queue: deque[tuple[str, int]] = deque([(inp.battle_province, 0)])
    seen = {inp.battle_province}
    while queue:
        here, dist = queue.popleft()
        for there in sorted(graph[here]):
            if there in seen or graph[here][there] is not BorderKind.NORMAL:
                continue
            if not _may_step(inp, dist, there):
                continue
            seen.add(there)
            distances[there] = dist + 1
            queue.append((there, dist + 1))
    return distances


def _all_paths(
    inp: RetreatInput, graph: dict[str, dict[str, BorderKind]], ends: set[str]
) -> list[tuple[str, ...]]:
    paths: list[tuple[str, ...]] = []

    def walk(path: tuple[str, ...]) -> None:
        here = path[-1] if path else inp.battle_province
        if path and here in ends:
            paths.append(path)
        if len(path) == MAX_PROVINCES_ENTERED:
            return
        for there in sorted(graph[here]):
            if (
                graph[here][there] is BorderKind.NORMAL
                and there not in path
                and _may_step(inp, len(path), there)
            ):
                walk(path + (there,))

    walk(())
    return sorted(paths, key=lambda p: (len(p), p))


def _route_option(inp: RetreatInput, path: tuple[str, ...], army_size: int) -> RouteOption:
    size = army_size
    swept: list[Sweep] = []
    penalties: list[Penalty] = []
    for i, name in enumerate(path):
        province = inp.provinces[name]
        # Interpretation: only the retreating faction's own field units are swept ("your units" in the
        # source), met in provinces passed through before the destination; garrisons stay in their city.
        if i < len(path) - 1:
            own = _sweepable(inp, province)
            if 0 < own <= size:
                size += own
                swept.append(Sweep(name, own))
        reasons: list[str] = []
        # Interpretation: an "enemy control marker" is a province controlled by a faction at war with
        # the retreating one; a fortress city counts when an enemy holds it; a tribe unless the
        # province is under friendly control. One unit per province, however many apply.
        if province.controller in inp.enemies:
            reasons.append("enemy control")
        if province.fortress is not None and province.fortress.holder in inp.enemies:
            reasons.append("enemy fortress city")
        if province.tribe and province.controller not in inp.friendly:
            reasons.append("tribe")
        units = 1 if reasons else 0
        enemy = _enemy_units(inp, province)
        if enemy:
            reasons.append(f"{enemy} enemy unit" + ("s" if enemy > 1 else ""))
            units += enemy
        if units:
            penalties.append(Penalty(name, tuple(reasons), units))
    return RouteOption(path, tuple(swept), tuple(penalties), size)


def _sweepable(inp: RetreatInput, province: Province) -> int:
    own = province.units.get(inp.faction, 0)
    if province.fortress is not None and province.fortress.holder == inp.faction:
        own -= province.fortress.garrison
    return max(0, own)


def _fortress_option(inp: RetreatInput) -> FortressOption | None:
    fortress = inp.provinces[inp.battle_province].fortress
    friendly_city = fortress is not None and fortress.holder in inp.friendly
    if inp.sallied:
        if fortress is None or not friendly_city:
            raise InvalidAction("sallied", "there is no friendly fortress city in the battle province")
        # Interpretation: the sallied army came out of the city, so it always fits back in.
        return FortressOption(inp.battle_province, len(inp.units), required=True)
    if inp.side is not Side.DEFENDER or fortress is None or not friendly_city or fortress.room == 0:
        return None
    return FortressOption(inp.battle_province, fortress.room, required=False)


def _sea_option(inp: RetreatInput) -> SeaOption | None:
    if inp.sallied or not inp.provinces[inp.battle_province].port:
        return None
    ships_present = inp.side is Side.ATTACKER and inp.came_by_sea
    if not (inp.sea_movement or ships_present):
        return None
    capacity = None if ships_present else inp.naval_capacity
    if capacity == 0:
        return None
    ports = tuple(
        name
        for name, p in sorted(inp.provinces.items())
        if p.port
        and name != inp.battle_province
        and p.controller in inp.friendly
        and not _enemy_units(inp, p)
        and not _third_power_units(inp, p)
    )
    return SeaOption(ports, capacity) if ports else None


def retreat_options(inp: RetreatInput) -> RetreatOptions:
    """Every legal way the beaten army may retreat (R1–R5), or the reason it is destroyed (R1.4)."""
    validate_input(inp)
    size = len(inp.units)
    fortress = _fortress_option(inp)
    if inp.sallied:
        sallied = "R3: the army sallied from the city and must go back into it"
        return RetreatOptions(size, None, (), (), fortress, None, sallied)
    graph = _neighbours(inp)
    distances = _distances(inp, graph)
    # Interpretation: "nearest" is counted in provinces entered along a legal retreat route.
    eligible = {name: d for name, d in distances.items() if _end_problem(inp, name, size) is None}
    reason: str | None = None
    routes: tuple[RouteOption, ...] = ()
    nearest: int | None = min(eligible.values()) if eligible else None
    destinations: tuple[str, ...] = ()
    if nearest is None:
        reason = "R1.4: no eligible province can be reached"
    elif nearest > MAX_PROVINCES_ENTERED:
        closest = sorted(name for name, d in eligible.items() if d == nearest)
        reason = f"R1.4: the nearest eligible province ({closest[0]}) is {nearest} provinces away"
    else:
        destinations = tuple(sorted(name for name, d in eligible.items() if d == nearest))
        paths = _all_paths(inp, graph, set(destinations))
        routes = tuple(_route_option(inp, path, size) for path in paths)
    return RetreatOptions(size, nearest, destinations, routes, fortress, _sea_option(inp), reason)


def _check_route(inp: RetreatInput, route: tuple[str, ...], options: RetreatOptions) -> RouteOption:
    """The route option for ``route``, or ``IllegalAction`` naming the first rule it breaks."""
    graph = _neighbours(inp)
    here = inp.battle_province
    entered: set[str] = set()
    for i, there in enumerate(route):
        if there not in inp.provinces:
            raise InvalidAction(f"choice.route[{i}]", f"unknown province {there!r}")
        if there not in graph[here]:
            raise IllegalAction("R1.3", f"{here} and {there} do not share a border")
        kind = graph[here][there]
        if kind is not BorderKind.NORMAL:
            raise IllegalAction(
                "R1.3", f"a retreat may not cross the {kind.value} border from {here} to {there}"
            )
        if i == 0 and inp.side is Side.ATTACKER and there != inp.attacker_origin:
            raise IllegalAction("R1.1", f"the attacker must first retreat into {inp.attacker_origin}")
        if inp.side is Side.DEFENDER and there == inp.attacker_origin:
            raise IllegalAction("R1.2", f"the defender may not enter {there}, where the attacker came from")
        if there in entered or there == inp.battle_province:
            raise IllegalAction("R1.3", f"a retreat may not re-enter {there}")
        if i >= MAX_PROVINCES_ENTERED:
            raise IllegalAction(
                "R1.3", f"a retreat may not enter more than {MAX_PROVINCES_ENTERED} provinces"
            )
        entered.add(there)
        here = there
    problem = _end_problem(inp, here, options.army_size)
    if problem is not None:
        raise IllegalAction(*problem)
    for option in options.routes:
        if option.path == route:
            return option
    nearest = ", ".join(options.destinations) or "none within reach"
    raise IllegalAction(
        "R1.3", f"{here} is farther from the battle than the nearest eligible province ({nearest})"
    )


def _pick(
    units: list[ArmyUnit], chosen: tuple[str, ...], count: int, field: str, weakest: bool
) -> list[ArmyUnit]:
    """``count`` units: the chosen ids first, then the weakest (or the healthiest), ties by id."""
    by_id = {u.id: u for u in units}
    picked: list[ArmyUnit] = []
    for i, unit_id in enumerate(chosen):
        if unit_id not in by_id:
            raise InvalidAction(f"{field}[{i}]", f"unit {unit_id!r} is not in the retreating army")
        if by_id[unit_id] in picked:
            raise InvalidAction(f"{field}[{i}]", f"unit {unit_id!r} is listed twice")
        picked.append(by_id[unit_id])
    rest = [u for u in units if u not in picked]
    rest.sort(key=lambda u: (u.health if weakest else -u.health, u.id))
    return picked + rest[: max(0, count - len(picked))]


def _swept_units(inp: RetreatInput, option: RouteOption) -> list[ArmyUnit]:
    units: list[ArmyUnit] = []
    for sweep in option.swept:
        listed = inp.provinces[sweep.province].own_units
        if len(listed) != sweep.count:
            raise InvalidAction(
                f"provinces.{sweep.province}.own_units",
                f"the route sweeps up {sweep.count} units of {inp.faction} here: list them with id and health",
            )
        units.extend(sorted(listed, key=lambda u: u.id))
    return units


def apply_retreat(inp: RetreatInput, choice: RetreatChoice) -> RetreatResult:
    """Check ``choice`` against R1–R5 and return where the army went and what is left of it."""
    options = retreat_options(inp)
    all_ids = {u.id for u in inp.units}
    if inp.sallied:
        if choice.route or choice.sea_port is not None:
            raise IllegalAction("R3", "an army that sallied from the city must retreat back into it")
        _check_lost(choice, 0)
        return RetreatResult("fortress", inp.battle_province, (), inp.units, (), (), (), (), 0)
    if choice.fortress_units:
        for i, unit_id in enumerate(choice.fortress_units):
            if unit_id not in all_ids:
                raise InvalidAction(
                    f"choice.fortress_units[{i}]", f"unit {unit_id!r} is not in the retreating army"
                )
        if len(set(choice.fortress_units)) != len(choice.fortress_units):
            raise InvalidAction("choice.fortress_units", "a unit is listed twice")
        if options.fortress is None:
            raise IllegalAction(
                "R3", "only a defender may retreat into a friendly fortress city of the battle province"
            )
        if len(choice.fortress_units) > options.fortress.room:
            raise IllegalAction("R3", f"the city has room for {options.fortress.room} more units")
    in_city = tuple(u for u in inp.units if u.id in choice.fortress_units)
    rest = tuple(u for u in inp.units if u.id not in choice.fortress_units)
    prefix = "fortress+" if in_city else ""
    if not rest:
        if choice.route or choice.sea_port is not None:
            raise IllegalAction("R1.3", "every unit went into the city: nothing is left to retreat")
        _check_lost(choice, 0)
        return RetreatResult("fortress", inp.battle_province, (), in_city, (), (), (), (), 0)
    # R3 is the only split allowed: the rest retreats as one army, so its options are its own.
    rest_options = retreat_options(replace(inp, units=rest)) if in_city else options
    if choice.route and choice.sea_port is not None:
        raise IllegalAction("R1.3", "the army may not split: choose a route or a port, not both")
    if choice.route:
        return _apply_route(inp, choice, rest, rest_options, in_city, prefix)
    if choice.sea_port is not None:
        return _apply_sea(inp, choice, rest, rest_options, in_city, prefix)
    if rest_options.routes or rest_options.sea is not None:
        raise IllegalAction("R1", "the beaten army must retreat: choose a route or a port")
    _check_lost(choice, 0)
    reason = rest_options.land_blocked_reason or "R1.4: the army cannot retreat"
    return RetreatResult(prefix + "destroyed", None, (), in_city, (), (), (), rest, 0, reason)


def _check_lost(choice: RetreatChoice, losses: int) -> None:
    if len(choice.lost_units) > losses:
        costs = f"{losses} unit" + ("" if losses == 1 else "s")
        raise IllegalAction("R4", f"the retreat costs {costs}, {len(choice.lost_units)} were chosen")


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
        raise IllegalAction("R5", "the army cannot retreat by sea from here")
    if port not in sea.ports:
        raise IllegalAction("R5", f"{port} is not a friendly port free of enemy and third-power units")
    _check_lost(choice, 0)
    capacity = len(rest) if sea.capacity is None else sea.capacity
    if len(choice.sea_units) > capacity:
        raise IllegalAction("R5", f"the ships carry at most {capacity} units")
    # Interpretation: without a choice the healthiest units embark; the rest cannot split off by
    # land (R1.3) and are destroyed.
    going = _pick(list(rest), choice.sea_units, capacity, "choice.sea_units", weakest=False)
    left = tuple(u for u in rest if u not in going)
    kept = tuple(u for u in rest if u in going)
    reason = f"R5: the ships carry {capacity} units; the rest are destroyed" if left else None
    return RetreatResult(prefix + "sea", port, (), in_city, kept, (), (), left, 0, reason)
