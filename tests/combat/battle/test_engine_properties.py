"""Properties of ``apply`` over random battles (hypothesis): purity, determinism, board invariants."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combat.battle.actions import Action, EndInterceptions, EndTurn, Intercept, Move, Shoot, Turn, Withdraw
from combat.battle.engine import apply
from combat.battle.events import Event
from combat.battle.geometry import in_grid
from combat.battle.model import BattleState, Facing, Phase, Status
from combat.battle.queries import legal_interceptions, path_to, reachable_cells
from combat.battle.serialize import event_to_dict, state_to_dict
from combat.dice import FixedDice
from combat.errors import IllegalAction
from tests.combat.builders import TYPES, battle

KINDS = sorted(TYPES)
STEPS = [(0, -1), (1, 0), (0, 1), (-1, 0)]


@st.composite
def start_states(draw: st.DrawFn) -> BattleState:
    """2–4 units a side in the middle of the field, close enough to meet."""
    cells = draw(
        st.lists(st.tuples(st.integers(2, 15), st.integers(5, 15)), min_size=4, max_size=10, unique=True)
    )
    half = len(cells) // 2
    units = []
    for index, (x, y) in enumerate(cells):
        side = "attacker" if index < half else "defender"
        units.append(
            {
                "id": f"{side[0]}{index}",
                "side": side,
                "type": draw(st.sampled_from(KINDS)),
                "x": x,
                "y": y,
                "facing": draw(st.sampled_from("NESW")),
            }
        )
    terrain = draw(st.sampled_from(["field", "forest", "mountains", "desert"]))
    river = draw(st.lists(st.tuples(st.integers(0, 17), st.integers(0, 20)), max_size=6, unique=True))
    river = [cell for cell in river if cell not in cells]
    return battle(units, terrain, cells={"river": [list(c) for c in river]} if river else {})


def draw_path(draw: st.DrawFn, start: tuple[int, int], longest: int) -> tuple[tuple[int, int], ...]:
    x, y = start
    path = []
    for _ in range(draw(st.integers(0 if longest == 0 else 1, max(longest, 1)))):
        dx, dy = draw(st.sampled_from(STEPS))
        x, y = x + dx, y + dy
        path.append((x, y))
    return tuple(path)


def aimed_path(state: BattleState, unit_id: str, target_id: str | None = None) -> tuple[tuple[int, int], ...]:
    """Greedy orthogonal steps toward an enemy (the nearest, or ``target_id``) until next to it."""
    unit = state.units[unit_id]
    enemies = [u for u in state.units.values() if u.on_field and u.side is not unit.side]
    if target_id is not None and state.units[target_id].on_field:
        enemies = [state.units[target_id]]
    if not enemies or not unit.on_field:
        return ((0, 0),)
    x, y = unit.cell
    goal = min(enemies, key=lambda e: abs(e.cell[0] - x) + abs(e.cell[1] - y)).cell
    path = []
    while abs(goal[0] - x) + abs(goal[1] - y) > 1 and len(path) < 6:
        if abs(goal[0] - x) >= abs(goal[1] - y):
            x += 1 if goal[0] > x else -1
        else:
            y += 1 if goal[1] > y else -1
        path.append((x, y))
    return tuple(path) or ((x, y - 1),)


def draw_action(draw: st.DrawFn, state: BattleState) -> Action:
    ids = list(state.units)
    acting = [u.id for u in state.units.values() if u.side is state.side and u.on_field] or ids
    if state.phase is Phase.INTERCEPTION and draw(st.booleans()):
        options = legal_interceptions(state)
        if options:
            option = draw(st.sampled_from(options))
            if option.volley:
                return Intercept(option.unit, option.target)
            end = draw(st.sampled_from(option.cells))[0]
            return Intercept(option.unit, option.target, path_to(state, option.unit, end, full_speed=True))
    unit_id = draw(st.sampled_from(acting if draw(st.integers(0, 9)) else ids))
    unit = state.units[unit_id]
    start = unit.cell if unit.x is not None else (0, 0)
    kind = draw(
        st.sampled_from(["move"] * 5 + ["turn", "shoot", "end", "intercept", "intercept", "stop", "withdraw"])
    )
    if kind == "move":
        return Move(unit_id, aimed_path(state, unit_id) if draw(st.booleans()) else draw_path(draw, start, 6))
    if kind == "turn":
        return Turn(unit_id, draw(st.sampled_from(list(Facing))))
    if kind == "shoot":
        return Shoot(unit_id, draw(st.sampled_from(ids)))
    if kind == "intercept":
        target = draw(st.sampled_from(ids))
        path = aimed_path(state, unit_id, target) if draw(st.booleans()) else None
        return Intercept(unit_id, target, path)
    if kind == "stop":
        return EndInterceptions()
    if kind == "withdraw":
        return Withdraw(unit_id, draw_path(draw, start, 3))
    return EndTurn()


def play(
    state: BattleState, actions: list[Action], dice: list[int]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    source = FixedDice(list(dice))
    events: list[Event] = []
    for action in actions:
        try:
            outcome = apply(state, action, source)
        except IllegalAction:
            continue
        state, events = outcome.state, events + list(outcome.events)
    return state_to_dict(state), [event_to_dict(e) for e in events]


def check_board(state: BattleState) -> None:
    cells = [u.cell for u in state.units.values() if u.status is Status.FIELD]
    assert len(cells) == len(set(cells)), "two units share a cell"
    for u in state.units.values():
        assert u.status in (Status.FIELD, Status.ROUTED, Status.WITHDRAWN, Status.RESERVE)
        if u.x is not None:
            assert in_grid(u.x, u.y or 0), f"{u.id} is off the grid at ({u.x}, {u.y})"


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DICE = [1, 4, 6, 2, 3, 5] * 40


@SETTINGS
@given(start=start_states(), data=st.data())
def test_apply_keeps_inputs_and_board_invariants(start: BattleState, data: st.DataObject) -> None:
    state = start
    dice = FixedDice(list(DICE))
    for _ in range(40):
        action = draw_action(data.draw, state)
        before = state_to_dict(state)
        try:
            outcome = apply(state, action, dice)
        except IllegalAction:
            assert state_to_dict(state) == before  # a refused action changes nothing
            continue
        assert state_to_dict(state) == before  # the input state is never changed
        new = outcome.state
        survivor = new.settings.survivor_halves
        for unit_id, old_unit in state.units.items():
            health = new.units[unit_id].health
            # T7.6 sets a survivor to the setting's health; nothing else ever raises health.
            assert health <= old_unit.health or health == survivor, f"{unit_id} rose to {health}"
        check_board(new)
        state = new


@SETTINGS
@given(start=start_states(), data=st.data())
def test_same_actions_and_dice_give_the_same_result(start: BattleState, data: st.DataObject) -> None:
    actions = []
    state = start
    dice = FixedDice(list(DICE))
    for _ in range(30):
        chosen = draw_action(data.draw, state)
        actions.append(chosen)
        try:
            state = apply(state, chosen, dice).state
        except IllegalAction:
            pass
    assert play(start, actions, DICE) == play(start, actions, DICE)


@SETTINGS
@given(start=start_states(), data=st.data())
def test_queries_agree_with_apply(start: BattleState, data: st.DataObject) -> None:
    """Every reachable cell is reached by ``path_to`` at its listed cost; every legal interception applies."""
    state = start
    dice = FixedDice(list(DICE))
    for _ in range(25):
        if state.phase is Phase.MOVE:
            for unit in state.units.values():
                cells = reachable_cells(state, unit.id)
                for cell in list(cells)[:4]:
                    path = path_to(state, unit.id, cell)
                    assert path is not None and path[-1] == cell
                    moved = apply(state, Move(unit.id, path), FixedDice(list(DICE))).events[0]
                    assert getattr(moved, "cost", None) == cells[cell] or moved.type == "left_melee"
        if state.phase is Phase.INTERCEPTION:
            for option in legal_interceptions(state):
                path = (
                    None
                    if option.volley
                    else path_to(state, option.unit, option.cells[0][0], full_speed=True)
                )
                apply(state, Intercept(option.unit, option.target, path), FixedDice(list(DICE)))
        try:
            state = apply(state, draw_action(data.draw, state), dice).state
        except IllegalAction:
            pass


JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=5),
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


def _mutate(data: Any, draw: st.DrawFn) -> Any:
    """Replace one randomly chosen value (or add a stray key) somewhere in a JSON document."""
    if isinstance(data, dict) and data:
        key = draw(st.sampled_from(sorted(data)))
        choice = draw(st.integers(0, 3))
        copy = dict(data)
        if choice == 0:
            copy[key] = draw(JSON_VALUES)
        elif choice == 1:
            copy[draw(st.text(max_size=6))] = draw(JSON_VALUES)
        elif choice == 2:
            del copy[key]
        else:
            copy[key] = _mutate(data[key], draw)
        return copy
    if isinstance(data, list) and data:
        index = draw(st.integers(0, len(data) - 1))
        copy_list = list(data)
        copy_list[index] = _mutate(data[index], draw) if draw(st.booleans()) else draw(JSON_VALUES)
        return copy_list
    return draw(JSON_VALUES)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_malformed_scenario_is_refused_by_invalid_action_never_a_crash(data: st.DataObject) -> None:
    from combat.battle.scenario import run
    from combat.errors import InvalidAction
    from tests.combat.builders import T12_UNITS, scenario

    base = scenario(
        [*T12_UNITS, {"id": "bow", "side": "attacker", "type": "archers", "x": 3, "y": 15, "health": 2.5}],
        cells={"river": [[1, 1]]},
        settings={"range_template": {"forward": 6.5, "lateral": 5.5}},
        dice=[2, 5],
        reinforcements=[{"id": "r", "side": "defender", "type": "light", "x": 4}],
        actions=[
            {"do": "move", "unit": "hi", "path": [[9, 8], [9, 7], [9, 6]]},
            {"do": "shoot", "unit": "bow", "target": "left"},
            {"do": "end_turn"},
            {"do": "intercept", "unit": "left", "target": "hi", "path": [[8, 6]]},
            {"do": "end_interceptions"},
        ],
    )
    mutated = _mutate(base, data.draw)
    try:
        code, result = run(mutated)
    except InvalidAction as error:
        assert error.field and error.message
        return
    assert code in (0, 3)
    json.dumps(result)
