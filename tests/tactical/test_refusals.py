"""Refusals of the rules in the player's language (issue 4): the catalogue, HTTP and the socket."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from combat.dice import FixedDice
from combat.engine import apply
from combat.errors import IllegalAction
from combat.scenario import load
from config.asgi import application
from tactical.models import LiveBattle
from tactical.refusals import CATALOGUE, say, sentence
from tests.tactical.conftest import units_of

ROOT = Path(__file__).resolve().parents[2]
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


# -- the catalogue --------------------------------------------------------------------------------------


def _codes_raised() -> dict[str, str]:
    """Every refusal code written in combat/ and tactical/, with where: ``IllegalAction(..., code=...)``,
    the interception problems (``Problem(text, code, params)``) and the retreat's end problems (3-tuples)."""
    codes: dict[str, str] = {}
    for path in [*sorted((ROOT / "combat").glob("*.py")), *sorted((ROOT / "tactical").glob("*.py"))]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction":
                code = next((k.value for k in node.keywords if k.arg == "code"), None)
                assert code is not None, f"{where}: IllegalAction without a code"
                if isinstance(code, ast.Constant):  # else a variable: the retreat's end problems, read below
                    codes[code.value] = where
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Problem":
                codes[node.args[1].value] = where  # type: ignore[attr-defined]
            elif (isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(node.value.elts) == 3
                  and path.name == "retreat_routes.py"):
                codes[node.value.elts[2].value] = where  # type: ignore[attr-defined]
    return codes


def test_every_code_the_engine_can_raise_has_a_sentence() -> None:
    codes = _codes_raised()
    assert len(codes) >= 60
    assert {code: where for code, where in codes.items() if code not in CATALOGUE} == {}


def test_the_catalogue_lists_no_code_that_nothing_raises() -> None:
    assert sorted(set(CATALOGUE) - set(_codes_raised())) == []


EVERY_PARAM = {"unit": "u1", "target": "u2", "units": ["u1", "u2"], "side": "attacker", "turn": "defender",
               "x": 4, "y": 5, "from_x": 4, "from_y": 6, "step": 2, "cost": 3, "points": 2, "row": 20, "round": 6,
               "first": 18, "last": 20, "feature": "river", "facing": "E", "type": "Archers", "count": 2,
               "chosen": 1, "province": "Dacia", "from": "Dacia", "to": "Moesia", "border": "strait",
               "nearest": ["Thracia"], "because": {"code": "unit_in_melee", "params": {"unit": "u2"}}}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_sentence_fills_all_its_placeholders(language: str) -> None:
    with translation.override(language):
        said = {code: say(code, EVERY_PARAM, fallback="FALLBACK") for code in CATALOGUE}
    assert [code for code, text in said.items() if text == "FALLBACK" or "%(" in text] == []


def test_an_unknown_code_falls_back_to_the_engines_english_sentence() -> None:
    with translation.override("ru"):
        assert sentence(IllegalAction("T6", "something new happened", code="brand_new")) == "something new happened"


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


# -- the engine's own refusals, from the rule case files ---------------------------------------------------

REWORDED = {"turn_too_costly": "the facing as a word (south), not a letter", "no_missile": "without the type's name"}


def _case_refusals() -> list[IllegalAction]:
    """The refusal each case file of tests/combat/cases/ that expects one (exit 3) ends with."""
    refusals = []
    for path in sorted((ROOT / "tests" / "combat" / "cases").glob("*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        if case["expect"]["exit"] != 3:
            continue
        state, dice_values, actions, _events = load(case["scenario"])
        dice = FixedDice(list(dice_values))
        try:
            for action in actions:
                state = apply(state, action, dice).state
        except IllegalAction as error:
            refusals.append(error)
    return refusals


def test_the_catalogues_english_is_the_engines_sentence_for_every_case_file_refusal() -> None:
    refusals = _case_refusals()
    assert len(refusals) >= 20
    with translation.override("en"):
        differ = [(e.code, e.reason, sentence(e)) for e in refusals
                  if e.code not in REWORDED and sentence(e) != e.reason]
    assert differ == []


def test_every_case_file_refusal_has_a_russian_sentence() -> None:
    with translation.override("ru"):
        untranslated = [(e.code, sentence(e)) for e in _case_refusals() if sentence(e) == e.reason]
    assert untranslated == []
