"""A short battle played with the keyboard alone (deploy, move, end the turn), every answer read out through the
board's live region; and the phone's action bar (a 390 × 844 touch screen) staying on screen as the page
scrolls, with tap targets of at least 44 px."""

from __future__ import annotations

from typing import Any

import pytest

from tactical.services import play as services
from tests.browser.builders import DEPLOYMENT, example_battle, expect, unit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _keys(page: Any, *keys: str) -> None:
    for key in keys:
        page.keyboard.press(key)


def test_a_short_battle_is_played_with_the_keyboard_alone(open_page: Any) -> None:
    ex = example_battle(deploy=False)
    page = open_page(ex.east_user, f"/battles/{ex.battle.pk}/")
    expect(page.locator("#status-conn")).to_have_attribute("data-state", "live")
    announce = page.locator("#board-announce")
    # The board chooses the first unit still to deploy; its deployment cells are marked (T1).
    expect(page.locator(f'#units-list [data-unit-row="{ex.units["hi"]}"]')).to_have_class("unit-row selected off")
    expect(page.locator('#layer-marks [data-kind="deploy"]').first).to_be_attached()
    page.locator("#board").focus()  # as Tab reaches the map
    expect(announce).to_have_text("9, 10")
    # The log's history, which may arrive after the focus, is not read out over the cursor.
    expect(page.locator("#board-log .log-item").first).to_be_attached()
    expect(announce).to_have_text("9, 10")
    # Deploy the heavy infantry on (8, 12), then the next unit on (9, 12) (T1).
    _keys(page, "ArrowLeft", "ArrowDown", "ArrowDown")
    expect(announce).to_have_text("8, 12 — a unit can be deployed here")
    page.keyboard.press("Enter")
    expect(page.locator('#layer-units [data-x="8"][data-y="12"]')).to_have_count(1)
    # The board chooses the next unit once the deployment's push has arrived, and marks its cells again.
    expect(page.locator(f'#units-list [data-unit-row="{ex.units["hc"]}"]')).to_have_class("unit-row selected off")
    expect(page.locator('#layer-marks [data-cell="9,12"][data-kind="deploy"]')).to_be_attached()
    page.keyboard.press("ArrowRight")
    expect(announce).to_have_text("9, 12 — a unit can be deployed here")
    page.keyboard.press("Enter")
    expect(page.locator('#layer-units [data-x="9"][data-y="12"]')).to_have_count(1)
    page.locator("#btn-ready").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#btn-ready")).to_be_hidden()
    for key in ("left", "right"):
        x, y, facing = DEPLOYMENT[key]
        services.battle_action_apply(actor=ex.west_user, battle_id=ex.battle.pk, action={
            "do": "deploy", "unit": ex.units[key], "x": x, "y": y, "facing": facing})
    services.battle_action_apply(actor=ex.west_user, battle_id=ex.battle.pk,
                                 action={"do": "ready", "side": "defender"})
    expect(page.locator("#status-phase")).to_have_text("Movement")
    # Round 1: choose the unit on (9, 12) and move it four cells north, into contact (T6, T7).
    page.locator("#board").focus()
    page.keyboard.press("Enter")
    moved = page.locator('#layer-units [data-x="9"][data-y="12"]').get_attribute("data-unit")
    expect(page.locator('#layer-marks [data-cell="9,8"]')).to_be_attached()  # the unit's moves have arrived
    _keys(page, "ArrowUp", "ArrowUp", "ArrowUp", "ArrowUp")
    expect(announce).to_have_text("9, 8 — a move here makes contact")
    page.keyboard.press("Enter")
    expect(unit(page, moved)).to_have_attribute("data-y", "8")
    expect(announce).not_to_have_text("9, 8 — a move here makes contact")  # the log's line is read out
    page.locator("#btn-end-turn").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#status-phase")).to_have_text("Interception window")


def test_on_a_phone_the_clock_and_the_action_bar_stay_on_screen_and_taps_are_44_px(open_page: Any) -> None:
    ex = example_battle()
    page = open_page(ex.east_user, f"/battles/{ex.battle.pk}/", viewport={"width": 390, "height": 844},
                     has_touch=True, is_mobile=True, device_scale_factor=2)
    expect(page.locator("#status-conn")).to_have_attribute("data-state", "live")
    unit(page, ex.units["hc"]).tap()
    expect(page.locator("#btn-end-turn")).to_be_visible()
    page.mouse.wheel(0, 3000)
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(300)
    assert page.evaluate("window.scrollY") > 500  # the page did scroll
    for selector in ("#btn-end-turn", "#status-clock", "#turn-buttons"):
        box = page.locator(selector).bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844, selector
    for button in page.locator("#actions button:visible").all():
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, button.inner_text()
    # the log and the orders start folded on a phone
    assert page.evaluate("document.getElementById('log-fold').open") is False
