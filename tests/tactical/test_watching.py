"""Who may watch a battle of a private campaign: the API, the board page and the socket agree (§4, §6)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from tactical.models import LiveBattle

pytestmark = pytest.mark.django_db(transaction=True)


def _answers(user: Any, battle_id: int) -> tuple[int, int, str]:
    """(API status, page status, the session cookie for the socket)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    api = client.get(f"/api/tactical/battles/{battle_id}/").status_code
    page = client.get(f"/battles/{battle_id}/").status_code
    session = client.cookies.get("sessionid")
    return api, page, f"sessionid={session.value}" if session is not None else ""


async def _socket_answer(battle_id: int, cookie: str) -> str | int:
    headers = [(b"origin", b"http://testserver"), *([(b"cookie", cookie.encode())] if cookie else [])]
    socket = WebsocketCommunicator(application, f"/ws/battles/{battle_id}/", headers=headers)
    await socket.connect(timeout=10)
    first = await socket.receive_output(timeout=5)
    await socket.disconnect()
    return json.loads(first["text"])["type"] if "text" in first else first["code"]


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("moderator", (200, 200, "welcome")),
        ("east_general", (200, 200, "welcome")),
        ("west_leader", (200, 200, "welcome")),
        ("east_leader", (200, 200, "welcome")),
        ("other_moderator", (403, 403, 4403)),  # a moderator of another campaign
        ("outsider", (403, 403, 4403)),
        (None, (403, 302, 4403)),  # anonymous: the page sends him to log in
    ],
)
async def test_a_private_campaigns_battle(settings: Any, world: Any, live: LiveBattle, who: str | None,
                                          expected: tuple[int, int, str | int]) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    world.campaign.is_public = False
    await database_sync_to_async(world.campaign.save)()
    api, page, cookie = await database_sync_to_async(_answers)(getattr(world, who) if who else None, live.pk)
    assert (api, page, await _socket_answer(live.pk, cookie)) == expected


@pytest.mark.parametrize("who", ["moderator", None])
async def test_a_battle_that_does_not_exist(settings: Any, world: Any, live: LiveBattle, who: str | None) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    api, page, cookie = await database_sync_to_async(_answers)(getattr(world, who) if who else None, live.pk + 1000)
    assert (api, page, await _socket_answer(live.pk + 1000, cookie)) == (404, 404, 4404)
