"""The Setup pages (M1): the map file: errors listed by field in the reader's language, nothing imported from a
file with errors, a second import only with replace, the file downloaded as it was uploaded."""

from __future__ import annotations

import html
import io
import json
import re
from typing import Any

import pytest

from campaign.models import LogEntry
from strategic.models import Province
from tests.strategic.builders import small_map
from tests.strategic.views.setup_pages import field_errors, upload_map

# The map file


def test_a_map_file_with_errors_imports_nothing_and_lists_each_error(empty: Any, client: Any) -> None:
    campaign, moderator = empty
    bad = small_map()
    bad["provinces"][1]["terrain"] = "swamp"
    bad["borders"][0]["kind"] = "wall"
    client.force_login(moderator)
    response = upload_map(client, "empty", bad)
    assert response.status_code == 400
    listed = re.findall(r"<li><code>([^<]+)</code>: ([^<]+)</li>", html.unescape(response.content.decode()))
    assert listed == [
        ("borders[0].kind", "borders[0]: kind must be one of normal, rough, strait, impassable."),
        ("provinces[1].terrain", "provinces[1] (dalmatia): terrain must be one of field, forest, mountains, desert."),
    ]
    assert Province.objects.filter(campaign=campaign).count() == 0


def test_a_good_map_file_imports_and_is_logged(empty: Any, client: Any) -> None:
    campaign, moderator = empty
    client.force_login(moderator)
    response = upload_map(client, "empty", small_map())
    assert response.status_code == 302
    assert sorted(Province.objects.filter(campaign=campaign).values_list("code", flat=True)) == [
        "dacia", "dalmatia", "gallia"
    ]
    assert LogEntry.objects.filter(campaign=campaign, kind="map_imported").count() == 1


def test_a_file_that_is_not_json_names_the_file_field(empty: Any, client: Any) -> None:
    _campaign, moderator = empty
    client.force_login(moderator)
    body = io.BytesIO(b"{not json")
    body.name = "map.json"
    response = client.post("/c/empty/setup/map/upload/", {"map-file": body})
    assert response.status_code == 400
    assert field_errors(response) == ["Map file (JSON): The uploaded file is not JSON (line 1, column 2)."]
    assert Province.objects.filter(campaign=_campaign).count() == 0


@pytest.mark.parametrize("language, content, expected", [
    ("en", b"\xff\xfe{}", "Map file (JSON): The uploaded file is not UTF-8 text."),
    ("ru", b"\xff\xfe{}", "Файл карты (JSON): Загруженный файл — не текст в UTF-8."),
    ("ru", b'{"provinces": [}', "Файл карты (JSON): Загруженный файл — не JSON (строка 1, столбец 16)."),
])
def test_a_file_that_cannot_be_read_is_refused_in_the_page_language(
        empty: Any, client: Any, language: str, content: bytes, expected: str) -> None:
    campaign, moderator = empty
    client.force_login(moderator)
    body = io.BytesIO(content)
    body.name = "map.json"
    response = client.post("/c/empty/setup/map/upload/", {"map-file": body}, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    assert field_errors(response) == [expected]
    assert Province.objects.filter(campaign=campaign).count() == 0


def test_a_second_import_without_replace_names_the_replace_field(empty: Any, client: Any) -> None:
    _campaign, moderator = empty
    client.force_login(moderator)
    upload_map(client, "empty", small_map())
    response = upload_map(client, "empty", small_map())
    assert response.status_code == 409
    assert field_errors(response)[0].startswith("Replace the campaign's map (provinces are matched by code): ")


def test_the_map_file_downloads_as_it_was_uploaded(empty: Any, client: Any) -> None:
    _campaign, moderator = empty
    client.force_login(moderator)
    upload_map(client, "empty", small_map())
    response = client.get("/c/empty/setup/map.json")
    assert response["Content-Disposition"] == 'attachment; filename="empty-map.json"'
    assert [p["code"] for p in json.loads(response.content)["provinces"]] == ["dacia", "dalmatia", "gallia"]
