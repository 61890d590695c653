"""Who may write through the campaign API: every write endpoint against every role."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from campaign.messages import NEEDS_MODERATOR
from campaign.models import Campaign
from tests.campaign.builders import ENDPOINTS, Request, strategic_phase
from tests.factories import ROLES, client_for, user_of


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("name", "make", "allowed"), ENDPOINTS, ids=[e[0] for e in ENDPOINTS])
def test_write_permission_matrix(
    world: Any, role: str, name: str, make: Callable[[Any], Request], allowed: set[str]
) -> None:
    method, url, body = make(world)
    response = getattr(client_for(user_of(world, role)), method)(url, body, format="json")
    if role in allowed:
        assert response.status_code in (200, 201, 204), response.content
    else:
        assert response.status_code == 403, response.content
        assert response.json()["detail"]


def test_a_refused_moderator_write_says_what_is_needed(world: Any) -> None:
    response = client_for(world.east_leader).post(
        "/api/campaigns/limes/relations/",
        {"a": world.east.pk, "b": world.goths.pk, "kind": "war"},
        format="json",
    )
    assert (response.status_code, response.json()) == (403, {"status": 403, "code": "needs_moderator", "detail": str(NEEDS_MODERATOR)})


def test_a_refused_write_leaves_the_state(world: Any) -> None:
    client_for(world.other_moderator).patch("/api/campaigns/limes/", {"is_public": False}, format="json")
    assert Campaign.objects.get(pk=world.campaign.pk).is_public is True


def test_anonymous_writes_are_refused_by_the_api(world: Any) -> None:
    response = client_for().post("/api/campaigns/limes/turn/economic-end/")
    assert (response.status_code, response.json()) == (
        403,
        {"status": 403, "code": "not_authenticated",
         "detail": "Authentication credentials were not provided."},
    )


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("anonymous", 403),  # must log in first
        ("west_leader", 409),  # already has a role in the campaign
        ("east_general", 409),
        ("east_leader", 409),
        ("other_moderator", 201),  # a moderator elsewhere is a newcomer here
        ("moderator", 409),
    ],
)
def test_invitation_accept_matrix(world: Any, role: str, status: int) -> None:
    from campaign.models import Invitation

    invitation = Invitation.objects.create(campaign=world.campaign, role="observer")
    response = client_for(user_of(world, role)).post(
        "/api/invitations/accept/", {"token": invitation.token}, format="json"
    )
    assert response.status_code == status


@pytest.mark.parametrize(("role", "status"), [(role, 403 if role == "anonymous" else 200) for role in ROLES])
def test_expiring_an_overdue_turn_is_open_to_anyone_logged_in(world: Any, role: str, status: int) -> None:
    from datetime import timedelta

    from django.utils import timezone

    strategic_phase(world)
    Campaign.objects.filter(pk=world.campaign.pk).update(
        faction_deadline=timezone.now() - timedelta(minutes=1)
    )
    response = client_for(user_of(world, role)).post("/api/campaigns/limes/turn/expire/")
    assert response.status_code == status
