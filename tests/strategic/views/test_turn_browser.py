"""The pages' scripts in real Chromium: local deadline, choosing a destination on the map, phone width."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from campaign import services as campaign_services
from campaign.models import Campaign
from strategic.models import Province
from tests.environment import CHROMIUM
from tests.factories import build_world

pytestmark = pytest.mark.browser
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def east_turn(transactional_db: Any) -> Any:
    """``build_world`` in the strategic phase, Eastern Rome acting, its general with a known password."""
    world = build_world()
    campaign_services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    Campaign.objects.filter(pk=world.campaign.pk).update(
        faction_deadline=datetime(2030, 1, 2, 15, 30, tzinfo=UTC)
    )
    for i, province in enumerate(Province.objects.filter(campaign=world.campaign).order_by("code")):
        Province.objects.filter(pk=province.pk).update(x=100 + 110 * i, y=200 + 60 * (i % 3))
    user = get_user_model().objects.get(pk=world.east_general.pk)
    user.set_password("Limes-of-the-Danube-9")
    user.save()
    return world


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    """A Chromium page in the Moscow time zone (UTC+3), English."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(locale="en-GB", timezone_id="Europe/Moscow")
        yield context.new_page()
        browser.close()


def test_deadline_is_shown_in_the_visitors_time_zone(east_turn: Any, live_server: Any, page: Any) -> None:
    page.goto(live_server.url + "/c/limes/")
    deadline = page.locator("dd.deadline time")
    assert deadline.inner_text() == "2 Jan 2030, 18:30 GMT+3"
    assert deadline.get_attribute("title") == "2030-01-02 15:30 UTC"


def _log_in(page: Any, url: str) -> None:
    page.goto(url + "/accounts/login/?next=/c/limes/turn/")
    page.fill("#id_username", "east_general")
    page.fill("#id_password", "Limes-of-the-Danube-9")
    page.click("form.stacked button[type=submit]")
    page.wait_for_url("**/c/limes/turn/")


def test_s5_clicking_a_highlighted_province_chooses_it(east_turn: Any, live_server: Any, page: Any) -> None:
    _log_in(page, live_server.url)
    page.click("#province-pannonia")
    assert page.locator("#move-destination").input_value() == str(east_turn.pannonia.pk)
    assert "chosen" in (page.locator("#province-pannonia").get_attribute("class") or "")
    page.click("#move-form button[type=submit]")
    page.wait_for_url(f"**/c/limes/turn/?army={east_turn.east_army.pk}")
    assert "Danube army captured Pannonia." in page.locator(".messages").inner_text()


def test_map_scrolls_inside_its_frame_on_a_phone(east_turn: Any, live_server: Any, page: Any) -> None:
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(live_server.url + "/c/limes/map/")
    sizes = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.querySelector('.map-frame').scrollWidth]"
    )
    assert sizes[0] == 390
    assert sizes[1] > 700


def test_s5_clicking_a_province_out_of_reach_says_why(east_turn: Any, live_server: Any, page: Any) -> None:
    """It did nothing: Italia is not next to Dacia, where the Danube army stands."""
    _log_in(page, live_server.url)
    page.click("#province-italia")
    refusal = page.locator("#map-refusal")
    assert refusal.inner_text() == "Italia: An army moves only into an adjacent province (S5)."
    assert page.locator("#move-destination").input_value() != str(east_turn.italia.pk)
