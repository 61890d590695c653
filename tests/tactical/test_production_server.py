"""The production ASGI server as docker-compose.yml runs it (uvicorn), on production settings and the test
database: HTTP behind the TLS proxy, the WebSocket origin check, session auth on the battle socket and the
connection pool (DATABASE_POOL's default)."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from django.conf import settings
from django.db import connections
from django.test import Client

from tactical.models import LiveBattle

ROOT = Path(__file__).resolve().parent.parent.parent
HOST = "127.0.0.1"

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.redis]


def compose_command(service: str) -> list[str]:
    """The ``command`` of a service in docker-compose.yml (written there as a one-line JSON list)."""
    text = (ROOT / "docker-compose.yml").read_text()
    block = text.split(f"\n  {service}:\n", 1)[1]
    found = re.search(r"^    command: (\[.*\])$", block, re.MULTILINE)
    assert found is not None, f"no one-line command for {service}"
    command: list[str] = json.loads(found.group(1))
    return command


def test_the_image_runs_the_web_command_of_docker_compose() -> None:
    cmd = re.search(r"^CMD (\[.*\])$", (ROOT / "Dockerfile").read_text(), re.MULTILINE)
    assert cmd is not None
    assert json.loads(cmd.group(1)) == compose_command("web")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def server(transactional_db: Any) -> Iterator[int]:
    """docker-compose.yml's web command on a free port of 127.0.0.1, with production settings."""
    port = _free_port()
    command = [str(Path(sys.executable).parent / program) if n == 0 else program
               for n, program in enumerate(compose_command("web"))]
    command = [HOST if part == "0.0.0.0" else str(port) if part == "8000" else part for part in command]
    db = settings.DATABASES["default"]
    env = {**os.environ, "LIMES_PRODUCTION": "1", "SECRET_KEY": settings.SECRET_KEY, "ALLOWED_HOSTS": HOST,
           "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
           "REDIS_URL": os.environ["REDIS_URL"]}
    env.pop("DATABASE_POOL", None)
    connections.close_all()
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        end = time.monotonic() + 60
        while time.monotonic() < end and process.poll() is None:
            try:
                socket.create_connection((HOST, port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        assert process.poll() is None, process.communicate()[0].decode()
        yield port
    finally:
        process.terminate()
        process.wait(20)


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
