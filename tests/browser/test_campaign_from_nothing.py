"""A forum's moderator runs a whole campaign from the browser, from nothing to the first battle's retreat (issue
16), through the pages only: no API call, admin page or shell command drives anything here (the database is
only read, to assert what a page said was done).

A new user signs up and creates a campaign; uploads a map file with an error (refused, nothing imported) and
then a good one; adds Rome and the Goths at war, a commander each, two unit cards and an army each; gives
Dalmatia and Dacia to the Goths on the map picture; invites two players, who sign up from the links and
accept them. The strategic phase begins (S4), Rome's army enters Dalmatia from Gallia (S7: a battle, in the
mountains of the Gallia → Dalmatia transition, S9); the moderator prepares it, paints two cells, opens the
deployment; both commanders deploy, the Goths concede (T11); the Goths retreat to Dacia (R1), and an
anonymous visitor reads the result on the public roster."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from campaign.models import Campaign, Invitation
from strategic.models import Army, Battle, Province
from tactical.models import LiveBattle
from tests.browser.builders import expect, shot
from tests.strategic.builders import small_map

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "Danube-376-crossing"


def _file(data: Any) -> dict[str, Any]:
    return {"name": "map.json", "mimeType": "application/json", "buffer": json.dumps(data).encode()}


def _fill(page: Any, values: dict[str, Any]) -> None:
    """Fill the form fields named by their Django ids (``id_<prefix>-<name>``): text, select by label, checkbox."""
    for name, value in values.items():
        field = page.locator(f"#id_{name}")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(label=str(value))
        elif field.get_attribute("type") == "checkbox":
            field.set_checked(bool(value))
        else:
            field.fill(str(value))


def _sign_up(page: Any, username: str) -> None:
    page.get_by_role("link", name="Sign up").first.click()
    page.locator("#id_username").fill(username)
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.get_by_role("button", name="Create the account").click()
    expect(page.locator(".messages")).to_contain_text(f"Welcome, {username}! Your account is ready.")


def _create_campaign(page: Any) -> None:
    page.locator("#campaign-create-link").click()
    _fill(page, {"new-name_en": "Danube war", "new-name_ru": "Дунайская война", "new-slug": "danube",
                 "new-description": "Rome and the Goths, 376"})
    page.locator("#campaign-create").click()
    expect(page).to_have_url(re.compile(r"/c/danube/setup/$"))


def _maps(page: Any) -> None:
    page.locator("#setup-nav-map").click()
    bad = small_map()
    bad["borders"].append({"a": "dacia", "b": "atlantis"})
    page.locator("#id_map-file").set_input_files(_file(bad))
    page.locator("#map-upload").click()
    expect(page.locator("#map-file-errors")).to_contain_text("borders[2]")
    assert not Province.objects.filter(campaign__slug="danube").exists()
    page.locator("#id_map-file").set_input_files(_file(small_map()))
    page.locator("#map-upload").click()
    expect(page.locator(".messages")).to_contain_text("The map was imported: 3 provinces created")


def _factions(page: Any) -> None:
    page.locator("#setup-nav-factions").click()
    for slug, en, ru, colour, order in (("rome", "Rome", "Рим", "#aa2222", 1), ("goths", "Goths", "Готы", "#2244aa", 2)):
        _fill(page, {"faction-slug": slug, "faction-name_en": en, "faction-name_ru": ru, "faction-color": colour,
                     "faction-turn_order": order})
        page.locator("#faction-create").click()
        expect(page.locator(f"#faction-{slug}")).to_contain_text(en)
    _fill(page, {"relation-a": "Rome", "relation-b": "Goths", "relation-kind": "At war"})
    page.locator("#relation-set").click()
    expect(page.locator("#relation-rome-goths")).to_have_text("Rome — Goths: At war")
    for faction, name in (("Rome", "Valens"), ("Goths", "Fritigern")):
        _fill(page, {"commander-faction": faction, "commander-name": name, "commander-rank": "Faction leader"})
        page.locator("#commander-create").click()
        expect(page.locator("#commander-list")).to_contain_text(name)


def _goths_hold_dalmatia_and_dacia(page: Any) -> None:
    page.locator("#setup-nav-map").click()
    for code, name in (("dalmatia", "Dalmatia"), ("dacia", "Dacia")):
        page.locator(f"#setup-map svg #province-{code}").click()
        expect(page.locator("#province-form h2")).to_contain_text(name)
        _fill(page, {"province-controller": "Goths"})
        page.locator("#province-save").click()
        expect(page.locator(".messages")).to_contain_text(f"Province {name} was saved.")
    assert Province.objects.get(campaign__slug="danube", code="dacia").controller.slug == "goths"


def _unit_cards(page: Any) -> None:
    page.locator("#setup-nav-units").click()
    cards = (("legion", "Legion", "Легион", "Heavy infantry", (4, 3, 3, 3, 2), False),
             ("riders", "Gothic riders", "Готские всадники", "Heavy cavalry", (4, 3, 2, 3, 3), True))
    for code, en, ru, cls, damage, mounted in cards:
        _fill(page, {"card-code": code, "card-name_en": en, "card-name_ru": ru, "card-unit_class": cls,
                     "card-health": 5, "card-mounted": mounted, "card-morale": 11})
        for target, value in zip(("LI1", "LI2", "HI", "LC", "HC"), damage, strict=True):
            page.locator(f"#id_card-damage_{target}").fill(str(value))
        page.locator("#card-create").click()
        expect(page.locator(f"#card-{code}")).to_contain_text(en)


def _armies(page: Any) -> None:
    page.locator("#setup-nav-armies").click()
    for faction, card, province in (("Rome", "Legion", "Gallia"), ("Goths", "Gothic riders", "Dalmatia")):
        _fill(page, {"unit-faction": faction, "unit-unit_type": card, "unit-province": province, "unit-count": 1})
        page.locator("#unit-create").click()
        expect(page.locator(".messages")).to_contain_text(f"1 unit of {faction} was placed in {province}.")
    for faction, slug, commander, army, province in (("Rome", "rome", "Valens", "Army of Thrace", "Gallia"),
                                                     ("Goths", "goths", "Fritigern", "Tervingi", "Dalmatia")):
        page.locator("#army-form label", has_text=f"{faction} · {province} · ").locator("input").first.check()
        page.locator("#id_army-commander").select_option(label=f"{commander} ({faction})")
        page.locator("#id_army-name").fill(army)
        page.locator("#army-create").click()
        expect(page.locator(f"#forces-{slug}")).to_contain_text(army)


def _invitation_links(page: Any) -> list[str]:
    page.locator("#setup-nav-factions").click()
    links = []
    for faction, commander in (("Rome", "Valens (Rome)"), ("Goths", "Fritigern (Goths)")):
        _fill(page, {"invite-role": "Faction leader", "invite-faction": faction, "invite-commander": commander})
        page.locator("#invite-create").click()
        link = page.locator("#invitation-list .invitation-link").first
        expect(link).to_have_value(re.compile(r"/invite/[^/]+/$"))
        links.append(link.input_value())
    return links


def _join(open_page: Any, link: str, username: str) -> Any:
    """A new person opens the link, signs up from it and accepts it."""
    page = open_page(None, "/" + link.split("://", 1)[1].split("/", 1)[1])
    expect(page.locator("h1")).to_have_text("Invitation")
    _sign_up(page, username)
    expect(page).to_have_url(link)
    page.get_by_role("button", name="Accept the invitation").click()
    expect(page.locator(".messages")).to_contain_text("You joined Danube war as Faction leader.")
    return page


def _menu(page: Any, name: str) -> None:
    """Follow an entry of the campaign's menu."""
    page.get_by_role("navigation", name="Campaign").get_by_role("link", name=name, exact=True).click()


def _board_of_my_battle(page: Any) -> None:
    _menu(page, "My battles")
    page.locator(".battle-row").first.get_by_role("link", name="Board").click()


def test_a_moderator_runs_a_campaign_from_nothing_to_the_first_retreat(open_page: Any) -> None:
    moderator = open_page(None, "/")
    _sign_up(moderator, "marcellinus")
    _create_campaign(moderator)
    _maps(moderator)
    _factions(moderator)
    _goths_hold_dalmatia_and_dacia(moderator)
    _unit_cards(moderator)
    _armies(moderator)
    rome_link, goth_link = _invitation_links(moderator)
    rome = _join(open_page, rome_link, "valens")
    goths = _join(open_page, goth_link, "fritigern")
    assert Invitation.objects.filter(campaign__slug="danube", used_at__isnull=False).count() == 2

    # The strategic phase begins; Rome's army enters Dalmatia from Gallia.
    _menu(moderator, "Console")
    moderator.locator("#begin-strategic").click()
    expect(moderator.locator(".messages")).to_contain_text("The strategic phase of turn 1 began: Rome acts first (S4).")
    base = rome_link.split("/invite/")[0]
    rome.goto(base + "/c/danube/")
    _menu(rome, "My turn")
    rome.get_by_role("link", name="Show moves on the map").first.click()
    rome.locator(".dest-button", has_text="Dalmatia").click()
    expect(rome.locator(".messages")).to_contain_text("Dalmatia")
    battle = Battle.objects.get(campaign__slug="danube")
    assert (battle.province.code, battle.terrain, battle.status) == ("dalmatia", "mountains", "pending")

    # The moderator prepares the battle, paints two cells and opens the deployment.
    _menu(moderator, "Battles")
    moderator.locator(f"#battle-{battle.pk}").get_by_role("button", name="Prepare").click()
    expect(moderator.locator("#setup-panel")).to_be_visible()
    for x, y, feature in ((4, 10, "swamp"), (12, 10, "river")):
        moderator.check(f'input[name="paint"][value="{feature}"]')
        moderator.fill("#paint-x", str(x))
        moderator.fill("#paint-y", str(y))
        moderator.get_by_role("button", name="Paint the cell").click()
        expect(moderator.locator(f'#layer-ground [data-feature="{feature}"]').first).to_be_attached()
        expect(moderator.locator("#setup-route")).to_have_text(
            "A passable route between the deployment zones remains (T5).")
    cells = {(c[0], c[1]): c[2] for c in LiveBattle.objects.get(pk=battle.pk).state["cells"]}
    assert (cells[(4, 10)], cells[(12, 10)]) == ("swamp", "river")
    moderator.get_by_role("button", name="Open deployment").click()
    expect(moderator.locator(".msg.success")).to_contain_text("The deployment is open")

    # Both commanders deploy and say they are ready; the Goths concede.
    for page in (rome, goths):
        page.goto(base + "/c/danube/")
        _board_of_my_battle(page)
        expect(page.locator("#action-hint")).to_contain_text("Click a highlighted cell of your rows")
        page.locator('#board [data-kind="deploy"]').first.click()
        expect(page.locator("#btn-ready")).to_be_visible()
        page.locator("#btn-ready").click()
    expect(rome.locator("#status-phase")).to_have_text("Movement", timeout=15000)
    goths.locator("#btn-concede").click()
    goths.locator("#btn-concede").click()
    expect(goths.locator("#board-finished")).to_be_visible(timeout=15000)
    expect(rome.locator("#finished-winner")).to_have_text("Attacker won the battle", timeout=15000)
    shot(rome, "campaign-from-nothing-won")

    # The Goths' leader retreats from Dalmatia to Dacia on the strategic page.
    goths.reload()
    goths.get_by_role("link", name=re.compile("^Retreat of Tervingi")).click()
    goths.get_by_role("button", name="Retreat").click()
    expect(goths.locator(".messages")).to_contain_text("Tervingi retreated")
    tervingi = Army.objects.get(campaign__slug="danube", name="Tervingi")
    assert (tervingi.province.code, tervingi.must_retreat) == ("dacia", False)

    # Anyone reads the result on the public pages.
    visitor = open_page(None, "/c/danube/rosters/goths/")
    expect(visitor.locator(f"#army-{tervingi.pk}")).to_contain_text("Dacia")
    _menu(visitor, "Battles")
    expect(visitor.locator(f"#battle-{battle.pk}")).to_contain_text("Won by the attacker, Rome")
    assert Campaign.objects.get(slug="danube").battles.get().winner == "attacker"
