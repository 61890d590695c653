"""R1–R4 on random small maps: every listed route is accepted as listed, and nothing else is."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from combat.errors import IllegalAction
from combat.retreat.apply import apply_retreat
from combat.retreat.model import ArmyUnit, Border, BorderKind, Province, RetreatChoice, RetreatInput, Side
from combat.retreat.routes import retreat_options

NAMES = ["Battle", "P1", "P2", "P3", "P4", "P5", "P6"]
FACTIONS = ["Rome", "Latins", "Samnites", "Etruscans", None]


@st.composite
def situations(draw: st.DrawFn) -> RetreatInput:
    provinces = {}
    for name in NAMES:
        counts = draw(st.dictionaries(st.sampled_from(FACTIONS[:4]), st.integers(0, 3), max_size=2))
        provinces[name] = Province(
            name,
            controller=draw(st.sampled_from(FACTIONS)),
            tribe=draw(st.booleans()),
            units={f: n for f, n in counts.items() if f is not None},
            own_units=tuple(ArmyUnit(f"{name}-{i}", 3) for i in range(counts.get("Rome", 0))),
            allied_units=tuple(ArmyUnit(f"{name}-l{i}", 2, "Latins") for i in range(counts.get("Latins", 0))),
        )
    pairs = draw(
        st.lists(
            st.sampled_from(list(itertools.combinations(NAMES, 2))), min_size=4, max_size=12, unique=True
        )
    )
    kinds = st.sampled_from([BorderKind.NORMAL, BorderKind.NORMAL, BorderKind.NORMAL, BorderKind.ROUGH])
    borders = tuple(Border(a, b, draw(kinds)) for a, b in pairs)
    size = draw(st.integers(1, 4))
    return RetreatInput(
        faction="Rome",
        side=draw(st.sampled_from(list(Side))),
        units=tuple(ArmyUnit(f"u{i}", 1 + i) for i in range(size)),
        battle_province="Battle",
        attacker_origin=draw(st.sampled_from(NAMES[1:])),
        provinces=provinces,
        borders=borders,
        allies=frozenset({"Latins"}),
        enemies=frozenset({"Samnites"}),
        sweep_allies=draw(st.booleans()),
    )


# Every route of 1 to 4 provinces that never re-enters one: the legal ones must be exactly the listed ones.
SIMPLE_PATHS = [p for n in range(1, 5) for p in itertools.permutations(NAMES[1:], n)]


@settings(max_examples=40, deadline=None)
@given(situations())
def test_r1_listed_routes_and_only_they_are_accepted(inp: RetreatInput) -> None:
    options = retreat_options(inp)
    listed = {r.path: r for r in options.routes}
    accepted = set()
    for path in SIMPLE_PATHS:
        try:
            result = apply_retreat(inp, RetreatChoice(route=path))
        except IllegalAction:
            assert path not in listed
            continue
        accepted.add(path)
        option = listed[path]
        assert result.destination in options.destinations
        assert len(result.army) == option.army_size - option.losses
        assert len(path) <= 4
        # R2: swept allied units stay their faction's, and only when the campaign sweeps allies.
        allied = [u for u in (*result.army, *result.lost_units) if u.faction]
        assert all(u.faction in inp.allies for u in allied)
        assert len(allied) == sum(s.allied for s in option.swept)
        assert inp.sweep_allies or not allied
        if inp.side is Side.ATTACKER:
            assert path[0] == inp.attacker_origin
        else:
            assert inp.attacker_origin not in path
    assert accepted == set(listed)
