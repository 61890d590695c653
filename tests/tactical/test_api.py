"""The HTTP side (docs/tactical-protocol.md §5): answers, codes, options, preview, map, start, dice."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from combat.dice import seeded_roll
from strategic.models import Battle
from tactical.models import LiveBattle
from tests.tactical.builders import act, units_of


def _client(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _url(battle: LiveBattle | Battle, tail: str = "") -> str:
    return f"/api/tactical/battles/{battle.pk}/{tail}"


def test_a_moderator_sets_a_battle_up_over_http(world: Any, record: Battle) -> None:
    answer = _client(world.moderator).post(_url(record, "setup/"), {"map_seed": 5}, format="json")
    assert (answer.status_code, answer.json()["state"]["status"], answer.json()["state"]["map_seed"],
            answer.json()["viewer"]["is_moderator"]) == (201, "deployment", 5, True)


def test_setting_up_twice_is_409(world: Any, battle: LiveBattle) -> None:
    answer = _client(world.moderator).post(_url(battle, "setup/"), {}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (409, "exists")


def test_the_board_state_shows_units_with_their_commanders(world: Any, live: LiveBattle) -> None:
    body = _client().get(_url(live)).json()
    unit = body["state"]["units"][0]
    assert (unit["commander"]["name"], unit["faction"]["name"], unit["x"], unit["y"], unit["facing"],
            unit["health"], unit["points"], unit["speed"], unit["may_move"]) == (
        "Belisarius", "Eastern Rome", 8, 18, "N", 5, 3, 3, True)


def test_the_dice_seed_stays_secret_until_the_end(world: Any, live: LiveBattle) -> None:
    assert _client().get(_url(live)).json()["state"]["dice"]["seed"] is None
    act(live, world.east_general, {"do": "concede", "side": "attacker"})
    live.refresh_from_db()
    assert _client().get(_url(live)).json()["state"]["dice"]["seed"] == bytes(live.seed).hex()


def test_an_action_over_http_answers_the_new_version_and_state(world: Any, live: LiveBattle) -> None:
    unit = units_of(live, "attacker")[0]
    answer = _client(world.east_general).post(
        _url(live, "actions/"), {"id": "h1", "action": {"do": "move", "unit": unit, "path": [[8, 17]]}}, format="json")
    body = answer.json()
    assert (answer.status_code, body["version"], body["replayed"], body["state"]["units"][0]["y"]) == (
        200, live.version + 1, False, 17)


@pytest.mark.parametrize(
    ("who", "action", "status", "code"),
    [
        ("east_general", {"do": "fly"}, 400, "invalid"),
        ("west_leader", {"do": "move", "unit": "ATTACKER", "path": [[8, 17]]}, 403, "forbidden"),
        ("east_general", {"do": "move", "unit": "ATTACKER", "path": [[9, 16]]}, 409, "illegal"),
    ],
)
def test_refusals_over_http(world: Any, live: LiveBattle, who: str, action: dict[str, Any], status: int,
                            code: str) -> None:
    if action.get("unit") == "ATTACKER":
        action = {**action, "unit": units_of(live, "attacker")[0]}
    answer = _client(getattr(world, who)).post(_url(live, "actions/"), {"action": action}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (status, code)


def test_a_stale_version_over_http_is_409_with_the_state(world: Any, live: LiveBattle) -> None:
    unit = units_of(live, "attacker")[0]
    answer = _client(world.east_general).post(
        _url(live, "actions/"),
        {"expected_version": 1, "action": {"do": "move", "unit": unit, "path": [[8, 17]]}}, format="json")
    assert (answer.status_code, answer.json()["code"], answer.json()["state"]["version"]) == (409, "stale",
                                                                                              live.version)


def test_anonymous_actions_are_refused(live: LiveBattle) -> None:
    answer = _client().post(_url(live, "actions/"), {"action": {"do": "end_turn"}}, format="json")
    assert answer.status_code == 403


NOT_WATCHER = ("Only the battle's commanders, the leaders of its factions and the campaign's moderators may watch "
               "this battle.")
LOG_IN_TO_WATCH = ("Log in to watch this battle: only its commanders, the leaders of its factions and the campaign's "
                   "moderators may watch it.")


def _watching(world: Any, campaign: str) -> None:
    """``public``: spectators allowed (the fixture); ``closed``: public, no spectators; ``private``: not public."""
    if campaign == "closed":
        world.campaign.settings = {**world.campaign.settings, "spectators_allowed": False}
    if campaign == "private":
        world.campaign.is_public = False
    world.campaign.save()


@pytest.mark.parametrize(
    ("campaign", "who", "status"),
    [
        ("public", "outsider", 200),
        ("public", None, 200),
        ("public", "other_moderator", 200),
        *[(campaign, who, 200) for campaign in ("closed", "private")
          for who in ("moderator", "east_general", "west_leader", "east_leader")],
        *[(campaign, who, 403) for campaign in ("closed", "private") for who in ("other_moderator", "outsider", None)],
    ],
)
def test_who_may_watch_a_battle_over_http(world: Any, live: LiveBattle, campaign: str, who: str | None,
                                          status: int) -> None:
    _watching(world, campaign)
    answer = _client(getattr(world, who) if who else None).get(_url(live))
    assert answer.status_code == status
    if status == 403:  # the battle exists: said plainly, never hidden behind a 404 (docs/tactical-protocol.md §4)
        assert answer.json() == {"status": 403, "code": "forbidden", "detail": LOG_IN_TO_WATCH if who is None
                                 else NOT_WATCHER}


@pytest.mark.parametrize("tail", ["", "events/", "units/u1/options/", "orders/", "dice/"])
def test_every_read_refuses_an_outsider_of_a_private_campaign_with_403(world: Any, live: LiveBattle,
                                                                       tail: str) -> None:
    _watching(world, "private")
    answer = _client(world.outsider).get(_url(live, tail))
    assert (answer.status_code, answer.json()["detail"]) == (403, NOT_WATCHER)


def test_the_refusal_to_watch_is_russian_for_a_russian_reader(world: Any, live: LiveBattle) -> None:
    _watching(world, "closed")
    answer = _client(world.outsider).get(_url(live), HTTP_ACCEPT_LANGUAGE="ru")
    assert (answer.status_code, answer.json()["detail"]) == (
        403, "Смотреть этот бой могут только его командующие, лидеры его фракций и модераторы кампании.")


@pytest.mark.parametrize("who", ["moderator", "outsider", None])
def test_a_battle_that_does_not_exist_is_404_to_everyone(world: Any, live: LiveBattle, who: str | None) -> None:
    answer = _client(getattr(world, who) if who else None).get(_url(live).replace(str(live.pk), str(live.pk + 1000)))
    assert (answer.status_code, answer.json()["code"], answer.json()["detail"]) == (404, "not_found",
                                                                                    "There is no such battle.")


@pytest.mark.parametrize(("language", "detail"), [("ru", "Такого боя нет."), ("en", "There is no such battle.")])
def test_an_action_in_a_battle_that_does_not_exist_is_404_in_the_readers_language(world: Any, live: LiveBattle,
                                                                                  language: str, detail: str) -> None:
    unit = units_of(live, "attacker")[0]
    answer = _client(world.east_general).post(
        _url(live, "actions/").replace(str(live.pk), str(live.pk + 1000)),
        {"action": {"do": "move", "unit": unit, "path": [[8, 17]]}}, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert (answer.status_code, answer.json()["code"], answer.json()["detail"]) == (404, "not_found", detail)


def test_a_malformed_action_id_is_refused_in_russian(world: Any, live: LiveBattle) -> None:
    unit = units_of(live, "attacker")[0]
    answer = _client(world.east_general).post(
        _url(live, "actions/"), {"id": "bad id!", "action": {"do": "move", "unit": unit, "path": [[8, 17]]}},
        format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert (answer.status_code, answer.json()["code"], answer.json()["detail"], answer.json()["errors"]) == (
        400, "invalid", "Идентификатор действия — от 1 до 64 латинских букв, цифр или знаков _ . : -",
        {"id": ["Идентификатор действия — от 1 до 64 латинских букв, цифр или знаков _ . : -"]})


@pytest.mark.parametrize(
    ("campaign", "who", "status"),
    [
        *[(campaign, "east_general", 200) for campaign in ("public", "closed", "private")],  # his unit (T2)
        *[(campaign, "moderator", 200) for campaign in ("public", "closed", "private")],  # M1
        *[(campaign, who, 403) for campaign in ("public", "closed", "private")
          for who in ("west_leader", "east_leader", "other_moderator", "outsider", None)],
    ],
)
def test_who_may_act_over_http(world: Any, live: LiveBattle, campaign: str, who: str | None, status: int) -> None:
    _watching(world, campaign)
    action = {"do": "move", "unit": units_of(live, "attacker")[0], "path": [[8, 17]]}
    answer = _client(getattr(world, who) if who else None).post(_url(live, "actions/"), {"action": action},
                                                                format="json")
    assert (answer.status_code, answer.json().get("code", "ok")) == (status, "ok" if status == 200 else "forbidden")


def test_acting_in_a_battle_that_does_not_exist_is_404(world: Any, live: LiveBattle) -> None:
    answer = _client(world.moderator).post(f"/api/tactical/battles/{live.pk + 1000}/actions/",
                                           {"action": {"do": "end_turn"}}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (404, "not_found")


def test_events_since_a_version(world: Any, live: LiveBattle) -> None:
    act(live, world.east_general, {"do": "end_turn"})
    body = _client().get(_url(live, f"events/?since={live.version}")).json()
    assert (body["version"], [i["version"] for i in body["items"]], body["items"][0]["kind"]) == (
        live.version + 1, [live.version + 1], "action")


def test_options_list_reachable_cells_with_costs_and_paths(live: LiveBattle) -> None:
    unit = units_of(live, "attacker")[0]
    body = _client().get(_url(live, f"units/{unit}/options/")).json()
    cells = {(c["x"], c["y"]): (c["cost"], c["path"]) for c in body["reachable"]}
    assert (len(cells), cells[(8, 15)], cells[(7, 17)][0], body["turn_costs"]) == (
        20, (3, [[8, 17], [8, 16], [8, 15]]), 2, {"N": 0, "E": 1, "S": 2, "W": 1})


def test_options_of_an_unknown_unit_are_404(live: LiveBattle) -> None:
    assert _client().get(_url(live, "units/u0/options/")).status_code == 404


def test_options_in_deployment_list_the_free_cells_of_the_rows(battle: LiveBattle) -> None:
    unit = units_of(battle, "defender")[0]
    body = _client().get(_url(battle, f"units/{unit}/options/")).json()
    assert (len(body["deploy"]), body["deploy"][0]) == (54, [0, 0])


def test_preview_of_a_move(live: LiveBattle) -> None:
    unit = units_of(live, "attacker")[0]
    body = _client().post(_url(live, "preview/"), {"unit": unit, "path": [[8, 17], [8, 16]]}, format="json").json()
    assert (body["legal"], body["cost"], body["points_left"], body["contacts"]) == (True, 2, 1, [])


def test_preview_of_an_illegal_move_names_the_rule(live: LiveBattle) -> None:
    unit = units_of(live, "attacker")[0]
    body = _client().post(_url(live, "preview/"), {"unit": unit, "path": [[9, 17]]}, format="json").json()
    assert (body["legal"], body["rule"]) == (False, "T6")


def test_the_moderator_regenerates_the_map_before_deployment(world: Any, battle: LiveBattle) -> None:
    answer = _client(world.moderator).post(_url(battle, "map/regenerate/"), {"map_seed": 99}, format="json")
    assert (answer.status_code, answer.json()["state"]["map_seed"]) == (200, 99)


def test_the_moderator_edits_cells_before_deployment(world: Any, battle: LiveBattle) -> None:
    answer = _client(world.moderator).patch(_url(battle, "map/"),
                                            {"cells": [{"x": 3, "y": 9, "feature": "swamp"}]}, format="json")
    assert answer.json()["state"]["cells"] == [{"x": 3, "y": 9, "feature": "swamp"}]


def test_an_edit_that_cuts_the_route_is_400(world: Any, battle: LiveBattle) -> None:
    wall = [{"x": x, "y": 10, "feature": "wall"} for x in range(18)]
    answer = _client(world.moderator).patch(_url(battle, "map/"), {"cells": wall}, format="json")
    assert (answer.status_code, answer.json()["rule"]) == (400, "T5")


def test_the_map_is_fixed_once_a_unit_is_deployed(world: Any, battle: LiveBattle) -> None:
    act(battle, world.east_general, {"do": "deploy", "unit": units_of(battle, "attacker")[0], "x": 0, "y": 20,
                                     "facing": "N"})
    answer = _client(world.moderator).post(_url(battle, "map/regenerate/"), {}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (409, "not_editable")


def test_players_may_not_edit_the_map(world: Any, battle: LiveBattle) -> None:
    answer = _client(world.east_general).post(_url(battle, "map/regenerate/"), {}, format="json")
    assert answer.status_code == 403


def test_the_moderator_starts_the_battle_placing_undeployed_units(world: Any, battle: LiveBattle) -> None:
    body = _client(world.moderator).post(_url(battle, "start/")).json()
    placed = sorted((u["side"], u["x"], u["y"]) for u in body["state"]["units"])
    assert (body["state"]["phase"], placed) == ("move", [("attacker", 8, 18), ("attacker", 9, 18),
                                                         ("defender", 8, 2), ("defender", 9, 2)])


def test_the_dice_answer_verifies_every_roll_after_the_end(world: Any, live: LiveBattle) -> None:
    act(live, world.moderator, {"do": "end_battle", "winner": "defender"})
    body = _client().get(_url(live, "dice/")).json()
    assert (body["seed"], body["verified"]) == (bytes(LiveBattle.objects.get(pk=live.pk).seed).hex(), True)
    assert all(seeded_roll(bytes.fromhex(body["seed"]), r["number"]) == r["value"] for r in body["rolls"])


def test_a_leader_orders_a_subordinate_and_only_they_and_moderators_read_it(world: Any, live: LiveBattle) -> None:
    from tactical.models import BattleUnit

    row = BattleUnit.objects.filter(battle=live, side="attacker").order_by("id").last()
    row.commander = world.aspar
    row.save()
    answer = _client(world.east_leader).post(_url(live, "orders/"), {"to": world.belisarius.pk,
                                                                     "text": "Take the hill"}, format="json")
    assert (answer.status_code, answer.json()["text"]) == (201, "Take the hill")
    seen = {who: len(_client(getattr(world, who)).get(_url(live, "orders/")).json())
            for who in ("east_general", "east_leader", "moderator", "west_leader")}
    assert seen == {"east_general": 1, "east_leader": 1, "moderator": 1, "west_leader": 0}


def test_only_a_leader_on_the_field_gives_orders(world: Any, live: LiveBattle) -> None:
    answer = _client(world.east_general).post(_url(live, "orders/"), {"to": world.belisarius.pk, "text": "Go"},
                                              format="json")
    assert (answer.status_code, answer.json()["rule"]) == (403, "T2")


def test_the_board_previews_the_melee_of_units_in_contact(world: Any, live: LiveBattle) -> None:
    from tests.tactical.builders import march_into_contact

    march_into_contact(live, world)
    melee = {m["unit"]: m for m in _client().get(_url(live)).json()["state"]["melee"]}
    east, west = units_of(live, "attacker")[0], units_of(live, "defender")[0]
    assert (melee[east]["target"], melee[east]["deals"], melee[east]["health"], melee[west]["takes"]) == (
        west, 3, 2, 3)
