"""Retreat on the strategic map (RULES.md R1–R5): what a beaten army may do.

Everything iterates in sorted order, so the same input always gives the same output.
"""

from __future__ import annotations

from collections import deque

from combat.errors import InvalidAction
from combat.retreat.model import (
    MAX_PROVINCES_ENTERED,
    Blocked,
    BorderKind,
    FortressOption,
    Penalty,
    PenaltyReason,
    Province,
    RetreatInput,
    RetreatOptions,
    RouteOption,
    SeaOption,
    Side,
    Sweep,
)


def validate_input(inp: RetreatInput) -> None:
    """Raise ``InvalidAction`` when the input does not describe a possible situation.

    Fields are named as in the scenario format (``army.units``), which mirrors ``RetreatInput``.
    """
    if not inp.units:
        raise InvalidAction("army.units", "the retreating army has no units", code="army_without_units")
    ids = [u.id for u in inp.units]
    if len(set(ids)) != len(ids):
        raise InvalidAction("army.units", "unit ids must be unique", code="unit_ids_not_unique")
    for name, key in (
        (inp.battle_province, "battle.province"),
        (inp.attacker_origin, "battle.attacker_origin"),
    ):
        if name not in inp.provinces:
            raise InvalidAction(key, f"unknown province {name!r}", code="unknown_province", params={"province": name})
    for i, border in enumerate(inp.borders):
        for end in (border.a, border.b):
            if end not in inp.provinces:
                raise InvalidAction(f"borders[{i}]", f"unknown province {end!r}", code="unknown_province",
                                    params={"province": end})
    for name, province in inp.provinces.items():
        for faction, n in province.units.items():
            if n < 0:
                raise InvalidAction(f"provinces.{name}.units.{faction}", "must not be negative", code="negative")
        for i, unit in enumerate(province.allied_units):
            if unit.faction not in inp.allies:
                raise InvalidAction(f"provinces.{name}.allied_units[{i}].faction", "must be an ally",
                                    code="not_an_ally")
        fortress = province.fortress
        if fortress is None:
            continue
        if fortress.garrison > province.units.get(fortress.holder, 0):
            raise InvalidAction(
                f"provinces.{name}.fortress.garrison", "is larger than the holder's units in the province",
                code="garrison_too_large",
            )
        for faction, n in fortress.allied_garrison.items():
            where = f"provinces.{name}.fortress.allied_garrison.{faction}"
            if faction == fortress.holder:
                raise InvalidAction(where, "is the holder: its units inside are the garrison",
                                    code="allied_garrison_of_holder")
            if n < 0:
                raise InvalidAction(where, "must not be negative", code="negative")
            if n > province.units.get(faction, 0):
                raise InvalidAction(where, "is larger than the faction's units in the province",
                                    code="allied_garrison_too_large")
    if inp.naval_capacity < 0:
        raise InvalidAction("army.naval_capacity", "must not be negative", code="negative")


def neighbours(inp: RetreatInput) -> dict[str, dict[str, BorderKind]]:
    """The map as province -> neighbour -> border kind."""
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


def end_problem(inp: RetreatInput, name: str, army_size: int) -> tuple[str, str, str] | None:
    """Why an army of ``army_size`` may not end its retreat in ``name`` (rule, reason, code), or None."""
    province = inp.provinces[name]
    if _enemy_units(inp, province):
        return "R1.3", f"{name} holds enemy units", "retreat_end_enemy"
    if _third_power_units(inp, province):
        return "R1.3", f"{name} holds units of a third power", "retreat_end_third_power"
    # Interpretation: the size compared is the army as it leaves the battle, before any sweeping
    # (R2 happens on the route, after the destination is chosen).
    friendly_control = province.controller in inp.friendly
    if not friendly_control and province.count(inp.friendly) <= army_size:
        return "R1", f"{name} is neither under friendly control nor holds more friendly units than the army", (
            "retreat_end_unfriendly"
        )
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
        # Interpretation: the friendly field units (own and, unless the campaign says otherwise, allied)
        # met in provinces passed through before the destination are swept, all or none: none when
        # together they outnumber the army as it is there. Garrisons stay in their city.
        if i < len(path) - 1:
            own, allied = _sweepable(inp, province)
            if 0 < own + allied <= size:
                size += own + allied
                swept.append(Sweep(name, own + allied, allied))
        reasons: list[PenaltyReason] = []
        # Interpretation: an "enemy control marker" is a province controlled by a faction at war with
        # the retreating one; a fortress city counts when an enemy holds it; a tribe unless the
        # province is under friendly control. One unit per province, however many apply.
        if province.controller in inp.enemies:
            reasons.append(PenaltyReason("enemy_control"))
        if province.fortress is not None and province.fortress.holder in inp.enemies:
            reasons.append(PenaltyReason("enemy_fortress_city"))
        if province.tribe and province.controller not in inp.friendly:
            reasons.append(PenaltyReason("tribe"))
        units = 1 if reasons else 0
        enemy = _enemy_units(inp, province)
        if enemy:
            reasons.append(PenaltyReason("enemy_units", {"count": enemy}))
            units += enemy
        if units:
            penalties.append(Penalty(name, tuple(reasons), units))
    return RouteOption(path, tuple(swept), tuple(penalties), size)


def _field_units(province: Province, faction: str) -> int:
    """A faction's units in a province outside its fortress city (its own, or an ally's it sheltered in)."""
    n = province.units.get(faction, 0)
    if province.fortress is not None:
        n -= province.fortress.inside(faction)
    return max(0, n)


def _sweepable(inp: RetreatInput, province: Province) -> tuple[int, int]:
    """R2: the own and the allied field units a retreat passing through ``province`` may sweep up."""
    allied = sum(_field_units(province, f) for f in sorted(inp.allies)) if inp.sweep_allies else 0
    return _field_units(province, inp.faction), allied


def _fortress_option(inp: RetreatInput) -> FortressOption | None:
    fortress = inp.provinces[inp.battle_province].fortress
    friendly_city = fortress is not None and fortress.holder in inp.friendly
    if inp.sallied:
        if fortress is None or not friendly_city:
            raise InvalidAction("army.sallied", "there is no friendly fortress city in the battle province",
                                code="sallied_without_city")
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
        return RetreatOptions(size, None, (), (), fortress, None, sallied, Blocked("R3", "retreat_sallied"))
    graph = neighbours(inp)
    distances = _distances(inp, graph)
    # Interpretation: "nearest" is counted in provinces entered along a legal retreat route.
    eligible = {name: d for name, d in distances.items() if end_problem(inp, name, size) is None}
    reason: str | None = None
    blocked: Blocked | None = None
    routes: tuple[RouteOption, ...] = ()
    nearest: int | None = min(eligible.values()) if eligible else None
    destinations: tuple[str, ...] = ()
    if nearest is None:
        reason = "R1.4: no eligible province can be reached"
        blocked = Blocked("R1.4", "retreat_unreachable")
    elif nearest > MAX_PROVINCES_ENTERED:
        closest = sorted(name for name, d in eligible.items() if d == nearest)
        reason = f"R1.4: the nearest eligible province ({closest[0]}) is {nearest} provinces away"
        blocked = Blocked("R1.4", "retreat_nearest_too_far", {"province": closest[0], "count": nearest})
    else:
        destinations = tuple(sorted(name for name, d in eligible.items() if d == nearest))
        paths = _all_paths(inp, graph, set(destinations))
        routes = tuple(_route_option(inp, path, size) for path in paths)
    return RetreatOptions(size, nearest, destinations, routes, fortress, _sea_option(inp), reason, blocked)
