"""Bad map files are refused with an error naming the entry and field, and change nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from campaign.errors import ServiceError
from campaign.models import Campaign, LogEntry
from campaign.services import campaign_create
from strategic.models import Border, Province, TerrainTransition
from strategic.services import map_file as map_io
from tests.strategic.builders import small_map

pytestmark = pytest.mark.django_db

Edit = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Edit:
    """An edit setting one field: "provinces.1.terrain" sets data["provinces"][1]["terrain"]."""

    def edit(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for part in parents:
            target = target[int(part)] if part.isdigit() else target[part]
        target[int(last) if last.isdigit() else last] = value

    return edit


def _delete(path: str) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        section, index, field = path.split(".")
        del data[section][int(index)][field]

    return edit


def _append(section: str, entry: Any) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        data.setdefault(section, []).append(entry)

    return edit


CASES = [
    # (edit, key of the error, its message)
    (_set("format", "other"), "format", '"format" must be "limes-map".'),
    (_set("version", 2), "version", '"version" must be 1.'),
    (_set("width", 800), "width", '"width" must be 1000: maps are drawn on 1000 × 700.'),
    (_set("layers", []), "layers", "file: unknown field layers."),
    (_set("provinces", {}), "provinces", '"provinces" must be a list.'),
    (_set("provinces", []), "provinces", "The map has no provinces."),
    (_set("provinces.0", "gallia"), "provinces[0]", "provinces[0] must be an object."),
    (_delete("provinces.1.code"), "provinces[1].code", "provinces[1]: code is missing."),
    (
        _set("provinces.1.code", "dal matia"),
        "provinces[1].code",
        "provinces[1] (dal matia): code must be 1 to 40 letters, digits, hyphens or underscores.",
    ),
    (
        _set("provinces.1.code", "gallia"),
        "provinces[1].code",
        "provinces[1] (gallia): code gallia is used by another province too.",
    ),
    (_delete("provinces.1.name_ru"), "provinces[1].name_ru", "provinces[1] (dalmatia): name_ru is missing."),
    (
        _set("provinces.1.name_en", " "),
        "provinces[1].name_en",
        "provinces[1] (dalmatia): name_en must be a text of 1 to 120 characters.",
    ),
    (
        _set("provinces.1.terrain", "swamp"),
        "provinces[1].terrain",
        "provinces[1] (dalmatia): terrain must be one of field, forest, mountains, desert.",
    ),
    (
        _set("provinces.1.x", 1001),
        "provinces[1].x",
        "provinces[1] (dalmatia): x must be a whole number from 0 to 1000.",
    ),
    (
        _set("provinces.1.y", 12.5),
        "provinces[1].y",
        "provinces[1] (dalmatia): y must be a whole number from 0 to 700.",
    ),
    (
        _set("provinces.1.x", 200),
        "provinces[1].x",
        "provinces[1] (dalmatia): x, y is the position of gallia too.",
    ),
    (
        _set("provinces.1.port", "yes"),
        "provinces[1].port",
        "provinces[1] (dalmatia): port must be true or false.",
    ),
    (
        _set("provinces.1.fortress_capacity", 0),
        "provinces[1].fortress_capacity",
        "provinces[1] (dalmatia): fortress_capacity must be a whole number from 1 to 99 (R3).",
    ),
    (
        _set("provinces.1.outline", [[0, 0], [1, 1]]),
        "provinces[1].outline",
        "provinces[1] (dalmatia): outline must be a list of at least 3 [x, y] points inside the map.",
    ),
    (
        _set("provinces.1.capital", True),
        "provinces[1].capital",
        "provinces[1] (dalmatia): unknown field capital.",
    ),
    (_set("borders.0", ["gallia", "dalmatia"]), "borders[0]", "borders[0] must be an object."),
    (_delete("borders.0.b"), "borders[0].b", "borders[0]: b is missing."),
    (_set("borders.0.river", True), "borders[0].river", "borders[0]: unknown field river."),
    (_set("transitions.0.via", "raetia"), "transitions[0].via", "transitions[0]: unknown field via."),
    (_set("transitions", "gallia>dalmatia"), "transitions", '"transitions" must be a list.'),
    (_set("borders.1.b", "italia"), "borders[1].b", "borders[1]: b names no province of this file (italia)."),
    (
        _set("borders.1.a", "dalmatia"),
        "borders[1].b",
        "borders[1]: b must name a province other than dalmatia.",
    ),
    (
        _set("borders.1.kind", "river"),
        "borders[1].kind",
        "borders[1]: kind must be one of normal, rough, strait, impassable.",
    ),
    (
        _append("borders", {"a": "dalmatia", "b": "gallia"}),
        "borders[2]",
        "borders[2]: the border dalmatia – gallia is listed twice.",
    ),
    (
        _set("transitions.0.to", "dacia"),
        "transitions[0]",
        "transitions[0]: gallia and dacia share no border, so no army moves between them (S9).",
    ),
    (
        _set("borders.0.kind", "impassable"),
        "transitions[0]",
        "transitions[0]: the border gallia – dalmatia is impassable, so no army moves across it (S9).",
    ),
    (
        _set("transitions.0.terrain", "sea"),
        "transitions[0].terrain",
        "transitions[0]: terrain must be one of field, forest, mountains, desert.",
    ),
    (
        _append("transitions", {"from": "gallia", "to": "dalmatia", "terrain": "forest"}),
        "transitions[1]",
        "transitions[1]: the transition from gallia to dalmatia is listed twice.",
    ),
    (_delete("transitions.0.terrain"), "transitions[0].terrain", "transitions[0]: terrain is missing."),
    (_set("sea", [[500, 800]]), "sea[0]", "sea[0] must be an [x, y] point inside the map."),
]


@pytest.fixture
def moderator() -> Any:
    return get_user_model().objects.create_user("mod")


@pytest.fixture
def campaign(moderator: Any) -> Campaign:
    return campaign_create(actor=moderator, slug="c1", name_en="C1", name_ru="К1")


@pytest.mark.parametrize(("edit", "key", "message"), CASES, ids=[c[1] + ":" + c[2][:40] for c in CASES])
def test_bad_file_is_refused_naming_entry_and_field(
    moderator: Any, campaign: Campaign, edit: Edit, key: str, message: str
) -> None:
    data = small_map()
    edit(data)
    with pytest.raises(ServiceError) as refused:
        map_io.map_import(actor=moderator, campaign=campaign, data=data)
    assert refused.value.errors == {key: [message]}
    assert refused.value.message == f"The map file was refused, nothing was changed: {message}"
    assert not Province.objects.filter(campaign=campaign).exists()
    assert not LogEntry.objects.filter(campaign=campaign, kind="map_imported").exists()


def test_a_file_that_is_not_an_object_is_refused(moderator: Any, campaign: Campaign) -> None:
    with pytest.raises(ServiceError) as refused:
        map_io.map_import(actor=moderator, campaign=campaign, data=[1, 2])
    assert refused.value.errors == {"file": ["The map file must be a JSON object."]}


def test_every_error_of_a_file_is_reported_at_once(moderator: Any, campaign: Campaign) -> None:
    data = small_map()
    data["provinces"][0]["terrain"] = "swamp"
    data["borders"][0]["kind"] = "river"
    with pytest.raises(ServiceError) as refused:
        map_io.map_import(actor=moderator, campaign=campaign, data=data)
    assert list(refused.value.errors) == ["provinces[0].terrain", "borders[0].kind"]


def test_a_refused_replace_leaves_the_old_map_untouched(moderator: Any, campaign: Campaign) -> None:
    map_io.map_import(actor=moderator, campaign=campaign, data=small_map())
    before = map_io.map_export(campaign=campaign)
    data = small_map()
    data["provinces"][1]["name_en"] = "Illyricum"
    data["transitions"][0]["terrain"] = "sea"
    with pytest.raises(ServiceError):
        map_io.map_import(actor=moderator, campaign=campaign, data=data, replace=True)
    assert map_io.map_export(campaign=campaign) == before
    assert LogEntry.objects.filter(campaign=campaign, kind="map_imported").count() == 1


def test_a_refused_first_import_writes_nothing(moderator: Any, campaign: Campaign) -> None:
    data = small_map()
    data["borders"][1]["b"] = "italia"
    with pytest.raises(ServiceError):
        map_io.map_import(actor=moderator, campaign=campaign, data=data)
    assert (Province.objects.count(), Border.objects.count(), TerrainTransition.objects.count()) == (0, 0, 0)
