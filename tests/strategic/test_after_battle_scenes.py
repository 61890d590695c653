"""Scenes on the demo map shared by the after-battle tests (this module holds helpers, no tests).

The source's example of a retreat (seeds/002, docs/combat-after-battle.md): Camillus attacked Fregellae from
Capua, lost the battle and retreats to Capua, while Valerius, who supported from Velitrae, stands on
friendly ground and stays. On the demo map of ``strategic/demo/``:
- Fregellae → Dacia (held by the Huns, Attila's Host stands there);
- Capua → Moesia (Eastern, where Aspar's Army of Thrace attacks from);
- Velitrae → Dalmatia (Western, the East's ally; the Praesental Army of Theodosius is put there to
  support from next door);
- the Samnites → the Huns, Camillus → Flavius Aspar, Valerius → Theodosius II.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.test import TestCase, override_settings

from campaign.models import Campaign, Faction
from strategic.demo.loader import demo_load
from strategic.models import Army, Battle, Province, Unit
from strategic.services.armies import army_move
from strategic.services.battles import UnitChange, battle_result_apply, battle_support_declare

FAST_HASHER = ["django.contrib.auth.hashers.MD5PasswordHasher"]
SLUG = "fall-of-the-west"
# Refusals said from the catalogue (campaign.refusals), provinces by their names.
R1_1_EN = "This retreat is not allowed (R1.1): the attacker must first retreat into Moesia"
R1_1_RU = "Такое отступление невозможно (R1.1): нападающий должен сначала отступить в провинцию Мёзия"
Q6_RU = ("Быстрый бой невозможен (Q6): при осаде быстрое состязание применяется, только когда нападающий "
         "штурмует город")


def user(username: str) -> Any:
    """A demo account."""
    return get_user_model().objects.get(username=username)


def province(campaign: Campaign, code: str) -> Province:
    """A province of the demo map."""
    return Province.objects.get(campaign=campaign, code=code)


def faction(campaign: Campaign, slug: str) -> Faction:
    """A faction of the demo campaign."""
    return Faction.objects.get(campaign=campaign, slug=slug)


def army(campaign: Campaign, name: str) -> Army:
    """A demo army by name."""
    return Army.objects.get(campaign=campaign, name=name)


def unit(campaign: Campaign, name: str) -> Unit:
    """A demo unit by name."""
    return Unit.objects.get(campaign=campaign, name=name)


def load() -> Campaign:
    """The demo campaign, loaded through the services (turn 1, the East acts)."""
    campaign = demo_load()
    assert campaign is not None
    return campaign


@override_settings(PASSWORD_HASHERS=FAST_HASHER)
class DemoCampaignTestCase(TestCase):
    """Tests on the demo campaign, loaded once per class."""

    campaign: Campaign

    @classmethod
    def setUpTestData(cls) -> None:
        cls.campaign = load()


@dataclass
class Fregellae:
    """The source's example after the battle: Aspar beaten in Dacia, the supporter next door in Dalmatia."""

    campaign: Campaign
    battle: Battle
    thrace: Army
    praesental: Army


def aspar_attacks_dacia(campaign: Campaign, *, with_support: bool = True) -> Battle:
    """The Army of Thrace moves from Moesia into Dacia; the Praesental Army supports from Dalmatia."""
    praesental = army(campaign, "Praesental Army")
    # Test setup: the Praesental Army stands in Dalmatia, on the ally's ground next to the battle.
    Army.objects.filter(pk=praesental.pk).update(province=province(campaign, "dalmatia"))
    outcome = army_move(actor=user("aspar"), army=army(campaign, "Army of Thrace"),
                        destination=province(campaign, "dacia"))
    assert outcome.battle is not None
    if with_support:
        battle_support_declare(actor=user("theodosius"), battle=outcome.battle, army=praesental,
                               side=Battle.Side.ATTACKER)
    return outcome.battle


def fregellae(campaign: Campaign) -> Fregellae:
    """The tactical battle ends as the tactical app ends it: the defender won; Aspar lost 3 of 5 units and
    his survivors are hurt; the supporter lost 2 of 3."""
    battle = aspar_attacks_dacia(campaign)
    routed = ["Equites Promoti", "Lanciarii Iuniores", "Sagittarii Orientales",
              "Ioviani Iuniores", "Legio II Herculia"]
    changes = [UnitChange(unit_id=unit(campaign, n).pk, health_halves=0, routed=True) for n in routed]
    changes += [
        UnitChange(unit_id=unit(campaign, "Legio I Italica").pk, health_halves=6),
        UnitChange(unit_id=unit(campaign, "Scholae Palatinae").pk, health_halves=9),
    ]
    battle_result_apply(battle=battle, winner=Battle.Side.DEFENDER, unit_changes=changes,
                        result={"tactical": True}, reason="T11")
    battle.refresh_from_db()
    return Fregellae(campaign, battle, army(campaign, "Army of Thrace"), army(campaign, "Praesental Army"))
