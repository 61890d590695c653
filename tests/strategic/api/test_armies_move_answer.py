"""The army move's answer is exactly what the ``MoveOut`` serializer gives for the same move (S5–S7, S9).

The move endpoint builds its answer by hand (it is a hot request); these tests pin it, byte for byte, to the
documented serializer for a plain move, a capture (S6) and moves that begin a battle (S7, with S9 terrain).
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.renderers import JSONRenderer

from campaign.models import LogEntry
from campaign.services import economic_phase_end
from strategic.api.serializers import MoveOut
from strategic.models import Army, Battle, Province
from strategic.services.moves import MoveOutcome
from tests.factories import ArmyFactory, UnitFactory, client_for

C = "/api/campaigns/limes"


@pytest.fixture
def east_turn(world: Any) -> Any:
    """East acts in the strategic phase of turn 1."""
    economic_phase_end(actor=world.moderator, campaign=world.campaign)
    return world


def _serialized(kind: str, army: Army, destination: Province) -> bytes:
    """``MoveOut`` of the move as the database holds it afterwards, rendered like the API renders it."""
    army = Army.objects.get(pk=army.pk)
    battle = Battle.objects.filter(attacker_army=army).first()
    outcome = MoveOutcome(kind, army, Province.objects.get(pk=destination.pk), battle)
    return JSONRenderer().render(MoveOut(outcome).data)


def _move(user: Any, army: Army, destination: Province) -> Any:
    response = client_for(user).post(
        f"{C}/armies/{army.pk}/move/", {"destination": destination.pk}, format="json"
    )
    assert response.status_code == 200, response.content
    return response


def test_s5_a_plain_move_answers_what_move_out_gives(east_turn: Any) -> None:
    w = east_turn
    response = _move(w.east_general, w.east_army, w.moesia)
    assert response.content == _serialized("moved", w.east_army, w.moesia)
    body = response.json()
    assert (body["kind"], body["province"], body["army"]["version"], body["battle"]) == (
        "moved",
        w.moesia.pk,
        2,
        None,
    )
    assert body["army"]["units"] == sorted(w.east_army.units.values_list("pk", flat=True))


def test_s6_a_capture_answers_what_move_out_gives(east_turn: Any) -> None:
    w = east_turn
    response = _move(w.east_leader, w.east_army, w.pannonia)
    assert response.content == _serialized("captured", w.east_army, w.pannonia)
    assert response.json()["kind"] == "captured"
    assert Province.objects.get(pk=w.pannonia.pk).controller_id == w.east.pk
    assert list(
        LogEntry.objects.filter(kind__in=["army_moved", "province_captured"]).values_list("kind", "rule")
    ) == [
        ("army_moved", "S5"),
        ("province_captured", "S6"),
    ]


def test_s7_a_move_into_enemy_units_answers_the_battle_as_move_out_gives(east_turn: Any) -> None:
    w = east_turn
    response = _move(w.moderator, w.east_army, w.dalmatia)
    assert response.content == _serialized("battle", w.east_army, w.dalmatia)
    battle = response.json()["battle"]
    assert (battle["origin"], battle["terrain"], battle["attacker_faction"], battle["defender_faction"]) == (
        w.dacia.pk,
        "field",
        w.east.pk,
        w.west.pk,
    )


def test_s9_a_battle_from_gaul_is_fought_in_the_mountains_and_answered_as_move_out_gives(
    east_turn: Any,
) -> None:
    w = east_turn
    raiders = ArmyFactory(faction=w.east, commander=w.narses, province=w.gaul, name="Raiders")
    UnitFactory(faction=w.east, unit_type=w.infantry, army=raiders)
    response = _move(w.east_leader, raiders, w.dalmatia)
    assert response.content == _serialized("battle", raiders, w.dalmatia)
    assert (response.json()["battle"]["terrain"], response.json()["battle"]["origin"]) == (
        "mountains",
        w.gaul.pk,
    )
