"""M1: the moderator's corrections as a pure function — each change checked, contacts kept or redrawn."""

from __future__ import annotations

import pytest

from combat.battle.corrections import CorrectionError, changes_from_list, correct
from combat.battle.model import Facing, Status
from tests.combat.builders import battle, unit

UNITS = [
    unit("a", "attacker", "infantry", 5, 10, "N"),
    unit("b", "attacker", "archers", 6, 12, "N"),
    unit("d", "defender", "spearmen", 5, 9, "S"),  # in contact with a
    unit("e", "defender", "spearmen", 9, 9, "S"),
]


def _refusal(changes: object) -> tuple[str, str]:
    state = battle(UNITS)
    with pytest.raises(CorrectionError) as caught:
        correct(state, changes_from_list(changes))
    return caught.value.field, caught.value.code


def test_a_unit_moved_away_loses_its_contact_and_one_moved_next_to_an_enemy_initiates_one() -> None:
    state = battle(UNITS)
    assert list(state.contacts) == [("a", "d")]
    new, events = correct(state, changes_from_list([{"unit": "a", "x": 9, "y": 10}]))
    assert [(c.a, c.b, c.initiator, c.charge) for c in new.contacts.values()] == [("a", "e", "a", False)]
    assert events == [{"type": "unit_corrected", "unit": "a", "before": {"x": 5, "y": 10}, "after": {"x": 9, "y": 10}}]
    assert state.units["a"].cell == (5, 10)  # the input state is unchanged


def test_a_contact_still_touched_is_kept_with_its_initiator() -> None:
    state = battle(UNITS)
    new, _events = correct(state, changes_from_list([{"unit": "a", "facing": "E"}]))
    assert new.contacts == state.contacts
    assert new.units["a"].facing is Facing.E


def test_health_and_arrows_are_set_in_lines_and_whole_arrows() -> None:
    new, events = correct(battle(UNITS), changes_from_list([{"unit": "b", "health": 1.5, "arrows": 1}]))
    assert (new.units["b"].health, new.units["b"].arrows) == (3, 1)
    assert events[0]["after"] == {"health": 1.5, "arrows": 1}


def test_a_unit_set_to_0_is_routed_and_the_last_one_ends_the_battle() -> None:
    new, events = correct(battle(UNITS[:3]), changes_from_list([{"unit": "d", "health": 0}]))
    assert new.units["d"].status is Status.ROUTED
    assert [e["type"] for e in events] == ["unit_corrected", "unit_routed", "battle_ended"]
    assert new.winner is not None and new.winner.value == "attacker"


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ([{"unit": "a", "x": 5, "y": 9}], ("changes[0].x", "occupied")),
        ([{"unit": "a", "x": 18, "y": 9}], ("changes[0].x", "off_grid")),
        ([{"unit": "a", "health": 5.5}], ("changes[0].health", "health_range")),
        ([{"unit": "b", "arrows": 5}], ("changes[0].arrows", "arrows_range")),
        ([{"unit": "a", "arrows": 1}], ("changes[0].arrows", "arrows_range")),
        ([{"unit": "z", "facing": "N"}], ("changes[0].unit", "no_unit")),
        ([{"unit": "a", "x": 1, "y": 1}, {"unit": "b", "x": 1, "y": 1}], ("changes[1].x", "occupied")),
    ],
)
def test_a_bad_change_names_its_field(changes: object, expected: tuple[str, str]) -> None:
    assert _refusal(changes) == expected
