"""The board's unit card (T3) with its values on this battlefield, and the strike a move would make before
the player commits (T7.2–T7.4), from the engine's own answer."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.builders import cell, example_battle, expect, unit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_card_shows_speed_charge_and_damage_on_this_field(open_page: Any) -> None:
    ex = example_battle()
    page = open_page(ex.east_user, f"/battles/{ex.battle.pk}/")
    unit(page, ex.units["hc"]).click()
    card = page.locator("#unit-card-body")
    expect(card.locator("[data-card-speed]")).to_have_text("6")  # mounted, T4; a field slows nobody, T5
    expect(card.locator("[data-card-charge]")).to_have_text("+1 after moving more than 2 cells into contact")
    expect(card.locator('[data-damage="HI"]')).to_have_text("2")  # T12: heavy cavalry, 2 against HI


def test_hovering_a_contact_cell_shows_the_flank_and_the_charge_before_the_move(open_page: Any) -> None:
    ex = example_battle()
    page = open_page(ex.east_user, f"/battles/{ex.battle.pk}/")
    unit(page, ex.units["hc"]).click()
    cell(page, 9, 8).hover()
    strike = page.locator(f'#strike-preview [data-strike="{ex.units["right"]}"]')
    # T12: the cavalry strikes the right spearmen in the flank after 4 cells: 2 + 1 + 1 = 4 lines.
    expect(strike).to_have_text("Moving here: 4 against Right spearmen · flank +1, charge +1")
    expect(unit(page, ex.units["hc"])).to_have_attribute("data-y", "12")  # nothing moved yet


def test_in_russian_the_card_speaks_russian(open_page: Any) -> None:
    ex = example_battle()
    page = open_page(ex.east_user, f"/battles/{ex.battle.pk}/", language="ru")
    unit(page, ex.units["hc"]).click()
    expect(page.locator("#unit-card-body [data-card-charge]")).to_have_text(
        "+1, если вошёл в контакт, пройдя больше 2 клеток")
