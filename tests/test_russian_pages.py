"""Every page of the app in Russian carries no word of the English interface (the replay's "ходит defender,
фаза: move" and its action codes, the console's "ходит attacker"): a list of the interface's English words is
looked for in what a reader sees (text, titles, labels), data such as unit and user names excepted."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client

from tests.browser.builders import Page, every_page, example_battle

pytestmark = pytest.mark.django_db

# Words of the English interface, as whole words; none is a name in the example's data.
ENGLISH = (
    "attacker", "defender", "deploy", "deployment", "timeout", "correction", "undo", "move", "moves", "round",
    "phase", "action", "actions", "clock", "health", "lines", "line", "turn", "unit", "units", "army", "armies",
    "battle", "save", "cancel", "submit", "password", "username", "log in", "sign up", "facing", "north",
    "south", "step", "replay", "dice", "roster", "rosters", "rules", "map", "commander", "leader", "province",
    "routed", "withdrawn", "to act", "ready", "concede", "interception", "volley", "arrows", "range", "charge",
)
WORDS = re.compile(r"\b(" + "|".join(re.escape(w) for w in ENGLISH) + r")\b", re.IGNORECASE)
SEEN_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "aria-roledescription"}
SKIPPED = {"script", "style", "textarea", "code"}  # data: the board's strings by key, BBCode to copy
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def _not_russian(tag: str, attrs: list[tuple[str, str | None]]) -> bool:
    """Data the page itself marks as no Russian interface text: another language (the glossary's English
    column, ``lang="en"``) or not to be translated (``translate="no"``: the time zones' IANA names)."""
    values = dict(attrs)
    return tag in SKIPPED or values.get("translate") == "no" or values.get("lang") not in (None, "ru")


class _Seen(HTMLParser):
    """What a reader sees of a page: its text and the attributes read out to him."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skipping: list[str] = []  # the open elements whose text is skipped

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skipping or _not_russian(tag, attrs):
            if tag not in VOID:
                self.skipping.append(tag)
            return
        self.parts.extend(value or "" for name, value in attrs if name in SEEN_ATTRIBUTES)

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


def _english(html: str, names: list[str]) -> list[str]:
    seen = _Seen()
    seen.feed(html)
    text = " ".join(seen.parts)
    for name in sorted(names, key=len, reverse=True):  # data: names of units, people, places
        text = text.replace(name, " ")
    return sorted({m.group(0) for m in WORDS.finditer(text)})


def _pages(ex: Any) -> list[Page]:
    slug = ex.campaign.slug
    return [p for p in every_page(ex) if p.name != "API docs"] + [
        Page("invitation", f"/c/{slug}/invite/nowhere/", None),
        Page("board PNG replay step", f"/c/{slug}/battles/{ex.battle.pk}/replay/?v=1", ex.moderator),
    ]


def test_every_page_in_russian_has_no_english_interface_word() -> None:
    ex = example_battle()
    names = [u["name"] for u in ex.battle.roster.values()] + ["east", "west", "moderator", "spectator",
                                                               "Belisarius", "Aetius", "Limes", "Danube army",
                                                               "Field army", "combat.dice.seeded_roll"]
    found: dict[str, list[str]] = {}
    for visit in _pages(ex):
        client = Client()
        if visit.user is not None:
            client.force_login(visit.user)
        response = client.get(visit.path, HTTP_ACCEPT_LANGUAGE="ru")
        words = _english(response.content.decode(), names)
        if words:
            found[visit.name] = words
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
