"""The one reader of client JSON (campaign/parsers.py): its limits, and every JSON endpoint of the API behind it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from campaign.parsers import BIDI_CONTROL, LONE_SURROGATE, MAX_DEPTH, NUL_CHARACTER, JSONRefused, read_json
from tests.factories import build_world

DEEP = "[" * 5000 + "]" * 5000  # 10 KB: a RecursionError in json.loads, a 500 before


def _refusal(text: str) -> tuple[str, str]:
    with pytest.raises(JSONRefused) as refused:
        read_json(text)
    return refused.value.path, refused.value.message


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{"type": "ping", "id": "p1"}', {"type": "ping", "id": "p1"}),  # the move path's fast lane
        ('{"text": "Держите реку"}', {"text": "Держите реку"}),  # not ASCII: walked, and taken
        ('{"id": "\\ud83d\\ude00"}', {"id": "\U0001f600"}),  # a surrogate pair is one character
        ('{"text": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}',
         {"text": "[" * 68}),  # brackets inside a string are not nesting
        ("[" * MAX_DEPTH + "]" * MAX_DEPTH, json.loads("[" * MAX_DEPTH + "]" * MAX_DEPTH)),  # at the limit
    ],
)
def test_the_reader_takes_json_within_its_limits(text: str, value: Any) -> None:
    assert read_json(text) == value


@pytest.mark.parametrize("text", ["[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), DEEP,
                                  '{"a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1)])
def test_nesting_beyond_the_limit_is_refused_naming_it(text: str) -> None:
    assert _refusal(text) == ("", f"JSON may be nested at most {MAX_DEPTH} levels deep.")


@pytest.mark.parametrize(
    ("text", "path", "message"),
    [
        ('{"type": "ping", "id": "\\ud800"}', "id", LONE_SURROGATE),
        ('{"action": {"path": [[1, "\\udfff"]]}}', "action.path[0][1]", LONE_SURROGATE),
        ('{"action": {"unit": "u1\\u0000"}}', "action.unit", NUL_CHARACTER),
        ('["\\u0000"]', "[0]", NUL_CHARACTER),
        ('{"a\\u0000b": 1}', "a\\u0000b", NUL_CHARACTER),  # a key, written so that it can be sent back
        ('{"k\\ud800": 1}', "k\\ud800", LONE_SURROGATE),
        ('"\\u0000"', "", NUL_CHARACTER),  # the whole document
        ('{"name": "Legio \\u202eXI"}', "name", BIDI_CONTROL),  # a right-to-left override, as a JSON escape
        ('{"name": "Legio \u2066XI\u2069"}', "name", BIDI_CONTROL),  # isolates, as the characters themselves
    ],
)
def test_lone_surrogates_and_nul_are_refused_naming_the_field(text: str, path: str, message: Any) -> None:
    assert _refusal(text) == (path, str(message))
    json.dumps({path: str(message)}, ensure_ascii=False).encode("utf-8")  # the path can be answered


@pytest.mark.parametrize("text", ["{not json", '{"x": NaN}', '{"x": -Infinity}', "1" * 5000])
def test_malformed_json_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        read_json(text)


def _post(path: str, body: str, client: Client | None = None) -> Any:
    return (client or Client()).post(path, body, content_type="application/json")


def test_the_token_endpoint_answers_deep_nesting_with_400_naming_the_limit(db: Any) -> None:
    answer = _post("/api/auth/token/", DEEP)
    assert (answer.status_code, answer.json()) == (400, {"status": 400, "code": "parse_error", "detail": "JSON may be nested at most 64 levels deep."})


def test_a_nul_in_a_field_is_400_naming_its_path(db: Any) -> None:
    answer = _post("/api/auth/token/", json.dumps({"username": "a\u0000", "password": "x"}))
    assert (answer.status_code, answer.json()["errors"]) == (400, {"username": [str(NUL_CHARACTER)]})


def _json_operations() -> list[tuple[str, str]]:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return sorted((path, method) for path, item in schema["paths"].items() for method, operation in item.items()
                  if "application/json" in operation.get("requestBody", {}).get("content", {}))


@pytest.mark.django_db
@pytest.mark.parametrize(("path", "method"), _json_operations())
@pytest.mark.parametrize("body", [DEEP, '{"text": "\\ud800", "reason": "\\u0000"}'])
def test_every_json_endpoint_answers_what_the_reader_refuses_with_400(path: str, method: str, body: str) -> None:
    world = build_world()
    client = Client()
    client.force_login(world.moderator)  # the campaign's moderator: the body is read, not refused unread
    ids = {"slug": world.campaign.slug}
    url = re.sub(r"\{(\w+)\}", lambda m: str(ids.get(m.group(1), 1)), path)
    answer = getattr(client, method)(url, body, content_type="application/json")
    assert answer.status_code in (400, 404), (answer.status_code, answer.content[:300])  # 404: no object 1
    if answer.status_code == 400:
        said = answer.json()
        assert said["detail"] == "JSON may be nested at most 64 levels deep." if body == DEEP else (
            said["errors"] == {"text": [str(LONE_SURROGATE)]})
