"""The OpenAPI schema is generated without a warning or an error, and is served with its docs page."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client


def test_schema_validates_without_warnings() -> None:
    out = io.StringIO()
    # --fail-on-warn turns every drf-spectacular warning (a view without serializer info...) into an error.
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out)
    assert out.getvalue().startswith("openapi: 3")


@pytest.mark.parametrize("path", ["/api/schema/", "/api/docs/"])
def test_schema_and_docs_are_served(db: Any, path: str) -> None:
    assert Client().get(path).status_code == 200


def _schema() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


@pytest.mark.parametrize(
    ("path", "method", "body", "success"),
    [
        ("/api/campaigns/{slug}/armies/{id}/move/", "post", "ArmyMoveIn", "200"),
        ("/api/campaigns/{slug}/armies/{id}/split/", "post", "ArmySplitIn", "201"),
        ("/api/campaigns/{slug}/battles/{id}/support/", "post", "BattleSupportIn", "201"),
        ("/api/campaigns/{slug}/turn/pass/", "post", "TurnPassIn", "200"),
        ("/api/campaigns/{slug}/units/{id}/assign/", "post", "UnitAssignIn", "200"),
        ("/api/campaigns/{slug}/", "patch", "PatchedCampaignUpdateIn", "200"),
    ],
)
def test_orders_document_their_body_and_every_error(path: str, method: str, body: str, success: str) -> None:
    operation = _schema()["paths"][path][method]
    ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert (ref.rsplit("/", 1)[-1], sorted(operation["responses"])) == (
        body,
        [success, "400", "403", "404", "409"],
    )


def _operations() -> list[tuple[str, str, dict[str, Any]]]:
    methods = ("get", "post", "put", "patch", "delete")
    return [
        (path, method, operation)
        for path, item in _schema()["paths"].items()
        for method, operation in item.items()
        if method in methods
    ]


def _is_free_form(schema: dict[str, Any]) -> bool:
    """An object the schema says nothing of (``responses={200: dict}``), or a list of such objects."""
    if schema.get("type") == "array":
        return _is_free_form(schema.get("items", {}))
    return "$ref" not in schema and "properties" not in schema and schema.get("type") in ("object", None)


def test_no_success_answer_is_a_free_form_object() -> None:
    free = [
        f"{method.upper()} {path} {status}"
        for path, method, operation in _operations()
        for status, response in operation["responses"].items()
        if status.startswith("2") and "content" in response
        and _is_free_form(response["content"]["application/json"]["schema"])
    ]
    assert free == []


def test_every_error_answer_is_the_one_error_shape() -> None:
    others = [
        f"{method.upper()} {path} {status}"
        for path, method, operation in _operations()
        for status, response in operation["responses"].items()
        if status.startswith("4")
        and response["content"]["application/json"]["schema"] != {"$ref": "#/components/schemas/ErrorOut"}
    ]
    assert others == []


def test_the_error_shape_names_status_code_and_detail() -> None:
    error = _schema()["components"]["schemas"]["ErrorOut"]
    assert (sorted(error["required"]), sorted(error["properties"])) == (
        ["code", "detail", "status"],
        ["code", "detail", "errors", "id", "refusal", "rule", "state", "status", "version"],
    )


@pytest.mark.parametrize(
    ("path", "method", "success"),
    [
        ("/api/tactical/battles/{battle_id}/", "get", "200"),
        ("/api/tactical/battles/{battle_id}/actions/", "post", "200"),
        ("/api/moderation/campaigns/{slug}/battles/{battle_id}/end/", "post", "200"),
    ],
)
def test_battle_operations_document_their_errors(path: str, method: str, success: str) -> None:
    operation = _schema()["paths"][path][method]
    assert sorted(operation["responses"]) == sorted(
        {"get": [success, "403", "404"], "post": [success, "400", "403", "404", "409"]}[method]
    )


def test_a_commander_nobody_plays_has_no_user() -> None:
    assert _schema()["components"]["schemas"]["CommanderOut"]["properties"]["user"]["nullable"] is True


def test_the_interception_record_is_a_list() -> None:
    operation = _schema()["paths"]["/api/moderation/campaigns/{slug}/battles/{battle_id}/interceptions/"]["get"]
    assert operation["responses"]["200"]["content"]["application/json"]["schema"] == {
        "type": "array",
        "items": {"$ref": "#/components/schemas/InterceptionRecordOut"},
    }


def test_the_token_is_asked_for_with_a_username_and_password_only() -> None:
    schema = _schema()
    ref = schema["paths"]["/api/auth/token/"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    body = schema["components"]["schemas"][ref["$ref"].rsplit("/", 1)[-1]]
    assert (sorted(body["properties"]), sorted(body["required"])) == (
        ["password", "username"],
        ["password", "username"],
    )


def test_the_log_query_after_is_not_negative() -> None:
    parameters = _schema()["paths"]["/api/campaigns/{slug}/log/"]["get"]["parameters"]
    after = next(p for p in parameters if p["name"] == "after")
    assert after["schema"]["minimum"] == 0
