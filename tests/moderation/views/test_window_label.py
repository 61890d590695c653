"""T14.2: the interception window after the defender's turn belongs to that turn's round and is named by whose
window it is — the same words on the console and the replay (the board: tests/browser/test_board_rules.py)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from moderation.selectors.replay import replay_steps, turns_of
from tactical.models import LiveBattle
from tactical.selectors.snapshots import state_of
from tests.tactical.builders import act, units_of

WINDOW_EN = "Round 4 · the attacker's interception window, after the defender's turn"
WINDOW_RU = "Раунд 4 · окно перехвата нападающего, после хода обороняющегося"


@pytest.fixture
def attacker_window(world: Any, live: LiveBattle) -> LiveBattle:
    """East's two units march up x = 8 and x = 9 to row 6 in rounds 1–4; in round 4 West's first unit steps
    from (8, 2) to (8, 5), into contact with East's at (8, 6), and West ends its turn: East's second unit could
    intercept from (9, 6), so East's window is open — still round 4."""
    east, east_2 = units_of(live, "attacker")
    west = units_of(live, "defender")[0]
    for row in (15, 12, 9, 6):
        for unit, x in ((east, 8), (east_2, 9)):
            path = [[x, row + 2], [x, row + 1], [x, row]]
            act(live, live_user(world, "east"), {"do": "move", "unit": unit, "path": path})
        act(live, world.east_general, {"do": "end_turn"})
        if row != 6:
            act(live, world.west_leader, {"do": "end_turn"})
    act(live, world.west_leader, {"do": "move", "unit": west, "path": [[8, 3], [8, 4], [8, 5]]})
    act(live, world.west_leader, {"do": "end_turn"})
    live.refresh_from_db()
    return live


def live_user(world: Any, side: str) -> Any:
    return world.east_general if side == "east" else world.west_leader


def _text(response: Any) -> str:
    assert response.status_code == 200
    return html.unescape(re.sub(r"\s+", " ", response.content.decode()))


def test_the_window_after_the_defenders_turn_is_still_in_its_round(attacker_window: LiveBattle) -> None:
    state = state_of(attacker_window)
    assert (state.round, state.side.value, state.phase.value) == (4, "attacker", "interception")


@pytest.mark.parametrize(("language", "label"), [("en", WINDOW_EN), ("ru", WINDOW_RU)])
def test_the_console_names_the_window_by_whose_it_is_and_its_round(
    world: Any, attacker_window: LiveBattle, language: str, label: str
) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(world.moderator)
    page = _text(client.get(f"/c/limes/battles/{attacker_window.pk}/console/"))
    status = page.split('<p class="status-line">')[1].split("</p>")[0]
    assert label in status


def test_the_replay_groups_the_window_apart_from_the_attackers_next_round(
    world: Any, attacker_window: LiveBattle
) -> None:
    act(attacker_window, world.east_general, {"do": "end_interceptions"})
    act(attacker_window, world.east_general, {"do": "end_turn"})
    keys = [key for key, _steps in turns_of(replay_steps(battle=attacker_window))]
    assert keys[-3:] == ["4:defender", "4:attacker:window", "5:attacker"]


@pytest.mark.parametrize(("language", "label"), [("en", WINDOW_EN), ("ru", WINDOW_RU)])
def test_the_replay_names_the_window_by_whose_it_is_and_its_round(
    world: Any, attacker_window: LiveBattle, language: str, label: str
) -> None:
    act(attacker_window, world.east_general, {"do": "end_interceptions"})
    act(attacker_window, world.east_general, {"do": "end_turn"})
    attacker_window.refresh_from_db()
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    opened = attacker_window.version - 2  # the defender's end_turn opened the window
    page = _text(client.get(f"/c/limes/battles/{attacker_window.pk}/replay/", {"v": opened}))
    status = page.split('<p class="status-line">')[1].split(" — ")[0]
    headers = re.findall(r'<tr><th colspan="4">([^<]+)</th></tr>', page)
    assert (status, headers[-2]) == (label, label)
