"""Exact round trips of states, actions and events through plain JSON."""

from __future__ import annotations

import json

import pytest

from combat.battle.actions import (
    Concede,
    Deploy,
    EndBattle,
    EndInterceptions,
    EndTurn,
    Intercept,
    Move,
    PlaceReinforcement,
    Ready,
    Shoot,
    Turn,
    Withdraw,
)
from combat.battle.engine import apply
from combat.battle.model import Facing, Side
from combat.battle.serialize import (
    action_from_dict,
    action_to_dict,
    event_from_dict,
    event_to_dict,
    state_from_dict,
    state_to_dict,
)
from combat.dice import FixedDice
from combat.errors import InvalidAction
from tests.combat.builders import T12_UNITS, battle

T12_ACTIONS = [
    Move("hi", ((9, 8), (9, 7), (9, 6))),
    Move("hc", ((12, 8), (12, 7), (12, 6), (12, 5), (11, 5), (10, 5))),
    EndTurn(),
    Intercept("left", "hi", ((8, 6),)),
    EndInterceptions(),
    EndTurn(),
]


def t12_states_and_events() -> tuple[list, list]:
    state = battle(T12_UNITS, reinforcements=[{"id": "r", "side": "attacker", "type": "archers", "x": 3}])
    states, events = [state], []
    dice = FixedDice([2, 5])
    for action in T12_ACTIONS:
        outcome = apply(state, action, dice)
        state = outcome.state
        states.append(state)
        events.extend(outcome.events)
    return states, events


def test_every_state_of_the_t12_battle_round_trips_through_json() -> None:
    for state in t12_states_and_events()[0]:
        assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state


def test_every_event_of_the_t12_battle_round_trips_through_json() -> None:
    for event in t12_states_and_events()[1]:
        assert event_from_dict(json.loads(json.dumps(event_to_dict(event)))) == event


def test_event_dict_carries_its_type_and_lines() -> None:
    events = t12_states_and_events()[1]
    shot = next(e for e in events if e.type == "melee_resolved")
    data = event_to_dict(shot)
    assert data["type"] == "melee_resolved"
    assert {"unit": "hc", "target": "right", "damage": 4, "flank": True, "charge": True} in data["strikes"]


@pytest.mark.parametrize(
    "action",
    [
        Move("a", ((1, 2), (1, 3))),
        Turn("a", Facing.W),
        Shoot("a", "b"),
        Withdraw("a", ()),
        Withdraw("a", ((1, 20),)),
        EndTurn(),
        EndTurn(Side.DEFENDER),
        Intercept("a", "b", ((3, 4),)),
        Intercept("a", "b"),
        EndInterceptions(),
        Concede(Side.ATTACKER),
        EndBattle(Side.DEFENDER),
        Deploy("a", 3, 19, Facing.N),
        Ready(Side.ATTACKER),
        PlaceReinforcement("a", 4),
        PlaceReinforcement("a", 4, Facing.E),
    ],
)
def test_action_round_trips_through_the_scenario_format(action: object) -> None:
    assert action_from_dict(json.loads(json.dumps(action_to_dict(action)))) == action  # type: ignore[arg-type]


def test_action_dict_uses_the_scenario_format() -> None:
    assert action_to_dict(Intercept("left", "hi", ((8, 6),))) == {
        "do": "intercept",
        "unit": "left",
        "target": "hi",
        "path": [[8, 6]],
    }


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"do": "move", "unit": "a"}, "action.path"),
        ({"do": "move", "unit": "a", "path": [[1, "2"]]}, "action.path[0]"),
        ({"do": "turn", "unit": "a", "facing": "NE"}, "action.facing"),
        ({"do": "fly"}, "action.do"),
        ({"do": "end_turn", "who": "me"}, "action.who"),
        ({"do": "concede", "side": "both"}, "action.side"),
    ],
)
def test_malformed_action_names_the_field(data: dict, field: str) -> None:
    with pytest.raises(InvalidAction) as invalid:
        action_from_dict(data)
    assert invalid.value.field == field
