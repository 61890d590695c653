"""The Content-Security-Policy (config/settings.py): every page sends it, and no template or page needs it relaxed.

The policy allows scripts and styles from the site's own files only, so a page may hold no inline <script>
with code, no on*= handler, no style="" attribute and no <style> element: the browser would refuse them.
"""

from __future__ import annotations

import base64
import hashlib
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from strategic.render.map_data import map_data
from strategic.render.map_svg import MAP_STYLE, map_svg
from tests.browser.builders import every_page, example_battle

POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'"],
    "connect-src": ["'self'"],
    "font-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
TEMPLATES = sorted(
    path
    for folder in [settings.BASE_DIR / "templates", *settings.BASE_DIR.glob("*/templates")]
    for path in Path(folder).rglob("*.html")
)


class _InlineCode(HTMLParser):
    """Collects what a strict policy refuses: inline scripts, handlers, javascript: URLs and inline styles."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._script: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=…>")
            elif name == "style":
                self.found.append(f'<{tag} style="{value}">')
            elif (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f'<{tag} {name}="{value}">')
        if tag == "style":
            self.found.append("<style>")
        elif tag == "script":
            self._script = dict(attrs)
            if "src" not in self._script and self._script.get("type") != "application/json":
                self.found.append(f"<script {self.get_starttag_text()}> (neither src= nor JSON data)")

    def handle_data(self, data: str) -> None:
        if self._script is not None and "src" in self._script and data.strip():
            self.found.append(f"<script src=…> with code: {data.strip()[:60]}")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None


def inline_code(html: str) -> list[str]:
    """What a page or a template holds that ``script-src 'self'; style-src 'self'`` refuses."""
    parser = _InlineCode()
    parser.feed(html)
    parser.close()
    return parser.found


def directives(header: str) -> dict[str, list[str]]:
    """A policy as {directive: sources}."""
    return {d.split()[0]: d.split()[1:] for d in header.split(";") if d.strip()}


def test_the_templates_are_found() -> None:
    names = {p.relative_to(settings.BASE_DIR).as_posix() for p in TEMPLATES}
    assert {"templates/base.html", "templates/tactical/board.html", "moderation/templates/moderation/console.html",
            "templates/api/swagger_ui.html"} <= names


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: p.relative_to(settings.BASE_DIR).as_posix())
def test_no_template_holds_inline_script_handler_or_style(template: Path) -> None:
    assert inline_code(template.read_text()) == []


@pytest.mark.parametrize(
    "html, found",
    [
        ('<script src="/static/js/limes.js" defer></script>', []),
        ('<script id="board-data" type="application/json">{"a": 1}</script>', []),
        ("<script>alert(1)</script>", ["<script <script>> (neither src= nor JSON data)"]),
        ('<script src="/x.js">alert(1)</script>', ["<script src=…> with code: alert(1)"]),
        ('<button onclick="go()">', ["<button onclick=…>"]),
        ('<a href="javascript:go()">', ['<a href="javascript:go()">']),
        ('<span style="--c: red"></span>', ['<span style="--c: red">']),
        ("<svg><style>.a{}</style></svg>", ["<style>"]),
    ],
)
def test_the_scan_finds_what_the_policy_refuses(html: str, found: list[str]) -> None:
    # Each row: one kind of inline code the browser would refuse (or, in the first two, allow).
    assert inline_code(html) == found


@pytest.fixture
def pages(db: Any) -> list[Any]:
    return every_page(example_battle())


def test_every_page_sends_the_policy_and_holds_no_inline_code(pages: list[Any]) -> None:
    for language in ("en", "ru"):
        for page in pages:
            client = Client(HTTP_ACCEPT_LANGUAGE=language)
            if page.user is not None:
                client.force_login(page.user)
            response = client.get(page.path)
            assert response.status_code == (404 if page.name == "not found" else 200), page
            policy = directives(response["Content-Security-Policy"])
            expected = {**POLICY, "img-src": ["'self'", "data:"]} if page.name == "API docs" else POLICY
            assert (page.name, policy) == (page.name, expected)
            assert "'unsafe-inline'" not in policy["script-src"]
            assert response["Content-Type"].startswith("text/html")
            assert (page.name, inline_code(response.content.decode())) == (page.name, [])


def test_the_api_docs_script_is_a_file_of_its_own(db: Any, client: Any) -> None:
    page = client.get("/api/docs/").content.decode()
    assert '<script src="/api/docs/?script="></script>' in page
    script = client.get("/api/docs/?script=")
    assert (script.status_code, script["Content-Type"]) == (200, "application/javascript")


def test_the_map_drawn_in_a_page_leaves_its_style_sheet_to_the_page(db: Any) -> None:
    example = example_battle(deploy=False)
    embedded = map_svg(map_data(campaign=example.campaign))
    standalone = map_svg(map_data(campaign=example.campaign), standalone=True)
    assert ("<style>" in embedded, f"<style>{MAP_STYLE}</style>" in standalone) == (False, True)


def test_the_map_file_allows_its_own_style_sheet_by_its_hash(db: Any, client: Any) -> None:
    example = example_battle(deploy=False)
    response = client.get(f"/c/{example.campaign.slug}/map.svg")
    digest = base64.b64encode(hashlib.sha256(MAP_STYLE.encode()).digest()).decode()
    assert directives(response["Content-Security-Policy"])["style-src"] == ["'self'", f"'sha256-{digest}'"]
