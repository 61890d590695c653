"""A concede's confirmation (T11): armed by the first click, it stays until a second click or a cancel; it used
to expire silently after four seconds."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.builders import example_battle, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARMED = "Really concede the battle? Click again (it stays armed until you cancel)"


def test_the_armed_confirmation_does_not_expire_and_can_be_cancelled(open_page: Any) -> None:
    ex = example_battle()
    page = open_page(ex.west_user, f"/battles/{ex.battle.pk}/")
    page.locator("#btn-concede").click()
    page.wait_for_timeout(5000)  # past the old four seconds
    expect(page.locator("#btn-concede")).to_have_text(ARMED)
    page.locator("#btn-concede-cancel").click()
    expect(page.locator("#btn-concede")).to_have_text("Concede")
    expect(page.locator("#btn-concede-cancel")).to_be_hidden()
