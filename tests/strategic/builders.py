"""Builders shared by the strategic tests: the after-battle scenes on the demo map, a small map file, threads
released together, and the strategic API's write endpoints with the roles allowed to use them.

The after-battle scenes play the source's example of a retreat (seeds/002, docs/combat-after-battle.md):
Camillus attacked Fregellae from Capua, lost the battle and retreats to Capua, while Valerius, who supported
from Velitrae, stands on friendly ground and stays. On the demo map of ``strategic/demo/``:
- Fregellae → Dacia (held by the Huns, Attila's Host stands there);
- Capua → Moesia (Eastern, where Aspar's Army of Thrace attacks from);
- Velitrae → Dalmatia (Western, the East's ally; the Praesental Army of Theodosius is put there to
  support from next door);
- the Samnites → the Huns, Camillus → Flavius Aspar, Valerius → Theodosius II.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.test import TestCase, override_settings

from campaign.models import Campaign, Faction
from campaign.services import economic_phase_end
from strategic.demo.loader import demo_load
from strategic.models import Army, Battle, Province, Unit
from strategic.services import moves
from strategic.services.battles import UnitChange, battle_result_apply, battle_support_declare
from strategic.services.moves import army_move
from tests.factories import ArmyFactory, UnitFactory

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


def small_map() -> dict[str, Any]:
    """Three provinces in a row and a strait, with one S9 exception."""
    return {
        "format": "limes-map",
        "version": 1,
        "provinces": [
            {
                "code": "gallia",
                "name_en": "Gallia",
                "name_ru": "Галлия",
                "terrain": "field",
                "x": 200,
                "y": 300,
            },
            {
                "code": "dalmatia",
                "name_en": "Dalmatia",
                "name_ru": "Далмация",
                "terrain": "field",
                "x": 500,
                "y": 300,
                "port": True,
                "fortress": True,
                "fortress_capacity": 4,
            },
            {
                "code": "dacia",
                "name_en": "Dacia",
                "name_ru": "Дакия",
                "terrain": "forest",
                "x": 800,
                "y": 300,
                "tribe": True,
            },
        ],
        "borders": [{"a": "gallia", "b": "dalmatia", "kind": "rough"}, {"a": "dacia", "b": "dalmatia"}],
        "transitions": [{"from": "gallia", "to": "dalmatia", "terrain": "mountains"}],
    }


def race(calls: list[Any]) -> list[Any]:
    """Run the calls in threads released together; return each one's result or exception."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        barrier.wait()
        try:
            results[index] = calls[index]()
        except Exception as error:  # noqa: BLE001 - the test inspects what each thread got
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


# The strategic API's write endpoints on build_world's campaign: (name, the request, the roles allowed).
MODERATOR = {"moderator"}
LEADER = {"east_leader", "moderator"}
COMMAND = {"east_general", "east_leader", "moderator"}

Request = tuple[str, str, dict[str, Any] | None]
C = "/api/campaigns/limes"  # the API of build_world's campaign
DAMAGE = {"LI1": 1, "LI2": 1, "HI": 1, "LC": 1, "HC": 1}


def _loose_unit(w: Any) -> Unit:
    return UnitFactory(faction=w.east, unit_type=w.infantry, province=w.dacia)


def army_unit_ids(w: Any) -> list[int]:
    """The ids of the units of East's Danube army, in order."""
    return sorted(Unit.objects.filter(army=w.east_army).values_list("pk", flat=True))


def _second_army(w: Any) -> Army:
    army = ArmyFactory(faction=w.east, commander=w.narses, province=w.dacia, name="Second army")
    UnitFactory(faction=w.east, unit_type=w.infantry, army=army)
    return army


def move_request(w: Any) -> Request:
    """The strategic phase begins; the Danube army's move to Moesia."""
    economic_phase_end(actor=w.moderator, campaign=w.campaign)
    return "post", f"{C}/armies/{w.east_army.pk}/move/", {"destination": w.moesia.pk}


def _support(w: Any) -> Request:
    # Belisarius' army supports, from Dacia, an attack of Narses' army on Dalmatia.
    economic_phase_end(actor=w.moderator, campaign=w.campaign)
    raid = moves.army_move(actor=w.moderator, army=_second_army(w), destination=w.dalmatia)
    assert raid.battle is not None
    return "post", f"{C}/battles/{raid.battle.pk}/support/", {"army": w.east_army.pk, "side": "attacker"}


ENDPOINTS: list[tuple[str, Callable[[Any], Request], set[str]]] = [
    # the map and the unit cards are the moderator's (M1)
    (
        "unit type create",
        lambda w: (
            "post",
            f"{C}/unit-types/",
            {
                "code": "spearmen",
                "name_en": "Spearmen",
                "name_ru": "Копейщики",
                "unit_class": "HI",
                "health": 5,
                "damage": DAMAGE,
            },
        ),
        MODERATOR,
    ),
    ("unit type update", lambda w: ("patch", f"{C}/unit-types/{w.infantry.pk}/", {"morale": 12}), MODERATOR),
    (
        "province create",
        lambda w: (
            "post",
            f"{C}/provinces/",
            {"code": "noricum", "name_en": "Noricum", "name_ru": "Норик", "terrain": "mountains"},
        ),
        MODERATOR,
    ),
    (
        "province update",
        lambda w: ("patch", f"{C}/provinces/{w.italia.pk}/", {"controller": w.east.pk, "reason": "treaty"}),
        MODERATOR,
    ),
    (
        "border set",
        lambda w: ("post", f"{C}/borders/", {"a": w.gaul.pk, "b": w.italia.pk, "kind": "rough"}),
        MODERATOR,
    ),
    (
        "transition set",
        lambda w: (
            "post",
            f"{C}/transitions/",
            {"source": w.dacia.pk, "target": w.pannonia.pk, "terrain": "forest"},
        ),
        MODERATOR,
    ),
    # new units appear in the economic phase by the moderator's hand (S4)
    (
        "unit create",
        lambda w: ("post", f"{C}/units/", {"faction": w.east.pk, "unit_type": w.infantry.pk}),
        MODERATOR,
    ),
    # placing units into armies, forming, splitting, merging, commanders: the leader (S2)
    (
        "unit assign",
        lambda w: ("post", f"{C}/units/{_loose_unit(w).pk}/assign/", {"army": w.east_army.pk}),
        LEADER,
    ),
    (
        "army create",
        lambda w: (
            "post",
            f"{C}/armies/",
            {
                "faction": w.east.pk,
                "commander": w.narses.pk,
                "province": w.dacia.pk,
                "name": "New army",
                "unit_ids": [_loose_unit(w).pk],
            },
        ),
        LEADER,
    ),
    (
        "army split",
        lambda w: (
            "post",
            f"{C}/armies/{w.east_army.pk}/split/",
            {"unit_ids": army_unit_ids(w)[:1], "name": "Vanguard"},
        ),
        LEADER,
    ),
    (
        "army merge",
        lambda w: ("post", f"{C}/armies/{w.east_army.pk}/merge/", {"into": _second_army(w).pk}),
        LEADER,
    ),
    (
        "army commander",
        lambda w: ("post", f"{C}/armies/{w.east_army.pk}/commander/", {"commander": w.narses.pk}),
        LEADER,
    ),
    # moving: the army's commander too (S5)
    ("army move", move_request, COMMAND),
    ("battle support", _support, COMMAND),
]
