"""The one helper that sends battle messages to sockets, after the transaction commits (Zulip style).

Messages are serialized at once, so an event that cannot be JSON fails where it is made, and every
socket of the group forwards the same text without encoding it again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction

log = logging.getLogger(__name__)


def battle_group(battle_id: int) -> str:
    """The group of every socket watching a battle."""
    return f"battle.{battle_id}"


def commander_group(battle_id: int, commander_id: int) -> str:
    """The group of the sockets of one commander's player in a battle (orders, T2)."""
    return f"battle.{battle_id}.commander.{commander_id}"


def moderators_group(battle_id: int) -> str:
    """The group of the sockets of the campaign's moderators watching a battle."""
    return f"battle.{battle_id}.moderators"


def dumps(message: dict[str, Any]) -> str:
    """Compact JSON text of a message."""
    return json.dumps(message, cls=DjangoJSONEncoder, separators=(",", ":"), ensure_ascii=False)


def send_on_commit(groups: list[str], message: dict[str, Any], **meta: Any) -> None:
    """Send ``message`` to ``groups`` once the current transaction commits (at once outside one).

    ``meta`` (version, deadline, turn_key) rides beside the text so that consumers can order and
    deduplicate without parsing it.
    """
    text = dumps(message)
    payload = {"type": "battle.message", "text": text, **meta}

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        if isinstance(layer, InMemoryChannelLayer):
            # The in-memory layer lives on the server's own event loop: send there, and wait.
            for group in groups:
                try:
                    async_to_sync(layer.group_send)(group, payload)
                except Exception:  # a lost push is recovered by the clients' version check
                    log.exception("push to %s failed", group)
            return
        _sender().put(layer, groups, payload)

    transaction.on_commit(send)


class _Sender:
    """One background event loop per process that sends pushes in the order they were committed.

    A request (or a timer task) does not wait for Redis, and the layer's connections are kept instead of
    being opened again by each ``async_to_sync`` call from a thread without a loop.
    """

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.queue: asyncio.Queue[tuple[Any, list[str], dict[str, Any]]] | None = None
        ready = threading.Event()
        threading.Thread(target=self._run, args=(ready,), name="tactical-push", daemon=True).start()
        ready.wait()

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.queue = asyncio.Queue()
        ready.set()
        self.loop.run_until_complete(self._drain())

    async def _drain(self) -> None:
        assert self.queue is not None
        while True:
            layer, groups, payload = await self.queue.get()
            for group in groups:
                try:
                    await layer.group_send(group, payload)
                except Exception:  # a lost push is recovered by the clients' version check
                    log.exception("push to %s failed", group)

    def put(self, layer: Any, groups: list[str], payload: dict[str, Any]) -> None:
        assert self.queue is not None
        self.loop.call_soon_threadsafe(self.queue.put_nowait, (layer, groups, payload))


_the_sender: _Sender | None = None
_sender_lock = threading.Lock()


def _sender() -> _Sender:
    global _the_sender
    with _sender_lock:
        if _the_sender is None or os.getpid() != _sender_pid[0]:  # a forked worker needs its own thread
            _the_sender = _Sender()
            _sender_pid[0] = os.getpid()
        return _the_sender


_sender_pid = [0]
