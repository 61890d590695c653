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
    """A user without a usable password (hashing is slow; tests log in with ``force_login``)."""

    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = "!"


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
    health = Decimal(5)
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
    province = factory.LazyAttribute(
        lambda o: None if o.army is not None else ProvinceFactory(campaign=o.campaign)
    )
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
    return TerrainTransition.objects.create(
        campaign=source.campaign, source=source, target=target, terrain=terrain
    )


def member(campaign: Campaign, role: str, faction: Faction | None = None, user: Any = None) -> Any:
    """A user with this role in the campaign; returns the user."""
    user = user or UserFactory()
    Membership.objects.create(campaign=campaign, user=user, role=role, faction=faction)
    return user


def build_world() -> Any:
    """A small campaign to play S1–S10 on, the same in every test that uses it.

    Factions in turn order: East (1), West (2), Goths (3), Armenia (4). East and West are at war, East and
    Armenia allied, Armenia and West at war; the Goths are neutral to all.
    Map (borders): dacia–dalmatia, dacia–moesia, dacia–thracia, dacia–pannonia normal; dacia–gaul
    impassable; gaul–dalmatia rough; moesia–italia strait; moesia–armenia normal. Dalmatia is a field, but
    from Gaul the battle is fought in the mountains (S9's example).
    Armies: East's "Danube army" (general Belisarius, 2 units) in Dacia; West's "Field army" (Aetius, 2 units)
    in Dalmatia; the Goths' band (1 unit) in Thracia; Armenia's army (1 unit) in Moesia. Pannonia and Italia
    belong to West and hold no units.
    """
    from types import SimpleNamespace

    w = SimpleNamespace()
    w.campaign = CampaignFactory(slug="limes", name_en="Limes", name_ru="Лимес")
    w.moderator = member(w.campaign, Membership.Role.MODERATOR, user=UserFactory(username="moderator"))
    other = CampaignFactory(slug="other")
    w.other_moderator = member(other, Membership.Role.MODERATOR, user=UserFactory(username="other_moderator"))
    w.outsider = UserFactory(username="outsider")
    w.east = FactionFactory(campaign=w.campaign, slug="east", name_en="Eastern Rome", turn_order=1)
    w.west = FactionFactory(campaign=w.campaign, slug="west", name_en="Western Rome", turn_order=2)
    w.goths = FactionFactory(campaign=w.campaign, slug="goths", name_en="Goths", turn_order=3)
    w.armenia = FactionFactory(campaign=w.campaign, slug="armenia", name_en="Armenia", turn_order=4)
    relation(w.east, w.west, Relation.Kind.WAR)
    relation(w.east, w.armenia, Relation.Kind.ALLIED)
    relation(w.armenia, w.west, Relation.Kind.WAR)

    w.east_leader = member(w.campaign, Membership.Role.LEADER, w.east, UserFactory(username="east_leader"))
    w.east_general = member(
        w.campaign, Membership.Role.COMMANDER, w.east, UserFactory(username="east_general")
    )
    w.west_leader = member(w.campaign, Membership.Role.LEADER, w.west, UserFactory(username="west_leader"))
    w.aspar = CommanderFactory(faction=w.east, name="Aspar", rank=Commander.Rank.LEADER, user=w.east_leader)
    w.belisarius = CommanderFactory(faction=w.east, name="Belisarius", user=w.east_general)
    w.narses = CommanderFactory(faction=w.east, name="Narses")
    w.aetius = CommanderFactory(faction=w.west, name="Aetius", rank=Commander.Rank.LEADER, user=w.west_leader)
    w.alaric = CommanderFactory(faction=w.goths, name="Alaric", rank=Commander.Rank.LEADER)
    w.arsaces = CommanderFactory(faction=w.armenia, name="Arsaces", rank=Commander.Rank.LEADER)
    for faction, leader in (
        (w.east, w.aspar),
        (w.west, w.aetius),
        (w.goths, w.alaric),
        (w.armenia, w.arsaces),
    ):
        faction.leader = leader
        faction.save(update_fields=["leader"])

    def province(code: str, controller: Faction | None, terrain: str = "field", **kw: Any) -> Province:
        return ProvinceFactory(
            campaign=w.campaign, code=code, name_en=code.title(), controller=controller, terrain=terrain, **kw
        )

    w.dacia = province("dacia", w.east, capital_of=w.east)
    w.moesia = province("moesia", w.east)
    w.dalmatia = province("dalmatia", w.west)
    w.gaul = province("gaul", w.west, "forest", capital_of=w.west)
    w.pannonia = province("pannonia", w.west, "desert")
    w.italia = province("italia", w.west)
    w.thracia = province("thracia", w.goths)
    w.armenia_province = province("armenia", w.armenia, "mountains", capital_of=w.armenia)
    border(w.dacia, w.dalmatia)
    border(w.dacia, w.moesia)
    border(w.dacia, w.thracia)
    border(w.dacia, w.pannonia)
    border(w.dacia, w.gaul, Border.Kind.IMPASSABLE)
    border(w.gaul, w.dalmatia, Border.Kind.ROUGH)
    border(w.moesia, w.italia, Border.Kind.STRAIT)
    border(w.moesia, w.armenia_province)
    transition(w.gaul, w.dalmatia, "mountains")

    w.infantry = UnitTypeFactory(campaign=w.campaign, code="heavy-infantry")
    w.archers = UnitTypeFactory(
        campaign=w.campaign, code="archers", unit_class="LI1", health=Decimal(3), missile=True, arrows=4
    )

    def army(faction: Faction, commander: Commander, where: Province, name: str, units: int) -> Army:
        made = ArmyFactory(faction=faction, commander=commander, province=where, name=name)
        for _ in range(units):
            UnitFactory(faction=faction, unit_type=w.infantry, army=made)
        return made

    w.east_army = army(w.east, w.belisarius, w.dacia, "Danube army", 2)
    w.west_army = army(w.west, w.aetius, w.dalmatia, "Field army", 2)
    w.goth_army = army(w.goths, w.alaric, w.thracia, "Gothic band", 1)
    w.armenian_army = army(w.armenia, w.arsaces, w.moesia, "Armenian army", 1)
    return w


def client_for(user: Any = None) -> Any:
    """A DRF test client, logged in as ``user`` when one is given."""
    from rest_framework.test import APIClient

    client = APIClient()
    if user is not None:
        client.force_authenticate(user=user)
    return client


ROLES = ("anonymous", "west_leader", "east_general", "east_leader", "other_moderator", "moderator")
"""The people of the permission matrix: nobody, a player of another faction, the commander of East's army,
East's leader, a moderator of another campaign, this campaign's moderator."""


def user_of(world: Any, role: str) -> Any:
    """The user of a role of ``ROLES`` in ``build_world``."""
    return None if role == "anonymous" else getattr(world, role)
