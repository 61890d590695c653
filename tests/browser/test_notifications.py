"""The player is called back, in real Chromium: the bell's count rises live when the other side's pass makes
it his faction's turn (S4), and a hidden board tab changes its title when his side's battle turn begins."""

from __future__ import annotations

import re
from typing import Any

import pytest

from campaign import services as campaign_services
from tests.browser.builders import example_battle, expect
from tests.factories import build_world

pytestmark = [pytest.mark.browser, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def test_s4_the_bell_rises_live_when_the_other_side_passes(open_page: Any) -> None:
    w = build_world()
    campaign_services.economic_phase_end(actor=w.moderator, campaign=w.campaign)
    page = open_page(w.west_leader, "/c/limes/")
    bell = page.locator(".bell")
    expect(bell).to_have_attribute("data-live", "1")  # the socket is open
    expect(bell.locator(".bell-count")).to_be_hidden()
    campaign_services.faction_turn_pass(actor=w.east_leader, faction=w.east)
    expect(bell.locator(".bell-count")).to_have_text("1")
    bell.click()
    expect(page.locator(".notice-text").first).to_contain_text("Your faction Western Rome may act in Limes, turn 1")


HIDDEN_TAB = """
Object.defineProperty(document, "hidden", {configurable: true, get: () => Boolean(window.__hidden)});
"""


def test_a_hidden_tab_changes_its_title_when_the_sides_turn_begins(open_page: Any) -> None:
    from tactical.services import play as services

    ex = example_battle()
    west = open_page(ex.west_user, f"/battles/{ex.battle.pk}/", before=lambda p: p.add_init_script(HIDDEN_TAB))
    expect(west.locator("#status-conn")).to_have_text("Live")
    expect(west.locator("#status-turn")).to_have_text("Round 1 · Attacker to act")
    title = west.title()
    west.evaluate("window.__hidden = true")
    services.battle_action_apply(actor=ex.east_user, battle_id=ex.battle.pk,
                                 action={"do": "end_turn", "side": "attacker"})
    expect(west.locator("#status-turn")).to_have_text("Round 1 · Defender to act")
    expect(west).to_have_title(f"Your turn! · {title}")
    west.evaluate("window.__hidden = false; document.dispatchEvent(new Event('visibilitychange'))")
    expect(west).to_have_title(re.compile("^" + re.escape(title) + "$"))


PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_new_pages_fit_a_phone(open_page: Any, language: str) -> None:
    ex = example_battle()
    record = ex.battle.record_id
    for user, path in (
        (ex.east_user, "/accounts/me/"), (ex.east_user, "/accounts/me/mail/"), (ex.east_user, "/notifications/"),
        (ex.moderator, f"/c/{ex.campaign.slug}/battles/{record}/schedule/"),
        (ex.moderator, f"/c/{ex.campaign.slug}/console/webhooks/"),
    ):
        page = open_page(user, path, language=language, **PHONE)
        expect(page.locator("h1")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
