"""Where the sockets' database work runs (campaign/sockets.py) and who a socket's user is."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from channels.auth import UserLazyObject
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.db import connection

from campaign.sockets import socket_db, user_of

pytestmark = pytest.mark.django_db(transaction=True)


def _thread() -> str:
    connection.ensure_connection()
    return threading.current_thread().name


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the pool is for PostgreSQL")
async def test_on_postgresql_socket_work_runs_in_its_own_threads_not_in_channels_one_thread() -> None:
    shared = await database_sync_to_async(_thread)()
    names = {await socket_db(_thread)() for _ in range(3)}
    assert all(name.startswith("socket-db") for name in names)
    assert shared not in names


async def test_a_sockets_user_is_read_from_its_session_once() -> None:
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    def make() -> dict[str, Any]:
        user = get_user_model().objects.create_user(username="reader", password="x" * 12)
        session = SessionStore()
        session["_auth_user_id"] = str(user.pk)
        session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
        session["_auth_user_hash"] = user.get_session_auth_hash()
        session.save()
        return {"session": SessionStore(session.session_key), "user": UserLazyObject()}

    scope = await database_sync_to_async(make)()
    user = await socket_db(user_of)(scope)
    assert (user.get_username(), scope["user"].get_username()) == ("reader", "reader")
    assert await socket_db(user_of)(scope) is user


async def test_a_socket_without_a_session_is_anonymous() -> None:
    assert isinstance(await socket_db(user_of)({}), AnonymousUser)
