"""The worked example T12 played by two players in real Chromium, a spectator watching; then a turn's clock
runs out (T6.1) and all three see it end."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.builders import cell, example_battle, expect, health, shot, unit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_t12_played_through_the_board(open_page: Any) -> None:
    ex = example_battle()
    hi, hc, left, right = (ex.units[k] for k in ("hi", "hc", "left", "right"))
    path = f"/battles/{ex.battle.pk}/"
    east = open_page(ex.east_user, path)
    west = open_page(ex.west_user, path)
    spectator = open_page(ex.spectator, path)
    pages = (east, west, spectator)
    for page in pages:
        expect(page.locator("#status-turn")).to_have_text("Round 1 · Attacker to act")
        expect(page.locator("#status-conn")).to_have_text("Live")
    expect(spectator.locator("#board-role")).to_have_text("You are watching this battle.")
    shot(east, "t12-1-start-attacker")

    # 1. The heavy infantry moves into contact with the front of the right spearmen.
    unit(east, hi).click()
    cell(east, 8, 9).click()
    for page in pages:
        expect(unit(page, hi)).to_have_attribute("data-y", "9")
    # The heavy cavalry moves 4 cells and strikes the right spearmen in the flank.
    unit(east, hc).click()
    cell(east, 9, 8).click()
    for page in pages:
        expect(unit(page, hc)).to_have_attribute("data-y", "8")
    # 2. Before interception: the right spearmen take 3 + 4 = 7 and would be routed; the infantry keeps 3.
    expect(east.locator(f'#melee-body [data-melee="{right}"] [data-takes]')).to_have_text("7")
    expect(east.locator(f'#melee-body [data-melee="{right}"] [data-left]')).to_have_text("routed")
    expect(east.locator(f'#melee-body [data-melee="{hi}"] [data-left]')).to_have_text("3")
    expect(east.locator(f'#melee-body [data-melee="{hc}"] [data-deals]')).to_have_text("4 → Right spearmen")
    shot(east, "t12-2-attacker-moved")
    east.locator("#btn-end-turn").click()

    # 3. The window opens: the left spearmen may intercept the heavy infantry.
    for page in pages:
        expect(page.locator("#status-phase")).to_have_text("Interception window")
    expect(unit(west, left)).to_have_class(lambda_classes("interceptor"))
    shot(west, "t12-3-window-defender")
    unit(west, left).click()
    expect(unit(west, hi)).to_have_class(lambda_classes("target"))
    unit(west, hi).click()
    for page in pages:
        expect(unit(page, left)).to_have_attribute("data-y", "9")
    # 4. After the interception: one on one, heavy infantry 2 and left spearmen 2; cavalry 1, right spearmen 1.
    expect(west.locator(f'#melee-body [data-melee="{hi}"] [data-left]')).to_have_text("2")
    expect(west.locator(f'#melee-body [data-melee="{right}"] [data-left]')).to_have_text("1")
    west.locator("#btn-end-interceptions").click()
    for page in pages:
        expect(page.locator("#status-turn")).to_have_text("Round 1 · Defender to act")
        expect(health(page, hi)).to_have_text("2/5")
        expect(health(page, left)).to_have_text("2/5")
        expect(health(page, right)).to_have_text("1/5")
        expect(health(page, hc)).to_have_text("1/5")
        expect(unit(page, hi).locator(".ticks-health .tick-full")).to_have_count(2)
        expect(unit(page, right).locator(".ticks-health .tick-full")).to_have_count(1)
        expect(page.locator("#board-log")).to_contain_text("Left spearmen intercepted Heavy infantry.")
    # 5. The left spearmen may not move in West's turn (T10.3).
    expect(unit(west, left)).to_have_class(lambda_classes("restricted"))
    shot(west, "t12-4-after-interception-defender")
    shot(spectator, "t12-5-spectator")


def test_a_refused_action_shows_the_rule_and_the_sentence(open_page: Any) -> None:
    ex = example_battle()
    west = open_page(ex.west_user, f"/battles/{ex.battle.pk}/")
    expect(west.locator("#status-turn")).to_have_text("Round 1 · Attacker to act")
    unit(west, ex.units["left"]).click()
    west.keyboard.press("ArrowRight")  # turning in the attacker's turn (T6)
    expect(west.locator("#board-message")).to_have_text(
        "Refused — Rule T6 (Moving): Left spearmen belongs to the defender; it is the attacker's turn")


def test_a_turn_whose_time_runs_out_ends_for_everyone(open_page: Any) -> None:
    ex = example_battle(turn_seconds=10, deploy=False)
    path = f"/battles/{ex.battle.pk}/"
    east = open_page(ex.east_user, path)
    west = open_page(ex.west_user, path)
    spectator = open_page(None, path)
    pages = (east, west, spectator)
    for page in pages:
        expect(page.locator("#status-phase")).to_have_text("Deployment")
    # Deployment through the board: each player places his units in his own rows, then says ready.
    for page, key, x, y in ((east, "hi", 8, 12), (east, "hc", 9, 12), (west, "left", 7, 8), (west, "right", 8, 8)):
        page.locator(f'#units-list [data-unit-row="{ex.units[key]}"]').click()
        if key == "hc":
            page.locator('#turn-buttons [data-facing="E"]').click()  # faced before it is placed
        cell(page, x, y).click()
        expect(unit(spectator, ex.units[key])).to_have_attribute("data-y", str(y))
    expect(unit(spectator, ex.units["hc"])).to_have_attribute("data-facing", "E")
    shot(west, "timeout-1-deployed")
    east.locator("#btn-ready").click()
    west.locator("#btn-ready").click()
    for page in pages:
        expect(page.locator("#status-turn")).to_have_text("Round 1 · Attacker to act")
        expect(page.locator("#clock-text")).to_have_text(re.compile(r"^0:(10|0[1-9])$"))
    shot(spectator, "timeout-2-clock-running")
    for page in pages:
        expect(page.locator("#status-turn")).to_have_text("Round 1 · Defender to act", timeout=20000)
        expect(page.locator("#board-log")).to_contain_text("Time ran out for the attacker (round 1).")
    shot(spectator, "timeout-3-ended")


def lambda_classes(name: str) -> Any:
    return re.compile(rf"(^|\s){name}(\s|$)")


def test_archers_show_their_range_and_shoot_an_enemy_in_it(open_page: Any) -> None:
    ex = example_battle(archers=True)
    east = open_page(ex.east_user, f"/battles/{ex.battle.pk}/")
    expect(east.locator("#status-turn")).to_have_text("Round 1 · Attacker to act")
    unit(east, ex.units["archers"]).click()
    # T9.1: 6 cells forward, 5 to each side: (10, 6) is in range, (10, 5) and (4, 12) are not.
    expect(cell(east, 10, 6)).to_have_attribute("data-kind", "range")
    expect(cell(east, 10, 5)).to_have_count(0)
    expect(cell(east, 5, 12)).to_have_attribute("data-kind", "range")
    expect(cell(east, 4, 12)).to_have_count(0)
    expect(unit(east, ex.units["right"])).to_have_class(lambda_classes("target"))
    shot(east, "archers-range")
    unit(east, ex.units["right"]).click()
    expect(health(east, ex.units["right"])).to_have_text("4/5")
    expect(east.locator("#unit-card-body [data-card-arrows]")).to_have_text("3/4")
    expect(east.locator("#board-log")).to_contain_text("Archers shot at Right spearmen: 1 damage, 4 left.")


def test_a_chief_concedes_in_two_clicks_and_both_boards_show_the_winner(open_page: Any) -> None:
    ex = example_battle()
    path = f"/battles/{ex.battle.pk}/"
    east = open_page(ex.east_user, path)
    west = open_page(ex.west_user, path)
    expect(east.locator("#status-turn")).to_have_text("Round 1 · Attacker to act")
    east.locator("#btn-concede").click()
    expect(east.locator("#btn-concede")).to_have_text("Really concede the battle? Click again (it stays armed until you cancel)")
    east.locator("#btn-concede").click()
    for page in (east, west):
        expect(page.locator("#status-phase")).to_have_text("The battle is over")
        expect(page.locator("#status-turn")).to_have_text("Defender won the battle")
        expect(page.locator("#board-log")).to_contain_text("The battle ended: the defender won.")
    expect(east.locator("#btn-concede")).to_be_hidden()
