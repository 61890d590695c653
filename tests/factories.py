"""Shared factory_boy factories for campaigns, factions, the map, armies, units and battles."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import factory
from django.contrib.auth import get_user_model

from campaign.models import Campaign, Commander, Faction, Invitation, Membership, Relation
from strategic.models import Army, Battle, BattleSupport, Border, Province, TerrainTransition, Unit, UnitType

HI_DAMAGE = {"LI1": 3, "LI2": 3, "HI": 3, "LC": 3, "HC": 2}


class UserFactory(factory.django.DjangoModelFactory):
    """A user with the password "pw"."""

    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw")


class CampaignFactory(factory.django.DjangoModelFactory):
    """A public campaign in the economic phase of turn 1."""

    class Meta:
        model = Campaign

    slug = factory.Sequence(lambda n: f"campaign-{n}")
    name_en = factory.Sequence(lambda n: f"Campaign {n}")
    name_ru = factory.Sequence(lambda n: f"Кампания {n}")


class FactionFactory(factory.django.DjangoModelFactory):
    """A faction, acting in the order of creation."""

    class Meta:
        model = Faction

    campaign = factory.SubFactory(CampaignFactory)
    slug = factory.Sequence(lambda n: f"faction-{n}")
    name_en = factory.Sequence(lambda n: f"Faction {n}")
    name_ru = factory.Sequence(lambda n: f"Фракция {n}")
    turn_order = factory.Sequence(lambda n: n)


class CommanderFactory(factory.django.DjangoModelFactory):
    """A general of a faction."""

    class Meta:
        model = Commander

    faction = factory.SubFactory(FactionFactory)
    campaign = factory.LazyAttribute(lambda o: o.faction.campaign)
    name = factory.Sequence(lambda n: f"Commander {n}")


class MembershipFactory(factory.django.DjangoModelFactory):
    """A user's role in a campaign (observer by default)."""

    class Meta:
        model = Membership

    campaign = factory.SubFactory(CampaignFactory)
    user = factory.SubFactory(UserFactory)
    role = Membership.Role.OBSERVER
    faction = None


class InvitationFactory(factory.django.DjangoModelFactory):
    """An unused invitation to observe."""

    class Meta:
        model = Invitation

    campaign = factory.SubFactory(CampaignFactory)
    role = Membership.Role.OBSERVER


class ProvinceFactory(factory.django.DjangoModelFactory):
    """A field province without controller."""

    class Meta:
        model = Province

    campaign = factory.SubFactory(CampaignFactory)
    code = factory.Sequence(lambda n: f"province-{n}")
    name_en = factory.Sequence(lambda n: f"Province {n}")
    name_ru = factory.Sequence(lambda n: f"Провинция {n}")


class UnitTypeFactory(factory.django.DjangoModelFactory):
    """Heavy infantry of the worked example (T12): HI, health 5, 3 against HI."""

    class Meta:
        model = UnitType

    campaign = factory.SubFactory(CampaignFactory)
    code = factory.Sequence(lambda n: f"type-{n}")
    name_en = "Heavy infantry"
    name_ru = "Тяжелая пехота"
    unit_class = "HI"
    health = Decimal("5")
    damage = factory.LazyFunction(lambda: dict(HI_DAMAGE))


class ArmyFactory(factory.django.DjangoModelFactory):
    """An army of a faction, commanded by a new general of that faction."""

    class Meta:
        model = Army

    faction = factory.SubFactory(FactionFactory)
    campaign = factory.LazyAttribute(lambda o: o.faction.campaign)
    commander = factory.SubFactory(CommanderFactory, faction=factory.SelfAttribute("..faction"))
    province = factory.SubFactory(ProvinceFactory, campaign=factory.SelfAttribute("..campaign"))
    name = factory.Sequence(lambda n: f"Army {n}")


class UnitFactory(factory.django.DjangoModelFactory):
    """A unit at full health; in an army when ``army`` is given, else loose in ``province``."""

    class Meta:
        model = Unit

    faction = factory.SubFactory(FactionFactory)
    campaign = factory.LazyAttribute(lambda o: o.faction.campaign)
    unit_type = factory.SubFactory(UnitTypeFactory, campaign=factory.SelfAttribute("..campaign"))
    army = None
    province = factory.LazyAttribute(lambda o: None if o.army is not None else ProvinceFactory(campaign=o.campaign))
    health_halves = factory.LazyAttribute(lambda o: int(o.unit_type.health * 2))
    arrows = factory.LazyAttribute(lambda o: o.unit_type.arrows)


class BattleFactory(factory.django.DjangoModelFactory):
    """A pending battle record."""

    class Meta:
        model = Battle

    attacker_army = factory.SubFactory(ArmyFactory)
    campaign = factory.LazyAttribute(lambda o: o.attacker_army.campaign)
    attacker_faction = factory.LazyAttribute(lambda o: o.attacker_army.faction)
    defender_faction = factory.SubFactory(FactionFactory, campaign=factory.SelfAttribute("..campaign"))
    province = factory.LazyAttribute(lambda o: o.attacker_army.province)
    origin = factory.SubFactory(ProvinceFactory, campaign=factory.SelfAttribute("..campaign"))
    turn = factory.LazyAttribute(lambda o: o.campaign.turn)
    terrain = "field"


class BattleSupportFactory(factory.django.DjangoModelFactory):
    """A declared support."""

    class Meta:
        model = BattleSupport

    side = Battle.Side.ATTACKER


def border(a: Province, b: Province, kind: str = Border.Kind.NORMAL) -> Border:
    """Make two provinces adjacent (stored with a.id < b.id)."""
    low, high = sorted((a, b), key=lambda p: p.pk)
    return Border.objects.create(campaign=a.campaign, a=low, b=high, kind=kind)


def relation(a: Faction, b: Faction, kind: str) -> Relation:
    """Set two factions' relation (stored with a.id < b.id)."""
    low, high = sorted((a, b), key=lambda f: f.pk)
    row, _ = Relation.objects.update_or_create(campaign=a.campaign, a=low, b=high, defaults={"kind": kind})
    return row


def transition(source: Province, target: Province, terrain: str) -> TerrainTransition:
    """An exception of the province relief table (S9)."""
    return TerrainTransition.objects.create(campaign=source.campaign, source=source, target=target, terrain=terrain)


def member(campaign: Campaign, role: str, faction: Faction | None = None, user: Any = None) -> Any:
    """A user with this role in the campaign; returns the user."""
    user = user or UserFactory()
    Membership.objects.create(campaign=campaign, user=user, role=role, faction=faction)
    return user
