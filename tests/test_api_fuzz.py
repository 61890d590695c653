"""The API fuzzed from its own schema (schemathesis): every operation of ``/api/schema/``, as an anonymous
visitor, a player and a moderator of the campaign, answers no 5xx and nothing its schema does not declare.

Bounded for CI: a fixed number of examples per operation, derandomized so that a failure repeats."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from config.wsgi import application
from tests.factories import build_world

EXAMPLES = 6
schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
CHECKS = [not_a_server_error, response_schema_conformance]


@pytest.fixture
def in_process() -> Any:
    """Requests served in this process keep the test's database connection, as Django's test client does."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def tokens(db: Any, in_process: Any) -> dict[str, str]:
    """The world of the campaign ``limes`` and a token for each role (no login: the throttle is not asked)."""
    world = build_world()
    return {
        "player": Token.objects.get_or_create(user=world.east_general)[0].key,
        "moderator": Token.objects.get_or_create(user=world.moderator)[0].key,
    }


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_the_api_answers_as_its_schema_says(case: Any, tokens: dict[str, str]) -> None:
    if "slug" in (case.path_parameters or {}):
        case.path_parameters["slug"] = "limes"  # the campaign that exists: deeper than its 404
    case.call_and_validate(checks=CHECKS)
    for role in ("player", "moderator"):
        case.call_and_validate(headers={"Authorization": f"Token {tokens[role]}"}, checks=CHECKS)
