"""The queries the board and the server ask: reachable cells, range, interceptions, preview, dice."""

from __future__ import annotations

from combat.battle.actions import EndInterceptions, EndTurn, Intercept, Move
from combat.battle.engine import apply
from combat.battle.model import BattleState
from combat.battle.queries import (
    cells_in_range,
    legal_interceptions,
    needs_die,
    path_to,
    preview,
    reachable_cells,
)
from combat.dice import FixedDice
from tests.combat.builders import T12_UNITS, battle, unit

FAR = unit("far", "defender", "light", 17, 0)


def test_reachable_cells_of_infantry_on_open_field_are_the_diamond_of_radius_3() -> None:
    state = battle([unit("a", "attacker", "infantry", 5, 10), FAR])
    expected = {
        (x, y): abs(x - 5) + abs(y - 10)
        for x in range(18)
        for y in range(21)
        if 0 < abs(x - 5) + abs(y - 10) <= 3
    }
    assert reachable_cells(state, "a") == expected
    assert len(expected) == 24


def test_reachable_cells_pay_two_for_a_river() -> None:
    state = battle([unit("a", "attacker", "infantry", 5, 10), FAR], cells={"river": [[5, 9]]})
    cells = reachable_cells(state, "a")
    assert (cells[(5, 9)], cells[(5, 8)], (5, 7) in cells) == (2, 3, False)


def test_reachable_cells_stop_at_contact() -> None:
    # (5, 8) touches the enemy at (5, 7): reachable, but nothing is reached through it.
    state = battle([unit("a", "attacker", "cavalry", 5, 10), unit("d", "defender", "light", 5, 7)])
    cells = reachable_cells(state, "a")
    assert cells[(5, 8)] == 2
    assert cells[(3, 7)] == 5  # around the cells touching the enemy
    assert (5, 6) not in cells  # the detour to the far side needs 8 points


def test_reachable_cells_empty_for_the_side_not_acting() -> None:
    state = battle([unit("a", "attacker", "infantry", 5, 10), unit("d", "defender", "light", 5, 3)])
    assert reachable_cells(state, "d") == {}


def test_path_to_returns_a_cheapest_path() -> None:
    state = battle([unit("a", "attacker", "infantry", 5, 10), FAR], cells={"wall": [[5, 9]]})
    assert path_to(state, "a", (4, 8)) == ((4, 10), (4, 9), (4, 8))
    assert path_to(state, "a", (5, 8)) is None  # round the wall needs 4 points


def test_range_template_covers_114_cells_in_open_ground() -> None:
    state = battle([unit("bow", "attacker", "archers", 8, 10, "N"), FAR])
    cells = set(cells_in_range(state, "bow"))
    assert len(cells) == 114
    assert {(8, 4), (8, 16), (3, 10), (13, 10), (12, 6)} <= cells
    assert not {(8, 3), (2, 10), (13, 6), (8, 10)} & cells


def test_range_template_is_cut_by_the_grid_edge() -> None:
    state = battle([unit("bow", "attacker", "archers", 0, 20, "N"), FAR])
    # Quarter of the ellipse: rows f = 0..6 with |l| ≤ 5,5,5,4,4,3,2 → (6+6+6+5+5+4+3) - 1 own cell.
    assert len(cells_in_range(state, "bow")) == 34


def t12_window() -> BattleState:
    state = battle(T12_UNITS)
    for action in [
        Move("hi", ((9, 8), (9, 7), (9, 6))),
        Move("hc", ((12, 8), (12, 7), (12, 6), (12, 5), (11, 5), (10, 5))),
        EndTurn(),
    ]:
        state = apply(state, action, FixedDice([])).state
    return state


def test_legal_interceptions_in_the_t12_window() -> None:
    options = {(o.unit, o.target, o.volley): o.cells for o in legal_interceptions(t12_window())}
    assert options == {("left", "hi", False): (((8, 6), 1),), ("left", "hc", False): (((10, 4), 3),)}


def test_preview_before_the_t12_interception() -> None:
    shown = preview(t12_window())
    assert (shown["right"].takes, shown["right"].routed, shown["right"].target) == (7, True, "hi")
    assert (shown["hi"].deals, shown["hi"].takes, shown["hi"].health) == (3, 2, 3)
    assert (shown["hc"].deals, shown["hc"].takes) == (4, 0)


def test_preview_equals_the_resolution_that_follows() -> None:
    state = apply(t12_window(), Intercept("left", "hi", ((8, 6),)), FixedDice([])).state
    shown = preview(state)
    after = apply(state, EndInterceptions(), FixedDice([])).state
    assert {u: p.health for u, p in shown.items()} == {u: after.units[u].health / 2 for u in shown}
    assert {u: p.health for u, p in shown.items()} == {"hi": 2, "left": 2, "hc": 1, "right": 1}


def test_needs_die_when_both_paired_units_would_fall() -> None:
    state = battle(
        [
            unit("a", "attacker", "infantry", 5, 12, health=1),
            unit("d", "defender", "infantry", 5, 11, health=1),
        ]
    )
    assert needs_die(state) is True
    assert preview(state)["a"].needs_die is True


def test_no_die_when_only_one_falls() -> None:
    state = battle(
        [unit("a", "attacker", "infantry", 5, 12, health=1), unit("d", "defender", "infantry", 5, 11)]
    )
    assert needs_die(state) is False
