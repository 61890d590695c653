"""The production ASGI server as docker-compose.yml runs it (uvicorn), on production settings and the test
database: HTTP behind the TLS proxy, the WebSocket origin check, session auth on the battle socket and the
connection pool (DATABASE_POOL's default)."""

from __future__ import annotations

import asyncio
import http.client
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import websockets
from django.conf import settings
from django.test import Client

from tactical.models import LiveBattle
from tests.tactical.web_process import HOST, ROOT, compose_command, web_process

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.redis]


def test_the_image_runs_the_web_command_of_docker_compose() -> None:
    cmd = re.search(r"^CMD (\[.*\])$", (ROOT / "Dockerfile").read_text(), re.MULTILINE)
    assert cmd is not None
    assert json.loads(cmd.group(1)) == compose_command("web")


@pytest.fixture
def server(transactional_db: Any) -> Iterator[int]:
    """docker-compose.yml's web command on a free port of 127.0.0.1, with production settings."""
    with web_process() as web:
        yield web.port


def _get(port: int, path: str, headers: dict[str, str]) -> tuple[int, str]:
    conn = http.client.HTTPConnection(HOST, port, timeout=20)
    conn.request("GET", path, headers=headers)
    answer = conn.getresponse()
    answer.read()
    return answer.status, answer.getheader("Location") or ""


def test_http_is_sent_to_https_unless_the_proxy_says_it_was(server: int) -> None:
    assert _get(server, "/api/schema/", {}) == (301, f"https://{HOST}:{server}/api/schema/")
    assert _get(server, "/api/schema/", {"X-Forwarded-Proto": "https"}) == (200, "")


async def _first_frame(port: int, battle_id: int, origin: str, cookie: str | None = None) -> Any:
    """The welcome's viewer, the close code, or the handshake's refusal status."""
    headers = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}"} if cookie else None
    try:
        async with websockets.connect(f"ws://{HOST}:{port}/ws/battles/{battle_id}/", origin=origin,  # type: ignore[arg-type]
                                      additional_headers=headers, open_timeout=20) as ws:
            try:
                return json.loads(await asyncio.wait_for(ws.recv(), 20))["viewer"]["user"]
            except websockets.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None
    except websockets.InvalidStatus as refused:
        return refused.response.status_code


def test_the_battle_socket_checks_the_origin_and_knows_the_session(world: Any, live: LiveBattle, server: int) -> None:
    world.campaign.settings = {**world.campaign.settings, "spectators_allowed": False}
    world.campaign.save()
    client = Client()
    client.force_login(world.east_general)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    origin = f"https://{HOST}"
    assert asyncio.run(_first_frame(server, live.pk, "https://evil.example", session)) == 403
    assert asyncio.run(_first_frame(server, live.pk, origin)) == 4403  # anonymous, no spectators
    assert asyncio.run(_first_frame(server, live.pk, origin, session)) == world.east_general.username
