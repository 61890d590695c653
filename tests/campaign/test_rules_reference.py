"""The rules reference (issue 15): every rule id of RULES.md has its anchor in both languages, the campaign's
settings stand beside their rules, rule ids link to their entries, and one entry comes as a fragment."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from campaign import services as campaign_services
from campaign.rules_reference import range_cells
from campaign.rules_text import RULES

# The game's rules as specified, kept in the repository (docs/rules.md): every id there has its entry.
RULES_MD = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
RULES_MD_IDS = re.findall(r"\*\*([STRQM]\d+(?:\.\d+)?)\b", RULES_MD.read_text(encoding="utf-8"))


def _page(language: str = "en", path: str = "/c/limes/rules/") -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(path)
    assert response.status_code == 200
    return html.unescape(re.sub(r"\s+", " ", response.content.decode()))


def test_the_texts_hold_every_rule_id_of_rules_md_in_its_order() -> None:
    assert [rule.id for rule in RULES] == RULES_MD_IDS


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_rule_id_of_rules_md_has_its_anchor(world: Any, language: str) -> None:
    anchors = re.findall(r'<article class="rule-entry[^"]*" id="([^"]+)"', _page(language))
    assert anchors == RULES_MD_IDS


@pytest.mark.parametrize(
    ("language", "title", "text"),
    [
        ("en", "T7.3</a> Charge", "A mounted unit that initiated the contact this turn after moving more than 2 cells"),
        ("ru", "T7.3</a> Наскок", "Конный отряд, начавший соприкосновение в этот ход, пройдя больше 2 клеток"),
        ("en", "T14.2</a> Whose round a window is", "The interception window after a side's turn belongs to"),
        ("ru", "Q8.1</a> Равенство", "Равные разницы — победа обороняющегося с разницей 0"),
    ],
)
def test_rule_entries_are_in_the_readers_language(world: Any, language: str, title: str, text: str) -> None:
    page = _page(language)
    assert (title in page, text in page) == (True, True)


def _entry(page: str, rule_id: str) -> str:
    return page.split(f'id="{rule_id}" data-rule="{rule_id}">')[1].split("</article>")[0]


def test_a_rules_setting_stands_beside_it_with_this_campaigns_value(world: Any) -> None:
    campaign_services.campaign_settings_update(
        actor=world.moderator, campaign=world.campaign, settings={"turn_seconds": 60}
    )
    entry = _entry(_page(), "T6.1")
    assert (
        '<div class="rule-value changed" data-setting="turn_seconds"><dt>Seconds in each side\'s tactical turn</dt>'
        '<dd><strong class="value">60</strong> <small class="muted">default 40</small> <code>turn_seconds</code>'
    ) in entry


def test_the_charge_distance_and_speeds_are_shown_beside_their_rules(world: Any) -> None:
    page = _page("ru")
    assert "<dt>Дистанция наскока: больше, в клетках</dt><dd><strong class=\"value\">2</strong>" in _entry(page, "T7.3")
    assert "<dt>Скорость конных</dt><dd><strong class=\"value\">6</strong>" in _entry(page, "T4")


def test_the_range_template_is_drawn_from_the_campaigns_semi_axes(world: Any) -> None:
    campaign_services.campaign_settings_update(
        actor=world.moderator, campaign=world.campaign, settings={"range_forward": 3.5, "range_lateral": 2.5}
    )
    entry = _entry(_page(), "T9.1")
    cells, _width, _height = range_cells(3.5, 2.5)
    assert (entry.count("<rect "), entry.count('class="cell-shooter"'), len(cells)) == (31, 1, 31)
    assert "Cells in range: 30." in entry
    assert '<strong class="value">3.5</strong>' in entry


def test_the_default_range_template_gives_6_forward_and_5_to_each_side() -> None:
    cells, width, height = range_cells(6.5, 5.5)
    assert (width, height) == (110, 130)


def test_the_flank_is_drawn_beside_t7_4(world: Any) -> None:
    entry = _entry(_page("ru"), "T7.4")
    assert 'class="rule-picture flank-picture"' in entry and ">фронт</text>" in entry


def test_rule_ids_in_a_rule_text_link_to_their_entries(world: Any) -> None:
    entry = _entry(_page(), "S8")
    assert '<a class="rule-id rule-link" href="/c/limes/rules/#T9.6" data-rule="T9.6" title="Rule T9.6: Reinforcements">T9.6</a>' in entry


def test_the_settings_table_links_each_rule(world: Any) -> None:
    row = _page().split('<tr id="setting-turn_seconds">')[1].split("</tr>")[0]
    assert 'href="/c/limes/rules/#T6.1" data-rule="T6.1"' in row


def test_the_glossary_is_shown_in_both_languages(world: Any) -> None:
    page = _page("en")
    assert '<td lang="en">interception</td><td lang="ru">перехват</td>' in page


def test_one_rule_comes_as_a_fragment_for_the_board(world: Any) -> None:
    fragment = _page("ru", "/c/limes/rules/T10.3/")
    assert fragment.startswith('<article class="rule-entry rule-part" id="T10.3" data-rule="T10.3">')
    assert '<a class="rule-id" href="/c/limes/rules/#T10.3">T10.3</a> Перехватчик стоит' in fragment
    assert "<html" not in fragment


def test_an_unknown_rule_is_404(world: Any) -> None:
    assert Client().get("/c/limes/rules/T99/").status_code == 404


def test_the_search_script_is_a_static_file(world: Any) -> None:
    page = _page()
    assert '<script src="/static/js/rules-search.js" defer></script>' in page
    assert 'id="rules-search"' in page and 'data-found="Rules found: {n}"' in page
