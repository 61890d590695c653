"""Strategic refusals carry the stable code of their sentence (docs/errors.md): the constant's name."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.errors import ServiceError
from campaign.models import Campaign
from campaign.services import economic_phase_end
from strategic.services import moves


@pytest.fixture
def east_turn(world: Any) -> Any:
    """The strategic phase of turn 1 has begun: East acts."""
    economic_phase_end(actor=world.moderator, campaign=world.campaign)
    return world


def test_s4_a_move_out_of_turn_is_not_your_turn(world: Any) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(phase=Campaign.Phase.STRATEGIC,
                                                         current_faction=world.west)
    world.campaign.refresh_from_db()
    with pytest.raises(ServiceError) as refused:
        moves.army_move(actor=world.east_general, army=world.east_army, destination=world.moesia)
    assert (refused.value.status, refused.value.code, refused.value.rule) == (409, "not_your_turn", "S4")


def test_s5_a_second_move_is_already_moved(east_turn: Any) -> None:
    w = east_turn
    moves.army_move(actor=w.east_general, army=w.east_army, destination=w.moesia)
    with pytest.raises(ServiceError) as refused:
        moves.army_move(actor=w.east_general, army=w.east_army, destination=w.dacia)
    assert (refused.value.status, refused.value.code, refused.value.rule) == (409, "already_moved", "S5")


@pytest.mark.parametrize(
    ("destination", "code"),
    [
        ("italia", "not_adjacent"),  # no border with Dacia (S5)
        ("gaul", "impassable"),  # an impassable border (S5)
    ],
)
def test_s5_a_refused_destination_names_its_code_and_the_field(east_turn: Any, destination: str, code: str) -> None:
    w = east_turn
    with pytest.raises(ServiceError) as refused:
        moves.army_move(actor=w.east_general, army=w.east_army, destination=getattr(w, destination))
    assert (refused.value.status, refused.value.code, refused.value.field) == (400, code, "destination")


def test_s5_an_order_by_a_stranger_is_needs_commander(east_turn: Any) -> None:
    w = east_turn
    with pytest.raises(ServiceError) as refused:
        moves.army_move(actor=w.west_leader, army=w.east_army, destination=w.moesia)
    assert (refused.value.status, refused.value.code) == (403, "needs_commander")
