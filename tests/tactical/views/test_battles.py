"""The Battles page and the moderator's way from a battle record to a live board (issue 16): Prepare (S7), the
field painted in setup (T5), Open deployment (T1), and what the commanders see meanwhile."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from campaign.models import Membership
from strategic.models import Battle
from tactical.models import BattleEvent, LiveBattle
from tactical.services import play as services
from tests.factories import UserFactory, member
from tests.tactical.builders import act, deploy_both, units_of


def _client(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _row(html: str, battle_id: int) -> str:
    match = re.search(rf'<li class="battle-row[^"]*" id="battle-{battle_id}">(.*?)</li>', html, re.DOTALL)
    assert match is not None, f"no row of battle {battle_id}"
    return match.group(1)


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def _prepare(world: Any, record: Battle) -> Any:
    return _client(world.moderator).post(f"/c/limes/battles/{record.pk}/prepare/")


def test_a_pending_battle_is_listed_with_prepare_and_quick_battle_for_the_moderator(world: Any, record: Battle) -> None:
    html = _client(world.moderator).get("/c/limes/battles/").content.decode()
    row = _row(html, record.pk)
    assert "Battle for Dalmatia" in _text(row)
    assert "Awaiting resolution" in _text(row)
    assert f'action="/c/limes/battles/{record.pk}/prepare/"' in row
    assert f'href="/c/limes/battles/{record.pk}/quick/"' in row


def test_a_player_sees_the_pending_battle_without_the_moderators_buttons(world: Any, record: Battle) -> None:
    row = _row(_client(world.east_general).get("/c/limes/battles/").content.decode(), record.pk)
    assert "prepare/" not in row and "/quick/" not in row
    assert "The moderator brings it onto the board or resolves it as a quick battle." in _text(row)
    assert "yours" in _text(row)


def test_my_battles_keeps_only_the_players_own(world: Any, record: Battle) -> None:
    goth = member(world.campaign, Membership.Role.LEADER, world.goths, UserFactory(username="goth"))
    goths = _client(goth).get("/c/limes/battles/?mine=1").content.decode()
    assert f'id="battle-{record.pk}"' not in goths
    assert "You have no battles in this campaign." in _text(goths)
    east = _client(world.east_general).get("/c/limes/battles/?mine=1").content.decode()
    assert f'id="battle-{record.pk}"' in east


def test_prepare_puts_the_battle_in_setup_and_opens_the_board_for_the_moderator(world: Any, record: Battle) -> None:
    answer = _prepare(world, record)
    assert answer.status_code == 302 and answer["Location"] == f"/battles/{record.pk}/"
    live = LiveBattle.objects.get(pk=record.pk)
    assert live.status == "setup"
    record.refresh_from_db()
    assert record.status == "tactical"
    board = _client(world.moderator).get(f"/battles/{record.pk}/").content.decode()
    assert 'id="setup-panel"' in board
    assert f'action="/c/limes/battles/{record.pk}/open/"' in board
    assert "Open deployment" in board
    row = _row(_client(world.moderator).get("/c/limes/battles/").content.decode(), record.pk)
    assert "Being prepared" in _text(row) and "Prepare the field" in _text(row)


def test_prepare_by_a_player_is_refused_and_creates_nothing(world: Any, record: Battle) -> None:
    answer = _client(world.east_general).post(f"/c/limes/battles/{record.pk}/prepare/", follow=True)
    assert "Only a moderator of the campaign can do this (M1)." in answer.content.decode()
    assert not LiveBattle.objects.filter(pk=record.pk).exists()
    record.refresh_from_db()
    assert record.status == "pending"


def test_a_bad_map_seed_is_refused_by_name(world: Any, record: Battle) -> None:
    answer = _client(world.moderator).post(f"/c/limes/battles/{record.pk}/prepare/", {"map_seed": "-3"}, follow=True)
    assert "Map seed: a whole number from 0 to 4611686018427387904, or empty for a random map." in answer.content.decode()
    assert not LiveBattle.objects.filter(pk=record.pk).exists()


def test_while_the_field_is_prepared_commanders_wait_and_may_not_deploy(world: Any, record: Battle) -> None:
    _prepare(world, record)
    page = _client(world.east_general).get(f"/battles/{record.pk}/").content.decode()
    assert 'id="board-waiting"' in page and 'data-stage="setup"' in page
    assert "The moderator is preparing the field." in page
    assert 'id="setup-panel"' not in page
    live = LiveBattle.objects.get(pk=record.pk)
    unit = units_of(live, "attacker")[0]
    with pytest.raises(Exception) as refused:
        act(live, world.east_general, {"do": "deploy", "unit": unit, "x": 8, "y": 18, "facing": "N"})
    error: Any = refused.value
    assert (error.status, error.code, error.rule) == (409, "not_open", "T1")
    assert str(error) == "The moderator is still preparing the field: the deployment has not been opened yet."
    with pytest.raises(Exception) as start:
        services.battle_start(actor=world.moderator, battle_id=live.pk)
    assert getattr(start.value, "code", None) == "not_open"


def test_the_stage_answers_the_waiting_page(world: Any, record: Battle) -> None:
    client = _client(world.east_general)
    assert client.get(f"/battles/{record.pk}/stage.json").json() == {"battle": record.pk, "stage": "pending"}
    _prepare(world, record)
    assert client.get(f"/battles/{record.pk}/stage.json").json()["stage"] == "setup"
    _client(world.moderator).post(f"/c/limes/battles/{record.pk}/open/")
    assert client.get(f"/battles/{record.pk}/stage.json").json()["stage"] == "deployment"
    assert client.get("/battles/999999/stage.json").status_code == 404


def test_a_pending_battle_page_offers_prepare_to_the_moderator_and_waits_for_players(world: Any, record: Battle) -> None:
    moderator = _client(world.moderator).get(f"/battles/{record.pk}/").content.decode()
    assert f'action="/c/limes/battles/{record.pk}/prepare/"' in moderator
    assert f'href="/c/limes/battles/{record.pk}/quick/"' in moderator
    player = _client(world.west_leader).get(f"/battles/{record.pk}/").content.decode()
    assert 'data-stage="pending"' in player and "prepare/" not in player
    assert "tactical/waiting.js" in player


def test_open_deployment_logs_a_version_and_lets_the_commanders_deploy(world: Any, record: Battle) -> None:
    _prepare(world, record)
    answer = _client(world.moderator).post(f"/c/limes/battles/{record.pk}/open/", follow=True)
    assert "The deployment is open: the commanders may place their units." in answer.content.decode()
    live = LiveBattle.objects.get(pk=record.pk)
    assert live.status == "deployment"
    row = BattleEvent.objects.get(battle=live, version=live.version)
    assert (row.kind, row.action, row.events) == ("open", {"do": "open"}, [{"type": "deployment_opened"}])
    assert 'id="setup-panel"' not in _client(world.east_general).get(f"/battles/{record.pk}/").content.decode()
    deploy_both(live, world)
    live.refresh_from_db()
    assert live.state["phase"] == "move"


def test_a_second_open_is_a_conflict(world: Any, record: Battle) -> None:
    _prepare(world, record)
    services.battle_deployment_open(actor=world.moderator, battle_id=record.pk)
    with pytest.raises(Exception) as again:
        services.battle_deployment_open(actor=world.moderator, battle_id=record.pk)
    assert (getattr(again.value, "status", None), getattr(again.value, "code", None)) == (409, "not_in_setup")
    answer = _client(world.moderator).post(f"/c/limes/battles/{record.pk}/open/", follow=True)
    assert "T1: The deployment of this battle is already open." in answer.content.decode()


def test_a_player_may_not_open_the_deployment(world: Any, record: Battle) -> None:
    _prepare(world, record)
    answer = _client(world.east_general).post("/api/tactical/battles/%d/open/" % record.pk)
    assert answer.status_code == 403
    assert LiveBattle.objects.get(pk=record.pk).status == "setup"


def test_painting_in_setup_goes_through_the_map_service_and_a_cut_route_is_refused(world: Any, record: Battle) -> None:
    _prepare(world, record)
    client = _client(world.moderator)
    answer = client.patch(f"/api/tactical/battles/{record.pk}/map/",
                          {"cells": [{"x": 3, "y": 10, "feature": "swamp"}, {"x": 4, "y": 10, "feature": "river"}]},
                          content_type="application/json")
    assert answer.status_code == 200
    cells = {(c["x"], c["y"]): c["feature"] for c in answer.json()["state"]["cells"]}
    assert cells[(3, 10)] == "swamp" and cells[(4, 10)] == "river"
    wall = [{"x": x, "y": 10, "feature": "wall"} for x in range(18)]
    cut = client.patch(f"/api/tactical/battles/{record.pk}/map/", {"cells": wall}, content_type="application/json")
    assert cut.status_code == 400
    assert cut.json()["rule"] == "T5"
    live = LiveBattle.objects.get(pk=record.pk)
    assert {(c[0], c[1]): c[2] for c in live.state["cells"]}.get((0, 10)) != "wall"


def test_a_new_map_in_setup_uses_the_seed_given(world: Any, record: Battle) -> None:
    _prepare(world, record)
    _client(world.moderator).post(f"/c/limes/battles/{record.pk}/new-map/", {"map_seed": "12345"})
    assert LiveBattle.objects.get(pk=record.pk).map_seed == 12345


def test_a_finished_board_names_the_winner_and_links_replay_dice_report_and_retreat(world: Any, record: Battle) -> None:
    _prepare(world, record)
    services.battle_deployment_open(actor=world.moderator, battle_id=record.pk)
    live = deploy_both(LiveBattle.objects.get(pk=record.pk), world)
    act(live, world.west_leader, {"do": "concede", "side": "defender"})
    page = _client(world.east_general).get(f"/battles/{record.pk}/").content.decode()
    finished = re.search(r'<section class="bpanel board-finished" id="board-finished">(.*?)</section>', page, re.DOTALL)
    assert finished is not None, "the finished panel is hidden"
    text = _text(finished.group(1))
    assert "Won by the attacker, Eastern Rome" in text
    for href in (f"/c/limes/battles/{record.pk}/replay/", f"/c/limes/battles/{record.pk}/dice/",
                 f"/c/limes/battles/{record.pk}/report.txt", f"/c/limes/retreat/{world.west_army.pk}/"):
        assert f'href="{href}"' in finished.group(1)
    row = _row(_client().get("/c/limes/battles/").content.decode(), record.pk)
    assert "Finished" in _text(row) and "Won by the attacker, Eastern Rome" in _text(row)
    assert f'href="/c/limes/retreat/{world.west_army.pk}/"' in row


def test_the_battles_page_speaks_russian(world: Any, record: Battle) -> None:
    html = _client(world.moderator).get("/c/limes/battles/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    row = _text(_row(html, record.pk))
    assert "Ожидает решения" in row
    assert "Подготовить" in row and "Быстрый бой" in row and "Prepare" not in row


@pytest.mark.parametrize(("who", "present", "absent"), [
    ("moderator", ["Console", "Setup", "Audit log", "My turn"], ["My battles"]),
    ("east_general", ["My turn", "My battles"], ["Console", "Setup", "Audit log"]),
    (None, ["Overview", "Map", "Rosters", "Battles", "Rules"], ["My turn", "Console", "Audit log"]),
])
def test_the_menu_shows_each_person_what_he_may_do(world: Any, who: str | None, present: list[str],
                                                  absent: list[str]) -> None:
    html = _client(getattr(world, who) if who else None).get("/c/limes/").content.decode()
    nav = re.search(r'<nav class="campaign-nav"[^>]*>(.*?)</nav>', html, re.DOTALL)
    assert nav is not None
    links = re.findall(r">([^<>]+)</a>", nav.group(1))
    for word in ["Overview", "Map", "Rosters", "Battles", "Rules"]:
        assert word in links
    for word in present:
        assert word in links
    for word in absent:
        assert word not in links


def test_a_pending_battle_links_its_schedule_and_shows_the_agreed_time(world: Any, record: Battle) -> None:
    from datetime import UTC, datetime

    Battle.objects.filter(pk=record.pk).update(scheduled_at=datetime(2026, 12, 5, 17, 30, tzinfo=UTC))
    row = _row(_client(world.east_general).get("/c/limes/battles/").content.decode(), record.pk)
    assert f'href="/c/limes/battles/{record.pk}/schedule/"' in row
    assert "Scheduled for" in _text(row) and "2026" in _text(row)
