"""The strategic API with valid orders, bad input (400), conflicts (409) and unknown objects (404)."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Campaign
from campaign.services import economic_phase_end
from strategic.messages import (
    ALREADY_MOVED,
    BATTLE_STARTED,
    NOT_ADJACENT,
    NOT_YOUR_TURN,
    ROSTER_LOCKED,
    STALE_VERSION,
)
from strategic.models import Army, Battle, Unit
from strategic.services import moves
from tests.factories import ArmyFactory, CampaignFactory, ProvinceFactory, UnitFactory, client_for

C = "/api/campaigns/limes"


@pytest.fixture
def east_turn(world: Any) -> Any:
    """East acts in the strategic phase of turn 1."""
    economic_phase_end(actor=world.moderator, campaign=world.campaign)
    return world


def _move(w: Any, body: Any, user: Any = None, army: Army | None = None) -> Any:
    army = army or w.east_army
    return client_for(user or w.east_general).post(f"{C}/armies/{army.pk}/move/", body, format="json")


def _army_state(w: Any) -> tuple[int, int | None, int]:
    army = Army.objects.get(pk=w.east_army.pk)
    return army.province_id, army.moved_turn, army.version


def test_move_answers_what_happened(east_turn: Any) -> None:
    w = east_turn
    body = _move(w, {"destination": w.moesia.pk, "expected_version": 1}).json()
    assert (
        body["kind"],
        body["province"],
        body["army"]["province"],
        body["army"]["moved_turn"],
        body["army"]["version"],
        body["battle"],
    ) == ("moved", w.moesia.pk, w.moesia.pk, 1, 2, None)


def test_move_into_enemy_units_answers_the_battle(east_turn: Any) -> None:
    w = east_turn
    body = _move(w, {"destination": w.dalmatia.pk}).json()
    assert (
        body["kind"],
        body["battle"]["province"],
        body["battle"]["origin"],
        body["battle"]["terrain"],
        body["battle"]["attacker_faction"],
        body["battle"]["defender_faction"],
        body["battle"]["status"],
        body["battle"]["winner"],
    ) == ("battle", w.dalmatia.pk, w.dacia.pk, "field", w.east.pk, w.west.pk, "pending", "")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "destination"),  # missing
        ({"destination": "dalmatia"}, "destination"),  # wrong type
        ({"destination": 999999}, "destination"),  # unknown id
        ({"destination": "MOESIA", "expected_version": "first"}, "expected_version"),  # wrong type
        ({"destination": "MOESIA", "expected_version": 0}, "expected_version"),  # below 1
    ],
)
def test_move_bad_input_is_400_naming_the_field(east_turn: Any, body: dict[str, Any], field: str) -> None:
    before = _army_state(east_turn)
    if body.get("destination") == "MOESIA":
        body = {**body, "destination": east_turn.moesia.pk}
    response = _move(east_turn, body)
    assert (response.status_code, list(response.json()["errors"])) == (400, [field])
    assert _army_state(east_turn) == before


def test_move_to_a_province_of_another_campaign_is_400(east_turn: Any) -> None:
    elsewhere = ProvinceFactory(campaign=CampaignFactory())
    response = _move(east_turn, {"destination": elsewhere.pk})
    assert (response.status_code, list(response.json()["errors"])) == (400, ["destination"])


def test_move_to_a_province_not_adjacent_is_400_with_the_rule(east_turn: Any) -> None:
    response = _move(east_turn, {"destination": east_turn.italia.pk})
    assert (response.status_code, response.json()) == (
        400,
        {
            "status": 400,
            "code": "not_adjacent",
            "detail": str(NOT_ADJACENT),
            "rule": "S5",
            "errors": {"destination": [str(NOT_ADJACENT)]},
        },
    )


@pytest.mark.parametrize("payload", ["[1, 2]", "not json", '"text"'])
def test_a_body_that_is_not_an_object_is_400(east_turn: Any, payload: str) -> None:
    response = client_for(east_turn.east_general).post(
        f"{C}/armies/{east_turn.east_army.pk}/move/", payload, content_type="application/json"
    )
    assert response.status_code == 400


def test_second_move_is_409(east_turn: Any) -> None:
    w = east_turn
    _move(w, {"destination": w.moesia.pk})
    response = _move(w, {"destination": w.dacia.pk})
    assert (response.status_code, response.json()) == (
        409,
        {"status": 409, "code": "already_moved", "detail": str(ALREADY_MOVED), "rule": "S5"},
    )


def test_stale_version_is_409(east_turn: Any) -> None:
    response = _move(east_turn, {"destination": east_turn.moesia.pk, "expected_version": 5})
    assert (response.status_code, response.json()["errors"]) == (
        409,
        {"expected_version": [str(STALE_VERSION)]},
    )


def test_move_out_of_turn_is_409(east_turn: Any) -> None:
    w = east_turn
    response = _move(w, {"destination": w.dacia.pk}, user=w.west_leader, army=w.west_army)
    assert (response.status_code, response.json()["rule"]) == (409, "S4")


def test_unknown_army_is_404(east_turn: Any) -> None:
    response = client_for(east_turn.moderator).post(
        f"{C}/armies/999999/move/", {"destination": 1}, format="json"
    )
    assert (response.status_code, response.json()) == (
        404, {"status": 404, "code": "object_not_found", "detail": "No such army in this campaign."})


def test_army_of_another_campaign_is_404(east_turn: Any) -> None:
    foreign = ArmyFactory(faction__campaign=CampaignFactory())
    response = client_for(east_turn.moderator).get(f"{C}/armies/{foreign.pk}/")
    assert response.status_code == 404


def test_destinations_of_an_army(east_turn: Any) -> None:
    body = client_for().get(f"{C}/armies/{east_turn.east_army.pk}/destinations/").json()
    assert (
        body["may_move"],
        body["reason"],
        [(d["code"], d["kind"], d["terrain"]) for d in body["destinations"]],
    ) == (
        True,
        None,
        [("dalmatia", "battle", "field"), ("moesia", "move", "field"), ("pannonia", "capture", "desert")],
    )


def test_destinations_say_why_an_army_may_not_move(world: Any) -> None:
    body = client_for().get(f"{C}/armies/{world.west_army.pk}/destinations/").json()
    assert (body["may_move"], body["reason"], body["rule"]) == (False, str(NOT_YOUR_TURN), "S4")


def test_split_with_units_of_another_army_is_400(world: Any) -> None:
    foreign = list(world.west_army.units.values_list("pk", flat=True))
    response = client_for(world.moderator).post(
        f"{C}/armies/{world.east_army.pk}/split/", {"unit_ids": foreign, "name": "Turncoats"}, format="json"
    )
    assert (response.status_code, list(response.json()["errors"])) == (400, ["unit_ids"])
    assert Unit.objects.filter(army=world.west_army).count() == 2


def test_army_create_with_wrong_types_is_400(world: Any) -> None:
    response = client_for(world.east_leader).post(
        f"{C}/armies/",
        {
            "faction": world.east.pk,
            "commander": world.narses.pk,
            "province": world.dacia.pk,
            "name": "x",
            "unit_ids": "all",
        },
        format="json",
    )
    assert (response.status_code, list(response.json()["errors"])) == (400, ["unit_ids"])


def test_unit_assign_moves_a_new_unit_into_an_army(world: Any) -> None:
    unit = UnitFactory(faction=world.east, unit_type=world.infantry, province=world.dacia)
    body = (
        client_for(world.east_leader)
        .post(f"{C}/units/{unit.pk}/assign/", {"army": world.east_army.pk}, format="json")
        .json()
    )
    assert (body["army"], body["province"], body["location"]) == (world.east_army.pk, None, world.dacia.pk)


def test_unit_assign_when_locked_is_409(world: Any) -> None:
    world.east.roster_locked = True
    world.east.save()
    unit = UnitFactory(faction=world.east, unit_type=world.infantry, province=world.dacia)
    response = client_for(world.east_leader).post(
        f"{C}/units/{unit.pk}/assign/", {"army": world.east_army.pk}, format="json"
    )
    assert (response.status_code, response.json()) == (
        409,
        {"status": 409, "code": "roster_locked", "detail": str(ROSTER_LOCKED), "rule": "S2"},
    )


def test_unit_create_answers_the_new_unit(world: Any) -> None:
    body = (
        client_for(world.moderator)
        .post(f"{C}/units/", {"faction": world.east.pk, "unit_type": world.archers.pk}, format="json")
        .json()
    )
    assert (body["army"], body["province"], body["health"], body["health_halves"], body["arrows"]) == (
        None,
        world.dacia.pk,
        3.0,
        6,
        4,
    )


def test_unit_type_with_incomplete_damage_is_400(world: Any) -> None:
    response = client_for(world.moderator).post(
        f"{C}/unit-types/",
        {
            "code": "odd",
            "name_en": "Odd",
            "name_ru": "Странные",
            "unit_class": "HI",
            "health": 5,
            "damage": {"HI": 3},
        },
        format="json",
    )
    assert (response.status_code, list(response.json()["errors"])) == (400, ["damage.LI1", "damage.LI2", "damage.LC", "damage.HC"])


def test_border_kind_null_removes_it(world: Any) -> None:
    response = client_for(world.moderator).post(
        f"{C}/borders/", {"a": world.dacia.pk, "b": world.gaul.pk, "kind": None}, format="json"
    )
    pairs = {(b["a"], b["b"]) for b in client_for().get(f"{C}/borders/").json()}
    assert (response.status_code, tuple(sorted((world.dacia.pk, world.gaul.pk))) in pairs, len(pairs)) == (
        204,
        False,
        7,
    )


@pytest.fixture
def battle(east_turn: Any) -> Battle:
    """East's army attacks Dalmatia."""
    outcome = moves.army_move(
        actor=east_turn.east_general, army=east_turn.east_army, destination=east_turn.dalmatia
    )
    assert outcome.battle is not None
    return outcome.battle


def test_support_answers_the_declaration(world: Any, battle: Battle) -> None:
    second = ArmyFactory(faction=world.east, commander=world.narses, province=world.dacia)
    body = (
        client_for(world.east_leader)
        .post(f"{C}/battles/{battle.pk}/support/", {"army": second.pk, "side": "attacker"}, format="json")
        .json()
    )
    assert (body["battle"], body["army"], body["side"], body["from_adjacent"]) == (
        battle.pk,
        second.pk,
        "attacker",
        True,
    )


def test_support_after_the_battle_started_is_409(world: Any, battle: Battle) -> None:
    Battle.objects.filter(pk=battle.pk).update(status=Battle.Status.TACTICAL)
    second = ArmyFactory(faction=world.east, commander=world.narses, province=world.dacia)
    response = client_for(world.east_leader).post(
        f"{C}/battles/{battle.pk}/support/", {"army": second.pk, "side": "attacker"}, format="json"
    )
    assert (response.status_code, response.json()) == (
        409,
        {"status": 409, "code": "battle_started", "detail": str(BATTLE_STARTED), "rule": "S8"},
    )


def test_support_with_a_bad_side_is_400(world: Any, battle: Battle) -> None:
    response = client_for(world.east_leader).post(
        f"{C}/battles/{battle.pk}/support/", {"army": world.east_army.pk, "side": "both"}, format="json"
    )
    assert (response.status_code, list(response.json()["errors"])) == (400, ["side"])


def test_battles_are_listed_for_anyone(world: Any, battle: Battle) -> None:
    body = client_for().get(f"{C}/battles/").json()
    assert [(b["id"], b["status"], b["supports"]) for b in body] == [(battle.pk, "pending", [])]


def test_private_campaign_armies_are_404_for_outsiders(world: Any) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(is_public=False)
    assert (
        client_for(world.outsider).get(f"{C}/armies/").status_code,
        client_for(world.west_leader).get(f"{C}/armies/").status_code,
    ) == (404, 200)


def test_a_card_stored_with_partial_damage_still_reads(world: Any) -> None:
    from strategic.models import UnitType

    UnitType.objects.filter(pk=world.archers.pk).update(damage={"HI": 1})
    cards = {c["code"]: c["damage"] for c in client_for().get(f"{C}/unit-types/").json()}
    assert cards["archers"] == {"HI": 1}
