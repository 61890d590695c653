"""A campaign started from a template (M1): the demo's map, unit cards and factions copied, nothing else."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from campaign.errors import Conflict, Invalid, NotFound
from campaign.messages import TEMPLATE_NOT_EMPTY
from campaign.models import Campaign, Faction, LogEntry
from campaign.services import campaign_create, faction_create
from strategic.demo.loader import demo_load
from strategic.models import Army, Province, Unit, UnitType
from strategic.services import map_file
from strategic.services.campaign_copy import campaign_copy_from

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo() -> Campaign:
    campaign = demo_load()
    assert campaign is not None
    return campaign


@pytest.fixture
def author() -> Any:
    return get_user_model().objects.create_user("author")


@pytest.fixture
def fresh(author: Any) -> Campaign:
    return campaign_create(actor=author, slug="fresh", name_en="Fresh", name_ru="Новая")


def test_the_copy_has_the_demo_map_exactly(demo: Campaign, author: Any, fresh: Campaign) -> None:
    campaign_copy_from(actor=author, campaign=fresh, source=demo)
    assert map_file.map_export(campaign=fresh) == map_file.map_export(campaign=demo)


def test_the_copy_has_the_unit_cards(demo: Campaign, author: Any, fresh: Campaign) -> None:
    campaign_copy_from(actor=author, campaign=fresh, source=demo)
    fields = ("code", "name_en", "name_ru", "unit_class", "mounted", "health", "damage", "missile", "arrows",
              "missile_damage", "morale")
    assert list(UnitType.objects.filter(campaign=fresh).order_by("code").values_list(*fields)) == list(
        UnitType.objects.filter(campaign=demo).order_by("code").values_list(*fields)
    )


def test_the_copy_has_the_factions_with_their_provinces_and_capitals(
    demo: Campaign, author: Any, fresh: Campaign
) -> None:
    campaign_copy_from(actor=author, campaign=fresh, source=demo)

    def factions(c: Campaign) -> list[tuple[Any, ...]]:
        return list(Faction.objects.filter(campaign=c).order_by("slug").values_list(
            "slug", "name_en", "name_ru", "color", "turn_order", "naval_capacity"))

    def holdings(c: Campaign) -> list[tuple[Any, ...]]:
        return list(Province.objects.filter(campaign=c).order_by("code").values_list(
            "code", "controller__slug", "capital_of__slug"))

    assert (factions(fresh), holdings(fresh)) == (factions(demo), holdings(demo))


def test_the_copy_takes_no_armies_units_commanders_or_leaders(demo: Campaign, author: Any, fresh: Campaign) -> None:
    campaign_copy_from(actor=author, campaign=fresh, source=demo)
    counts = (Army.objects.filter(campaign=fresh).count(), Unit.objects.filter(campaign=fresh).count(),
              fresh.commanders.count(), Faction.objects.filter(campaign=fresh, leader__isnull=False).count())
    assert counts == (0, 0, 0, 0)


def test_the_copy_is_one_log_entry_naming_the_source(demo: Campaign, author: Any, fresh: Campaign) -> None:
    campaign_copy_from(actor=author, campaign=fresh, source=demo)
    entry = LogEntry.objects.get(campaign=fresh, kind="campaign_copied")
    assert (entry.actor, entry.rule, entry.data["source"], entry.data["provinces"]) == (
        author, "M1", demo.slug, Province.objects.filter(campaign=demo).count()
    )


def test_a_campaign_with_a_faction_is_not_copied_into(demo: Campaign, author: Any, fresh: Campaign) -> None:
    faction_create(actor=author, campaign=fresh, slug="mine", name_en="Mine", name_ru="Моя")
    with pytest.raises(Conflict) as refused:
        campaign_copy_from(actor=author, campaign=fresh, source=demo)
    assert (refused.value.message, refused.value.errors) == (
        str(TEMPLATE_NOT_EMPTY), {"template": [str(TEMPLATE_NOT_EMPTY)]}
    )
    assert Province.objects.filter(campaign=fresh).count() == 0


def test_a_private_campaign_of_others_is_no_template(demo: Campaign, author: Any, fresh: Campaign) -> None:
    Campaign.objects.filter(pk=demo.pk).update(is_public=False)
    demo.refresh_from_db()
    with pytest.raises(NotFound):
        campaign_copy_from(actor=author, campaign=fresh, source=demo)


def test_a_campaign_is_not_copied_into_itself(author: Any, fresh: Campaign) -> None:
    with pytest.raises(Invalid):
        campaign_copy_from(actor=author, campaign=fresh, source=fresh)


def test_only_the_moderator_of_the_new_campaign_copies(demo: Campaign, fresh: Campaign) -> None:
    from campaign.errors import Forbidden

    stranger = get_user_model().objects.create_user("stranger")
    with pytest.raises(Forbidden):
        campaign_copy_from(actor=stranger, campaign=fresh, source=demo)
