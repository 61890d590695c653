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
