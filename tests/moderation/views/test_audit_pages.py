"""M3: the audit log is read a page at a time, walked from an entry's reference, its filters kept."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from campaign.models import LogEntry
from campaign.services import log_append
from moderation.selectors import audit
from moderation.selectors.audit import AuditFilter, audit_log
from tactical.models import BattleEvent, LiveBattle
from tests.tactical.builders import units_of

URL = "/c/limes/log/"
ROW = re.compile(r'<tr id="([^"]+)"')
LINK = re.compile(r'<a href="\?([^"]*)"(?: rel="(?:prev|next)")?>([^<]+)</a>')


@pytest.fixture(autouse=True)
def _pages_of_three(monkeypatch: Any) -> None:
    monkeypatch.setattr(audit, "PAGE_SIZE", 3)


@pytest.fixture
def entries(world: Any) -> list[str]:
    """Seven campaign entries, the odd ones by the moderator: the whole log, oldest first."""
    made = [
        log_append(campaign=world.campaign, kind="settings_changed", actor=world.moderator if n % 2 else None)
        for n in range(7)
    ]
    refs = [f"L{e.pk}" for e in made]
    assert [r.ref for r in audit_log(campaign=world.campaign)] == refs
    return refs


def _page(query: dict[str, str], **headers: Any) -> tuple[int, list[str], list[tuple[str, str]], str]:
    """Status, the rows shown, the links of the first pager (query, text), the page."""
    response = Client().get(URL, query, **headers)
    page = response.content.decode()
    pager = page.split('<nav class="pager"', 1)[1].split("</nav>", 1)[0] if '<nav class="pager"' in page else ""
    return response.status_code, ROW.findall(page), [(html.unescape(q), t) for q, t in LINK.findall(pager)], page


def test_the_first_page_shows_the_oldest_entries(entries: list[str]) -> None:
    status, rows, links, _ = _page({})
    assert (status, rows) == (200, entries[:3])
    assert links == [("", "Oldest"), (f"after={entries[2]}", "Newer →"), ("latest=1", "Latest")]


def test_a_later_page_shows_the_entries_after_the_one_named(entries: list[str]) -> None:
    status, rows, links, _ = _page({"after": entries[2]})
    assert (status, rows) == (200, entries[3:6])
    assert links == [("", "Oldest"), (f"before={entries[3]}", "← Older"), (f"after={entries[5]}", "Newer →"),
                     ("latest=1", "Latest")]


def test_the_latest_page_shows_the_newest_entries_in_order(entries: list[str]) -> None:
    status, rows, links, _ = _page({"latest": "1"})
    assert (status, rows) == (200, entries[4:])
    assert links == [("", "Oldest"), (f"before={entries[4]}", "← Older"), ("latest=1", "Latest")]


def test_an_older_page_shows_the_entries_before_the_one_named(entries: list[str]) -> None:
    status, rows, links, _ = _page({"before": entries[4]})
    assert (status, rows) == (200, entries[1:4])
    assert links == [("", "Oldest"), (f"before={entries[1]}", "← Older"), (f"after={entries[3]}", "Newer →"),
                     ("latest=1", "Latest")]


def test_the_last_page_has_no_newer_link(entries: list[str]) -> None:
    status, rows, links, _ = _page({"after": entries[5]})
    assert (status, rows) == (200, entries[6:])
    assert links == [("", "Oldest"), (f"before={entries[6]}", "← Older"), ("latest=1", "Latest")]


def test_a_log_of_one_page_has_no_pager(world: Any) -> None:
    log_append(campaign=world.campaign, kind="settings_changed")
    assert '<nav class="pager"' not in _page({})[3]


def test_the_pages_keep_the_filter(world: Any, entries: list[str]) -> None:
    mine = entries[1::2]  # the moderator's
    status, rows, links, _ = _page({"person": "moderator", "after": mine[0]})
    assert (status, rows) == (200, mine[1:])
    assert links == [("person=moderator", "Oldest"), (f"person=moderator&before={mine[1]}", "← Older"),
                     ("person=moderator&latest=1", "Latest")]


def test_the_export_links_keep_the_filter_not_the_page(entries: list[str]) -> None:
    page = _page({"turn": "1", "after": entries[2]})[3]
    assert 'href="/c/limes/log/export.csv?turn=1">CSV</a>' in page


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"after": "L999999"}, "after"),  # no such entry
        ({"before": "B1v"}, "before"),  # not a reference
        ({"after": "L" + "9" * 40}, "after"),  # a forged, huge number
    ],
)
def test_a_page_link_that_names_no_entry_is_refused(entries: list[str], query: dict[str, str], field: str) -> None:
    status, rows, _, page = _page(query)
    assert (status, rows) == (400, entries[:3])
    assert "This page link names no entry of this log: open the log&#x27;s first page again." in page


def test_pages_walk_campaign_entries_and_battle_rows_in_the_log_s_order(world: Any, live: LiveBattle) -> None:
    for _ in range(4):
        log_append(campaign=world.campaign, kind="settings_changed")
    whole = [r.ref for r in audit_log(campaign=world.campaign)]
    walked, query = [], {}
    while True:
        _, rows, links, _ = _page(query)
        walked += rows
        newer = [q for q, text in links if text == "Newer →"]
        if not newer:
            break
        query = dict(part.split("=") for part in newer[0].split("&"))
    assert walked == whole
    assert len(whole) > 9


def test_rows_of_one_moment_are_walked_once_each_both_ways(world: Any, live: LiveBattle) -> None:
    """Entries written in the same moment as a battle's versions: the battle rows come first, then the
    entries by id; every page boundary falls inside that moment."""
    moment = BattleEvent.objects.get(battle=live, version=3).created_at
    same = [LogEntry.objects.create(campaign=world.campaign, kind="settings_changed", turn=1,
                                    created_at=moment)
            for _ in range(5)]
    rows = [((e.created_at, 0, e.battle_id, e.version), f"B{e.battle_id}v{e.version}")
            for e in BattleEvent.objects.filter(battle=live)]
    rows += [((e.created_at, 1, e.pk, 0), f"L{e.pk}") for e in LogEntry.objects.filter(campaign=world.campaign)]
    expected = [ref for _, ref in sorted(rows)]
    assert len(expected) > 9 and expected.index(f"B{live.pk}v3") + 1 == expected.index(f"L{same[0].pk}")

    forward, query = [], {}
    while True:
        _, rows, links, _ = _page(query)
        forward += rows
        link = [q for q, text in links if text == "Newer →"]
        if not link:
            break
        query = dict([link[0].split("=")])
    backward, query = [], {"latest": "1"}
    while True:
        _, rows, links, _ = _page(query)
        backward = rows + backward
        link = [q for q, text in links if text == "← Older"]
        if not link:
            break
        query = dict([link[0].split("=")])
    assert forward == backward == expected


def test_a_unit_s_pages_hold_the_rows_that_name_it(world: Any, live: LiveBattle) -> None:
    unit = int(units_of(live, "defender")[1][1:])
    assert [r.ref for r in audit_log(campaign=world.campaign, filters=AuditFilter(unit=unit))] == [
        f"B{live.pk}v1", f"B{live.pk}v5"]
    _, rows, links, _ = _page({"unit": str(unit)})
    assert (rows, links) == ([f"B{live.pk}v1", f"B{live.pk}v5"], [])


def test_the_pager_in_russian(entries: list[str]) -> None:
    _, _, links, _ = _page({"after": entries[2]}, HTTP_ACCEPT_LANGUAGE="ru")
    assert [text for _, text in links] == ["Самые старые", "← Старше", "Новее →", "Последние"]
