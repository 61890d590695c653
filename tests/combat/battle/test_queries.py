"""The queries the board and the server ask: reachable cells, range, interceptions, preview, dice."""

from __future__ import annotations

from combat.battle.actions import EndInterceptions, EndTurn, Intercept, Move
from combat.battle.engine import apply
from combat.battle.model import BattleState
from combat.battle.queries import (
    StrikePreview,
    cells_in_range,
    interception_routes,
    legal_interceptions,
    move_routes,
    needs_die,
    path_to,
    preview,
    reachable_cells,
    strikes_after_move,
    withdrawal_routes,
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


def test_move_routes_give_each_reachable_cell_a_cheapest_path_ending_on_contact_or_not() -> None:
    state = battle([unit("a", "attacker", "infantry", 5, 10), unit("d", "defender", "light", 5, 7)],
                   cells={"river": [[4, 10]]})
    routes = move_routes(state, "a")
    assert {cell: route.cost for cell, route in routes.items()} == reachable_cells(state, "a")
    # (4, 9) costs 2 round the river, not 3 through it; (5, 8) touches the enemy at (5, 7).
    assert (routes[(5, 8)].path, routes[(5, 8)].contact, routes[(4, 9)].path, routes[(4, 9)].contact) == (
        ((5, 9), (5, 8)), True, ((5, 9), (4, 9)), False)


def test_withdrawal_routes_pay_a_point_to_step_off_and_start_on_the_edge_row() -> None:
    # T11: from (5, 19) the attacker's edge (y = 20) is one step away; from (5, 20) itself, none.
    state = battle([unit("a", "attacker", "infantry", 5, 19), unit("d", "defender", "light", 5, 3)])
    routes = withdrawal_routes(state, "a")
    assert {cell: route.cost for cell, route in routes.items()} == {(5, 20): 2, (4, 20): 3, (6, 20): 3}
    assert routes[(5, 20)].path == ((5, 20),)


def test_a_unit_on_its_edge_row_withdraws_where_it_stands() -> None:
    state = battle([unit("a", "attacker", "infantry", 5, 20), unit("d", "defender", "light", 5, 3)])
    assert withdrawal_routes(state, "a")[(5, 20)].path == ()


def test_interception_routes_use_the_full_speed() -> None:
    state = battle([unit("a", "attacker", "infantry", 5, 10), unit("c", "defender", "cavalry", 9, 3)])
    routes = interception_routes(state, "c")
    assert max(route.cost for route in routes.values()) == 6


FLANK_PATH = ((6, 8), (6, 7), (6, 6), (6, 5))  # 4 cells, ending on the east side of a unit facing south


def test_t7_2_t7_3_t7_4_a_charge_into_the_flank_would_deal_card_damage_plus_two() -> None:
    state = battle([unit("hc", "attacker", "cavalry", 6, 9), unit("hi", "defender", "infantry", 5, 5)])
    # HC against HI is 2 lines, + 1 flank, + 1 charge: 4 lines, in half-lines.
    assert strikes_after_move(state, "hc", FLANK_PATH) == [StrikePreview("hi", 8, True, True)]


def test_t5_t7_3_in_forest_the_same_strike_has_no_charge() -> None:
    state = battle([unit("hc", "attacker", "cavalry", 6, 9), unit("hi", "defender", "infantry", 5, 5)],
                   terrain="forest")
    assert strikes_after_move(state, "hc", FLANK_PATH) == [StrikePreview("hi", 6, True, False)]


def test_t7_4_a_frontal_contact_after_three_cells_is_a_charge_but_no_flank() -> None:
    state = battle([unit("hc", "attacker", "cavalry", 5, 9), unit("hi", "defender", "infantry", 5, 5)])
    assert strikes_after_move(state, "hc", ((5, 8), (5, 7), (5, 6))) == [StrikePreview("hi", 6, False, True)]


def test_a_refused_move_or_one_without_contact_strikes_nothing() -> None:
    state = battle([unit("hc", "attacker", "cavalry", 6, 9), unit("hi", "defender", "infantry", 5, 5)])
    assert strikes_after_move(state, "hc", ((6, 8),)) == []
    assert strikes_after_move(state, "hc", ((7, 7),)) == []  # not a step
