"""The Setup pages in real Chromium, through clicks only: a new user creates a campaign, uploads a map file with
an error (refused, nothing imported) then a good one, edits a province on the map picture, adds two factions at
war with a commander each, two unit cards, an army each, and invitation links; then the same pages on a phone
(390 px) and in Russian."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from campaign.models import Campaign, Faction, Invitation, LogEntry, Relation
from strategic.models import Army, Province, Unit, UnitType
from tests.browser.builders import expect, shot
from tests.factories import UserFactory
from tests.strategic.builders import small_map

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _file(data: Any) -> dict[str, Any]:
    return {"name": "map.json", "mimeType": "application/json", "buffer": json.dumps(data).encode()}


def _fill(page: Any, values: dict[str, Any]) -> None:
    for field, value in values.items():
        locator = page.locator(f"#id_{field}")
        if locator.evaluate("e => e.tagName") == "SELECT":
            locator.select_option(label=str(value))
        elif locator.get_attribute("type") == "checkbox":
            locator.set_checked(bool(value))
        else:
            locator.fill(str(value))


def _create_campaign(page: Any) -> None:
    page.locator("#campaign-create-link").click()
    _fill(page, {"new-name_en": "Danube war", "new-name_ru": "Дунайская война", "new-slug": "danube",
                 "new-description": "Two factions on the river"})
    page.locator("#campaign-create").click()
    expect(page).to_have_url(re.compile(r"/c/danube/setup/$"))
    expect(page.locator(".messages")).to_contain_text("The campaign Danube war was created; you are its moderator.")


def _upload_maps(page: Any, campaign: Campaign) -> None:
    page.locator("#setup-nav-map").click()
    bad = small_map()
    bad["provinces"][2]["terrain"] = "lava"
    page.locator("#id_map-file").set_input_files(_file(bad))
    page.locator("#map-upload").click()
    expect(page.locator("#map-file-errors")).to_have_text(
        "provinces[2].terrain: provinces[2] (dacia): terrain must be one of field, forest, mountains, desert."
    )
    assert Province.objects.filter(campaign=campaign).count() == 0
    page.locator("#id_map-file").set_input_files(_file(small_map()))
    page.locator("#map-upload").click()
    expect(page.locator(".messages")).to_contain_text("The map was imported: 3 provinces created")
    expect(page.locator("#setup-map svg #province-dacia")).to_be_visible()


def _edit_province_on_the_map(page: Any, campaign: Campaign) -> None:
    page.locator("#setup-map svg #province-dacia").click()
    expect(page).to_have_url(re.compile(r"/c/danube/setup/map/\?province=dacia#province-form$"))
    expect(page.locator("#province-form h2")).to_have_text("Province Dacia (dacia)")
    _fill(page, {"province-name_ru": "Дакия Траянова", "province-terrain": "Mountains",
                 "province-has_fortress": True, "province-fortress_capacity": 4})
    page.locator("#province-save").click()
    expect(page.locator(".messages")).to_contain_text("Province Dacia was saved.")
    dacia = Province.objects.get(campaign=campaign, code="dacia")
    assert (dacia.name_ru, dacia.terrain, dacia.has_fortress, dacia.fortress_capacity) == (
        "Дакия Траянова", "mountains", True, 4
    )


def _factions_at_war(page: Any) -> None:
    page.locator("#setup-nav-factions").click()
    for slug, en, ru, colour, order in (("rome", "Rome", "Рим", "#aa2222", 1), ("goths", "Goths", "Готы", "#2244aa", 2)):
        _fill(page, {"faction-slug": slug, "faction-name_en": en, "faction-name_ru": ru, "faction-color": colour,
                     "faction-turn_order": order})
        page.locator("#faction-create").click()
        expect(page.locator(f"#faction-{slug}")).to_contain_text(en)
    _fill(page, {"relation-a": "Rome", "relation-b": "Goths", "relation-kind": "At war"})
    page.locator("#relation-set").click()
    expect(page.locator("#relation-rome-goths")).to_have_text("Rome — Goths: At war")
    for faction, name, rank in (("Rome", "Valens", "Faction leader"), ("Goths", "Fritigern", "Faction leader")):
        _fill(page, {"commander-faction": faction, "commander-name": name, "commander-rank": rank})
        page.locator("#commander-create").click()
        expect(page.locator("#commander-list")).to_contain_text(name)


def _unit_cards(page: Any) -> None:
    page.locator("#setup-nav-units").click()
    cards = (
        ("legion", "Legion", "Легион", "Heavy infantry", "5", (4, 3, 3, 3, 2), False),
        ("riders", "Gothic riders", "Готские всадники", "Heavy cavalry", "5", (4, 3, 2, 3, 3), True),
    )
    for code, en, ru, cls, health, damage, mounted in cards:
        _fill(page, {"card-code": code, "card-name_en": en, "card-name_ru": ru, "card-unit_class": cls,
                     "card-health": health, "card-mounted": mounted, "card-morale": 11})
        for target, n in zip(("LI1", "LI2", "HI", "LC", "HC"), damage, strict=True):
            page.locator(f"#id_card-damage_{target}").fill(str(n))
        page.locator("#card-create").click()
        expect(page.locator(f"#card-{code}")).to_contain_text(en)


def _armies(page: Any, campaign: Campaign) -> None:
    page.locator("#setup-nav-armies").click()
    for faction, card, province in (("Rome", "Legion", "Gallia"), ("Goths", "Gothic riders", "Dacia")):
        _fill(page, {"unit-faction": faction, "unit-unit_type": card, "unit-province": province, "unit-count": 2})
        page.locator("#unit-create").click()
        expect(page.locator(".messages")).to_contain_text(f"2 units of {faction} were placed in {province}.")
    for faction, commander, army in (("rome", "Valens", "Army of Thrace"), ("goths", "Fritigern", "Tervingi")):
        for unit in Unit.objects.filter(campaign=campaign, faction__slug=faction, army__isnull=True):
            page.locator(f'input[name="army-units"][value="{unit.pk}"]').check()
        page.locator("#id_army-commander").select_option(
            label=f"{commander} ({Faction.objects.get(campaign=campaign, slug=faction).name_en})"
        )
        page.locator("#id_army-name").fill(army)
        page.locator("#army-create").click()
        expect(page.locator(f"#forces-{faction}")).to_contain_text(army)


def _invitations(page: Any, campaign: Campaign) -> list[str]:
    page.locator("#setup-nav-factions").click()
    links = []
    for faction, commander in (("Rome", "Valens (Rome)"), ("Goths", "Fritigern (Goths)")):
        _fill(page, {"invite-role": "Faction leader", "invite-faction": faction, "invite-commander": commander})
        page.locator("#invite-create").click()
        invitation = Invitation.objects.filter(campaign=campaign).order_by("-id").first()
        link = page.locator(f"#invitation-link-{invitation.pk}")
        expect(link).to_have_value(page.url.split("/c/")[0] + f"/invite/{invitation.token}/")
        links.append(link.input_value())
    return links


def test_a_new_user_sets_up_a_campaign_through_the_pages(open_page: Any) -> None:
    author = UserFactory(username="author")
    page = open_page(author, "/")
    _create_campaign(page)
    campaign = Campaign.objects.get(slug="danube")
    _upload_maps(page, campaign)
    _edit_province_on_the_map(page, campaign)
    _factions_at_war(page)
    _unit_cards(page)
    _armies(page, campaign)
    links = _invitations(page, campaign)
    shot(page, "setup-factions")
    rome, goths = (Faction.objects.get(campaign=campaign, slug=s) for s in ("rome", "goths"))
    low, high = sorted((rome, goths), key=lambda f: f.pk)
    assert Relation.objects.get(a=low, b=high).kind == "war"
    assert sorted(UnitType.objects.filter(campaign=campaign).values_list("code", flat=True)) == ["legion", "riders"]
    assert sorted(Army.objects.filter(campaign=campaign).values_list("name", "province__code")) == [
        ("Army of Thrace", "gallia"), ("Tervingi", "dacia")
    ]
    assert len(set(links)) == 2
    kinds = set(LogEntry.objects.filter(campaign=campaign).values_list("kind", flat=True))
    assert kinds >= {"campaign_created", "map_imported", "province_changed", "faction_created", "relation_set",
                     "commander_created", "unit_type_created", "unit_created", "army_created", "invitation_created"}


def test_the_setup_map_fits_a_phone_and_speaks_russian(open_page: Any) -> None:
    author = UserFactory(username="author")
    page = open_page(author, "/campaigns/new/", language="ru", viewport={"width": 390, "height": 844})
    _fill(page, {"new-name_en": "Danube", "new-name_ru": "", "new-slug": "danube"})
    page.locator("#campaign-create").click()
    expect(page.locator("#id_new-name_ru-error")).to_have_text("Название (по-русски): Обязательное поле.")
    _fill(page, {"new-name_ru": "Дунай"})
    page.locator("#campaign-create").click()
    page.locator("#setup-nav-map").click()
    page.locator("#id_map-file").set_input_files(_file(small_map()))
    page.locator("#map-upload").click()
    expect(page.locator(".messages")).to_contain_text("Карта загружена: провинций создано — 3")
    page.locator("#setup-map svg #province-gallia").click()
    expect(page.locator("#province-form h2")).to_have_text("Провинция Галлия (gallia)")
    for path in ("setup", "setup/map", "setup/units", "setup/factions", "setup/armies"):
        page.goto(page.url.split("/c/")[0] + f"/c/danube/{path}/")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{path} is {width} px wide on a 390 px phone"
    shot(page, "setup-armies-phone")
