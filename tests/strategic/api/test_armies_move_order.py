"""The move order's hot path (``army_move_order``) answers every refusal as the general path does: 404 for an
unknown or private campaign and an unknown army, 403 before 400, the field named; few queries (S5–S8)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from campaign.models import Campaign
from campaign.services import economic_phase_end
from strategic.messages import NEEDS_COMMANDER, TIME_UP
from strategic.models import Army, Battle
from tests.factories import ArmyFactory, UnitFactory, client_for

C = "/api/campaigns/limes"


@pytest.fixture
def east_turn(world: Any) -> Any:
    """East acts in the strategic phase of turn 1."""
    economic_phase_end(actor=world.moderator, campaign=world.campaign)
    return world


def _post(user: Any, path: str, body: Any, **kwargs: Any) -> Any:
    return client_for(user).post(f"{C}/{path}", body, **(kwargs or {"format": "json"}))


def _private(w: Any) -> None:
    Campaign.objects.filter(pk=w.campaign.pk).update(is_public=False)


def test_a_member_moves_in_a_private_campaign(east_turn: Any) -> None:
    _private(east_turn)
    response = _post(
        east_turn.east_general, f"armies/{east_turn.east_army.pk}/move/", {"destination": east_turn.moesia.pk}
    )
    assert (response.status_code, response.json()["kind"]) == (200, "moved")


@pytest.mark.parametrize("body", [{"destination": "MOESIA"}, {"destination": "x"}])
def test_an_outsider_is_told_a_private_campaign_does_not_exist(east_turn: Any, body: dict[str, Any]) -> None:
    _private(east_turn)
    if body["destination"] == "MOESIA":
        body = {"destination": east_turn.moesia.pk}
    response = _post(east_turn.outsider, f"armies/{east_turn.east_army.pk}/move/", body)
    assert (response.status_code, response.json()) == (404, {"status": 404, "code": "campaign_not_found", "detail": "No such campaign."})
    assert Army.objects.get(pk=east_turn.east_army.pk).province == east_turn.dacia


def test_a_move_in_an_unknown_campaign_is_404(east_turn: Any) -> None:
    response = client_for(east_turn.moderator).post(
        f"/api/campaigns/nowhere/armies/{east_turn.east_army.pk}/move/",
        {"destination": east_turn.moesia.pk},
        format="json",
    )
    assert (response.status_code, response.json()) == (404, {"status": 404, "code": "campaign_not_found", "detail": "No such campaign."})


def test_a_body_that_does_not_parse_is_answered_after_the_unknown_army(east_turn: Any) -> None:
    unknown = _post(east_turn.moderator, "armies/999999/move/", "{", content_type="application/json")
    known = _post(
        east_turn.moderator, f"armies/{east_turn.east_army.pk}/move/", "{", content_type="application/json"
    )
    assert (unknown.status_code, unknown.json(), known.status_code) == (
        404,
        {"status": 404, "code": "object_not_found", "detail": "No such army in this campaign."},
        400,
    )


def test_an_unknown_destination_is_403_for_a_stranger_and_400_naming_it_for_the_commander(
    east_turn: Any,
) -> None:
    path = f"armies/{east_turn.east_army.pk}/move/"
    stranger = _post(east_turn.west_leader, path, {"destination": 999999})
    commander = _post(east_turn.east_general, path, {"destination": 999999})
    message = 'Invalid pk "999999" - object does not exist.'
    assert (stranger.status_code, stranger.json()) == (403, {"status": 403, "code": "needs_commander", "detail": str(NEEDS_COMMANDER)})
    assert (commander.status_code, commander.json()) == (
        400,
        {"status": 400, "code": "invalid", "detail": message, "errors": {"destination": [message]}},
    )


def test_a_destination_given_as_a_numeric_string_still_moves(east_turn: Any) -> None:
    response = _post(
        east_turn.east_general,
        f"armies/{east_turn.east_army.pk}/move/",
        {"destination": str(east_turn.moesia.pk)},
    )
    assert (response.status_code, response.json()["province"]) == (200, east_turn.moesia.pk)


def test_a_plain_move_takes_few_queries(east_turn: Any, django_assert_max_num_queries: Any) -> None:
    # The campaign's lock, one read of everything the checks need, the army's update, the log entry (with the
    # savepoints of the test's and the log's transactions); no query per unit, faction or relation.
    for _ in range(20):
        UnitFactory(faction=east_turn.east, unit_type=east_turn.infantry, army=east_turn.east_army)
    with django_assert_max_num_queries(8):
        response = _post(
            east_turn.east_general,
            f"armies/{east_turn.east_army.pk}/move/",
            {"destination": east_turn.moesia.pk},
        )
    assert (response.status_code, len(response.json()["army"]["units"])) == (200, 22)


def test_s8_a_second_army_entering_the_same_battle_province_is_told_to_support(east_turn: Any) -> None:
    w = east_turn
    second = ArmyFactory(faction=w.east, commander=w.narses, province=w.dacia, name="Second army")
    UnitFactory(faction=w.east, unit_type=w.infantry, army=second)
    first = _post(w.east_leader, f"armies/{w.east_army.pk}/move/", {"destination": w.dalmatia.pk})
    refused = _post(w.east_leader, f"armies/{second.pk}/move/", {"destination": w.dalmatia.pk})
    assert (first.json()["kind"], refused.status_code, refused.json()["rule"]) == ("battle", 409, "S8")
    assert Battle.objects.filter(province=w.dalmatia).count() == 1


@pytest.mark.parametrize(("seconds", "status"), [(-1, 409), (3600, 200)])  # deadline passed / still ahead
def test_s4_an_order_after_the_factions_deadline_is_409(east_turn: Any, seconds: int, status: int) -> None:
    deadline = timezone.now() + timedelta(seconds=seconds)
    Campaign.objects.filter(pk=east_turn.campaign.pk).update(faction_deadline=deadline)
    response = _post(
        east_turn.east_general, f"armies/{east_turn.east_army.pk}/move/", {"destination": east_turn.moesia.pk}
    )
    assert response.status_code == status
    if status == 409:
        assert response.json() == {"status": 409, "code": "time_up", "detail": str(TIME_UP), "rule": "S4"}
