"""The JSON messages of the protocol built from stored rows (docs/tactical-protocol.md §6)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from django.utils.translation import get_language_from_request

from tactical.models import BattleEvent, BattleOrder
from tactical.protocol.board import iso


def event_message(row: BattleEvent, state: dict[str, Any] | None) -> dict[str, Any]:
    """An ``event`` message: one version of the battle, with the board state after it when given."""
    actor = None
    if row.actor_id is not None or row.commander_id is not None:
        actor = {"user": row.actor.get_username() if row.actor is not None else None, "commander": row.commander_id}
    action = row.action
    if row.kind == BattleEvent.Kind.SETUP and isinstance(action, dict):
        action = {"do": "setup", "map_seed": action.get("map_seed")}  # the full start state stays in the log
    message: dict[str, Any] = {
        "type": "event",
        "battle": row.battle_id,
        "version": row.version,
        "kind": row.kind,
        "actor": actor,
        "action": action,
        "events": row.events,
        "created_at": iso(row.created_at),
    }
    if state is not None:
        message["state"] = state
    return message


def socket_language(scope: dict[str, Any]) -> str:
    """The language of a socket's user, found as ``LocaleMiddleware`` finds a request's.

    The language switch sets the ``django_language`` cookie, which the socket's handshake carries; else the
    browser's ``Accept-Language``; else ``LANGUAGE_CODE``.
    """
    headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers") or []}
    request = SimpleNamespace(COOKIES=scope.get("cookies") or {},
                              META={"HTTP_ACCEPT_LANGUAGE": headers.get("accept-language", "")})
    return get_language_from_request(request)  # type: ignore[arg-type]


def order_message(order: BattleOrder) -> dict[str, Any]:
    """An order of a leader to a subordinate (T2)."""
    return {
        "id": order.pk,
        "from": {"id": order.author_id, "name": order.author.name},
        "to": {"id": order.recipient_id, "name": order.recipient.name},
        "text": order.text,
        "created_at": iso(order.created_at),
        "version": order.version,
    }
