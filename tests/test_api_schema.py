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
