"""Who plays whom: the API shows strangers only what the public pages show (the commanders and their
factions, S3), and the usernames and roles to the campaign's members.

Before it, ``commanders/`` and ``memberships/`` listed every username with its role to anonymous visitors.
"""

from __future__ import annotations

from typing import Any

import pytest

from campaign.messages import NEEDS_MEMBER
from tests.factories import UserFactory, client_for

C = "/api/campaigns/limes"

STRANGERS = [
    pytest.param(lambda w: None, id="anonymous"),
    pytest.param(lambda w: w.outsider, id="logged-in non-member"),
    pytest.param(lambda w: w.other_moderator, id="moderator of another campaign"),
]
MEMBERS = [
    pytest.param(lambda w: w.east_general, id="member"),
    pytest.param(lambda w: w.moderator, id="moderator"),
    pytest.param(lambda w: UserFactory(username="root", is_superuser=True), id="site superuser"),
]


def _commanders(w: Any) -> list[tuple[Any, ...]]:
    return [
        (w.aspar, w.east, "leader", "east_leader"),
        (w.belisarius, w.east, "general", "east_general"),
        (w.narses, w.east, "general", None),
        (w.aetius, w.west, "leader", "west_leader"),
        (w.alaric, w.goths, "leader", None),
        (w.arsaces, w.armenia, "leader", None),
    ]


@pytest.mark.parametrize("who", STRANGERS)
def test_strangers_see_the_commanders_as_the_rosters_show_them(world: Any, who: Any) -> None:
    response = client_for(who(world)).get(f"{C}/commanders/")
    assert (response.status_code, response.json()) == (
        200,
        [{"id": c.pk, "faction": f.pk, "name": c.name} for c, f, _, _ in _commanders(world)],
    )


@pytest.mark.parametrize("who", MEMBERS)
def test_members_see_every_commander_with_his_player(world: Any, who: Any) -> None:
    response = client_for(who(world)).get(f"{C}/commanders/")
    assert (response.status_code, response.json()) == (
        200,
        [
            {
                "id": c.pk,
                "faction": f.pk,
                "name": c.name,
                "rank": rank,
                "user": user,
                "strategy": 10,
                "tactics": 10,
                "has_luck": False,
                "displaced": False,
            }
            for c, f, rank, user in _commanders(world)
        ],
    )


@pytest.mark.parametrize("who", STRANGERS)
def test_strangers_may_not_list_the_memberships(world: Any, who: Any) -> None:
    response = client_for(who(world)).get(f"{C}/memberships/")
    assert (response.status_code, response.json()) == (403, {"status": 403, "code": "needs_member", "detail": str(NEEDS_MEMBER)})


def test_strangers_are_refused_the_memberships_in_russian(world: Any) -> None:
    response = client_for().get(f"{C}/memberships/", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.json() == {"status": 403, "code": "needs_member", "detail": "Кто играет в этой кампании, видят только её участники."}


@pytest.mark.parametrize("who", MEMBERS)
def test_members_see_every_membership_with_its_role(world: Any, who: Any) -> None:
    response = client_for(who(world)).get(f"{C}/memberships/")
    assert (response.status_code, response.json()) == (
        200,
        [
            {"campaign": "limes", "user": "east_general", "role": "commander", "faction": world.east.pk},
            {"campaign": "limes", "user": "east_leader", "role": "leader", "faction": world.east.pk},
            {"campaign": "limes", "user": "west_leader", "role": "leader", "faction": world.west.pk},
            {"campaign": "limes", "user": "moderator", "role": "moderator", "faction": None},
        ],
    )
