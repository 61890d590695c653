"""A NUL character, which PostgreSQL cannot store, in any form field or query parameter is refused with 400
naming the field, before any view reads it by hand (an outside probe had the dispute form answer 500)."""

from __future__ import annotations

import html
from typing import Any

import pytest

from campaign.models import LogEntry
from moderation.models import Dispute
from tests.factories import client_for


@pytest.mark.parametrize(("path", "data", "field"), [
    ("/c/limes/log/dispute/", {"entry": "log-1", "text": "wrong\x00"}, "text"),  # the probe's case
    ("/c/limes/turn/move/", {"army": "1", "destination": "2\x00"}, "destination"),
    ("/c/limes/console/deadline/", {"hours": "1", "reason": "\x00"}, "reason"),
    ("/accounts/signup/", {"username": "a\x00", "password1": "x", "password2": "x"}, "username"),
])
def test_a_nul_in_a_form_field_is_a_400_page_naming_it(world: Any, path: str, data: dict[str, str],
                                                      field: str) -> None:
    entries, disputes = LogEntry.objects.count(), Dispute.objects.count()
    answer = client_for(world.moderator).post(path, data)
    assert answer.status_code == 400
    assert f"The field {field} holds a NUL character, which cannot be stored: remove it." in answer.content.decode()
    assert (LogEntry.objects.count(), Dispute.objects.count()) == (entries, disputes)


def test_a_nul_in_a_query_parameter_of_the_api_is_a_400_in_the_error_shape(world: Any) -> None:
    answer = client_for().get("/api/moderation/campaigns/limes/log/", {"person": "x\x00"})
    assert (answer.status_code, answer.json()) == (400, {
        "status": 400, "code": "unstorable_text",
        "detail": "The field person holds a NUL character, which cannot be stored: remove it.",
        "errors": {"person": ["The field person holds a NUL character, which cannot be stored: remove it."]},
    })


def test_the_refusal_is_said_in_russian(world: Any) -> None:
    answer = client_for(world.moderator).post("/c/limes/log/dispute/", {"text": "\x00"},
                                              HTTP_ACCEPT_LANGUAGE="ru")
    assert answer.status_code == 400
    assert "Поле text содержит символ NUL, который нельзя сохранить: уберите его." in answer.content.decode()


def test_ordinary_text_passes(world: Any) -> None:
    assert client_for().get("/api/moderation/campaigns/limes/log/", {"person": "moderator"}).status_code == 200


@pytest.mark.parametrize("language, expected", [
    ("en", "The field text holds a text direction override (U+202A–U+202E, U+2066–U+2069), which would make it "
           "read otherwise than it is stored: remove it."),
    ("ru", "Поле text содержит символ смены направления текста (U+202A–U+202E, U+2066–U+2069), из-за которого "
           "оно читалось бы не так, как сохранено: уберите его."),
])
def test_a_direction_override_in_a_form_field_is_a_400_page_naming_it(world: Any, language: str,
                                                                     expected: str) -> None:
    disputes = Dispute.objects.count()
    answer = client_for(world.moderator).post("/c/limes/log/dispute/", {"entry": "log-1", "text": "abc\u202edcba"},
                                              HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 400
    assert expected in html.unescape(answer.content.decode())
    assert Dispute.objects.count() == disputes


def test_a_direction_override_in_a_query_parameter_of_the_api_is_a_400_in_the_error_shape(world: Any) -> None:
    answer = client_for().get("/api/moderation/campaigns/limes/log/", {"person": "\u2067x"})
    message = ("The field person holds a text direction override (U+202A–U+202E, U+2066–U+2069), which would "
               "make it read otherwise than it is stored: remove it.")
    assert (answer.status_code, answer.json()) == (400, {
        "status": 400, "code": "bidi_text", "detail": message, "errors": {"person": [message]},
    })


def test_russian_text_passes(world: Any) -> None:
    assert client_for().get("/api/moderation/campaigns/limes/log/", {"person": "Флавий Аэций"}).status_code == 200
