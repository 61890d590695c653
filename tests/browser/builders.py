"""Builders of the browser tests: the board's elements, screenshots, and the worked example of T12 set up
through the server's services.

RULES.md T12 stands its units at y = 2..6; a live battle deploys in its own rows first, so the example is
played 6 rows further south: with ``deployment_rows`` 9 the defender holds rows 0..8 and the attacker
12..20. East's heavy infantry (8, 12) and heavy cavalry (9, 12) face north; West's left (7, 8) and right
(8, 8) heavy spearmen face south. The moves are then exactly those of T12 (and of the combat case
``t12_worked_example.json``), shifted by 6 rows.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from campaign.models import Campaign, Commander, Membership, Relation
from strategic.models import Battle, Unit
from tactical.models import LiveBattle
from tactical.services import play as services
from tests.factories import (
    ArmyFactory,
    CampaignFactory,
    CommanderFactory,
    FactionFactory,
    ProvinceFactory,
    UnitFactory,
    UnitTypeFactory,
    UserFactory,
    member,
    relation,
)

SHOTS = Path(os.environ.get("LIMES_SCREENSHOTS", Path(tempfile.gettempdir()) / "limes-board-shots"))

# Card values of T3 / the combat case file.
HEAVY_INFANTRY = {"LI1": 4, "LI2": 3, "HI": 3, "LC": 3, "HC": 2}
HEAVY_CAVALRY = {"LI1": 4, "LI2": 3, "HI": 2, "LC": 3, "HC": 3}
HEAVY_SPEARMEN = {"LI1": 3, "LI2": 2, "HI": 2, "LC": 4, "HC": 4}

DEPLOYMENT = {  # name → (x, y, facing)
    "hi": (8, 12, "N"),
    "hc": (9, 12, "N"),
    "left": (7, 8, "S"),
    "right": (8, 8, "S"),
}


@dataclass
class Example:
    """The campaign, its people and the live battle of the worked example."""

    campaign: Campaign
    moderator: Any
    east_user: Any  # commands the attacking army (Belisarius)
    west_user: Any  # West's leader, commands the defenders (Aetius)
    spectator: Any
    battle: LiveBattle
    units: dict[str, str] = field(default_factory=dict)  # "hi", "hc", "left", "right" → engine id


def example_battle(*, turn_seconds: int = 600, deploy: bool = True, subordinate: bool = False,
                   archers: bool = False) -> Example:
    """The T12 battle in deployment (``deploy=False``) or at round 1, the attacker to act.

    ``subordinate``: West also has Majorian (user "majorian"), Aetius' subordinate, with one unit of
    spearmen at (12, 0), so that the leader can give him orders (T2). ``archers``: East also has archers
    (LI1, 4 arrows, 1 against HI) at (10, 12) facing north, the spearmen in their range (T9).
    """
    campaign = CampaignFactory(slug="t12", name_en="The worked example", name_ru="Разобранный пример")
    campaign.settings = {**campaign.settings, "deployment_rows": 9, "turn_seconds": turn_seconds}
    campaign.save()
    moderator = member(campaign, Membership.Role.MODERATOR, user=UserFactory(username="moderator"))
    east = FactionFactory(campaign=campaign, slug="east", name_en="Eastern Rome", name_ru="Восточный Рим",
                          color="#d9a400", turn_order=1)
    west = FactionFactory(campaign=campaign, slug="west", name_en="Western Rome", name_ru="Западный Рим",
                          color="#e8e8e8", turn_order=2)
    relation(east, west, Relation.Kind.WAR)
    east_user = member(campaign, Membership.Role.COMMANDER, east, UserFactory(username="east"))
    west_user = member(campaign, Membership.Role.LEADER, west, UserFactory(username="west"))
    spectator = UserFactory(username="spectator")
    belisarius = CommanderFactory(faction=east, name="Belisarius", user=east_user)
    aetius = CommanderFactory(faction=west, name="Aetius", rank=Commander.Rank.LEADER, user=west_user)
    west.leader = aetius
    west.save(update_fields=["leader"])
    dacia = ProvinceFactory(campaign=campaign, code="dacia", name_en="Dacia", name_ru="Дакия", controller=east)
    dalmatia = ProvinceFactory(campaign=campaign, code="dalmatia", name_en="Dalmatia", name_ru="Далмация",
                               controller=west)

    def card(code: str, name_en: str, name_ru: str, cls: str, damage: dict[str, int], mounted: bool) -> Any:
        return UnitTypeFactory(campaign=campaign, code=code, name_en=name_en, name_ru=name_ru, unit_class=cls,
                               mounted=mounted, health=Decimal(5), damage=damage)

    infantry = card("heavy-infantry", "Heavy infantry", "Тяжелая пехота", "HI", HEAVY_INFANTRY, False)
    cavalry = card("heavy-cavalry", "Heavy cavalry", "Тяжелая кавалерия", "HC", HEAVY_CAVALRY, True)
    spearmen = card("heavy-spearmen", "Heavy spearmen", "Тяжелые копейщики", "HI", HEAVY_SPEARMEN, False)
    attackers = ArmyFactory(faction=east, commander=belisarius, province=dacia, name="Danube army")
    defenders = ArmyFactory(faction=west, commander=aetius, province=dalmatia, name="Field army")
    made: dict[str, Unit] = {
        "hi": UnitFactory(faction=east, unit_type=infantry, army=attackers, name="Heavy infantry"),
        "hc": UnitFactory(faction=east, unit_type=cavalry, army=attackers, name="Heavy cavalry"),
        "left": UnitFactory(faction=west, unit_type=spearmen, army=defenders, name="Left spearmen"),
        "right": UnitFactory(faction=west, unit_type=spearmen, army=defenders, name="Right spearmen"),
    }
    if archers:
        bows = UnitTypeFactory(campaign=campaign, code="archers", name_en="Archers", name_ru="Лучники",
                               unit_class="LI1", health=Decimal(3), missile=True, arrows=4,
                               damage={"LI1": 1, "LI2": 1, "HI": 1, "LC": 1, "HC": 1})
        made["archers"] = UnitFactory(faction=east, unit_type=bows, army=attackers, name="Archers")
    if subordinate:
        majorian = CommanderFactory(faction=west, name="Majorian",
                                    user=member(campaign, Membership.Role.COMMANDER, west,
                                                UserFactory(username="majorian")))
        reserve = ArmyFactory(faction=west, commander=majorian, province=dalmatia, name="Reserve")
        made["reserve"] = UnitFactory(faction=west, unit_type=spearmen, army=reserve, name="Reserve spearmen")
    record = Battle.objects.create(campaign=campaign, turn=1, province=dalmatia, origin=dacia, terrain="field",
                                   attacker_army=attackers, attacker_faction=east, defender_faction=west)
    live = services.battle_setup(actor=moderator, record=record, map_seed=7)
    cells = [{"x": c["x"], "y": c["y"], "feature": None} for c in _cells(live)]
    if cells:  # an open field, as in T12
        services.battle_map_edit(actor=moderator, battle_id=live.pk, cells=cells)
    example = Example(campaign, moderator, east_user, west_user, spectator, live,
                      {key: f"u{unit.pk}" for key, unit in made.items()})
    if deploy:
        placed = {**DEPLOYMENT, **({"reserve": (12, 0, "S")} if subordinate else {}),
                  **({"archers": (10, 12, "N")} if archers else {})}
        for key, (x, y, facing) in placed.items():
            user = made[key].army.commander.user  # type: ignore[union-attr]
            services.battle_action_apply(actor=user, battle_id=live.pk, action={
                "do": "deploy", "unit": example.units[key], "x": x, "y": y, "facing": facing})
        services.battle_action_apply(actor=east_user, battle_id=live.pk, action={"do": "ready", "side": "attacker"})
        for user in {made[key].army.commander.user for key in made if key not in ("hi", "hc", "archers")}:  # type: ignore[union-attr]
            services.battle_action_apply(actor=user, battle_id=live.pk, action={"do": "ready", "side": "defender"})
    live.refresh_from_db()
    return example


def _cells(battle: LiveBattle) -> list[dict[str, Any]]:
    cells = battle.state.get("cells", [])
    return [{"x": c[0], "y": c[1]} if isinstance(c, list) else c for c in cells]


def expect(target: Any) -> Any:
    """Playwright's ``expect``, imported when a browser test runs."""
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


def unit(page: Any, engine_id: str) -> Any:
    """A unit on the board."""
    return page.locator(f'#board [data-unit="{engine_id}"]')


def cell(page: Any, x: int, y: int) -> Any:
    """A cell of the board."""
    return page.locator(f'#board [data-cell="{x},{y}"]')


def health(page: Any, engine_id: str) -> Any:
    """A unit's health in the list of units."""
    return page.locator(f'#units-list [data-unit-row="{engine_id}"] .row-health')


def shot(page: Any, name: str) -> Path:
    """Save a screenshot for a human to look at (``LIMES_SCREENSHOTS`` or a temporary folder)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


@dataclass(frozen=True)
class Page:
    """A page of the app as someone sees it: ``user`` None for an anonymous visitor."""

    name: str
    path: str
    user: Any


def every_page(ex: Example) -> list[Page]:
    """Every kind of page of the app, on the worked example's campaign, each opened by someone who may see it."""
    slug, live, record = ex.campaign.slug, ex.battle.pk, ex.battle.record_id
    return [
        Page("home", "/", ex.east_user),
        Page("campaign", f"/c/{slug}/", None),
        Page("map", f"/c/{slug}/map/", None),
        Page("rosters", f"/c/{slug}/rosters/", None),
        Page("faction roster", f"/c/{slug}/rosters/east/", None),
        Page("rules", f"/c/{slug}/rules/", None),
        Page("turn", f"/c/{slug}/turn/", ex.east_user),
        Page("after battle", f"/c/{slug}/after-battle/", ex.moderator),
        Page("board", f"/battles/{live}/", ex.east_user),
        Page("audit log", f"/c/{slug}/log/", ex.moderator),
        Page("dice", f"/c/{slug}/battles/{record}/dice/", ex.moderator),
        Page("replay", f"/c/{slug}/battles/{live}/replay/", ex.moderator),
        Page("console", f"/c/{slug}/console/", ex.moderator),
        Page("battle console", f"/c/{slug}/battles/{live}/console/", ex.moderator),
        Page("new campaign", "/campaigns/new/", ex.east_user),
        Page("setup", f"/c/{slug}/setup/", ex.moderator),
        Page("setup map", f"/c/{slug}/setup/map/?province={ex.battle.record.province.code}", ex.moderator),
        Page("setup unit cards", f"/c/{slug}/setup/units/", ex.moderator),
        Page("setup factions", f"/c/{slug}/setup/factions/", ex.moderator),
        Page("setup armies", f"/c/{slug}/setup/armies/", ex.moderator),
        Page("login", "/accounts/login/", None),
        Page("signup", "/accounts/signup/", None),
        Page("account", "/accounts/me/", ex.east_user),
        Page("mail settings", "/accounts/me/mail/", ex.east_user),
        Page("password reset", "/accounts/password/reset/", None),
        Page("notifications", "/notifications/", ex.east_user),
        Page("battle schedule", f"/c/{slug}/battles/{record}/schedule/", ex.moderator),
        Page("webhooks", f"/c/{slug}/console/webhooks/", ex.moderator),
        Page("API docs", "/api/docs/", None),
        Page("not found", f"/c/{slug}/nowhere/", None),
    ]
