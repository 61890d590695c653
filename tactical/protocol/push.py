"""The one helper that sends battle messages to sockets, after the transaction commits (Zulip style).

Messages are serialized at once, so an event that cannot be JSON fails where it is made, and every
socket of the group forwards the same text without encoding it again.
"""

from __future__ import annotations

import json
import logging
import threading
import weakref
from typing import Any

import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from channels_redis.utils import _consistent_hash, decode_hosts
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from redis.backoff import NoBackoff
from redis.retry import Retry

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


def dumps(message: dict[str, Any], state_json: str | None = None) -> str:
    """Compact JSON text of a message; ``state_json``, a board already encoded, is added as its ``state``.

    The board is most of an event's text and the HTTP answer to an action carries it too: encoded once.
    """
    text = json.dumps(message, cls=DjangoJSONEncoder, separators=(",", ":"), ensure_ascii=False)
    return text if state_json is None else f'{text[:-1]},"state":{state_json}}}'


def send_on_commit(groups: list[str], message: dict[str, Any], state_json: str | None = None,
                   **meta: Any) -> None:
    """Send ``message`` (with ``state_json`` as its ``state``) to ``groups`` once the current transaction
    commits (at once outside one).

    ``meta`` (version, deadline, turn_key) rides beside the text so that consumers can order and
    deduplicate without parsing it.
    """
    text = dumps(message, state_json)
    payload = {"type": "battle.message", "text": text, **meta}
    transaction.on_commit(lambda: _send(groups, payload))


def _send(groups: list[str], payload: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    publisher = _publisher(layer)
    for group in groups:
        try:
            if publisher is not None:
                publisher.publish(group, payload)
            else:
                # The in-memory layer lives on the server's own event loop: this sends there, and waits.
                async_to_sync(layer.group_send)(group, payload)
        except Exception:  # a lost push is recovered by the clients' version check
            log.exception("push to %s failed", group)


PUBLISH_TIMEOUT = 1.0  # seconds


class _Publisher:
    """Publishes to channels_redis' pub/sub layer from synchronous code, as its ``group_send`` does.

    The layer's own ``group_send`` needs an event loop: from a request's or a task's thread that meant a
    background loop whose wake-ups and asyncio client cost the move path more Python time than the rest of
    its push (issue 4). This uses the layer's serializer, group channel names and shard choice with a
    plain redis-py client per shard; tests/tactical/test_consumers.py checks that sockets receive it.
    """

    def __init__(self, layer: RedisPubSubChannelLayer, hosts: list[dict[str, Any]], prefix: str) -> None:
        self.serialize = layer.serialize
        self.prefix = prefix
        # The committing request waits for the publish: an unreachable Redis costs it at most a second, once,
        # not redis-py's retries (the clients' version check recovers a lost push).
        quick = {"socket_timeout": PUBLISH_TIMEOUT, "socket_connect_timeout": PUBLISH_TIMEOUT,
                 "retry": Retry(NoBackoff(), 0)}
        self.shards = [
            redis.Redis.from_url(host["address"], **{**quick, **{k: v for k, v in host.items() if k != "address"}})
            for host in hosts
        ]

    def publish(self, group: str, payload: dict[str, Any]) -> None:
        channel = f"{self.prefix}__group__{group}"
        self.shards[_consistent_hash(channel, len(self.shards))].publish(channel, self.serialize(payload))


_publishers: weakref.WeakKeyDictionary[Any, _Publisher | None] = weakref.WeakKeyDictionary()
_publishers_lock = threading.Lock()


def _publisher(layer: Any) -> _Publisher | None:
    """The synchronous publisher of a pub/sub layer given by URLs; None for other layers (and Sentinel)."""
    with _publishers_lock:
        if layer not in _publishers:
            publisher = None
            if isinstance(layer, RedisPubSubChannelLayer):
                config = layer._kwargs  # the layer's CONFIG, as channels passed it
                hosts = decode_hosts(config.get("hosts"))
                if all("address" in host for host in hosts):
                    publisher = _Publisher(layer, hosts, config.get("prefix", "asgi"))
            _publishers[layer] = publisher
        return _publishers[layer]
