"""The one helper that sends battle messages to sockets, after the transaction commits (Zulip style).

Messages are serialized at once, so an event that cannot be JSON fails where it is made, and every
socket of the group forwards the same text without encoding it again.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
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
        for group in groups:
            try:
                async_to_sync(layer.group_send)(group, payload)
            except Exception:  # a lost push is recovered by the clients' version check
                log.exception("push to %s failed", group)

    transaction.on_commit(send)
