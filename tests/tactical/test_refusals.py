"""Refusals of a live battle in the player's language (issue 4): units named from the roster, over HTTP and
the socket. The catalogue itself is tested in tests/campaign/test_refusals.py."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from combat.errors import IllegalAction
from config.asgi import application
from tactical.models import LiveBattle
from tactical.refusals import roster_names, sentence
from tests.tactical.builders import units_of

TOO_FAR = [[8, 17], [8, 16], [8, 15], [8, 14]]  # from (8, 18) with 3 points on an open field (T4)
TOO_FAR_EN = "step 4 to (8, 14) needs 4 points; Legio II Italica has 3"
TOO_FAR_RU = "шагу 4 на (8, 14) нужно очков скорости: 4; у отряда «Legio II Italica» их 3"


def _named(battle: LiveBattle) -> str:
    """The attackers' first unit (at (8, 18), 3 points) gets a name of its own: the roster's name is what
    players see. Returns its engine id."""
    unit = units_of(battle, "attacker")[0]
    battle.roster[unit]["name"] = "Legio II Italica"
    battle.save(update_fields=["roster"])
    return unit


# -- the catalogue with the battle's roster ------------------------------------------------------


def test_the_rosters_names_stand_for_the_engine_ids_and_an_unnamed_unit_keeps_its_id() -> None:
    roster = {"u1": {"name": "Sagittarii", "side": "attacker"}, "u2": {"name": ""}, "u3": {"side": "defender"}}
    assert roster_names(roster) == {"u1": "Sagittarii"}
    refusal = IllegalAction("T6", "deploy every unit first: u1, u2", code="units_undeployed",
                            params={"units": ["u1", "u2"]})
    with translation.override("en"):
        assert sentence(refusal, roster) == "deploy every unit first: Sagittarii, u2"


def test_a_nested_refusal_is_said_inside_the_outer_one_with_names() -> None:
    refusal = IllegalAction("T10", "u1 cannot intercept u3: u3 is not in melee", code="cannot_intercept",
                            params={"unit": "u1", "target": "u3",
                                    "because": {"code": "target_not_in_melee", "params": {"target": "u3"}}})
    roster = {"u1": {"name": "Sagittarii"}, "u3": {"name": "Comitatenses"}}
    with translation.override("ru"):
        assert sentence(refusal, roster) == (
            "отряд «Sagittarii» не может перехватить отряд «Comitatenses»: отряд «Comitatenses» не в схватке")
    with translation.override("en"):
        assert sentence(refusal, roster) == "Sagittarii cannot intercept Comitatenses: Comitatenses is not in melee"


# -- over HTTP ------------------------------------------------------------------------------------------


def _move(user: Any, battle: LiveBattle, unit: str, path: list[list[int]], **headers: Any) -> Any:
    client = APIClient()
    client.force_authenticate(user)
    return client.post(f"/api/tactical/battles/{battle.pk}/actions/",
                       {"action": {"do": "move", "unit": unit, "path": path}}, format="json", **headers)


def test_an_illegal_move_is_refused_in_russian_for_a_russian_browser(world: Any, live: LiveBattle) -> None:
    unit = _named(live)
    answer = _move(world.east_general, live, unit, TOO_FAR, HTTP_ACCEPT_LANGUAGE="ru")
    body = answer.json()
    assert (answer.status_code, body["code"], body["rule"], body["detail"]) == (409, "illegal", "T4", TOO_FAR_RU)
    assert body["refusal"] == {"code": "path_too_costly",
                               "params": {"step": 4, "x": 8, "y": 14, "cost": 4, "unit": unit, "points": 3}}


def test_the_language_chosen_on_the_site_wins_over_the_browsers(world: Any, live: LiveBattle) -> None:
    client = APIClient()
    client.force_authenticate(world.east_general)
    client.cookies["django_language"] = "ru"  # what the language switch (set_language) keeps
    answer = client.post(f"/api/tactical/battles/{live.pk}/actions/",
                         {"action": {"do": "move", "unit": _named(live), "path": TOO_FAR}}, format="json",
                         HTTP_ACCEPT_LANGUAGE="en")
    assert (answer.status_code, answer.json()["rule"], answer.json()["detail"]) == (409, "T4", TOO_FAR_RU)


def test_in_english_the_refusal_names_the_unit(world: Any, live: LiveBattle) -> None:
    answer = _move(world.east_general, live, _named(live), TOO_FAR, HTTP_ACCEPT_LANGUAGE="en")
    assert (answer.status_code, answer.json()["rule"], answer.json()["detail"]) == (409, "T4", TOO_FAR_EN)


def test_a_refused_preview_is_in_russian(world: Any, live: LiveBattle) -> None:
    body = APIClient().post(f"/api/tactical/battles/{live.pk}/preview/", {"unit": units_of(live, "attacker")[0], "path": [[9, 17]]},
                            format="json", HTTP_ACCEPT_LANGUAGE="ru").json()
    assert (body["legal"], body["rule"], body["detail"]) == (
        False, "T6", "шаг 1 на (9, 17) — не один шаг по горизонтали или вертикали от (8, 18)")


def test_starting_a_begun_battle_is_refused_in_russian(world: Any, live: LiveBattle) -> None:
    client = APIClient()
    client.force_authenticate(world.moderator)
    answer = client.post(f"/api/tactical/battles/{live.pk}/start/", HTTP_ACCEPT_LANGUAGE="ru")
    assert (answer.status_code, answer.json()["rule"], answer.json()["detail"]) == (409, "T6", "бой уже начался")


# -- actions the engine does not understand (400, the field named) --------------------------------------

EXPECTED = "move, turn, shoot, withdraw, end_turn, intercept, end_interceptions, concede, end_battle, deploy, ready, place"
MALFORMED = [  # action, field, English, Russian
    ("charge!", "action", 'must be an object with a "do" field', 'должно быть объектом с полем "do"'),
    ({"do": "fly"}, "action.do", f'unknown action "fly"; expected one of {EXPECTED}',
     f'неизвестное действие "fly"; ожидается одно из: {EXPECTED}'),
    ({"do": "end_turn", "who": "me"}, "action.who", "is not a field of end_turn",
     "не является полем действия end_turn"),
    ({"do": "move", "unit": "UNIT"}, "action.path", "is missing", "отсутствует"),
    ({"do": "move", "unit": "", "path": [[8, 17]]}, "action.unit", "must be a unit id (a non-empty string)",
     "должно быть идентификатором отряда (непустой строкой)"),
    ({"do": "move", "unit": "UNIT", "path": []}, "action.path", "must be a list of [x, y] cells, at least one",
     "должно быть списком клеток [x, y], хотя бы из одной"),
    ({"do": "withdraw", "unit": "UNIT", "path": "north"}, "action.path", "must be a list of [x, y] cells",
     "должно быть списком клеток [x, y]"),
    ({"do": "move", "unit": "UNIT", "path": [[8, "17"]]}, "action.path[0]", "must be an [x, y] pair of integers",
     "должно быть парой целых чисел [x, y]"),
    ({"do": "turn", "unit": "UNIT", "facing": "NE"}, "action.facing", "must be one of N, E, S, W",
     "должно быть одним из N, E, S, W"),
    ({"do": "concede", "side": "both"}, "action.side", 'must be "attacker" or "defender"',
     'должно быть "attacker" (нападающий) или "defender" (обороняющийся)'),
    ({"do": "place", "unit": "UNIT", "x": "8"}, "action.x", "must be an integer", "должно быть целым числом"),
    ({"do": "turn", "unit": "u9", "facing": "N"}, "unit", "there is no unit 'u9'", "нет отряда «u9»"),
]


def _with_unit(action: Any, unit: str) -> Any:
    return {k: unit if v == "UNIT" else v for k, v in action.items()} if isinstance(action, dict) else action


@pytest.mark.parametrize(("action", "field", "english", "russian"), MALFORMED)
@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_malformed_action_is_400_naming_the_field_in_the_readers_language(
        world: Any, live: LiveBattle, language: str, action: Any, field: str, english: str, russian: str) -> None:
    client = APIClient()
    client.force_authenticate(world.moderator)  # may act for either side (M1): the action itself is at fault
    answer = client.post(f"/api/tactical/battles/{live.pk}/actions/",
                         {"action": _with_unit(action, units_of(live, "attacker")[0])}, format="json",
                         HTTP_ACCEPT_LANGUAGE=language)
    detail = russian if language == "ru" else english
    body = answer.json()
    assert (answer.status_code, body["code"], body["detail"], body["errors"]) == (
        400, "invalid", detail, {field: [detail]})


@pytest.mark.parametrize(("action", "refusal"), [
    ({"do": "turn", "unit": "UNIT", "facing": "NE"}, {"code": "facing_not_compass", "params": {}}),
    ({"do": "fly"}, {"code": "unknown_action", "params": {
        "action": '"fly"',
        "expected": "move, turn, shoot, withdraw, end_turn, intercept, end_interceptions, concede, end_battle, deploy, "
                    "ready, place"}}),
    ({"do": "turn", "unit": "u9", "facing": "N"}, {"code": "no_such_unit", "params": {"unit": "u9"}}),
])
def test_a_malformed_action_carries_the_engines_code_and_params(world: Any, live: LiveBattle, action: Any,
                                                                 refusal: dict[str, Any]) -> None:
    client = APIClient()
    client.force_authenticate(world.moderator)
    answer = client.post(f"/api/tactical/battles/{live.pk}/actions/",
                         {"action": _with_unit(action, units_of(live, "attacker")[0])}, format="json")
    assert (answer.status_code, answer.json()["refusal"]) == (400, refusal)


@pytest.mark.parametrize(("language", "detail"), [("ru", "должно быть парой целых чисел [x, y]"),
                                                  ("en", "must be an [x, y] pair of integers")])
def test_a_malformed_cell_of_a_preview_is_400_in_the_readers_language(world: Any, live: LiveBattle, language: str,
                                                                      detail: str) -> None:
    answer = APIClient().post(f"/api/tactical/battles/{live.pk}/preview/",
                              {"unit": units_of(live, "attacker")[0], "path": [[8, 17], [8]]}, format="json",
                              HTTP_ACCEPT_LANGUAGE=language)
    assert (answer.status_code, answer.json()["detail"], answer.json()["errors"]) == (400, detail, {"path[1]": [detail]})


def test_a_preview_the_engine_does_not_understand_is_said_in_the_readers_language(live: LiveBattle) -> None:
    from tactical.protocol.board import move_preview
    from tactical.selectors.snapshots import state_of

    with translation.override("ru"):
        assert move_preview(state_of(live), "u9", ((8, 17),)) == {"legal": False, "rule": None,
                                                                   "detail": "нет отряда «u9»"}


# -- over the socket ------------------------------------------------------------------------------------


async def _socket(battle: LiveBattle, user: Any, *, cookie: str = "", accept: str = "") -> WebsocketCommunicator:
    def session() -> str:
        client = Client()
        client.force_login(user)
        return f"sessionid={client.cookies['sessionid'].value}"

    cookies = "; ".join(part for part in [await database_sync_to_async(session)(), cookie] if part)
    headers = [(b"origin", b"http://testserver"), (b"cookie", cookies.encode())]
    if accept:
        headers.append((b"accept-language", accept.encode()))
    socket = WebsocketCommunicator(application, f"/ws/battles/{battle.pk}/", headers=headers)
    connected, _ = await socket.connect(timeout=10)
    assert connected
    assert json.loads(await socket.receive_from(timeout=5))["type"] == "welcome"
    return socket


async def _refused(socket: WebsocketCommunicator, action: dict[str, Any]) -> dict[str, Any]:
    await socket.send_json_to({"type": "action", "id": "r1", "action": action})
    answer: dict[str, Any] = json.loads(await socket.receive_from(timeout=5))
    await socket.disconnect()
    return answer


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("cookie", "accept"), [("django_language=ru", ""), ("", "ru-RU,ru;q=0.9,en;q=0.5")])
async def test_an_illegal_move_over_the_socket_is_refused_in_russian(settings: Any, world: Any, live: LiveBattle,
                                                                     cookie: str, accept: str) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    unit = await database_sync_to_async(_named)(live)
    socket = await _socket(live, world.east_general, cookie=cookie, accept=accept)
    error = await _refused(socket, {"do": "move", "unit": unit, "path": TOO_FAR})
    assert (error["type"], error["status"], error["code"], error["rule"], error["detail"], error["id"]) == (
        "error", 409, "illegal", "T4", TOO_FAR_RU, "r1")


@pytest.mark.django_db(transaction=True)
async def test_a_unit_of_the_side_not_to_act_is_refused_in_russian_over_the_socket(settings: Any, world: Any,
                                                                                   live: LiveBattle) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    socket = await _socket(live, world.west_leader, cookie="django_language=ru")
    error = await _refused(socket, {"do": "move", "unit": units_of(live, "defender")[0], "path": [[8, 3]]})
    assert (error["rule"], error["detail"]) == (
        "T6", "отряд «Heavy infantry» — на стороне обороняющегося; сейчас ход нападающего")


@pytest.mark.django_db(transaction=True)
async def test_without_a_language_the_socket_refuses_in_english(settings: Any, world: Any, live: LiveBattle) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    socket = await _socket(live, world.west_leader)
    error = await _refused(socket, {"do": "move", "unit": units_of(live, "defender")[0], "path": [[8, 3]]})
    assert (error["rule"], error["detail"]) == ("T6", "Heavy infantry belongs to the defender; it is the attacker's turn")


# -- frames the socket cannot take, in the socket's language --------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("frame", "code", "detail"),
    [
        (b"\x00\x01", "binary", "Двоичные кадры не принимаются."),
        ("x" * (16 * 1024 + 1), "too_large", "Кадр может занимать не более 16384 байт."),
        ("{not json", "bad_frame", "Кадр должен быть объектом JSON."),
        ('{"type": 5}', "bad_frame", "Кадр должен быть объектом JSON со строковым полем «type»."),
        ('{"type": "ping", "id": 7}', "bad_frame", "«id» должно быть строкой."),
        ('{"type": "launch_missiles"}', "unknown_type", "Неизвестный тип сообщения «launch_missiles»."),
        ('{"type": "options", "id": "o1", "unit": "u0"}', "not_found", "В этом бою нет такого отряда."),
        ('{"type": "sync", "id": "s1", "since": -1}', "invalid", "должно быть номером версии (целым числом ≥ 0)"),
        ('{"type": "action", "id": "a1", "expected_version": "7", "action": {"do": "end_turn"}}', "invalid",
         "должно быть целым числом"),
    ],
)
async def test_a_bad_frame_is_answered_in_russian(settings: Any, world: Any, live: LiveBattle, frame: Any, code: str,
                                                  detail: str) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    socket = await _socket(live, world.east_general, accept="ru")
    if isinstance(frame, bytes):
        await socket.send_to(bytes_data=frame)
    else:
        await socket.send_to(text_data=frame)
    error = json.loads(await socket.receive_from(timeout=5))
    await socket.disconnect()
    assert (error["type"], error["code"], error["detail"]) == ("error", code, detail)


@pytest.mark.django_db(transaction=True)
async def test_without_a_language_a_bad_frame_is_answered_in_english(settings: Any, world: Any,
                                                                     live: LiveBattle) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    socket = await _socket(live, world.east_general)
    await socket.send_to(text_data='{"type": "launch_missiles"}')
    error = json.loads(await socket.receive_from(timeout=5))
    await socket.disconnect()
    assert (error["code"], error["detail"]) == ("unknown_type", "Unknown message type “launch_missiles”.")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("cookie", "field", "detail"), [
    ("django_language=ru", "action.facing", "должно быть одним из N, E, S, W"),
    ("", "action.facing", "must be one of N, E, S, W"),
])
async def test_a_malformed_action_over_the_socket_is_said_in_the_sockets_language(
        settings: Any, world: Any, live: LiveBattle, cookie: str, field: str, detail: str) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    socket = await _socket(live, world.east_general, cookie=cookie)
    error = await _refused(socket, {"do": "turn", "unit": units_of(live, "attacker")[0], "facing": "NE"})
    assert (error["type"], error["status"], error["code"], error["detail"], error["errors"], error["id"]) == (
        "error", 400, "invalid", detail, {field: [detail]}, "r1")


@pytest.mark.django_db(transaction=True)
async def test_an_unknown_unit_over_the_socket_is_said_in_russian(settings: Any, world: Any,
                                                                   live: LiveBattle) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    socket = await _socket(live, world.moderator, cookie="django_language=ru")
    error = await _refused(socket, {"do": "turn", "unit": "u9", "facing": "N"})
    assert (error["status"], error["detail"], error["errors"]) == (400, "нет отряда «u9»", {"unit": ["нет отряда «u9»"]})
