"""The battle socket (docs/tactical-protocol.md §6): thin — it parses frames, asks services, forwards pushes.

Each socket keeps the version it has sent so that its client sees every version once and in order:
a push that skips versions is preceded by the missing ones from the log. At the deadline the socket
asks the clock itself (coalesced per process), so a timeout ended by another process whose pushes do
not reach this one (the embedded mode's in-memory layer) is still seen within the second.
"""

from __future__ import annotations

import asyncio
import functools
from datetime import datetime
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _

from campaign.errors import Invalid, ServiceError
from campaign.parsers import JSONRefused, read_json
from campaign.sockets import socket_db, user_of
from tactical import errors
from tactical.api import preview
from tactical.messages import UNKNOWN_UNIT
from tactical.models import LiveBattle
from tactical.protocol.board import board_state, board_state_shared, iso, unit_options
from tactical.protocol.messages import event_message, socket_language
from tactical.protocol.push import battle_group, commander_group, dumps, moderators_group
from tactical.selectors.battles import can_watch, events_since, viewer_of
from tactical.selectors.snapshots import state_of
from tactical.services import play as services

MAX_FRAME = 16 * 1024
MAX_REPLAY = 200
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
DEADLINE_GRACE = 0.05  # seconds after the deadline before a socket asks the clock
PUSH_WAIT = 0.3  # how long a socket waits for the push of a timeout before reading the log

# Frames the socket cannot take (docs/tactical-protocol.md §6), said in the socket's language; the codes stay.
BINARY_FRAME = _("Binary frames are not accepted.")
FRAME_TOO_LARGE = _("A frame may be at most %(bytes)s bytes.")
NOT_JSON = _("A frame must be a JSON object.")
NO_TYPE = _('A frame must be a JSON object with a string "type".')
BAD_REQUEST_ID = _('"id" must be a string.')
UNKNOWN_TYPE = _("Unknown message type “%(type)s”.")
NOT_AN_INTEGER = _("must be an integer")
NOT_A_VERSION = _("must be a version (an integer ≥ 0)")

_expiring: dict[tuple[int, str], asyncio.Task[int]] = {}
_moment = functools.lru_cache(maxsize=256)(parse_datetime)  # every socket of a battle parses the same deadline


def _expire_and_version(battle_id: int, turn_key: str) -> int:
    services.battle_turn_expire(battle_id=battle_id, turn_key=turn_key)
    return LiveBattle.objects.filter(pk=battle_id).values_list("version", flat=True).first() or 0


async def expire_shared(battle_id: int, turn_key: str) -> int:
    """End an overdue turn once per process however many sockets ask; returns the battle's version."""
    key = (battle_id, turn_key)
    task = _expiring.get(key)
    if task is None:
        task = asyncio.ensure_future(socket_db(_expire_and_version)(battle_id, turn_key))
        _expiring[key] = task
        task.add_done_callback(lambda _t: asyncio.get_running_loop().call_later(1.0, _expiring.pop, key, None))
    return await task


def _error(error: ServiceError, request_id: Any = None) -> dict[str, Any]:
    """An error frame: the one error shape (docs/errors.md) with ``type`` and the request's ``id``."""
    frame: dict[str, Any] = {"type": "error", **error.as_dict()}
    if request_id is not None:
        frame["id"] = request_id
    return frame


class BattleConsumer(AsyncWebsocketConsumer):
    """One browser watching (and perhaps playing) one battle."""

    async def connect(self) -> None:
        self.battle_id = int(self.scope["url_route"]["kwargs"]["battle_id"])
        self.user: Any = None  # read with the welcome (campaign.sockets.user_of)
        self.joined: list[str] = []
        self.language = socket_language(self.scope)  # refusals are said in it (tactical.refusals)
        self.version = 0
        self.deadline: datetime | None = None
        self.turn_key = ""
        # A timer handle until the deadline, then the task that asks the clock: a new turn re-arms every
        # socket of the battle, and a handle costs far less to make and cancel than a task.
        self.timer: asyncio.TimerHandle | asyncio.Task[None] | None = None
        self.send_lock = asyncio.Lock()
        await self.accept()
        # Subscribed before the welcome is read, so that no version committed meanwhile is missed: pushes wait
        # in the queue until connect() returns, and those the welcome already holds are dropped.
        self.joined = [battle_group(self.battle_id)]
        await self.channel_layer.group_add(self.joined[0], self.channel_name)
        admitted = await socket_db(self._admit)()
        if isinstance(admitted, int):
            await self.close(code=admitted)
            return
        groups, welcome = admitted
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self.joined += groups
        async with self.send_lock:
            self._advance(welcome["version"], welcome["state"]["deadline"], welcome.pop("_turn_key"))
            await self.send(text_data=dumps(welcome))

    def _admit(self) -> tuple[list[str], dict[str, Any]] | int:
        """The user, his groups besides the battle's and the welcome, or the close code: the handshake's one
        trip to the database, with one read of the battle."""
        self.user = user_of(self.scope)
        now = timezone.now()
        battle = self._battle()
        if battle is None:
            return CLOSE_NOT_FOUND
        if battle.deadline is not None and battle.deadline <= now:
            services.battle_turn_expire(battle_id=self.battle_id, skip_locked=True)  # many sockets may connect at once
            battle = self._battle()
            if battle is None:
                return CLOSE_NOT_FOUND
        viewer = viewer_of(user=self.user, battle=battle)
        if not can_watch(user=self.user, battle=battle, viewer=viewer):
            return CLOSE_FORBIDDEN
        groups = [commander_group(battle.pk, c) for c in viewer.commanders]
        if viewer.is_moderator:
            groups.append(moderators_group(battle.pk))
        return groups, {"type": "welcome", "battle": battle.pk, "version": battle.version, "server_time": iso(now),
                        "state": board_state_shared(battle, now), "viewer": viewer.as_dict(),
                        "_turn_key": battle.turn_key}

    def _battle(self) -> LiveBattle | None:
        return (LiveBattle.objects.select_related("campaign", "record__attacker_army", "record__defender_faction")
                .filter(pk=self.battle_id).first())

    async def disconnect(self, code: int) -> None:
        if self.timer is not None:
            self.timer.cancel()
        for group in self.joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    # -- pushes from the group ----------------------------------------------------------------

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Pushes skip Channels' ``aclose_old_connections`` before each handler.

        That is a hop to the one thread all sync code of the process shares, made for every socket of the
        group: with 100 watchers a push queued 100 hops (most of the fan-out's latency). Forwarding a push
        touches no database; the replay it may need goes through ``socket_db``, which closes
        old connections itself.
        """
        if message.get("type") == "battle.message":
            await self.battle_message(message)
            return
        await super().dispatch(message)

    async def battle_message(self, message: dict[str, Any]) -> None:
        """A pushed message: forward it once, in version order."""
        version = message.get("version")
        async with self.send_lock:
            if version is None:
                await self.send(text_data=message["text"])
                return
            if version <= self.version:
                return
            if version > self.version + 1:
                await self._replay_locked(upto=version - 1)
            await self.base_send({"type": "websocket.send", "text": message["text"]})  # send(), less two calls
            self._advance(version, message.get("deadline"), message.get("turn_key", ""))

    def _advance(self, version: int, deadline: str | None, turn_key: str) -> None:
        self.version = version
        moment = _moment(deadline) if deadline else None
        if moment != self.deadline or turn_key != self.turn_key:
            self.deadline, self.turn_key = moment, turn_key
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
            if moment is not None:
                delay = max(0.0, (moment - timezone.now()).total_seconds()) + DEADLINE_GRACE
                self.timer = asyncio.get_running_loop().call_later(delay, self._deadline_due, turn_key)

    def _deadline_due(self, turn_key: str) -> None:
        self.timer = asyncio.ensure_future(self._at_deadline(turn_key))

    async def _at_deadline(self, turn_key: str) -> None:
        version = await expire_shared(self.battle_id, turn_key)
        waited = 0.0
        while self.version < version and waited < PUSH_WAIT:
            await asyncio.sleep(0.05)
            waited += 0.05
        if self.version < version:
            async with self.send_lock:
                await self._replay_locked()

    async def _replay_locked(self, upto: int | None = None) -> None:
        """Send the log after this socket's version (the newest with the board state)."""
        messages = await socket_db(self._missing)(self.version, upto)
        for message in messages:
            await self.send(text_data=dumps(message))
        if messages:
            last = messages[-1]
            self._advance(last["version"], last.get("state", {}).get("deadline"), last.pop("_turn_key", ""))

    def _missing(self, since: int, upto: int | None) -> list[dict[str, Any]]:
        battle = LiveBattle.objects.select_related("campaign", "record").get(pk=self.battle_id)
        rows = [row for row in events_since(battle=battle, since=since) if upto is None or row.version <= upto]
        messages = [event_message(row, None) for row in rows]
        if messages and messages[-1]["version"] == battle.version:
            messages[-1]["state"] = board_state(battle)
            messages[-1]["_turn_key"] = battle.turn_key
        return messages

    # -- frames from the browser --------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Parse one frame; a bad one is answered with an error to this socket only, in its language."""
        with translation.override(self.language):
            answer = await self._answer(text_data, bytes_data)
        if answer is not None:
            await self._reply(answer)

    async def _answer(self, text_data: str | None, bytes_data: bytes | None) -> dict[str, Any] | None:
        if bytes_data is not None:
            return _error(Invalid(BINARY_FRAME, code="binary"))
        if text_data is None or len(text_data.encode("utf-8", "surrogatepass")) > MAX_FRAME:
            return _error(Invalid(FRAME_TOO_LARGE, code="too_large", params={"bytes": MAX_FRAME}))
        try:
            frame = read_json(text_data)
        except JSONRefused as refused:  # too deep, a lone surrogate, a NUL: named by its field's path
            return _error(Invalid(refused.message, code="bad_frame", field=refused.path or None))
        except ValueError:
            return _error(Invalid(NOT_JSON, code="bad_frame"))
        if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
            return _error(Invalid(NO_TYPE, code="bad_frame"))
        request_id = frame.get("id")
        if request_id is not None and not isinstance(request_id, str):
            return _error(Invalid(BAD_REQUEST_ID, code="bad_frame"))
        handler = getattr(self, f"on_{frame['type']}", None) if frame["type"] in HANDLED else None
        if handler is None:
            return _error(Invalid(UNKNOWN_TYPE, code="unknown_type", params={"type": frame["type"]}))
        try:
            answer: dict[str, Any] | None = await handler(frame)
        except ServiceError as error:
            answer = _error(error, request_id)
        return answer

    async def _reply(self, message: dict[str, Any]) -> None:
        async with self.send_lock:
            await self.send(text_data=dumps(message))

    async def on_action(self, frame: dict[str, Any]) -> dict[str, Any]:
        expected = frame.get("expected_version")
        if expected is not None and (isinstance(expected, bool) or not isinstance(expected, int)):
            raise errors.invalid(NOT_AN_INTEGER, field="expected_version")
        result = await socket_db(services.battle_action_apply)(
            actor=self.user, battle_id=self.battle_id, action=frame.get("action"),
            action_id=frame.get("id") or "", expected_version=expected,
        )
        return {"type": "ack", "id": result.action_id, "version": result.version, "replayed": result.replayed}

    async def on_sync(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        since = frame.get("since")
        if isinstance(since, bool) or not isinstance(since, int) or since < 0:
            raise errors.invalid(NOT_A_VERSION, field="since")
        return await socket_db(self._sync_answer)(since)

    def _sync_answer(self, since: int) -> dict[str, Any]:
        battle = LiveBattle.objects.select_related("campaign", "record").get(pk=self.battle_id)
        if battle.version - since > MAX_REPLAY:
            return {"type": "state", "version": battle.version, "state": board_state(battle)}
        items = self._missing(since, None)
        for item in items:
            item.pop("_turn_key", None)
        return {"type": "events", "since": since, "items": items}

    async def on_options(self, frame: dict[str, Any]) -> dict[str, Any]:
        return await socket_db(self._options)(frame.get("unit"), frame.get("id"))

    def _options(self, unit: Any, request_id: Any) -> dict[str, Any]:
        battle = LiveBattle.objects.get(pk=self.battle_id)
        state = state_of(battle)
        if not isinstance(unit, str) or unit not in state.units:
            raise errors.missing(UNKNOWN_UNIT)
        return {"type": "options", "id": request_id, **unit_options(battle, unit, state)}

    async def on_preview(self, frame: dict[str, Any]) -> dict[str, Any]:
        def run() -> dict[str, Any]:
            return {"type": "preview", "id": frame.get("id"),
                    **preview(LiveBattle.objects.get(pk=self.battle_id), frame.get("unit"), frame.get("path"))}

        return await socket_db(run)()

    async def on_order(self, frame: dict[str, Any]) -> None:
        await socket_db(services.battle_order_give)(
            actor=self.user, battle_id=self.battle_id, to=frame.get("to"), text=frame.get("text"))

    async def on_ping(self, frame: dict[str, Any]) -> dict[str, Any]:
        return {"type": "pong", "id": frame.get("id"), "server_time": iso(timezone.now())}


HANDLED = {"action", "sync", "options", "preview", "order", "ping"}
