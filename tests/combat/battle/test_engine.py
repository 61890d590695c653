"""``apply`` behaviours that case files cannot show: events, the window's edges, replay, deployment."""

from __future__ import annotations

import pytest

from combat.battle.actions import (
    Deploy,
    EndBattle,
    EndInterceptions,
    EndTurn,
    Intercept,
    Move,
    Ready,
    Shoot,
    Turn,
)
from combat.battle.engine import apply, replay
from combat.battle.events import InterceptionDeclared, MeleeResolved
from combat.battle.model import BattleState, Facing, Phase, Side, Status
from combat.battle.scenario import load
from combat.dice import FixedDice
from combat.errors import IllegalAction, InvalidAction
from tests.combat.builders import T12_UNITS, battle, scenario, unit

T12_MOVES = [
    Move("hi", ((9, 8), (9, 7), (9, 6))),
    Move("hc", ((12, 8), (12, 7), (12, 6), (12, 5), (11, 5), (10, 5))),
    EndTurn(),
]


def play(state: BattleState, actions: list, dice: list[int] | None = None) -> tuple[BattleState, list]:
    source = FixedDice(dice or [])
    events: list = []
    for action in actions:
        outcome = apply(state, action, source)
        state = outcome.state
        events.extend(outcome.events)
    return state, events


def t12_window() -> BattleState:
    return play(battle(T12_UNITS), T12_MOVES)[0]


def test_t12_window_is_open_for_the_defender_after_the_attacker_turn() -> None:
    state = t12_window()
    assert (state.round, state.side, state.phase) == (1, Side.DEFENDER, Phase.INTERCEPTION)


def test_t10_4_interception_is_recorded_as_an_event() -> None:
    _, events = play(t12_window(), [Intercept("left", "hi", ((8, 6),))])
    assert events[0] == InterceptionDeclared("left", "hi", False, ((8, 6),), 1)


def test_t12_resolution_event_shows_flank_and_charge() -> None:
    _, events = play(t12_window(), [Intercept("left", "hi", ((8, 6),)), EndInterceptions()])
    resolved = next(e for e in events if isinstance(e, MeleeResolved))
    strikes = {(s.unit, s.target): (s.damage, s.flank, s.charge) for s in resolved.strikes}
    assert strikes == {
        ("hi", "left"): (3, False, False),
        ("left", "hi"): (3, True, False),
        ("hc", "right"): (4, True, True),
        ("right", "hc"): (4, False, False),
    }
    assert resolved.pairs == (("hi", "left"), ("hc", "right"))


def test_t10_1_other_action_closes_window_and_applies_after_resolution() -> None:
    state, events = play(t12_window(), [Move("left", ((7, 5),))])
    assert [e.type for e in events] == [
        "window_closed",
        "melee_resolved",
        "unit_routed",
        "turn_started",
        "moved",
    ]
    assert state.units["left"].cell == (7, 5)


def test_t10_1_closing_action_refused_after_resolution_changes_nothing() -> None:
    state = t12_window()
    with pytest.raises(IllegalAction) as refused:
        apply(state, Move("hi", ((9, 7),)), FixedDice([]))
    assert refused.value.rule == "T6"
    assert state.phase is Phase.INTERCEPTION


def test_t9_3_volley_of_the_side_whose_turn_ended_keeps_window_open() -> None:
    units = [*T12_UNITS, unit("bow", "attacker", "archers", 6, 10, "N")]
    state = play(battle(units), [*T12_MOVES, Shoot("bow", "left")])[0]
    assert state.phase is Phase.INTERCEPTION
    assert state.units["left"].health == 6  # 5 lines - 2 (missile damage against HI) = 3 lines


def test_t10_intercept_outside_a_window_is_refused() -> None:
    with pytest.raises(IllegalAction) as refused:
        apply(battle(T12_UNITS), Intercept("left", "hi", ((8, 6),)), FixedDice([]))
    assert refused.value.rule == "T10"


def test_t6_end_turn_naming_the_other_side_is_refused() -> None:
    with pytest.raises(IllegalAction) as refused:
        apply(battle(T12_UNITS), EndTurn(Side.DEFENDER), FixedDice([]))
    assert refused.value.rule == "T6"


def test_unknown_unit_is_invalid_not_illegal() -> None:
    with pytest.raises(InvalidAction) as invalid:
        apply(battle(T12_UNITS), Turn("ghost", Facing.E), FixedDice([]))
    assert invalid.value.field == "unit"


def test_t11_battle_ending_while_window_closes_voids_the_action() -> None:
    # The attacker's only unit falls in the resolution that the defender's turn makes at once.
    units = [
        unit("c", "attacker", "cavalry", 5, 15, health=1),
        unit("d", "defender", "infantry", 5, 10),
        unit("bow", "defender", "archers", 8, 6, "S"),
    ]
    state = play(battle(units), [Move("c", ((5, 14), (5, 13), (5, 12), (5, 11))), EndTurn()])[0]
    assert state.phase is Phase.INTERCEPTION  # the archers could volley-intercept c
    state, events = play(state, [Turn("bow", Facing.E)])
    assert state.winner is Side.DEFENDER
    assert [e.type for e in events] == [
        "window_closed",
        "melee_resolved",
        "unit_routed",
        "battle_ended",
        "action_void",
    ]
    assert state.units["bow"].facing is Facing.S


def test_t11_moderator_ends_the_battle() -> None:
    state, events = play(battle(T12_UNITS), [EndBattle(Side.DEFENDER)])
    assert (state.winner, state.phase) == (Side.DEFENDER, Phase.ENDED)
    assert events[-1].type == "battle_ended"


def test_t8_2_leaving_damage_can_rout_at_the_start_cell() -> None:
    units = [
        unit("a", "attacker", "light", 5, 12, health=1),
        unit("d", "defender", "infantry", 5, 11),
        unit("e", "attacker", "light", 15, 18),
    ]
    state, events = play(battle(units), [Move("a", ((5, 13),))])
    assert state.units["a"].status is Status.ROUTED
    assert state.units["a"].cell == (5, 12)
    assert [e.type for e in events] == ["left_melee", "unit_routed"]


def test_t7_6_contact_placed_in_scenario_first_listed_survives_on_low_die() -> None:
    units = [
        unit("a", "attacker", "infantry", 5, 12, health=1),
        unit("d", "defender", "infantry", 5, 11, health=1),
        unit("f", "defender", "light", 15, 2),
    ]
    state = play(battle(units), [EndTurn()], dice=[2])[0]
    assert state.units["a"].health == 2 and state.units["d"].status is Status.ROUTED


def test_replay_of_actions_and_dice_gives_the_same_state() -> None:
    actions = [*T12_MOVES, Intercept("left", "hi", ((8, 6),)), EndInterceptions(), EndTurn()]
    state = play(battle(T12_UNITS), actions, dice=[2, 5])[0]
    assert replay(battle(T12_UNITS), actions, FixedDice([2, 5])) == state


def deployment() -> BattleState:
    data = scenario(
        [
            {"id": "a", "side": "attacker", "type": "infantry"},
            {"id": "d", "side": "defender", "type": "infantry"},
        ],
        deployment=True,
    )
    return load(data)[0]


def test_deployment_a_unit_may_be_placed_again_before_ready() -> None:
    state = play(deployment(), [Deploy("a", 5, 19, Facing.E), Deploy("a", 6, 20, Facing.E)])[0]
    assert state.units["a"].cell == (6, 20)


def test_deployment_after_ready_is_refused() -> None:
    state = play(deployment(), [Deploy("a", 5, 19, Facing.E), Ready(Side.ATTACKER)])[0]
    with pytest.raises(IllegalAction) as refused:
        apply(state, Deploy("a", 6, 19, Facing.E), FixedDice([]))
    assert refused.value.rule == "T1"


def test_deployment_moving_before_both_ready_is_refused() -> None:
    with pytest.raises(IllegalAction) as refused:
        apply(deployment(), EndTurn(), FixedDice([]))
    assert refused.value.rule == "T6"


def test_both_ready_starts_round_one_with_full_points() -> None:
    actions = [
        Deploy("a", 5, 19, Facing.E),
        Deploy("d", 5, 1, Facing.E),
        Ready(Side.ATTACKER),
        Ready(Side.DEFENDER),
    ]
    state = play(deployment(), actions)[0]
    assert (state.round, state.side, state.phase) == (1, Side.ATTACKER, Phase.MOVE)
    assert state.units["a"].points == 3


def test_state_rebuilt_from_the_event_log_dice_equals_the_live_state() -> None:
    from combat.battle.events import DieRolled
    from combat.dice import SeededDice

    actions = [*T12_MOVES, Intercept("left", "hi", ((8, 6),)), EndInterceptions(), EndTurn()]
    live, events = battle(T12_UNITS), []
    dice = SeededDice(b"battle-seed")
    for action in actions:
        outcome = apply(live, action, dice)
        live, events = outcome.state, events + list(outcome.events)
    rolled = [event.value for event in events if isinstance(event, DieRolled)]
    assert rolled == dice.rolls and len(rolled) == 2
    assert replay(battle(T12_UNITS), actions, FixedDice(rolled)) == live
