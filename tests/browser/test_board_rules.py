"""Issue 15 in real Chromium: a refusal's rule id is a link that opens the rule beside the board (the turn is not
left); the board names an interception window by whose it is and its round (T14.2); the rules page's search
filters the entries."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.builders import cell, example_battle, expect, shot, unit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_refusal_links_its_rule_which_opens_beside_the_board(open_page: Any) -> None:
    ex = example_battle()
    west = open_page(ex.west_user, f"/battles/{ex.battle.pk}/")
    expect(west.locator("#status-conn")).to_have_text("Live")
    board_url = west.url
    unit(west, ex.units["left"]).click()
    west.keyboard.press("ArrowRight")  # turning in the attacker's turn (T6)
    link = west.locator('#board-message a.rule-link[data-rule="T6"]')
    expect(link).to_have_text("T6")
    expect(link).to_have_attribute("href", "/c/t12/rules/#T6")
    link.click()
    panel = west.locator("#rules-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("article.rule-entry#T6 h3")).to_have_text("T6 Moving")
    expect(panel.locator("article.rule-entry#T6 .rule-text")).to_contain_text(
        "After deployment the attacker moves first; rounds are numbered from 1.")
    expect(panel.locator("#rules-panel-full")).to_have_attribute("href", "/c/t12/rules/#T6")
    # The board is still there, with its turn and its selection, beside the rule.
    assert west.url == board_url
    expect(west.locator("#board")).to_be_visible()
    expect(west.locator("#status-turn")).to_have_text("Round 1 · Attacker to act")
    shot(west, "rules-1-beside-the-board")
    west.locator("#rules-panel-close").click()
    expect(panel).to_be_hidden()


def test_a_rule_opens_beside_the_board_in_russian(open_page: Any) -> None:
    ex = example_battle()
    west = open_page(ex.west_user, f"/battles/{ex.battle.pk}/", language="ru")
    expect(west.locator("#status-conn")).to_have_text("В эфире")
    unit(west, ex.units["left"]).click()
    west.keyboard.press("ArrowRight")
    west.locator('#board-message a.rule-link[data-rule="T6"]').click()
    expect(west.locator("#rules-panel article.rule-entry#T6 h3")).to_have_text("T6 Движение")
    expect(west.locator("#rules-panel-close")).to_have_text("Закрыть")


def test_the_board_names_the_window_by_whose_it_is_and_its_round(open_page: Any) -> None:
    ex = example_battle()
    path = f"/battles/{ex.battle.pk}/"
    east = open_page(ex.east_user, path)
    west = open_page(ex.west_user, path)
    unit(east, ex.units["hi"]).click()
    cell(east, 8, 9).click()
    expect(unit(east, ex.units["hi"])).to_have_attribute("data-y", "9")
    east.locator("#btn-end-turn").click()
    for page in (east, west):
        expect(page.locator("#status-turn")).to_have_text(
            "Round 1 · the defender's interception window, after the attacker's turn")


def test_the_search_filters_the_rules(open_page: Any) -> None:
    ex = example_battle()
    page = open_page(None, "/c/t12/rules/")
    entries = page.locator("#rules-reference article.rule-entry")
    expect(entries).to_have_count(84)
    page.locator("#rules-search").fill("T7.3")
    expect(page.locator("#rules-reference article.rule-entry:visible")).to_have_count(1)
    expect(page.locator("#T7\\.3")).to_be_visible()
    expect(page.locator("#rules-search-count")).to_have_text("Rules found: 1")
    page.locator("#rules-search").fill("fortress city")
    visible = page.locator("#rules-reference article.rule-entry:visible")
    expect(visible).to_have_count(5)
    expect(page.locator("#section-T")).to_be_hidden()
    page.locator("#rules-search").fill("zzzz")
    expect(page.locator("#rules-search-count")).to_have_text("No rule matches.")
    page.locator("#rules-search").fill("")
    expect(page.locator("#rules-reference article.rule-entry:visible")).to_have_count(84)
    assert ex.battle.campaign.slug == "t12"


def test_a_rule_id_written_in_a_pages_text_links_to_the_rule(open_page: Any) -> None:
    example_battle()
    page = open_page(None, "/c/t12/rosters/")
    link = page.locator('main a.rule-link[data-rule="S3"]')
    expect(link).to_have_text("S3")
    expect(link).to_have_attribute("href", "/c/t12/rules/#S3")
    link.click()
    page.wait_for_url("**/c/t12/rules/#S3")
    expect(page.locator("article.rule-entry#S3 h3")).to_have_text("S3 Public roster")


def test_the_rules_page_and_the_panel_fit_a_phone(open_page: Any) -> None:
    ex = example_battle()
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    page = open_page(None, "/c/t12/rules/", language="ru", **phone)
    expect(page.locator("article.rule-entry#T9\\.1 svg rect")).to_have_count(115)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "rules-2-phone-page")
    west = open_page(ex.west_user, f"/battles/{ex.battle.pk}/", **phone)
    unit(west, ex.units["left"]).click()
    west.keyboard.press("ArrowRight")
    west.locator('#board-message a.rule-link[data-rule="T6"]').click()
    box = west.locator("#rules-panel").bounding_box()
    assert box is not None and box["width"] <= 390
    shot(west, "rules-3-phone-panel")
