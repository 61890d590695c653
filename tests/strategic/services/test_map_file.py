"""Map export and import (S5, S9, R1.3): the round trip, outlines, replace, permissions."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from campaign.errors import Conflict, Forbidden, ServiceError
from campaign.models import Campaign, LogEntry
from campaign.services import campaign_create, faction_create
from strategic.geometry import polygon_area, province_outlines, voronoi_cell
from strategic.messages import MAP_EXISTS
from strategic.models import Army, Border, Province, TerrainTransition
from strategic.services import map_file as map_io
from tests.strategic.builders import small_map

pytestmark = pytest.mark.django_db

DEMO_MAP = Path(__file__).resolve().parents[3] / "strategic" / "demo" / "late_roman_map.json"


@pytest.fixture
def moderator() -> Any:
    return get_user_model().objects.create_user("mod")


@pytest.fixture
def campaign(moderator: Any) -> Campaign:
    return campaign_create(actor=moderator, slug="c1", name_en="C1", name_ru="К1")


def test_demo_map_round_trip_is_exact(moderator: Any, campaign: Campaign) -> None:
    map_io.map_import(actor=moderator, campaign=campaign, data=json.loads(DEMO_MAP.read_text()))
    first = map_io.map_export(campaign=campaign)
    other = campaign_create(actor=moderator, slug="c2", name_en="C2", name_ru="К2")
    map_io.map_import(actor=moderator, campaign=other, data=json.loads(json.dumps(first)))
    assert map_io.map_export(campaign=other) == first


def test_import_reports_what_it_did(moderator: Any, campaign: Campaign) -> None:
    report = map_io.map_import(actor=moderator, campaign=campaign, data=small_map())
    assert report.as_dict() == {
        "created": 3,
        "updated": 0,
        "deleted": 0,
        "borders": 2,
        "transitions": 1,
        "outlines_computed": 3,
    }


def test_import_stores_every_province_field(moderator: Any, campaign: Campaign) -> None:
    map_io.map_import(actor=moderator, campaign=campaign, data=small_map())
    dalmatia = Province.objects.get(campaign=campaign, code="dalmatia")
    assert (dalmatia.name_en, dalmatia.name_ru, dalmatia.terrain, dalmatia.x, dalmatia.y) == (
        "Dalmatia",
        "Далмация",
        "field",
        500,
        300,
    )
    assert (dalmatia.is_port, dalmatia.has_fortress, dalmatia.fortress_capacity, dalmatia.has_tribe) == (
        True,
        True,
        4,
        False,
    )


def test_omitted_flags_take_their_defaults(moderator: Any, campaign: Campaign) -> None:
    map_io.map_import(actor=moderator, campaign=campaign, data=small_map())
    gallia = Province.objects.get(campaign=campaign, code="gallia")
    assert (gallia.is_port, gallia.has_fortress, gallia.fortress_capacity, gallia.has_tribe) == (
        False,
        False,
        3,
        False,
    )


def test_borders_are_stored_once_with_their_kinds(moderator: Any, campaign: Campaign) -> None:
    map_io.map_import(actor=moderator, campaign=campaign, data=small_map())
    kinds = {frozenset((b.a.code, b.b.code)): b.kind for b in Border.objects.filter(campaign=campaign)}
    assert kinds == {frozenset(("gallia", "dalmatia")): "rough", frozenset(("dacia", "dalmatia")): "normal"}
    assert all(b.a_id < b.b_id for b in Border.objects.filter(campaign=campaign))


def test_s9_transition_is_stored_for_its_direction_only(moderator: Any, campaign: Campaign) -> None:
    map_io.map_import(actor=moderator, campaign=campaign, data=small_map())
    rows = [
        (t.source.code, t.target.code, t.terrain) for t in TerrainTransition.objects.filter(campaign=campaign)
    ]
    assert rows == [("gallia", "dalmatia", "mountains")]


def test_missing_outlines_are_voronoi_cells_splitting_the_map(moderator: Any, campaign: Campaign) -> None:
    map_io.map_import(actor=moderator, campaign=campaign, data=small_map())
    shapes = {p.code: p.shape for p in Province.objects.filter(campaign=campaign)}
    # Sites at x = 200, 500, 800 cut the 1000 × 700 map at x = 350 and x = 650.
    assert shapes["gallia"] == [[0, 0], [350, 0], [350, 700], [0, 700]]
    assert sorted(map(tuple, shapes["dalmatia"])) == [(350, 0), (350, 700), (650, 0), (650, 700)]


def test_sea_sites_take_area_from_the_provinces_but_are_not_stored(
    moderator: Any, campaign: Campaign
) -> None:
    data = {**small_map(), "sea": [[500, 650]]}
    map_io.map_import(actor=moderator, campaign=campaign, data=data)
    dalmatia = Province.objects.get(campaign=campaign, code="dalmatia")
    assert polygon_area(dalmatia.shape) < 300 * 700
    assert "sea" not in map_io.map_export(campaign=campaign)


def test_an_outline_given_in_the_file_is_kept(moderator: Any, campaign: Campaign) -> None:
    data = small_map()
    data["provinces"][0]["outline"] = [[10, 10], [300, 10], [300, 600]]
    report = map_io.map_import(actor=moderator, campaign=campaign, data=data)
    assert Province.objects.get(campaign=campaign, code="gallia").shape == [[10, 10], [300, 10], [300, 600]]
    assert report.outlines_computed == 2


def test_voronoi_cells_of_the_demo_map_tile_the_picture() -> None:
    data = json.loads(DEMO_MAP.read_text())
    positions = {p["code"]: (p["x"], p["y"]) for p in data["provinces"]}
    sites = list(positions.values()) + [tuple(s) for s in data["sea"]]
    total = sum(polygon_area(voronoi_cell(s, sites)) for s in sites)
    assert total == pytest.approx(1000 * 700)
    assert all(len(o) >= 3 for o in province_outlines(positions, data["sea"]).values())


def test_import_is_logged(moderator: Any, campaign: Campaign) -> None:
    map_io.map_import(actor=moderator, campaign=campaign, data=small_map())
    entry = LogEntry.objects.filter(campaign=campaign, kind="map_imported").get()
    assert (entry.actor, entry.rule, entry.data["created"], entry.data["replace"]) == (
        moderator,
        "M1",
        3,
        False,
    )


def test_second_import_without_replace_is_refused(moderator: Any, campaign: Campaign) -> None:
    map_io.map_import(actor=moderator, campaign=campaign, data=small_map())
    with pytest.raises(Conflict) as refused:
        map_io.map_import(actor=moderator, campaign=campaign, data=small_map())
    assert refused.value.message == str(MAP_EXISTS)


def test_replace_updates_by_code_and_keeps_armies_in_place(moderator: Any, campaign: Campaign) -> None:
    map_io.map_import(actor=moderator, campaign=campaign, data=small_map())
    army = _army_in(campaign, moderator, "dacia")
    data = small_map()
    data["provinces"][2]["terrain"] = "mountains"
    data["provinces"] = [p for p in data["provinces"] if p["code"] != "gallia"]
    data["borders"] = [{"a": "dacia", "b": "dalmatia", "kind": "strait"}]
    data["transitions"] = []
    report = map_io.map_import(actor=moderator, campaign=campaign, data=data, replace=True)
    assert (report.created, report.updated, report.deleted) == (0, 2, 1)
    army.refresh_from_db()
    assert (army.province.code, army.province.terrain) == ("dacia", "mountains")
    assert list(Border.objects.filter(campaign=campaign).values_list("kind", flat=True)) == ["strait"]


def test_replace_refuses_to_delete_a_province_holding_an_army(moderator: Any, campaign: Campaign) -> None:
    map_io.map_import(actor=moderator, campaign=campaign, data=small_map())
    _army_in(campaign, moderator, "gallia")
    data = small_map()
    data["provinces"] = data["provinces"][1:]
    data["borders"] = data["borders"][1:]
    data["transitions"] = []
    with pytest.raises(ServiceError) as refused:
        map_io.map_import(actor=moderator, campaign=campaign, data=data, replace=True)
    assert refused.value.errors == {
        "provinces.gallia": ["gallia is not in the file, but armies, units or battles are there."]
    }
    assert Province.objects.filter(campaign=campaign).count() == 3


def test_only_moderators_import(campaign: Campaign) -> None:
    player = get_user_model().objects.create_user("player")
    with pytest.raises(Forbidden):
        map_io.map_import(actor=player, campaign=campaign, data=small_map())
    assert not Province.objects.filter(campaign=campaign).exists()


def test_export_of_the_small_map(moderator: Any, campaign: Campaign) -> None:
    data = small_map()
    for province in data["provinces"]:
        province["outline"] = [[0, 0], [10, 0], [10, 10]]
    map_io.map_import(actor=moderator, campaign=campaign, data=copy.deepcopy(data))
    exported = map_io.map_export(campaign=campaign)
    assert [p["code"] for p in exported["provinces"]] == ["dacia", "dalmatia", "gallia"]
    assert exported["provinces"][1] == {
        "code": "dalmatia",
        "name_en": "Dalmatia",
        "name_ru": "Далмация",
        "terrain": "field",
        "x": 500,
        "y": 300,
        "port": True,
        "fortress": True,
        "fortress_capacity": 4,
        "tribe": False,
        "outline": [[0, 0], [10, 0], [10, 10]],
    }
    assert exported["borders"] == [
        {"a": "dacia", "b": "dalmatia", "kind": "normal"},
        {"a": "dalmatia", "b": "gallia", "kind": "rough"},
    ]
    assert exported["transitions"] == [{"from": "gallia", "to": "dalmatia", "terrain": "mountains"}]


def _army_in(campaign: Campaign, moderator: Any, code: str) -> Army:
    from campaign.services import commander_create

    faction = faction_create(actor=moderator, campaign=campaign, slug=f"f-{code}", name_en="F", name_ru="Ф")
    commander = commander_create(actor=moderator, faction=faction, name="Aetius")
    province = Province.objects.get(campaign=campaign, code=code)
    return Army.objects.create(
        campaign=campaign, faction=faction, commander=commander, province=province, name="A"
    )
