"""Who may write through the campaign API: every write endpoint against every role."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from campaign.messages import NEEDS_MODERATOR
from campaign.models import Campaign
from campaign.services import economic_phase_end
from tests.factories import ROLES, client_for, user_of

MODERATOR = {"moderator"}
ACTING_FACTION = {"east_general", "east_leader", "moderator"}
LOGGED_IN = set(ROLES) - {"anonymous"}

Request = tuple[str, str, dict[str, Any] | None]


def _strategic(w: Any) -> None:
    economic_phase_end(actor=w.moderator, campaign=w.campaign)


ENDPOINTS: list[tuple[str, Callable[[Any], Request], set[str]]] = [
    # any logged-in user may found a campaign (and moderates it)
    (
        "campaign create",
        lambda w: ("post", "/api/campaigns/", {"slug": "new-war", "name_en": "New", "name_ru": "Новая"}),
        LOGGED_IN,
    ),
    # names, visibility and settings: the moderator
    (
        "campaign update",
        lambda w: ("patch", "/api/campaigns/limes/", {"settings": {"turn_seconds": 30}}),
        MODERATOR,
    ),
    (
        "faction create",
        lambda w: (
            "post",
            "/api/campaigns/limes/factions/",
            {"slug": "huns", "name_en": "Huns", "name_ru": "Гунны"},
        ),
        MODERATOR,
    ),
    # the roster lock (S2) is the moderator's
    (
        "faction update",
        lambda w: ("patch", f"/api/campaigns/limes/factions/{w.east.pk}/", {"roster_locked": True}),
        MODERATOR,
    ),
    (
        "relation set",
        lambda w: (
            "post",
            "/api/campaigns/limes/relations/",
            {"a": w.east.pk, "b": w.goths.pk, "kind": "war"},
        ),
        MODERATOR,
    ),
    (
        "commander create",
        lambda w: ("post", "/api/campaigns/limes/commanders/", {"faction": w.east.pk, "name": "Zeno"}),
        MODERATOR,
    ),
    (
        "membership set",
        lambda w: ("post", "/api/campaigns/limes/memberships/", {"user": "outsider", "role": "observer"}),
        MODERATOR,
    ),
    (
        "invitation create",
        lambda w: ("post", "/api/campaigns/limes/invitations/", {"role": "observer"}),
        MODERATOR,
    ),
    # invitation tokens are secrets: even reading them is the moderator's
    ("invitation list", lambda w: ("get", "/api/campaigns/limes/invitations/", None), MODERATOR),
    ("economic phase end", lambda w: ("post", "/api/campaigns/limes/turn/economic-end/", None), MODERATOR),
    # the acting faction's leader or commanders, or the moderator, end its turn
    (
        "faction pass",
        lambda w: (_strategic(w), ("post", "/api/campaigns/limes/turn/pass/", {"faction": w.east.pk}))[1],
        ACTING_FACTION,
    ),
]


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

    _strategic(world)
    Campaign.objects.filter(pk=world.campaign.pk).update(
        faction_deadline=timezone.now() - timedelta(minutes=1)
    )
    response = client_for(user_of(world, role)).post("/api/campaigns/limes/turn/expire/")
    assert response.status_code == status
