"""Whatever a client sends the battle socket (docs/tactical-protocol.md §4, §6), on the production server
(uvicorn, PostgreSQL, the Redis layer): each frame is answered (an error frame, or its own answer), the socket
stays open, nothing is applied, the pushes of another client still arrive, and the server logs no error.

Every fuzzed frame is followed by a ping whose pong closes its answers; the flood is then sent without waiting.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import websockets
from django.conf import settings
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

from tactical.models import LiveBattle
from tests.tactical.builders import units_of
from tests.tactical.web_process import HOST, WebProcess, web_process

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.redis]

STALE = 10**9  # an expected_version no battle is at: a well-formed action is refused (409 stale), not applied
FLOOD = 3000

# Every code of §4, with its status.
CODES = {"invalid": 400, "bad_frame": 400, "binary": 400, "too_large": 400, "unknown_type": 400,
         "forbidden": 403, "not_found": 404, "illegal": 409, "stale": 409, "duplicate_id": 409, "ended": 409,
         "not_editable": 409, "exists": 409, "paused": 409, "awaiting_die": 409}
ANSWERS = {"action": {"ack"}, "sync": {"events", "state"}, "options": {"options"}, "preview": {"preview"},
           "order": {"order"}, "ping": {"pong"}}

# Values of the wrong type (or out of any range) for any field.
WRONG: list[Any] = [None, True, False, 0, -1, 2**31, 2**63, -(10**30), 1.5, -0.0, 1e308, "", " ", "x" * 300,
                    "☃\U0001f600", "\u202e", "u1; DROP TABLE", [], [[]], [None], [1, 2], [[1, 2, 3]],
                    [["a", "b"]], {}, {"a": 1}, {"do": "move"}]


def _frames(unit: str, enemy: str) -> list[Any]:
    """The corpus: each entry a text frame (str) or a binary one (bytes)."""
    valid = {  # §6, a well-formed frame of each type
        "action": {"type": "action", "id": "f", "expected_version": STALE,  # and a move no rule allows:
                   "action": {"do": "move", "unit": unit, "path": [[8, 15]]}},  # refused without expected_version
        "sync": {"type": "sync", "since": 0},
        "options": {"type": "options", "id": "q1", "unit": unit},
        "preview": {"type": "preview", "id": "q2", "unit": unit, "path": [[8, 17], [8, 16]]},
        "order": {"type": "order", "id": "o1", "to": 1, "text": "Hold the river"},
        "ping": {"type": "ping", "id": "p1"},
    }
    actions = {  # §3, the fields of each action
        "deploy": {"unit": unit, "x": 8, "y": 18, "facing": "N"}, "ready": {"side": "attacker"},
        "move": {"unit": unit, "path": [[8, 17]]}, "turn": {"unit": unit, "facing": "E"},
        "shoot": {"unit": unit, "target": enemy}, "withdraw": {"unit": unit, "path": []},
        "place": {"unit": unit, "x": 3, "facing": "N"}, "intercept": {"unit": unit, "target": enemy, "path": None},
        "end_interceptions": {"side": "attacker"}, "end_turn": {"side": "attacker"},
        "concede": {"side": "attacker"}, "end_battle": {"winner": "attacker"},
    }
    frames: list[Any] = []
    for kind, frame in valid.items():
        frames.append(frame)
        for field in frame:
            frames.append({k: v for k, v in frame.items() if k != field})  # each field missing
            frames += [{**frame, field: value} for value in WRONG]  # each field of each wrong type
    for do, fields in actions.items():
        base = {"do": do, **fields}
        for field in ["do", *fields]:
            frames += [{"type": "action", "id": f"a-{do}", "expected_version": STALE,
                        "action": {**base, field: value}} for value in WRONG]
    frames += [{"type": "action", "id": "bad-value", "action": action} for action in (  # right types, no such thing
        {"do": "move", "unit": "u999", "path": [[8, 17]]}, {"do": "move", "unit": unit, "path": [[-1, -1]]},
        {"do": "move", "unit": unit, "path": [[10**30, 17]]}, {"do": "turn", "unit": unit, "facing": "Q"},
        {"do": "shoot", "unit": unit, "target": "u999"}, {"do": "end_battle", "winner": "nobody"},
        {"do": "end_turn", "side": "neither"}, {"do": "deploy", "unit": unit, "x": 2**63, "y": 18, "facing": "N"},
        {"do": "launch"}, [], "move")]
    frames += [{"type": "action", "id": bad, "expected_version": STALE, "action": valid["action"]["action"]}
               for bad in ("", "a" * 65, "sp ace", "é", "a/b", "\U0001f600")]
    frames += [{"type": kind} for kind in ("", "ACTION", "action ", "on_ping", "dispatch", "battle.message",
                                           "battle_message", "websocket.disconnect", "__init__", "receive",
                                           "welcome", "event", "error", "x" * 1000)]  # unknown types
    texts = [
        "", " ", "{", "}", "{not json", "[1, 2]", "null", "true", "0", '"ping"', "{'type': 'ping'}",
        '{"type": "ping"} trailing', '{"type": "ping",}', '{"type": "ping", "type": "sync"}', "\ufeff{}",
        '{"type": "ping", "id": NaN}', '{"type": "sync", "since": Infinity}', '{"type": "sync", "since": 1e999}',
        '{"type": "sync", "since": ' + "9" * 5000 + "}",  # beyond int's digit limit
        "[" * 5000 + "]" * 5000, '{"type": "action", "action": ' + "[" * 70 + "]" * 70 + "}",
        '{"a":' * 2000 + "1" + "}" * 2000,
        '{"type": "ping", "id": "\\ud800"}', '{"type": "ping", "id": "\\udfff\\ud800"}',
        '{"type": "\\ud800"}', '{"\\ud800": 1, "type": "ping"}',
        '{"type": "action", "id": "s1", "action": {"do": "move", "unit": "\\udc00", "path": [[8, 17]]}}',
        '{"type": "ping", "id": "\\u0000"}', '{"type": "ping\\u0000"}', '{"type": "ping", "a\\u0000": 1}',
        '{"type": "order", "to": 1, "text": "hold\\u0000"}',
        '{"type": "action", "id": "n1", "action": {"do": "move", "unit": "u1\\u0000", "path": [[8, 17]]}}',
        "x" * (16 * 1024 + 1), json.dumps({"type": "ping", "id": "x" * (16 * 1024)}),
        json.dumps({"type": "ping", "id": "я" * 9000}, ensure_ascii=False),  # 9,000 characters, 18 KB
    ]
    frames += [json.dumps(frame) if not isinstance(frame, str) else frame for frame in texts]
    frames += [b"", b"\x00\x01", b'{"type": "ping", "id": "b"}', bytes(range(256)), b"\xff" * 20000]
    return [frame if isinstance(frame, (str, bytes)) else json.dumps(frame) for frame in frames]


def _kind(frame: str | bytes) -> str | None:
    """The frame type a text frame says it is, when it parses as an object with a string type."""
    try:
        parsed = json.loads(frame)
    except (ValueError, RecursionError):
        return None
    return parsed.get("type") if isinstance(parsed, dict) and isinstance(parsed.get("type"), str) else None


def _check_answer(frame: str | bytes, answers: list[dict[str, Any]]) -> str | None:
    """What is wrong with the answers to one frame (None: nothing)."""
    if len(answers) != 1:
        return f"{len(answers)} answers"
    answer = answers[0]
    if answer["type"] == "error":
        if CODES.get(answer.get("code")) != answer.get("status") or not answer.get("detail"):
            return f"an error outside §4: {answer}"
        return None
    if answer["type"] not in ANSWERS.get(_kind(frame) or "", set()) or answer["type"] == "ack":
        return f"answered {answer['type']}"
    return None


class Socket:
    """A battle socket that reads every message into ``seen`` in the background."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.events: list[dict[str, Any]] = []
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                message = json.loads(text)
                if message["type"] == "event":  # pushes, not answers
                    self.events.append(message)
                else:
                    await self.queue.put(message)
        finally:
            await self.queue.put({"type": "closed", "code": self.ws.close_code})

    async def until_pong(self, marker: str) -> list[dict[str, Any]]:
        """The answers before the pong of ``marker``."""
        got = []
        while (message := await asyncio.wait_for(self.queue.get(), 20))["type"] != "pong" or (
                message.get("id") != marker):
            if message["type"] == "closed":
                raise AssertionError(f"the socket closed ({message['code']}) after {got}")
            got.append(message)
        return got


async def _connect(port: int, battle_id: int, session: str | None) -> Socket:
    headers = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={session}"} if session else None
    ws = await websockets.connect(f"ws://{HOST}:{port}/ws/battles/{battle_id}/", origin=f"https://{HOST}",  # type: ignore[arg-type]
                                  additional_headers=headers, open_timeout=20, max_size=None)
    socket = Socket(ws)
    assert (await asyncio.wait_for(socket.queue.get(), 20))["type"] == "welcome"
    return socket


def _move(port: int, battle_id: int, token: str, unit: str) -> tuple[int, Any]:
    conn = http.client.HTTPConnection(HOST, port, timeout=20)
    conn.request("POST", f"/api/tactical/battles/{battle_id}/actions/",
                 body=json.dumps({"id": "after-fuzz", "action": {"do": "move", "unit": unit, "path": [[8, 17]]}}),
                 headers={"Authorization": f"Token {token}", "Content-Type": "application/json",
                          "X-Forwarded-Proto": "https"})
    answer = conn.getresponse()
    return answer.status, json.loads(answer.read())


async def _fuzz(port: int, live: LiveBattle, session: str, token: str) -> dict[str, Any]:
    unit, enemy = units_of(live, "attacker")[0], units_of(live, "defender")[0]
    corpus = _frames(unit, enemy)
    fuzzed = await _connect(port, live.pk, session)
    watcher = await _connect(port, live.pk, None)
    wrong: list[str] = []
    sent = 0
    for n, frame in enumerate(corpus):
        await fuzzed.ws.send(frame)
        await fuzzed.ws.send(json.dumps({"type": "ping", "id": f"m{n}"}))
        sent += 2
        try:
            problem = _check_answer(frame, await fuzzed.until_pong(f"m{n}"))
        except AssertionError as closed:
            raise AssertionError(f"{frame[:120]!r}: {closed}") from None
        if problem:
            wrong.append(f"{frame[:120]!r}: {problem}")
    flood = [corpus[n % len(corpus)] if n % 3 else json.dumps({"type": "ping", "id": f"f{n}"})
             for n in range(FLOOD)]
    for frame in flood:  # without waiting for any answer
        await fuzzed.ws.send(frame)
    await fuzzed.ws.send(json.dumps({"type": "ping", "id": "flood"}))
    sent += FLOOD + 1
    answered = await fuzzed.until_pong("flood")
    status, moved = await asyncio.to_thread(_move, port, live.pk, token, unit)  # another client's move
    end = time.monotonic() + 10
    while time.monotonic() < end and not (fuzzed.events and watcher.events):
        await asyncio.sleep(0.05)
    result = {"sent": sent, "corpus": len(corpus), "wrong": wrong, "flood_answers": len(answered),
              "errors": sum(m["type"] == "error" for m in answered), "version": (status, moved.get("version", moved)),
              "pushed": [[e["version"] for e in s.events] for s in (fuzzed, watcher)],
              "open": [s.ws.close_code is None for s in (fuzzed, watcher)]}
    for socket in (fuzzed, watcher):
        await socket.ws.close()
        socket.reader.cancel()
    return result


@pytest.fixture
def web(transactional_db: Any) -> Iterator[WebProcess]:
    with web_process() as server:
        yield server


def test_every_frame_a_client_can_send_is_answered_and_the_socket_stays_open(
        world: Any, live: LiveBattle, web: WebProcess, record_property: Any) -> None:
    LiveBattle.objects.filter(pk=live.pk).update(deadline=timezone.now() + timedelta(minutes=10))  # no timeout
    client = Client()
    client.force_login(world.east_general)  # a player: his actions reach the rules
    token = Token.objects.create(user=world.east_general).key
    started = time.monotonic()

    result = asyncio.run(_fuzz(web.port, live, client.cookies[settings.SESSION_COOKIE_NAME].value, token))

    record_property("frames_sent", result["sent"])
    print(f"socket fuzz: {result['sent']} frames sent ({result['corpus']} in the corpus, each followed by a ping; "
          f"a flood of {FLOOD}) in {time.monotonic() - started:.1f} s")
    assert result["wrong"] == []
    assert result["flood_answers"] == FLOOD  # one answer to each flooded frame, in order
    assert result["version"] == (200, live.version + 1)  # nothing of the fuzz was applied
    assert result["pushed"] == [[live.version + 1]] * 2
    assert result["open"] == [True, True]
    assert "ERROR" not in web.log() and "Traceback" not in web.log(), web.log()[-3000:]
