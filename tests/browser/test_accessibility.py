"""axe-core (vendored: tests/browser/vendor/) on every page of the app in both languages: no serious or
critical violation (contrast, labels, landmarks, names)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.builders import Page, every_page, example_battle, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
RUN = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
}"""


def _violations(page: Any) -> list[str]:
    page.add_script_tag(path=str(AXE))  # the page's policy is bypassed for this test's own script only
    return list(page.evaluate(RUN))


def _pages(ex: Any) -> list[Page]:
    slug = ex.campaign.slug
    return [p for p in every_page(ex) if p.name != "API docs"] + [  # Swagger UI is not ours to fix
        Page("invitation", f"/c/{slug}/invite/nowhere/", None),
    ]


def test_every_page_in_both_languages_has_no_serious_violation(open_page: Any) -> None:
    ex = example_battle()
    found: dict[str, list[str]] = {}
    for language in ("en", "ru"):
        for visit in _pages(ex):
            page = open_page(visit.user, visit.path, language=language, bypass_csp=True)
            if visit.name == "board":
                expect(page.locator("#status-conn")).to_have_attribute("data-state", "live")
                page.wait_for_selector("#layer-units [data-unit]")
            problems = _violations(page)
            if problems:
                found[f"{visit.name} ({language})"] = problems
            page.context.close()
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
