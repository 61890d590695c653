"""The Russian interface: a complete catalogue, and pages that speak Russian when asked to."""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from campaign import services as campaign_services
from strategic.models import Province
from strategic.services import moves
from tests.factories import build_world

PO = Path(settings.BASE_DIR) / "locale" / "ru" / "LC_MESSAGES" / "django.po"


@pytest.fixture
def world(db: Any) -> Any:
    """The campaign of ``build_world``."""
    return build_world()


def _entries() -> list[dict[str, Any]]:
    """The catalogue's entries: flags, msgid and every msgstr (continuation lines joined)."""
    entries = []
    for block in PO.read_text(encoding="utf-8").split("\n\n"):
        entry: dict[str, Any] = {"flags": "", "fields": {}}
        key = None
        for line in block.strip().splitlines():
            if line.startswith("#,"):
                entry["flags"] += line
            elif line.startswith('"') and key is not None:
                entry["fields"][key] += ast.literal_eval(line)
            elif line and not line.startswith("#"):
                key, value = line.split(" ", 1)
                entry["fields"][key] = ast.literal_eval(value)
        if entry["fields"]:
            entries.append(entry)
    return entries


def _text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", response.content.decode()))


def test_catalogue_has_no_untranslated_entry() -> None:
    empty = [
        e["fields"]["msgid"]
        for e in _entries()[1:]
        if any(v == "" for k, v in e["fields"].items() if k.startswith("msgstr"))
    ]
    assert empty == []


def test_catalogue_has_no_fuzzy_entry() -> None:
    assert [e["fields"].get("msgid") for e in _entries() if "fuzzy" in e["flags"]] == []


def test_catalogue_plurals_have_the_four_russian_forms() -> None:
    plurals = [e["fields"] for e in _entries() if "msgid_plural" in e["fields"]]
    assert plurals
    assert all(
        sorted(k for k in f if k.startswith("msgstr")) == [f"msgstr[{i}]" for i in range(4)] for f in plurals
    )


def test_catalogue_keeps_every_placeholder() -> None:
    pattern = re.compile(r"%\(\w+\)s|\{\w+\}")
    wrong = [
        e["fields"]["msgid"]
        for e in _entries()[1:]
        if any(
            sorted(pattern.findall(v))
            != sorted(pattern.findall(e["fields"].get("msgid_plural", e["fields"]["msgid"])))
            for k, v in e["fields"].items()
            if k.startswith("msgstr")
        )
    ]
    assert wrong == []


def test_accept_language_ru_gives_the_russian_home_page(db: Any, client: Any) -> None:
    text = _text(client.get("/", HTTP_ACCEPT_LANGUAGE="ru"))
    assert '<html lang="ru">' in text
    assert "<h1>Кампании</h1>" in text
    assert "<h2>Все кампании</h2>" in text


def test_language_cookie_gives_russian_pages(db: Any, client: Any) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    text = _text(client.get("/accounts/login/"))
    assert "<h1>Войти</h1>" in text
    assert "Ещё нет учётной записи?" in text


def test_english_is_the_default(db: Any, client: Any) -> None:
    assert "<h1>Campaigns</h1>" in _text(client.get("/"))


def test_language_switch_sets_the_cookie_and_returns(db: Any, client: Any) -> None:
    response = client.post("/i18n/setlang/", {"language": "ru", "next": "/accounts/login/"})
    assert (response.status_code, response["Location"]) == (302, "/accounts/login/")
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "ru"
    assert "<h1>Войти</h1>" in _text(client.get("/accounts/login/"))


def test_campaign_page_in_russian(world: Any, client: Any) -> None:
    campaign_services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    text = _text(client.get("/c/limes/", HTTP_ACCEPT_LANGUAGE="ru"))
    assert "<h1>Лимес</h1>" in text
    assert '<dd class="phase">Стратегическая фаза</dd>' in text
    assert "<h2>Последние события</h2>" in text


def test_log_sentence_in_russian_names_provinces_in_russian(world: Any, client: Any) -> None:
    Province.objects.filter(pk=world.dacia.pk).update(name_ru="Дакия")
    Province.objects.filter(pk=world.moesia.pk).update(name_ru="Мёзия")
    campaign_services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    moves.army_move(actor=world.east_general, army=world.east_army, destination=world.moesia)
    text = _text(client.get("/c/limes/", HTTP_ACCEPT_LANGUAGE="ru"))
    east = world.east.name_ru
    assert f'<span class="sentence">Армия Danube army ({east}): переход Дакия → Мёзия.</span>' in text


def test_map_names_provinces_in_russian(world: Any, client: Any) -> None:
    Province.objects.filter(pk=world.italia.pk).update(name_ru="Италия")
    text = _text(client.get("/c/limes/map/", HTTP_ACCEPT_LANGUAGE="ru"))
    assert '<text class="label" x="0" y="0" text-anchor="middle">Италия</text>' in text
    assert "<h1>Стратегическая карта</h1>" in text


def test_rules_page_in_russian(world: Any, client: Any) -> None:
    text = _text(client.get("/c/limes/rules/", HTTP_ACCEPT_LANGUAGE="ru"))
    assert "Секунд на тактический ход каждой стороны" in text
    assert '<td class="value">да</td>' in text


@pytest.mark.parametrize(
    ("count", "words"), [(1, "1 отряд"), (3, "3 отряда"), (5, "5 отрядов"), (21, "21 отряд")]
)
def test_roster_counts_units_with_russian_plurals(world: Any, client: Any, count: int, words: str) -> None:
    from tests.factories import UnitFactory

    for _ in range(count - 2):
        UnitFactory(faction=world.west, unit_type=world.infantry, province=world.italia)
    if count == 1:
        world.west_army.units.first().delete()
    text = _text(client.get("/c/limes/rosters/west/", HTTP_ACCEPT_LANGUAGE="ru"))
    assert f'<small class="muted">{words}</small>' in text
