"""Every page of the app in real Chromium, in both languages, under its Content-Security-Policy: the browser
reports no violation, the board still plays (its socket connects and a move is applied), Swagger UI and the
admin still work."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Faction
from tests.browser.builders import Page, cell, every_page, example_battle, expect, shot, unit
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Runs in every document before its own scripts: the violations the page reports to itself.
REPORT_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.violatedDirective} refused ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`);
});
"""
SHOTS = {"faction roster", "map", "turn", "board", "API docs"}  # pictures for a human to look at
# The moves made on the board, one per language: (unit, x, y) of T12's first round.
MOVES = {"en": ("hi", 8, 9), "ru": ("hc", 9, 8)}


def _watched(page: Any, console: list[str]) -> None:
    page.add_init_script(REPORT_VIOLATIONS)
    page.on("console", lambda m: console.append(m.text)
            if "Content Security Policy" in m.text or "Refused to" in m.text else None)


def test_every_page_in_both_languages_runs_under_the_policy(open_page: Any) -> None:
    ex = example_battle()
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    east = Faction.objects.get(campaign=ex.campaign, slug="east")
    pages = [
        *every_page(ex),
        Page("map file", f"/c/{ex.campaign.slug}/map.svg", None),
        Page("admin", "/admin/", admin),
        Page("admin campaigns", "/admin/campaign/campaign/", admin),
        Page("admin campaign", f"/admin/campaign/campaign/{ex.campaign.pk}/change/", admin),
        Page("admin faction", f"/admin/campaign/faction/{east.pk}/change/", admin),
        Page("admin log", "/admin/campaign/logentry/", admin),
    ]
    violations: dict[str, list[str]] = {}
    for language in ("en", "ru"):
        for visit in pages:
            console: list[str] = []
            page = open_page(visit.user, visit.path, language=language, before=lambda p: _watched(p, console))
            _check_it_works(page, visit, language, ex)
            page.wait_for_timeout(200)  # a violation event is dispatched after the refusal
            found = console + page.evaluate("window.__cspViolations")
            if found:
                violations[f"{visit.name} ({language})"] = found
            if language == "en" and visit.name in SHOTS:
                shot(page, f"csp-{visit.name.replace(' ', '-')}")
            page.context.close()
    assert violations == {}


def _check_it_works(page: Any, visit: Page, language: str, ex: Any) -> None:
    """What must still happen on the page under the policy: its scripts ran and did their work."""
    if visit.name == "board":
        expect(page.locator("#status-conn")).to_have_attribute("data-state", "live")  # the socket connected
        key, x, y = MOVES[language]
        unit(page, ex.units[key]).click()
        cell(page, x, y).click()
        expect(unit(page, ex.units[key])).to_have_attribute("data-y", str(y))  # the move was applied
    elif visit.name == "API docs":
        expect(page.locator("#swagger-ui .info .title")).to_contain_text("Limes API")  # the schema was fetched
        # "Try it out" on GET /api/campaigns/: Swagger UI's own request (connect-src 'self').
        operation = page.locator("#swagger-ui .opblock-get").first
        operation.locator(".opblock-summary").click()
        operation.locator("button.try-out__btn").click()
        operation.locator("button.execute").click()
        expect(operation.locator(".live-responses-table tr.response .response-col_status")).to_have_text("200")
    elif visit.name == "map file":
        expect(page.locator("svg.limes-map")).to_be_visible()
    elif visit.name.startswith("admin"):
        expect(page.locator("#site-name")).to_be_visible()
    elif visit.name == "login":
        # The language switch (a form posted to /i18n/setlang/, form-action 'self') goes to the other language.
        other = "ru" if language == "en" else "en"
        page.locator(f'.lang-switch button[value="{other}"]').click()
        expect(page.locator("html")).to_have_attribute("lang", other)
    else:
        expect(page.locator("footer.site-footer")).to_be_visible()
