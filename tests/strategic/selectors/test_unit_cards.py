"""The unit card (T3) of every page: the same selector, the engine's speed and charge on each terrain (T4, T5, T7.3)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from strategic.selectors.unit_cards import unit_card, unit_cards
from tests.factories import UnitTypeFactory


@pytest.fixture
def cavalry(world: Any) -> Any:
    return UnitTypeFactory(
        campaign=world.campaign, code="horse-archers", name_en="Horse archers", unit_class="LC", mounted=True,
        health=Decimal("3.5"), damage={"LI1": 2, "LI2": 1.5, "HI": 1, "LC": 2, "HC": 1}, missile=True, arrows=6,
        missile_damage={"LI1": 1, "LI2": 1, "HI": 0.5, "LC": 1, "HC": 0.5}, morale=12,
    )


def _speeds(card: Any) -> dict[str, tuple[int, bool]]:
    return {t.terrain: (t.speed, t.charge) for t in card.terrains}


def test_t4_t5_infantry_moves_3_and_2_in_mountains_and_never_charges(world: Any) -> None:
    card = unit_card(world.infantry, campaign=world.campaign)
    assert _speeds(card) == {"field": (3, False), "forest": (3, False), "mountains": (2, False),
                             "desert": (3, False)}


def test_t5_t7_3_cavalry_slows_and_cannot_charge_in_forest_or_mountains(world: Any, cavalry: Any) -> None:
    card = unit_card(cavalry, campaign=world.campaign, terrain="forest")
    assert _speeds(card) == {"field": (6, True), "forest": (5, False), "mountains": (4, False),
                             "desert": (5, True)}
    assert card.terrain is not None and (card.terrain.terrain, card.terrain.speed, card.terrain.charge) == (
        "forest", 5, False)


def test_t3_the_card_reads_damage_volley_arrows_range_and_morale_in_lines(world: Any, cavalry: Any) -> None:
    with translation.override("en"):
        card = unit_card(cavalry, campaign=world.campaign)
    assert (card.class_label, card.mounted, card.health, card.arrows, card.morale) == (
        "Light cavalry", True, "3½", 6, 12)
    assert [(d.unit_class, d.melee, d.volley) for d in card.damage] == [
        ("LI1", "2", "1"), ("LI2", "1½", "1"), ("HI", "1", "½"), ("LC", "2", "1"), ("HC", "1", "½")]
    assert (card.range_forward, card.range_lateral) == (6.5, 5.5)


def test_the_cards_of_a_campaign_are_read_in_one_query(world: Any, cavalry: Any,
                                                       django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(1):
        cards = unit_cards(campaign=world.campaign)
    assert [c.code for c in cards] == ["archers", "heavy-infantry", "horse-archers"]


@pytest.mark.parametrize("path", ["/c/limes/rosters/", "/c/limes/rosters/east/"])
def test_the_roster_pages_show_every_card(world: Any, cavalry: Any, path: str) -> None:
    html = Client().get(path, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-unit-card-type="horse-archers"' in html
    assert '<td data-speed="forest">5</td>' in html
    assert '<td data-charge="mountains">—</td>' in html


def test_the_turn_page_marks_the_terrain_of_the_selected_armys_province(world: Any, cavalry: Any) -> None:
    client = Client()
    client.force_login(world.east_general)
    html = client.get(f"/c/limes/turn/?army={world.east_army.pk}", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Карточки отрядов" in html
    assert '<td data-speed="field" class="current">6</td>' in html


def test_the_kept_cards_follow_an_edited_unit_type_and_each_language(world: Any, cavalry: Any) -> None:
    """The cards' panel is kept for the values it prints: a unit type edited, or another language, and the next
    page draws it anew (T3, Q2)."""
    def morale(**headers: Any) -> tuple[str, bool]:
        html = Client().get("/c/limes/rosters/", **headers).content.decode()
        card = html[html.index('data-unit-card-type="horse-archers"'):]
        value = card[card.index('<dd data-card="morale">') + 23:card.index("</dd>", card.index('data-card="morale"'))]
        return value, "Карточки отрядов" in html

    assert morale(HTTP_ACCEPT_LANGUAGE="en") == ("12", False)
    assert morale(HTTP_ACCEPT_LANGUAGE="en") == ("12", False)  # the kept one
    cavalry.morale = 9
    cavalry.save()
    assert morale(HTTP_ACCEPT_LANGUAGE="en") == ("9", False)
    assert morale(HTTP_ACCEPT_LANGUAGE="ru") == ("9", True)
    assert morale(HTTP_ACCEPT_LANGUAGE="en") == ("9", False)
