"""Nothing a user can send makes the API fail with a 500: every write endpoint against odd bodies."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.services import economic_phase_end
from tests.factories import ArmyFactory, CampaignFactory, ProvinceFactory, UnitFactory, client_for

C = "/api/campaigns/limes"
HUGE = 2**70

ODD_VALUES: list[Any] = [None, True, -1, 0, HUGE, -HUGE, 1.5, "", "x" * 500, [], [HUGE], {}, {"a": 1}, "1e9"]


def _write_urls(w: Any) -> list[tuple[str, str]]:
    unit = UnitFactory(faction=w.east, unit_type=w.infantry, province=w.dacia)
    return [
        ("post", "/api/campaigns/"),
        ("patch", f"{C}/"),
        ("post", f"{C}/factions/"),
        ("patch", f"{C}/factions/{w.east.pk}/"),
        ("post", f"{C}/relations/"),
        ("post", f"{C}/commanders/"),
        ("post", f"{C}/memberships/"),
        ("post", f"{C}/invitations/"),
        ("post", "/api/invitations/accept/"),
        ("post", f"{C}/turn/pass/"),
        ("post", f"{C}/unit-types/"),
        ("patch", f"{C}/unit-types/{w.infantry.pk}/"),
        ("post", f"{C}/provinces/"),
        ("patch", f"{C}/provinces/{w.dacia.pk}/"),
        ("post", f"{C}/borders/"),
        ("post", f"{C}/transitions/"),
        ("post", f"{C}/units/"),
        ("post", f"{C}/units/{unit.pk}/assign/"),
        ("post", f"{C}/armies/"),
        ("post", f"{C}/armies/{w.east_army.pk}/split/"),
        ("post", f"{C}/armies/{w.east_army.pk}/merge/"),
        ("post", f"{C}/armies/{w.east_army.pk}/commander/"),
        ("post", f"{C}/armies/{w.east_army.pk}/move/"),
        ("post", f"{C}/battles/{HUGE}/support/"),
    ]


FIELDS = [
    "slug",
    "name_en",
    "name_ru",
    "settings",
    "color",
    "turn_order",
    "naval_capacity",
    "roster_locked",
    "leader",
    "a",
    "b",
    "kind",
    "faction",
    "name",
    "rank",
    "user",
    "role",
    "commander",
    "token",
    "code",
    "unit_class",
    "health",
    "damage",
    "missile_damage",
    "arrows",
    "morale",
    "terrain",
    "controller",
    "capital_of",
    "x",
    "y",
    "shape",
    "reason",
    "source",
    "target",
    "unit_type",
    "province",
    "army",
    "unit_ids",
    "into",
    "destination",
    "expected_version",
    "side",
    "is_public",
    "description",
]


@pytest.mark.parametrize("value", ODD_VALUES, ids=[repr(v)[:20] for v in ODD_VALUES])
def test_odd_values_in_every_field_never_give_a_server_error(world: Any, value: Any) -> None:
    economic_phase_end(actor=world.moderator, campaign=world.campaign)
    client = client_for(world.moderator)
    body = {field: value for field in FIELDS}
    for method, url in _write_urls(world):
        response = getattr(client, method)(url, body, format="json")
        assert response.status_code < 500, (url, response.content)


def test_ids_of_another_campaign_are_refused(world: Any) -> None:
    other = CampaignFactory()
    foreign_province = ProvinceFactory(campaign=other)
    foreign_army = ArmyFactory(faction__campaign=other)
    economic_phase_end(actor=world.moderator, campaign=world.campaign)
    client = client_for(world.moderator)
    move = client.post(
        f"{C}/armies/{world.east_army.pk}/move/", {"destination": foreign_province.pk}, format="json"
    )
    merge = client.post(f"{C}/armies/{world.east_army.pk}/merge/", {"into": foreign_army.pk}, format="json")
    foreign_path = client.post(
        f"{C}/armies/{foreign_army.pk}/move/", {"destination": world.moesia.pk}, format="json"
    )
    assert (move.status_code, merge.status_code, foreign_path.status_code) == (400, 400, 404)


@pytest.mark.parametrize("payload", ["[", "null", "12", '{"destination": NaN}', "\u0000"])
def test_malformed_json_is_400(world: Any, payload: str) -> None:
    response = client_for(world.moderator).post(
        f"{C}/armies/{world.east_army.pk}/move/", payload, content_type="application/json"
    )
    assert response.status_code == 400


def _all_endpoints() -> list[Any]:
    from tests.campaign.builders import ENDPOINTS as CAMPAIGN_ENDPOINTS
    from tests.strategic.builders import ENDPOINTS as STRATEGIC_ENDPOINTS

    return [e for e in CAMPAIGN_ENDPOINTS + STRATEGIC_ENDPOINTS if e[0] != "invitation list"]


@pytest.mark.parametrize(("name", "make", "allowed"), _all_endpoints(), ids=[e[0] for e in _all_endpoints()])
def test_one_odd_field_in_a_valid_order_never_gives_a_server_error(
    world: Any, name: str, make: Any, allowed: Any
) -> None:
    method, url, body = make(world)
    client = client_for(world.moderator)
    for field in list(body or {}) + ["unexpected"]:
        for value in ODD_VALUES:
            response = getattr(client, method)(url, {**(body or {}), field: value}, format="json")
            assert response.status_code < 500, (field, value, response.content)


@pytest.mark.parametrize(
    "path",
    ["armies/{n}/", "armies/{n}/destinations/", "units/{n}/", "battles/{n}/", "provinces/{n}/", "unit-types/{n}/",
     "factions/{n}/"],
)
def test_huge_ids_in_paths_are_404(world: Any, path: str) -> None:
    response = client_for(world.moderator).get(f"{C}/{path.format(n=HUGE)}")
    assert response.status_code == 404
