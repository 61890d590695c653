"""One action id sent many times at once, over HTTP and the socket, to the production server (uvicorn, PostgreSQL):
applied once, every other send answered with the stored result (§3 resends), no 5xx, no socket dropped."""

from __future__ import annotations

import asyncio
import http.client
import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import websockets
from django.conf import settings
from django.test import Client
from rest_framework.authtoken.models import Token

from tactical.models import BattleEvent, LiveBattle
from tests.tactical.builders import units_of
from tests.tactical.web_process import HOST, WebProcess, web_process

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.redis]

HTTP_SENDS = 8
SOCKET_SENDS = 3


@pytest.fixture
def web(transactional_db: Any) -> Iterator[WebProcess]:
    with web_process() as server:
        yield server


def _request(port: int, method: str, path: str, token: str, body: dict[str, Any] | None,
             start: threading.Barrier) -> tuple[int, Any]:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    conn.connect()
    start.wait(10)
    conn.request(method, path, body=None if body is None else json.dumps(body), headers={
        "Authorization": f"Token {token}", "Content-Type": "application/json", "X-Forwarded-Proto": "https"})
    answer = conn.getresponse()
    text = answer.read().decode()
    try:
        return answer.status, json.loads(text)
    except ValueError:
        return answer.status, text


async def _ack(ws: Any) -> dict[str, Any]:
    """The socket's answer to its action (the pushed event may come before or after it)."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if message["type"] in ("ack", "error"):
            return message


async def _burst(port: int, battle_id: int, token: str, session: str,
                 frame: dict[str, Any]) -> tuple[list[tuple[int, Any]], list[dict[str, Any]], list[str]]:
    headers = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={session}"}
    url = f"ws://{HOST}:{port}/ws/battles/{battle_id}/"
    sockets = [await websockets.connect(url, origin=f"https://{HOST}", additional_headers=headers,  # type: ignore[arg-type]
                                        open_timeout=20) for _ in range(SOCKET_SENDS)]
    try:
        for ws in sockets:
            assert json.loads(await asyncio.wait_for(ws.recv(), 20))["type"] == "welcome"
        action = {key: frame[key] for key in ("id", "action")}
        board = f"/api/tactical/battles/{battle_id}/"
        loop = asyncio.get_running_loop()
        with ThreadPoolExecutor(HTTP_SENDS + 1) as threads:  # one thread per request: all wait at the barrier
            for method, path, body in (("GET", board, None), ("POST", f"{board}actions/", action)):  # warm up first
                start = threading.Barrier(HTTP_SENDS + 1)
                posts = [loop.run_in_executor(threads, _request, port, method, path, token, body, start)
                         for _ in range(HTTP_SENDS)]
                await loop.run_in_executor(threads, start.wait, 10)  # all connected: the sends leave together
                if body is not None:
                    for ws in sockets:
                        await ws.send(json.dumps(frame))
                answers = await asyncio.gather(*posts, *(_ack(ws) for ws in sockets if body is not None))
        pongs = []
        for ws in sockets:  # every socket still open and answering
            await ws.send(json.dumps({"type": "ping", "id": "after"}))
            while (message := json.loads(await asyncio.wait_for(ws.recv(), 10)))["type"] != "pong":
                pass
            pongs.append(message["id"])
        return list(answers[:HTTP_SENDS]), list(answers[HTTP_SENDS:]), pongs
    finally:
        for ws in sockets:
            await ws.close()


def test_one_action_id_sent_at_once_over_http_and_sockets_is_applied_once(world: Any, live: LiveBattle,
                                                                          web: WebProcess) -> None:
    token = Token.objects.create(user=world.east_general).key
    client = Client()
    client.force_login(world.east_general)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    frame = {"type": "action", "id": "once-1",
             "action": {"do": "move", "unit": units_of(live, "attacker")[0], "path": [[8, 17]]}}

    posts, acks, pongs = asyncio.run(_burst(web.port, live.pk, token, session, frame))

    version = live.version + 1
    assert [status for status, _ in posts] == [200] * HTTP_SENDS, posts
    assert [(body["id"], body["version"]) for _, body in posts] == [("once-1", version)] * HTTP_SENDS
    assert acks == [{"type": "ack", "id": "once-1", "version": version, "replayed": acks[i]["replayed"]}
                    for i in range(SOCKET_SENDS)], acks
    replayed = [body["replayed"] for _, body in posts] + [ack["replayed"] for ack in acks]
    assert sorted(replayed) == [False] + [True] * (HTTP_SENDS + SOCKET_SENDS - 1)
    assert pongs == ["after"] * SOCKET_SENDS
    assert BattleEvent.objects.filter(battle=live, action_id="once-1").count() == 1
    assert LiveBattle.objects.get(pk=live.pk).version == version
    assert "ERROR" not in web.log(), web.log()
