"""Who may write through the strategic API: every write endpoint against every role."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from campaign.services import economic_phase_end
from strategic.messages import NEEDS_COMMANDER, NEEDS_LEADER
from strategic.models import Army, Unit
from strategic.services import armies as services
from tests.factories import ROLES, ArmyFactory, UnitFactory, client_for, user_of

MODERATOR = {"moderator"}
LEADER = {"east_leader", "moderator"}
COMMAND = {"east_general", "east_leader", "moderator"}

Request = tuple[str, str, dict[str, Any] | None]
C = "/api/campaigns/limes"
DAMAGE = {"LI1": 1, "LI2": 1, "HI": 1, "LC": 1, "HC": 1}


def _loose_unit(w: Any) -> Unit:
    return UnitFactory(faction=w.east, unit_type=w.infantry, province=w.dacia)


def _units(w: Any) -> list[int]:
    return sorted(Unit.objects.filter(army=w.east_army).values_list("pk", flat=True))


def _second_army(w: Any) -> Army:
    army = ArmyFactory(faction=w.east, commander=w.narses, province=w.dacia, name="Second army")
    UnitFactory(faction=w.east, unit_type=w.infantry, army=army)
    return army


def _move(w: Any) -> Request:
    economic_phase_end(actor=w.moderator, campaign=w.campaign)
    return "post", f"{C}/armies/{w.east_army.pk}/move/", {"destination": w.moesia.pk}


def _support(w: Any) -> Request:
    # Belisarius' army supports, from Dacia, an attack of Narses' army on Dalmatia.
    economic_phase_end(actor=w.moderator, campaign=w.campaign)
    raid = services.army_move(actor=w.moderator, army=_second_army(w), destination=w.dalmatia)
    assert raid.battle is not None
    return "post", f"{C}/battles/{raid.battle.pk}/support/", {"army": w.east_army.pk, "side": "attacker"}


ENDPOINTS: list[tuple[str, Callable[[Any], Request], set[str]]] = [
    # the map and the unit cards are the moderator's (M1)
    (
        "unit type create",
        lambda w: (
            "post",
            f"{C}/unit-types/",
            {
                "code": "spearmen",
                "name_en": "Spearmen",
                "name_ru": "Копейщики",
                "unit_class": "HI",
                "health": 5,
                "damage": DAMAGE,
            },
        ),
        MODERATOR,
    ),
    ("unit type update", lambda w: ("patch", f"{C}/unit-types/{w.infantry.pk}/", {"morale": 12}), MODERATOR),
    (
        "province create",
        lambda w: (
            "post",
            f"{C}/provinces/",
            {"code": "noricum", "name_en": "Noricum", "name_ru": "Норик", "terrain": "mountains"},
        ),
        MODERATOR,
    ),
    (
        "province update",
        lambda w: ("patch", f"{C}/provinces/{w.italia.pk}/", {"controller": w.east.pk, "reason": "treaty"}),
        MODERATOR,
    ),
    (
        "border set",
        lambda w: ("post", f"{C}/borders/", {"a": w.gaul.pk, "b": w.italia.pk, "kind": "rough"}),
        MODERATOR,
    ),
    (
        "transition set",
        lambda w: (
            "post",
            f"{C}/transitions/",
            {"source": w.dacia.pk, "target": w.pannonia.pk, "terrain": "forest"},
        ),
        MODERATOR,
    ),
    # new units appear in the economic phase by the moderator's hand (S4)
    (
        "unit create",
        lambda w: ("post", f"{C}/units/", {"faction": w.east.pk, "unit_type": w.infantry.pk}),
        MODERATOR,
    ),
    # placing units into armies, forming, splitting, merging, commanders: the leader (S2)
    (
        "unit assign",
        lambda w: ("post", f"{C}/units/{_loose_unit(w).pk}/assign/", {"army": w.east_army.pk}),
        LEADER,
    ),
    (
        "army create",
        lambda w: (
            "post",
            f"{C}/armies/",
            {
                "faction": w.east.pk,
                "commander": w.narses.pk,
                "province": w.dacia.pk,
                "name": "New army",
                "unit_ids": [_loose_unit(w).pk],
            },
        ),
        LEADER,
    ),
    (
        "army split",
        lambda w: (
            "post",
            f"{C}/armies/{w.east_army.pk}/split/",
            {"unit_ids": _units(w)[:1], "name": "Vanguard"},
        ),
        LEADER,
    ),
    (
        "army merge",
        lambda w: ("post", f"{C}/armies/{w.east_army.pk}/merge/", {"into": _second_army(w).pk}),
        LEADER,
    ),
    (
        "army commander",
        lambda w: ("post", f"{C}/armies/{w.east_army.pk}/commander/", {"commander": w.narses.pk}),
        LEADER,
    ),
    # moving: the army's commander too (S5)
    ("army move", _move, COMMAND),
    ("battle support", _support, COMMAND),
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


def test_a_general_refused_a_split_is_told_who_may(world: Any) -> None:
    response = client_for(world.east_general).post(
        f"{C}/armies/{world.east_army.pk}/split/",
        {"unit_ids": _units(world)[:1], "name": "Vanguard"},
        format="json",
    )
    assert (response.status_code, response.json()) == (403, {"status": 403, "code": "needs_leader", "detail": str(NEEDS_LEADER)})


def test_a_player_of_another_faction_refused_a_move_is_told_who_may(world: Any) -> None:
    _method, url, body = _move(world)
    response = client_for(world.west_leader).post(url, body, format="json")
    assert (response.status_code, response.json()) == (
        403, {"status": 403, "code": "needs_commander", "detail": str(NEEDS_COMMANDER)})
    assert Army.objects.get(pk=world.east_army.pk).province == world.dacia
