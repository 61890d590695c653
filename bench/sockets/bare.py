"""The baseline server: a bare ASGI WebSocket app on the same server, with no Django, Channels or database.

It accepts every socket, sends a welcome frame the size of the battle's and answers pings with pongs, so
the socket benchmarks can show what the server and the protocol cost on their own beside the project.
"""

from __future__ import annotations

import json
from typing import Any

WELCOME = json.dumps({"type": "welcome", "battle": 0, "version": 0, "state": {"cells": ["x" * 60] * 80}})


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "websocket":
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"ok"})
        return
    while True:
        event = await receive()
        if event["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": WELCOME})
        elif event["type"] == "websocket.receive":
            frame = json.loads(event.get("text") or "{}")
            if frame.get("type") == "ping":
                await send({"type": "websocket.send", "text": json.dumps({"type": "pong", "id": frame.get("id")})})
        elif event["type"] == "websocket.disconnect":
            return
