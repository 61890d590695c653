"""The board on a phone's touch screen and in Russian, in real Chromium."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.builders import cell, example_battle, expect, health, shot, unit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def test_on_a_phone_the_board_fits_the_screen_and_a_tap_moves(open_page: Any) -> None:
    ex = example_battle()
    east = open_page(ex.east_user, f"/battles/{ex.battle.pk}/", **PHONE)
    expect(east.locator("#status-turn")).to_have_text("Round 1 · Attacker to act")
    assert east.evaluate("document.documentElement.scrollWidth") <= 390
    assert east.locator("#board").bounding_box()["width"] > 330
    unit(east, ex.units["hi"]).tap()
    cell(east, 8, 9).tap()
    expect(unit(east, ex.units["hi"])).to_have_attribute("data-y", "9")
    shot(east, "phone-after-move")


def test_a_russian_reader_sees_the_board_in_russian(open_page: Any) -> None:
    ex = example_battle()
    spectator = open_page(ex.spectator, f"/battles/{ex.battle.pk}/", language="ru")
    expect(spectator.locator("#status-phase")).to_have_text("Движение")
    expect(spectator.locator("#status-turn")).to_have_text("Раунд 1 · Ходит: Нападающий")
    expect(health(spectator, ex.units["left"])).to_have_text("5/5")
    shot(spectator, "russian-spectator")


def test_after_a_lost_connection_the_board_reconnects_and_catches_up(open_page: Any, asgi_server: Any) -> None:
    from tactical.services import play as services

    ex = example_battle()
    east = open_page(ex.east_user, f"/battles/{ex.battle.pk}/")
    expect(east.locator("#status-conn")).to_have_text("Live")
    asgi_server.stop()
    expect(east.locator("#status-conn")).to_have_attribute("data-state", "reconnecting")
    services.battle_action_apply(actor=ex.east_user, battle_id=ex.battle.pk, action={
        "do": "move", "unit": ex.units["hi"], "path": [[8, 11], [8, 10], [8, 9]]})
    asgi_server.start()
    expect(east.locator("#status-conn")).to_have_text("Live", timeout=30000)
    expect(unit(east, ex.units["hi"])).to_have_attribute("data-y", "9")
    expect(east.locator("#board-log")).to_contain_text("Heavy infantry moved to (8, 9) (3 pt, 0 left).")


def test_on_a_phone_the_map_can_be_enlarged_for_bigger_targets(open_page: Any) -> None:
    ex = example_battle()
    east = open_page(ex.east_user, f"/battles/{ex.battle.pk}/", **PHONE)
    expect(east.locator("#status-conn")).to_have_text("Live")
    before = east.locator("#board").bounding_box()["width"]
    east.locator("#btn-zoom").tap()
    expect(east.locator("#btn-zoom")).to_have_text("Fit the map to the screen")
    assert east.locator("#board").bounding_box()["width"] >= 2 * before - 1
    unit(east, ex.units["hc"]).tap()
    cell(east, 9, 8).tap()
    expect(unit(east, ex.units["hc"])).to_have_attribute("data-y", "8")
    shot(east, "phone-zoomed")


def test_a_leader_orders_his_subordinate_and_he_reads_it_at_once(open_page: Any) -> None:
    ex = example_battle(subordinate=True)
    path = f"/battles/{ex.battle.pk}/"
    aetius = open_page(ex.west_user, path)
    majorian = open_page(ex.battle.units.get(engine_id=ex.units["reserve"]).commander.user, path)
    expect(majorian.locator("#orders-list")).to_have_text("No orders yet.")
    expect(aetius.locator("#order-to")).to_have_text("Majorian")
    aetius.locator("#order-text").fill("Hold the river")
    aetius.locator("#order-form button").click()
    expect(majorian.locator("#orders-list")).to_have_text("Aetius to Majorian: Hold the river")
    expect(aetius.locator("#orders-list")).to_have_text("Aetius to Majorian: Hold the river")
