"""The one reader of client JSON (campaign/parsers.py): its depth limit, and every JSON endpoint of the API behind it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from campaign.parsers import MAX_DEPTH, JSONRefused, read_json
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


@pytest.mark.parametrize("text", ["{not json", '{"x": NaN}', '{"x": -Infinity}', "1" * 5000])
def test_malformed_json_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        read_json(text)


def _post(path: str, body: str, client: Client | None = None) -> Any:
    return (client or Client()).post(path, body, content_type="application/json")


def test_the_token_endpoint_answers_deep_nesting_with_400_naming_the_limit(db: Any) -> None:
    answer = _post("/api/auth/token/", DEEP)
    assert (answer.status_code, answer.json()) == (400, {"detail": "JSON may be nested at most 64 levels deep."})


def _json_operations() -> list[tuple[str, str]]:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return sorted((path, method) for path, item in schema["paths"].items() for method, operation in item.items()
                  if "application/json" in operation.get("requestBody", {}).get("content", {}))


@pytest.mark.django_db
@pytest.mark.parametrize(("path", "method"), _json_operations())
def test_every_json_endpoint_answers_deep_nesting_with_400(path: str, method: str) -> None:
    world = build_world()
    client = Client()
    client.force_login(world.moderator)  # the campaign's moderator: the body is read, not refused unread
    ids = {"slug": world.campaign.slug}
    url = re.sub(r"\{(\w+)\}", lambda m: str(ids.get(m.group(1), 1)), path)
    answer = getattr(client, method)(url, DEEP, content_type="application/json")
    assert answer.status_code in (400, 404), (answer.status_code, answer.content[:300])  # 404: no object 1
    if answer.status_code == 400:
        assert answer.json()["detail"] == "JSON may be nested at most 64 levels deep."
