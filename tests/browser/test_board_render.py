"""What the board's cheaper drawing must keep: a moved token is the same node on its new cell (a focus on it
survives the move), and the clock's text and bar still tell the time left."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tactical.services import play as services
from tests.browser.builders import cell, example_battle, expect, unit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_moved_token_keeps_its_node_and_the_focus_on_it(open_page: Any) -> None:
    ex = example_battle()
    hi = ex.units["hi"]
    path = f"/battles/{ex.battle.pk}/"
    east = open_page(ex.east_user, path)
    west = open_page(ex.west_user, path)
    expect(west.locator("#status-turn")).to_have_text("Round 1 · Attacker to act")
    west.evaluate("(id) => { window.__token = document.querySelector(`#layer-units [data-unit='${id}']`); "
                  "window.__token.focus(); }", hi)
    unit(east, hi).click()
    cell(east, 8, 11).click()  # one cell forward from (8, 12), short of any contact
    expect(unit(west, hi)).to_have_attribute("data-y", "11")
    expect(unit(west, hi)).to_have_attribute("data-x", "8")
    expect(unit(west, hi)).to_have_attribute("transform", "translate(340 460)")  # the centre of (8, 11)
    assert west.evaluate("(id) => document.querySelector(`#layer-units [data-unit='${id}']`) === window.__token", hi)
    assert west.evaluate("() => document.activeElement === window.__token")
    expect(unit(west, hi)).to_have_count(1)


def test_the_clock_shows_the_seconds_left_and_its_bar_the_share_of_the_turn(open_page: Any) -> None:
    ex = example_battle(turn_seconds=600)
    west = open_page(ex.west_user, f"/battles/{ex.battle.pk}/")
    expect(west.locator("#status-turn")).to_have_text("Round 1 · Attacker to act")
    expect(west.locator("#clock-text")).to_have_text(re.compile(r"^(10:00|9:[0-5]\d)$"))
    west.wait_for_timeout(1200)
    seconds, scale = west.evaluate("""() => {
        const [m, s] = document.getElementById("clock-text").textContent.split(":").map(Number);
        const matrix = getComputedStyle(document.getElementById("clock-fill")).transform;
        return [m * 60 + s, new DOMMatrix(matrix).a];
    }""")
    assert 540 <= seconds <= 600
    assert abs(scale - seconds / 600) < 0.01
    # The text sits in its box of a fixed size, whole and on one line.
    box = west.evaluate("""() => {
        const text = document.getElementById("clock-text").getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(document.getElementById("clock-text"));
        const ink = range.getBoundingClientRect();
        return { left: text.left, right: text.right, inkLeft: ink.left, inkRight: ink.right, lines: range.getClientRects().length };
    }""")
    assert box["left"] <= box["inkLeft"] and box["inkRight"] <= box["right"] + 0.5
    assert box["lines"] == 1


def test_the_log_keeps_its_lines_in_lists_of_fifty_newest_first_and_reads_out_the_one_that_opens_a_list(
    open_page: Any,
) -> None:
    ex = example_battle()
    west = open_page(ex.west_user, f"/battles/{ex.battle.pk}/")
    expect(west.locator("#status-turn")).to_have_text("Round 1 · Attacker to act")
    # The example's deployment and first turn are its first 7 lines; 44 turns ended make the 51st.
    expect(west.locator("#board-log li")).to_have_count(7)
    side, user = "attacker", ex.east_user
    for _ in range(44):
        services.battle_action_apply(actor=user, battle_id=ex.battle.pk, action={"do": "end_turn", "side": side})
        side, user = ("defender", ex.west_user) if side == "attacker" else ("attacker", ex.east_user)
    expect(west.locator("#board-log li")).to_have_count(51)
    assert west.evaluate(
        "() => [...document.querySelectorAll('#board-log > ol.log-lines')].map((ol) => ol.children.length)"
    ) == [1, 50]
    newest = west.locator("#board-log > ol.log-lines").first.locator("li")
    ex.battle.refresh_from_db()
    expect(newest).to_have_attribute("data-version", str(ex.battle.version))
    expect(west.locator("#status-turn")).to_have_text("Round 23 · Attacker to act")
    sentence = "The defender's turn ended (round 22). The attacker's turn began (round 23)."
    assert " ".join(newest.locator(".log-line").all_text_contents()) == sentence
    # The line that opened the newest list is read out as any other (the keyboard's live region).
    expect(west.locator("#board-announce")).to_have_text(sentence)
