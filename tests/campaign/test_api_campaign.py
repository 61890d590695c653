"""The campaign API: reads, the token, settings, invitations, the turn and the log."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from campaign import services
from campaign.messages import INVITATION_USED, NOT_ECONOMIC, TURN_NOT_OVERDUE
from campaign.models import Campaign, Invitation
from tests.factories import client_for

C = "/api/campaigns/limes"
READS = [
    "",
    "factions/",
    "relations/",
    "commanders/",
    "memberships/",
    "turn/",
    "log/",
    "unit-types/",
    "provinces/",
    "borders/",
    "transitions/",
    "units/",
    "armies/",
    "battles/",
]


# Who plays in the campaign is for its members (tests/campaign/test_api_players.py).
@pytest.mark.parametrize("path", [path for path in READS if path != "memberships/"])
def test_public_campaign_reads_are_open_to_anonymous(world: Any, path: str) -> None:
    assert client_for().get(f"{C}/{path}").status_code == 200


@pytest.mark.parametrize("path", READS)
def test_private_campaign_reads_are_404_for_non_members(world: Any, path: str) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(is_public=False)
    response = client_for(world.other_moderator).get(f"{C}/{path}")
    assert (response.status_code, response.json()) == (404, {"status": 404, "code": "campaign_not_found", "detail": "No such campaign."})


def test_private_campaign_is_readable_by_its_members(world: Any) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(is_public=False)
    assert client_for(world.west_leader).get(f"{C}/").json()["slug"] == "limes"


def test_campaign_list_hides_private_campaigns(world: Any) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(is_public=False)
    assert (
        [c["slug"] for c in client_for().get("/api/campaigns/").json()],
        [c["slug"] for c in client_for(world.east_leader).get("/api/campaigns/").json()],
    ) == (["other"], ["limes", "other"])


def test_token_is_obtained_with_username_and_password(world: Any) -> None:
    world.east_leader.set_password("s3cret-Pass")
    world.east_leader.save()
    token = (
        APIClient()
        .post("/api/auth/token/", {"username": "east_leader", "password": "s3cret-Pass"}, format="json")
        .json()["token"]
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = client.post(
        f"{C}/armies/{world.east_army.pk}/commander/", {"commander": world.narses.pk}, format="json"
    )
    assert (response.status_code, response.json()["commander"]) == (200, world.narses.pk)


def test_token_with_a_wrong_password_is_400(world: Any) -> None:
    response = APIClient().post(
        "/api/auth/token/", {"username": "east_leader", "password": "nope"}, format="json"
    )
    assert response.status_code == 400


def test_settings_update_answers_each_bad_setting(world: Any) -> None:
    response = client_for(world.moderator).patch(
        f"{C}/", {"settings": {"turn_seconds": "fast", "colour": 1}}, format="json"
    )
    assert (response.status_code, response.json()["errors"]) == (
        400,
        {"turn_seconds": ["Must be a number."], "colour": ["Unknown setting."]},
    )


def test_campaign_update_changes_names_and_settings(world: Any) -> None:
    body = (
        client_for(world.moderator)
        .patch(f"{C}/", {"name_en": "The Limes", "settings": {"turn_seconds": 30}}, format="json")
        .json()
    )
    assert (body["name_en"], body["settings"]["turn_seconds"], body["settings"]["faction_turn_hours"]) == (
        "The Limes",
        30,
        48,
    )


def test_campaign_create_with_a_bad_slug_is_400(world: Any) -> None:
    response = client_for(world.outsider).post(
        "/api/campaigns/", {"slug": "a b", "name_en": "x", "name_ru": "x"}, format="json"
    )
    assert (response.status_code, list(response.json()["errors"])) == (400, ["slug"])


def test_relation_with_an_unknown_kind_is_400(world: Any) -> None:
    response = client_for(world.moderator).post(
        f"{C}/relations/", {"a": world.east.pk, "b": world.goths.pk, "kind": "friends"}, format="json"
    )
    assert (response.status_code, list(response.json()["errors"])) == (400, ["kind"])


def test_relation_with_a_faction_of_another_campaign_is_400(world: Any) -> None:
    from tests.factories import FactionFactory

    foreign = FactionFactory()
    response = client_for(world.moderator).post(
        f"{C}/relations/", {"a": world.east.pk, "b": foreign.pk, "kind": "war"}, format="json"
    )
    assert (response.status_code, list(response.json()["errors"])) == (400, ["b"])


def test_invitation_accepted_through_the_api(world: Any) -> None:
    created = client_for(world.moderator).post(
        f"{C}/invitations/",
        {"role": "leader", "faction": world.goths.pk, "commander": world.alaric.pk},
        format="json",
    )
    response = client_for(world.outsider).post(
        "/api/invitations/accept/", {"token": created.json()["token"]}, format="json"
    )
    assert (response.status_code, response.json()) == (
        201,
        {"campaign": "limes", "user": "outsider", "role": "leader", "faction": world.goths.pk},
    )


def test_invitation_used_twice_is_409(world: Any) -> None:
    invitation = Invitation.objects.create(campaign=world.campaign, role="observer")
    client_for(world.outsider).post("/api/invitations/accept/", {"token": invitation.token}, format="json")
    response = client_for(world.other_moderator).post(
        "/api/invitations/accept/", {"token": invitation.token}, format="json"
    )
    assert (response.status_code, response.json()["detail"]) == (409, str(INVITATION_USED))


def test_turn_state_with_deadline(world: Any) -> None:
    body = client_for(world.moderator).post(f"{C}/turn/economic-end/").json()
    assert (
        body["turn"],
        body["phase"],
        body["current_faction"],
        body["seconds_left"] > 47 * 3600,
        [f["slug"] for f in body["factions"]],
    ) == (1, "strategic", world.east.pk, True, ["east", "west", "goths", "armenia"])


def test_economic_phase_end_twice_is_409(world: Any) -> None:
    client_for(world.moderator).post(f"{C}/turn/economic-end/")
    response = client_for(world.moderator).post(f"{C}/turn/economic-end/")
    assert (response.status_code, response.json()) == (
        409,
        {"status": 409, "code": "not_economic", "detail": str(NOT_ECONOMIC), "rule": "S4"},
    )


def test_a_repeated_pass_is_409_and_passes_nobody_else(world: Any) -> None:
    services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    client_for(world.east_leader).post(f"{C}/turn/pass/", {"faction": world.east.pk}, format="json")
    response = client_for(world.east_leader).post(
        f"{C}/turn/pass/", {"faction": world.east.pk}, format="json"
    )
    assert (response.status_code, Campaign.objects.get(pk=world.campaign.pk).current_faction) == (
        409,
        world.west,
    )


def test_expiring_a_turn_in_time_is_409(world: Any) -> None:
    services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    response = client_for(world.west_leader).post(f"{C}/turn/expire/")
    assert (response.status_code, response.json()["detail"]) == (409, str(TURN_NOT_OVERDUE))


def test_log_reads_entries_after_an_id(world: Any) -> None:
    services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    services.faction_turn_pass(actor=world.east_leader, faction=world.east)
    entries = client_for().get(f"{C}/log/").json()
    later = client_for().get(f"{C}/log/?after={entries[0]['id']}").json()
    assert ([e["kind"] for e in entries], [e["kind"] for e in later], entries[1]["actor"]) == (
        ["economic_phase_ended", "faction_turn_passed"],
        ["faction_turn_passed"],
        "east_leader",
    )


def test_log_with_a_bad_after_is_400(world: Any) -> None:
    response = client_for().get(f"{C}/log/?after=yesterday")
    assert (response.status_code, list(response.json()["errors"])) == (400, ["after"])


def test_unknown_campaign_is_404(world: Any) -> None:
    assert client_for(world.moderator).post("/api/campaigns/nowhere/turn/economic-end/").status_code == 404
