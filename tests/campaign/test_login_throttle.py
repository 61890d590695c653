"""Login throttling (django-axes): the login page and the API's token endpoint lock an account after ten
failures from anywhere and an address after ten failures for any usernames, for fifteen minutes.

Before it, 60 wrong passwords and then the right one logged in at once. The failures are rows of the test
database, so each test starts with none (the transaction is rolled back); the throttle stays on.
"""

from __future__ import annotations

import html
import re
from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.db.models import F
from django.test import AsyncClient, Client
from rest_framework.test import APIClient

PASSWORD = "Limes-of-the-Danube-9"
HOME = "10.0.0.1"
ELSEWHERE = "10.0.0.2"
EN = "Too many failed attempts to log in. Try again in 15 minutes."
RU = "Слишком много неудачных попыток входа. Попробуйте снова через 15 минут."


@pytest.fixture(autouse=True)
def _users(db: Any, settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # 10 logins a test
    for name in ("aetius", "stilicho"):
        get_user_model().objects.create_user(name, password=PASSWORD)


def _page(username: str, password: str, *, address: str = HOME, language: str = "en") -> Any:
    return Client(REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE=language).post(
        "/accounts/login/", {"username": username, "password": password}
    )


def _token(username: str, password: str, *, address: str = HOME, language: str = "en") -> Any:
    return APIClient(REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE=language).post(
        "/api/auth/token/", {"username": username, "password": password}, format="json"
    )


def _logged_in(response: Any) -> bool:
    """A login page that redirects has logged in; a token answer that carries one has too."""
    if response["Content-Type"].startswith("application/json"):
        return response.status_code == 200 and "token" in response.json()
    return response.status_code == 302


def _text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", response.content.decode()))


LOGINS = [
    pytest.param(_page, id="login page"),
    pytest.param(_token, id="token endpoint"),
]


@pytest.mark.parametrize("login", LOGINS)
def test_nine_failures_still_let_the_right_password_in(login: Any) -> None:
    for _ in range(9):
        assert not _logged_in(login("aetius", "wrong"))
    assert _logged_in(login("aetius", PASSWORD))


@pytest.mark.parametrize("login", LOGINS)
def test_ten_failures_lock_the_account_even_from_another_address(login: Any) -> None:
    for i in range(10):
        login("aetius", "wrong", address=f"10.1.0.{i}")
    assert (_logged_in(login("aetius", PASSWORD, address=ELSEWHERE)), _logged_in(login("stilicho", PASSWORD))) == (
        False,
        True,
    )


@pytest.mark.parametrize("login", LOGINS)
def test_ten_failures_lock_the_address_for_every_account(login: Any) -> None:
    for i in range(10):
        login(f"nobody{i}", "wrong")
    assert (_logged_in(login("aetius", PASSWORD)), _logged_in(login("aetius", PASSWORD, address=ELSEWHERE))) == (
        False,
        True,
    )


@pytest.mark.parametrize("login", LOGINS)
def test_the_lock_ends_after_fifteen_minutes(login: Any) -> None:
    for _ in range(10):
        login("aetius", "wrong")
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=15, seconds=1))
    assert _logged_in(login("aetius", PASSWORD))


def test_failures_on_the_page_and_the_api_count_together() -> None:
    for _ in range(5):
        _page("aetius", "wrong")
        _token("aetius", "wrong")
    assert (_logged_in(_page("aetius", PASSWORD)), _logged_in(_token("aetius", PASSWORD))) == (False, False)


@pytest.mark.parametrize(("language", "sentence"), [("en", EN), ("ru", RU)], ids=["en", "ru"])
def test_the_locked_api_answers_429_with_the_error_shape(language: str, sentence: str) -> None:
    for _ in range(10):
        _token("aetius", "wrong")
    response = _token("aetius", PASSWORD, language=language)
    assert (response.status_code, response.json(), response["Retry-After"]) == (
        429,
        {"status": 429, "code": "locked_out", "detail": sentence},
        "900",
    )


@pytest.mark.parametrize(("language", "sentence"), [("en", EN), ("ru", RU)], ids=["en", "ru"])
def test_the_locked_login_page_says_how_long_to_wait(language: str, sentence: str) -> None:
    for _ in range(10):
        _page("aetius", "wrong")
    response = _page("aetius", PASSWORD, language=language)
    assert response.status_code == 429
    assert f'<p class="error-box" role="alert">{sentence}</p>' in _text(response)
    assert 'name="username"' in _text(response)  # the form is there to try again later


def test_a_wrong_password_before_the_lock_is_still_the_usual_400() -> None:
    response = _token("aetius", "wrong")
    assert (response.status_code, response.json()["detail"]) == (
        400,
        "Unable to log in with provided credentials.",
    )


@pytest.mark.django_db(transaction=True)
async def test_the_locked_login_page_under_asgi() -> None:
    # Under ASGI axes' middleware calls the lockout page with (request, credentials), not (request,
    # response, credentials): the page must not rely on either.
    client = AsyncClient()
    for _ in range(10):
        await client.post("/accounts/login/", {"username": "aetius", "password": "wrong"})
    response = await client.post(
        "/accounts/login/", {"username": "aetius", "password": PASSWORD}, headers={"accept-language": "ru"}
    )
    assert response.status_code == 429
    assert f'<p class="error-box" role="alert">{RU}</p>' in _text(response)
