"""The battle socket (docs/tactical-protocol.md §6): who may watch, frames, pushes, gaps, resends, the clock."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any
from unittest import mock

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.utils import timezone

from campaign.parsers import LONE_SURROGATE, NUL_CHARACTER
from config.asgi import application
from tactical.models import LiveBattle
from tactical.services import play as services
from tests.tactical.builders import act, units_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _in_memory_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def _cookie(user: Any) -> list[tuple[bytes, bytes]]:
    if user is None or isinstance(user, AnonymousUser):
        return []
    client = Client()
    client.force_login(user)
    return [(b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())]


async def _socket(battle_id: int, user: Any = None, origin: bytes = b"http://testserver") -> WebsocketCommunicator:
    headers = [(b"origin", origin), *(await database_sync_to_async(_cookie)(user))]
    return WebsocketCommunicator(application, f"/ws/battles/{battle_id}/", headers=headers)


async def _open(battle_id: int, user: Any = None) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    socket = await _socket(battle_id, user)
    connected, _ = await socket.connect(timeout=10)
    assert connected
    welcome = json.loads(await socket.receive_from(timeout=5))
    return socket, welcome


@pytest.fixture
async def watcher(live: LiveBattle) -> AsyncIterator[tuple[WebsocketCommunicator, dict[str, Any]]]:
    socket, welcome = await _open(live.pk)
    yield socket, welcome
    await socket.disconnect()


async def test_anyone_may_watch_a_public_battle_with_spectators_allowed(live: LiveBattle) -> None:
    socket, welcome = await _open(live.pk)
    assert (welcome["type"], welcome["version"], welcome["state"]["version"], welcome["viewer"]["user"]) == (
        "welcome", live.version, live.version, None)
    await socket.disconnect()


async def test_a_foreign_origin_is_refused_at_the_handshake(live: LiveBattle) -> None:
    socket = await _socket(live.pk, origin=b"http://evil.example")
    connected, _ = await socket.connect(timeout=10)
    assert connected is False


async def test_an_unknown_battle_closes_with_4404(live: LiveBattle) -> None:
    socket = await _socket(live.pk + 1000)
    await socket.connect(timeout=10)
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}


@pytest.mark.parametrize(
    ("who", "may_watch"),
    [
        ("east_general", True),  # commands units in the battle
        ("west_leader", True),  # commands the defenders
        ("east_leader", True),  # leads a faction that fights
        ("moderator", True),
        ("other_moderator", False),
        ("outsider", False),
        (None, False),  # anonymous
    ],
)
async def test_without_spectators_only_participants_and_moderators_may_watch(world: Any, live: LiveBattle,
                                                                            who: str | None, may_watch: bool) -> None:
    world.campaign.settings = {**world.campaign.settings, "spectators_allowed": False}
    await database_sync_to_async(world.campaign.save)()
    socket = await _socket(live.pk, getattr(world, who) if who else None)
    await socket.connect(timeout=10)
    first = await socket.receive_output(timeout=5)
    if may_watch:
        assert json.loads(first["text"])["type"] == "welcome"
    else:
        assert first == {"type": "websocket.close", "code": 4403}
    await socket.disconnect()


async def test_a_private_campaign_is_closed_to_outsiders_even_with_spectators(world: Any, live: LiveBattle) -> None:
    world.campaign.is_public = False
    await database_sync_to_async(world.campaign.save)()
    socket = await _socket(live.pk, world.outsider)
    await socket.connect(timeout=10)
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": 4403}


async def test_the_viewer_lists_the_units_a_commander_may_act_with(world: Any, live: LiveBattle) -> None:
    socket, welcome = await _open(live.pk, world.east_general)
    assert (welcome["viewer"]["units"], welcome["viewer"]["sides"], welcome["viewer"]["may_act"]) == (
        units_of(live, "attacker"), ["attacker"], True)
    await socket.disconnect()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        (b"\x00\x01", "binary"),
        ("x" * (16 * 1024 + 1), "too_large"),
        ("{not json", "bad_frame"),
        ("[1, 2]", "bad_frame"),
        ('{"type": 5}', "bad_frame"),
        ('{"type": "launch_missiles"}', "unknown_type"),
        ("[" * 5000 + "]" * 5000, "bad_frame"),  # 10 KB of nesting: a RecursionError dropped the socket
        ('{"type": "ping", "id": "\\ud800"}', "bad_frame"),  # a lone surrogate: its pong could not be sent
        ('{"type": "action", "id": "a", "action": {"do": "end_turn", "side": "\\u0000"}}', "bad_frame"),  # NUL
    ],
)
async def test_a_bad_frame_gets_an_error_and_changes_nothing(live: LiveBattle, watcher: Any, frame: Any,
                                                            code: str) -> None:
    socket, _ = watcher
    if isinstance(frame, bytes):
        await socket.send_to(bytes_data=frame)
    else:
        await socket.send_to(text_data=frame)
    error = json.loads(await socket.receive_from(timeout=5))
    assert (error["type"], error["status"], error["code"]) == ("error", 400, code)
    await socket.send_json_to({"type": "ping", "id": "p"})
    assert json.loads(await socket.receive_from(timeout=5))["type"] == "pong"
    stored = await database_sync_to_async(lambda: LiveBattle.objects.get(pk=live.pk).version)()
    assert stored == live.version


@pytest.mark.parametrize(
    ("frame", "errors"),
    [
        ('{"type": "ping", "id": "\\udc00"}', {"id": [str(LONE_SURROGATE)]}),
        ('{"type": "action", "id": "a", "action": {"do": "move", "unit": "u1\\u0000"}}',
         {"action.unit": [str(NUL_CHARACTER)]}),
        ("[" * 65 + "]" * 65, None),  # the detail names the limit
    ],
)
async def test_a_frame_the_json_reader_refuses_is_named_in_the_error(watcher: Any, frame: str, errors: Any) -> None:
    socket, _ = watcher
    await socket.send_to(text_data=frame)
    error = json.loads(await socket.receive_from(timeout=5))
    detail = next(iter(errors.values()))[0] if errors else "JSON may be nested at most 64 levels deep."
    assert (error["status"], error["code"], error["detail"], error.get("errors")) == (400, "bad_frame", detail, errors)
    await socket.send_json_to({"type": "ping", "id": "p"})
    assert json.loads(await socket.receive_from(timeout=5))["type"] == "pong"


async def test_an_action_over_the_socket_is_acked_and_pushed_to_every_watcher(world: Any, live: LiveBattle,
                                                                              watcher: Any) -> None:
    spectator, _ = watcher
    player, _ = await _open(live.pk, world.east_general)
    unit = units_of(live, "attacker")[0]
    await player.send_json_to({"type": "action", "id": "a1", "action": {"do": "move", "unit": unit, "path": [[8, 17]]}})
    got = [json.loads(await player.receive_from(timeout=5)) for _ in range(2)]
    ack = next(m for m in got if m["type"] == "ack")
    assert ack == {"type": "ack", "id": "a1", "version": live.version + 1, "replayed": False}
    pushed = json.loads(await spectator.receive_from(timeout=5))
    assert (pushed["type"], pushed["version"], pushed["kind"], pushed["events"][0]["type"],
            pushed["state"]["units"][0]["y"]) == ("event", live.version + 1, "action", "moved", 17)
    await player.disconnect()


async def test_a_resent_action_id_is_acked_as_replayed(world: Any, live: LiveBattle) -> None:
    player, _ = await _open(live.pk, world.east_general)
    frame = {"type": "action", "id": "a1",
             "action": {"do": "move", "unit": units_of(live, "attacker")[0], "path": [[8, 17]]}}
    await player.send_json_to(frame)
    await player.receive_from(timeout=5)
    await player.receive_from(timeout=5)
    await player.send_json_to(frame)
    assert json.loads(await player.receive_from(timeout=5)) == {
        "type": "ack", "id": "a1", "version": live.version + 1, "replayed": True}
    await player.disconnect()


async def test_an_illegal_action_is_an_error_to_that_socket_only(world: Any, live: LiveBattle, watcher: Any) -> None:
    spectator, _ = watcher
    player, _ = await _open(live.pk, world.west_leader)
    await player.send_json_to({"type": "action", "id": "w1",
                               "action": {"do": "move", "unit": units_of(live, "defender")[0], "path": [[8, 3]]}})
    error = json.loads(await player.receive_from(timeout=5))
    assert (error["type"], error["status"], error["code"], error["rule"], error["id"]) == (
        "error", 409, "illegal", "T6", "w1")
    assert await spectator.receive_nothing(timeout=0.3)
    await player.disconnect()


async def test_a_spectator_acting_gets_403(live: LiveBattle, watcher: Any) -> None:
    spectator, _ = watcher
    await spectator.send_json_to({"type": "action", "id": "s1", "action": {"do": "end_turn"}})
    error = json.loads(await spectator.receive_from(timeout=5))
    assert (error["status"], error["code"]) == (403, "forbidden")


async def test_sync_returns_the_missed_events_in_order(world: Any, live: LiveBattle, watcher: Any) -> None:
    spectator, welcome = watcher
    unit = units_of(live, "attacker")[0]
    await database_sync_to_async(act)(live, world.east_general, {"do": "move", "unit": unit, "path": [[8, 17]]})
    await database_sync_to_async(act)(live, world.east_general, {"do": "turn", "unit": unit, "facing": "E"})
    await spectator.receive_from(timeout=5)
    await spectator.receive_from(timeout=5)
    await spectator.send_json_to({"type": "sync", "since": welcome["version"]})
    answer = json.loads(await spectator.receive_from(timeout=5))
    assert (answer["type"], [item["version"] for item in answer["items"]],
            [item["events"][0]["type"] for item in answer["items"]], "state" in answer["items"][-1]) == (
        "events", [live.version + 1, live.version + 2], ["moved", "turned"], True)


async def test_a_push_after_a_gap_is_preceded_by_the_missing_versions(world: Any, live: LiveBattle,
                                                                     watcher: Any) -> None:
    spectator, _ = watcher
    unit = units_of(live, "attacker")[0]
    with mock.patch("tactical.protocol.push.get_channel_layer", return_value=None):  # version + 1 is never pushed
        await database_sync_to_async(act)(live, world.east_general, {"do": "move", "unit": unit, "path": [[8, 17]]})
    await database_sync_to_async(act)(live, world.east_general, {"do": "turn", "unit": unit, "facing": "E"})
    versions = [json.loads(await spectator.receive_from(timeout=5))["version"] for _ in range(2)]
    assert versions == [live.version + 1, live.version + 2]


async def test_a_push_is_forwarded_without_a_hop_to_the_sync_thread(world: Any, live: LiveBattle,
                                                                    watcher: Any) -> None:
    spectator, _ = watcher
    unit = units_of(live, "attacker")[0]
    with mock.patch("channels.consumer.aclose_old_connections") as hop:
        await database_sync_to_async(act)(live, world.east_general, {"do": "turn", "unit": unit, "facing": "E"})
        pushed = json.loads(await spectator.receive_from(timeout=5))
    assert (pushed["version"], hop.await_count) == (live.version + 1, 0)


async def test_orders_reach_the_subordinate_and_not_the_spectators(world: Any, live: LiveBattle,
                                                                  watcher: Any) -> None:
    spectator, _ = watcher
    general, _ = await _open(live.pk, world.east_general)
    leader, _ = await _open(live.pk, world.east_leader)
    await database_sync_to_async(_leader_commands_a_unit)(world, live)
    await leader.send_json_to({"type": "order", "id": "o1", "to": world.belisarius.pk, "text": "Hold the river"})
    got = json.loads(await general.receive_from(timeout=5))
    assert (got["type"], got["order"]["from"]["name"], got["order"]["to"]["name"], got["order"]["text"]) == (
        "order", "Aspar", "Belisarius", "Hold the river")
    assert await spectator.receive_nothing(timeout=0.3)
    await general.disconnect()
    await leader.disconnect()


def _leader_commands_a_unit(world: Any, live: LiveBattle) -> None:
    from tactical.models import BattleUnit

    row = BattleUnit.objects.filter(battle=live, side="attacker").order_by("id").last()
    row.commander = world.aspar
    row.save()


async def _short_turn(live: LiveBattle, seconds: float) -> None:
    def shorten() -> None:
        LiveBattle.objects.filter(pk=live.pk).update(deadline=timezone.now() + timezone.timedelta(seconds=seconds))

    await database_sync_to_async(shorten)()


async def test_a_watcher_learns_of_a_timeout_within_a_second_of_the_deadline(live: LiveBattle) -> None:
    await _short_turn(live, 0.5)
    socket, welcome = await _open(live.pk)
    deadline = timezone.datetime.fromisoformat(welcome["state"]["deadline"].replace("Z", "+00:00"))
    pushed = json.loads(await socket.receive_from(timeout=3))
    late = (timezone.now() - deadline).total_seconds()
    assert (pushed["kind"], pushed["events"][0]["type"], pushed["state"]["side"]) == ("timeout", "turn_timed_out",
                                                                                     "defender")
    assert late < 1.0
    await socket.disconnect()


def _ended_elsewhere(battle_id: int, turn_key: str) -> int:
    """The turn is ended by another process whose push never reaches this one (the embedded mode's worker)."""
    with mock.patch("tactical.protocol.push.get_channel_layer", return_value=None):
        services.battle_turn_expire(battle_id=battle_id)
    return LiveBattle.objects.get(pk=battle_id).version


async def test_a_timeout_ended_by_another_process_reaches_the_socket_from_the_log(live: LiveBattle) -> None:
    await _short_turn(live, 0.5)
    with mock.patch("tactical.consumers._expire_and_version", _ended_elsewhere):
        socket, _ = await _open(live.pk)
        pushed = json.loads(await socket.receive_from(timeout=3))
    assert (pushed["kind"], pushed["version"], pushed["state"]["side"]) == ("timeout", live.version + 1, "defender")
    await socket.disconnect()


@pytest.mark.redis
@pytest.mark.parametrize("backend", [
    "channels_redis.pubsub.RedisPubSubChannelLayer",  # the configured layer (config/settings.py)
    "channels_redis.core.RedisChannelLayer",
])
async def test_pushes_cross_the_redis_channel_layer_to_every_watcher(settings: Any, world: Any,
                                                                     live: LiveBattle, backend: str) -> None:
    import os

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": backend,
                                           "CONFIG": {"hosts": [os.environ["REDIS_URL"]],
                                                      "prefix": f"limes-test-{live.pk}"}}}
    watchers = [await _open(live.pk) for _ in range(3)]
    unit = units_of(live, "attacker")[0]
    await database_sync_to_async(act)(live, world.east_general, {"do": "move", "unit": unit, "path": [[8, 17]]})
    versions = [json.loads(await socket.receive_from(timeout=5))["version"] for socket, _ in watchers]
    assert versions == [live.version + 1] * 3
    for socket, _ in watchers:
        await socket.disconnect()


def test_an_unreachable_redis_loses_the_push_not_the_action(settings: Any, world: Any, live: LiveBattle,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                                           "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]}}}
    unit, before = units_of(live, "attacker")[0], live.version
    result = act(live, world.east_general, {"do": "move", "unit": unit, "path": [[8, 17]]})
    live.refresh_from_db()
    assert (result.version, live.version) == (before + 1, before + 1)
    assert [r.getMessage() for r in caplog.records if r.name == "tactical.protocol.push"] == [
        f"push to battle.{live.pk} failed"]


async def test_a_socket_opened_after_the_deadline_is_welcomed_into_the_next_turn(live: LiveBattle) -> None:
    await _short_turn(live, -5)
    socket, welcome = await _open(live.pk)
    assert (welcome["version"], welcome["state"]["side"], welcome["state"]["round"]) == (live.version + 1, "defender", 1)
    await socket.disconnect()


async def test_a_socket_opened_before_the_deadline_leaves_the_turn_alone(live: LiveBattle) -> None:
    await _short_turn(live, 30)
    socket, welcome = await _open(live.pk)
    assert (welcome["version"], welcome["state"]["side"]) == (live.version, "attacker")
    await socket.disconnect()


async def test_a_spectators_welcome_names_no_chief_and_a_commanders_names_his_side(world: Any, live: LiveBattle) -> None:
    spectator, seen = await _open(live.pk, world.outsider)
    general, commanded = await _open(live.pk, world.east_general)
    assert (seen["viewer"]["user"], seen["viewer"]["chief_of"], seen["viewer"]["may_act"]) == ("outsider", [], False)
    assert (commanded["viewer"]["chief_of"], commanded["viewer"]["sides"], commanded["viewer"]["may_act"]) == (
        ["attacker"], ["attacker"], True)
    await spectator.disconnect()
    await general.disconnect()


def test_the_welcomes_share_one_board_per_battle_version_with_their_own_server_time(world: Any, live: LiveBattle) -> None:
    from datetime import timedelta

    from tactical.protocol.board import board_state, board_state_shared

    now = timezone.now()
    first = board_state_shared(live, now)
    later = board_state_shared(live, now + timedelta(seconds=3))
    assert first["units"] is later["units"]  # built once
    assert (first["server_time"], later["server_time"]) == (
        board_state(live, now=now)["server_time"], board_state(live, now=now + timedelta(seconds=3))["server_time"])
    assert {k: v for k, v in later.items() if k != "server_time"} == {
        k: v for k, v in board_state(live, now=now).items() if k != "server_time"}
    act(live, world.east_general, {"do": "end_turn"})
    live.refresh_from_db()
    assert board_state_shared(live, now)["side"] == "defender"
