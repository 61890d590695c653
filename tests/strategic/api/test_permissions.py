"""Who may write through the strategic API: every write endpoint against every role."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from strategic.messages import NEEDS_COMMANDER, NEEDS_LEADER
from strategic.models import Army
from tests.factories import ROLES, client_for, user_of
from tests.strategic.builders import ENDPOINTS, C, Request, army_unit_ids, move_request


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


def test_a_general_refused_a_split_is_told_who_may(world: Any) -> None:
    response = client_for(world.east_general).post(
        f"{C}/armies/{world.east_army.pk}/split/",
        {"unit_ids": army_unit_ids(world)[:1], "name": "Vanguard"},
        format="json",
    )
    assert (response.status_code, response.json()) == (403, {"status": 403, "code": "needs_leader", "detail": str(NEEDS_LEADER)})


def test_a_player_of_another_faction_refused_a_move_is_told_who_may(world: Any) -> None:
    _method, url, body = move_request(world)
    response = client_for(world.west_leader).post(url, body, format="json")
    assert (response.status_code, response.json()) == (403, {"status": 403, "code": "needs_commander", "detail": str(NEEDS_COMMANDER)})
    assert Army.objects.get(pk=world.east_army.pk).province == world.dacia
