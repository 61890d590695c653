"""Build the demo campaign from ``campaign.json`` and ``late_roman_map.json`` through the services.

Everything a moderator would do by hand is done here the same way (campaign, factions, relations, the map
import, unit cards, commanders, units, armies, memberships, the end of the economic phase), so the demo's
log reads like a real campaign's. The demo accounts are created only here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from campaign.models import Campaign, Commander, Faction, Membership
from campaign.services import (
    campaign_create,
    commander_create,
    economic_phase_end,
    faction_create,
    membership_set,
    relation_set,
)
from strategic.models import Province, UnitType
from strategic.services.armies import army_create, unit_create
from strategic.services.map import province_update, unit_type_create
from strategic.services.map_file import map_import

DEMO_DIR = Path(__file__).resolve().parent


@cache
def demo_data() -> dict[str, Any]:
    """The demo campaign's data (everything but the map)."""
    return json.loads((DEMO_DIR / "campaign.json").read_text(encoding="utf-8"))


def demo_map() -> dict[str, Any]:
    """The demo map in the import format (a fresh copy each time)."""
    return json.loads((DEMO_DIR / "late_roman_map.json").read_text(encoding="utf-8"))


def demo_campaign() -> Campaign | None:
    """The demo campaign if it has been loaded."""
    return Campaign.objects.filter(slug=demo_data()["campaign"]["slug"]).first()


@dataclass(frozen=True)
class DemoLogin:
    """One demo account: how to log in and what it plays."""

    username: str
    password: str
    role: str
    faction: str = ""
    commander: str = ""


def demo_logins() -> list[DemoLogin]:
    """Every demo account in the order a newcomer would try them: moderator, leaders, commanders, observers."""
    data = demo_data()
    factions = {f["slug"]: f["name_en"] for f in data["factions"]}
    logins = [
        DemoLogin(data["moderator"]["username"], data["moderator"]["password"], Membership.Role.MODERATOR)
    ]
    for rank_is_leader in (True, False):
        for commander in data["commanders"]:
            user = commander["user"]
            if user is None or (commander["rank"] == Commander.Rank.LEADER) != rank_is_leader:
                continue
            role = Membership.Role.LEADER if rank_is_leader else Membership.Role.COMMANDER
            logins.append(
                DemoLogin(
                    user["username"],
                    user["password"],
                    role,
                    factions[commander["faction"]],
                    commander["name"],
                )
            )
    logins += [DemoLogin(o["username"], o["password"], Membership.Role.OBSERVER) for o in data["observers"]]
    return logins


def _user(account: dict[str, str]) -> Any:
    user, _created = get_user_model().objects.get_or_create(username=account["username"])
    # A demo account always has its printed password, even if someone changed it in an earlier demo.
    user.set_password(account["password"])
    user.save()
    return user


def _unit_type_fields(card: dict[str, Any]) -> dict[str, Any]:
    return {
        k: v
        for k, v in card.items()
        if k not in {"code", "name_en", "name_ru", "unit_class", "health", "damage"}
    }


@transaction.atomic
def demo_load() -> Campaign | None:
    """Load the demo campaign once; ``None`` when it is already there."""
    if demo_campaign() is not None:
        return None
    data = demo_data()
    moderator = _user(data["moderator"])
    campaign, provinces = _campaign_load(moderator=moderator, spec=data["campaign"])
    factions = _factions_load(moderator=moderator, campaign=campaign, data=data, provinces=provinces)
    unit_types = _unit_types_load(moderator=moderator, campaign=campaign, cards=data["unit_types"])
    commanders = _commanders_load(moderator=moderator, campaign=campaign, data=data, factions=factions)
    _armies_load(
        moderator=moderator,
        campaign=campaign,
        data=data,
        factions=factions,
        provinces=provinces,
        unit_types=unit_types,
        commanders=commanders,
    )
    # The strategic phase of turn 1 begins with the first faction in turn order (the East), so a battle can
    # be started at once.
    return economic_phase_end(actor=moderator, campaign=campaign)


def _campaign_load(*, moderator: Any, spec: dict[str, Any]) -> tuple[Campaign, dict[str, Province]]:
    """The campaign and its map, imported as a moderator would; returns the provinces by code."""
    campaign = campaign_create(
        actor=moderator,
        slug=spec["slug"],
        name_en=spec["name_en"],
        name_ru=spec["name_ru"],
        description=spec["description"],
    )
    map_import(actor=moderator, campaign=campaign, data=demo_map())
    provinces = {p.code: p for p in Province.objects.filter(campaign=campaign)}
    return campaign, provinces


def _factions_load(
    *, moderator: Any, campaign: Campaign, data: dict[str, Any], provinces: dict[str, Province]
) -> dict[str, Faction]:
    """The factions with their provinces and capitals, then their relations; returns the factions by slug."""
    factions: dict[str, Faction] = {}
    for f in data["factions"]:
        faction = faction_create(
            actor=moderator,
            campaign=campaign,
            slug=f["slug"],
            name_en=f["name_en"],
            name_ru=f["name_ru"],
            color=f["color"],
            turn_order=f["turn_order"],
            naval_capacity=f["naval_capacity"],
        )
        factions[f["slug"]] = faction
        for code in f["provinces"]:
            province_update(actor=moderator, province=provinces[code], controller=faction)
        province_update(actor=moderator, province=provinces[f["capital"]], capital_of=faction)
    for a, b, kind in data["relations"]:
        relation_set(actor=moderator, campaign=campaign, a=factions[a], b=factions[b], kind=kind)
    return factions


def _unit_types_load(
    *, moderator: Any, campaign: Campaign, cards: list[dict[str, Any]]
) -> dict[str, UnitType]:
    """The unit cards; returns them by code."""
    unit_types: dict[str, UnitType] = {}
    for card in cards:
        unit_types[card["code"]] = unit_type_create(
            actor=moderator,
            campaign=campaign,
            code=card["code"],
            name_en=card["name_en"],
            name_ru=card["name_ru"],
            unit_class=card["unit_class"],
            health=card["health"],
            damage=card["damage"],
            **_unit_type_fields(card),
        )
    return unit_types


def _commanders_load(
    *, moderator: Any, campaign: Campaign, data: dict[str, Any], factions: dict[str, Faction]
) -> dict[str, Commander]:
    """The commanders with their accounts' memberships, then the observers; returns commanders by name."""
    commanders: dict[str, Commander] = {}
    for c in data["commanders"]:
        faction = factions[c["faction"]]
        user = _user(c["user"]) if c["user"] else None
        commanders[c["name"]] = commander_create(
            actor=moderator,
            faction=faction,
            name=c["name"],
            rank=c["rank"],
            user=user,
            strategy=c["strategy"],
            tactics=c["tactics"],
            has_luck=c["luck"],
        )
        if user is not None:
            role = Membership.Role.LEADER if c["rank"] == Commander.Rank.LEADER else Membership.Role.COMMANDER
            membership_set(actor=moderator, campaign=campaign, user=user, role=role, faction=faction)
    for observer in data["observers"]:
        membership_set(
            actor=moderator, campaign=campaign, user=_user(observer), role=Membership.Role.OBSERVER
        )
    return commanders


def _armies_load(
    *,
    moderator: Any,
    campaign: Campaign,
    data: dict[str, Any],
    factions: dict[str, Faction],
    provinces: dict[str, Province],
    unit_types: dict[str, UnitType],
    commanders: dict[str, Commander],
) -> None:
    """The armies, each from new units of its province, then the units that stand outside armies."""
    for a in data["armies"]:
        faction, province = factions[a["faction"]], provinces[a["province"]]
        unit_ids = [
            unit_create(
                actor=moderator,
                campaign=campaign,
                faction=faction,
                unit_type=unit_types[code],
                province=province,
                name=name,
            ).pk
            for code, name in a["units"]
        ]
        army_create(
            actor=moderator,
            faction=faction,
            commander=commanders[a["commander"]],
            province=province,
            name=a["name"],
            unit_ids=unit_ids,
        )
    for u in data["new_units"]:
        unit_create(
            actor=moderator,
            campaign=campaign,
            faction=factions[u["faction"]],
            unit_type=unit_types[u["unit_type"]],
            province=provinces[u["province"]],
            name=u["name"],
        )
