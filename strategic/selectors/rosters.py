"""The public roster (S3): every faction's armies and units, always read from the game state.

``roster`` runs a constant number of queries whatever the number of units; ``roster_bbcode`` renders it
for a phpBB-like forum and ``roster_json`` as plain data. ``roster_index`` is the short form of the index
page: one line per faction, so no page has to carry every unit of a big campaign.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Sum
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaign.models import Campaign, Faction
from campaign.textexport import bbcode_text
from strategic.models import Army, Unit

FULL, HALF, EMPTY = "▮", "◧", "▯"


def health_bar(halves: int, max_halves: int) -> str:
    """Lines drawn as ▮ (whole), ◧ (half) and ▯ (lost), as many as the card's lines (T3.1)."""
    slots = max(1, math.ceil(max_halves / 2))
    halves = max(0, min(halves, slots * 2))
    return FULL * (halves // 2) + HALF * (halves % 2) + EMPTY * (slots - halves // 2 - halves % 2)


def lines_text(halves: int) -> str:
    """Half lines as lines a player reads, the same on every page (T3.1): 7 → "3½", 1 → "½", 6 → "3";
    a routed unit (0 or less) → "0"."""
    if halves <= 0:
        return "0"
    whole = str(halves // 2) if halves >= 2 else ""
    return whole + ("½" if halves % 2 else "")


@dataclass(frozen=True)
class UnitRow:
    """One unit as the roster shows it."""

    id: int
    name: str
    type_name: str
    unit_class: str
    health_halves: int
    max_health_halves: int
    arrows: int
    max_arrows: int
    shoots: bool
    province: str = ""
    in_fortress: bool = False

    @property
    def health_bar(self) -> str:
        """The health lines, e.g. ▮▮▮◧▯."""
        return health_bar(self.health_halves, self.max_health_halves)

    @property
    def health_text(self) -> str:
        """Health as "3.5/5"."""
        return f"{lines_text(self.health_halves)}/{lines_text(self.max_health_halves)}"

    @property
    def health_cells(self) -> list[str]:
        """The health lines as "full", "half" or "empty", for drawing."""
        names = {FULL: "full", HALF: "half", EMPTY: "empty"}
        return [names[c] for c in self.health_bar]

    @property
    def arrows_cells(self) -> list[str]:
        """Arrows as "full" (left) or "empty" (shot)."""
        return ["full" if c == FULL else "empty" for c in self.arrows_bar]

    @property
    def arrows_bar(self) -> str:
        """Arrows left, one mark each."""
        return FULL * min(self.arrows, self.max_arrows) + EMPTY * max(0, self.max_arrows - self.arrows)

    @property
    def label(self) -> str:
        """The unit's name, or its type when it has none."""
        return self.name or self.type_name

    @property
    def numbered_label(self) -> str:
        """The unit's name, or its type and number when it has none (as ``Unit`` prints itself): a list to
        choose units from tells two unnamed units of one type apart."""
        return self.name or f"{self.type_name} #{self.id}"


@dataclass(frozen=True)
class Captor:
    """The faction holding a commander captive (Q5): its slug and its name in the reader's language."""

    slug: str
    name: str


def captive_name(name: str, captor: Captor | None) -> str:
    """A commander's name as plain text, marked when he is held captive (Q5)."""
    return name + " " + _("(captured)") if captor is not None else name


@dataclass(frozen=True)
class ArmyRow:
    """One army: its commander (and who holds him, Q5), province and units."""

    id: int
    name: str
    commander: str
    province: str
    province_code: str
    units: list[UnitRow]
    commander_captor: Captor | None = None

    @property
    def health_halves(self) -> int:
        """The army's total health in half lines."""
        return sum(u.health_halves for u in self.units)


@dataclass(frozen=True)
class FactionRoster:
    """A faction's public roster."""

    id: int
    slug: str
    name: str
    color: str
    leader: str
    leader_captor: Captor | None = None
    armies: list[ArmyRow] = field(default_factory=list)
    loose_units: list[UnitRow] = field(default_factory=list)

    @property
    def unit_count(self) -> int:
        """Units in armies and outside them."""
        return sum(len(a.units) for a in self.armies) + len(self.loose_units)


def _picker() -> Callable[[str, str], str]:
    """Chooses a bilingual name as ``BilingualName.name`` does, for rows read with ``values()``."""
    if (get_language() or "en").startswith("ru"):
        return lambda en, ru: ru or en
    return lambda en, ru: en


CAPTOR_FIELDS = ("slug", "name_en", "name_ru")


def _captor(row: dict[str, Any], prefix: str, pick: Callable[[str, str], str]) -> Captor | None:
    """The captor read in the same row as its commander (``<prefix>__captured_by__slug`` and names)."""
    slug = row[f"{prefix}__captured_by__slug"]
    if slug is None:
        return None
    return Captor(slug, pick(row[f"{prefix}__captured_by__name_en"], row[f"{prefix}__captured_by__name_ru"]))


def _captor_fields(prefix: str) -> list[str]:
    return [f"{prefix}__captured_by__{name}" for name in CAPTOR_FIELDS]


UNIT_FIELDS = (
    "id",
    "faction_id",
    "army_id",
    "name",
    "health_halves",
    "arrows",
    "in_fortress",
    "unit_type__name_en",
    "unit_type__name_ru",
    "unit_type__unit_class",
    "unit_type__health",
    "unit_type__arrows",
    "unit_type__missile",
    "province__name_en",
    "province__name_ru",
)


def _unit_row(u: dict[str, Any], pick: Callable[[str, str], str]) -> UnitRow:
    return UnitRow(
        id=u["id"],
        name=u["name"],
        type_name=pick(u["unit_type__name_en"], u["unit_type__name_ru"]),
        unit_class=u["unit_type__unit_class"],
        health_halves=u["health_halves"],
        max_health_halves=int(u["unit_type__health"] * 2),
        arrows=u["arrows"],
        max_arrows=u["unit_type__arrows"],
        shoots=u["unit_type__missile"],
        province=pick(u["province__name_en"], u["province__name_ru"]) if u.get("province__name_en") else "",
        in_fortress=u["in_fortress"],
    )


def roster(*, campaign: Campaign, faction: Faction | None = None) -> list[FactionRoster]:
    """The rosters of every faction of ``campaign`` (or of ``faction`` only), in turn order (3 queries).

    Rows are read as plain values, not model instances: building thousands of instances with their related
    objects was most of the time of a big roster.
    """
    pick = _picker()
    result = _factions_read(campaign=campaign, faction=faction, pick=pick)
    if not result:
        return []
    armies = _armies_read(rosters=result, pick=pick)
    _units_read(rosters=result, armies=armies, pick=pick)
    return list(result.values())


def _factions_read(
    *, campaign: Campaign, faction: Faction | None, pick: Callable[[str, str], str]
) -> dict[int, FactionRoster]:
    """The factions' rosters with their leaders, armies and units still empty, in turn order (1 query)."""
    factions = Faction.objects.filter(campaign=campaign)
    if faction is not None:
        factions = factions.filter(pk=faction.pk)
    return {
        f["id"]: FactionRoster(
            id=f["id"],
            slug=f["slug"],
            name=pick(f["name_en"], f["name_ru"]),
            color=f["color"],
            leader=f["leader__name"] or "",
            leader_captor=_captor(f, "leader", pick),
        )
        for f in factions.order_by("turn_order", "slug").values(
            "id", "slug", "name_en", "name_ru", "color", "leader__name", *_captor_fields("leader")
        )
    }


def _armies_read(*, rosters: dict[int, FactionRoster], pick: Callable[[str, str], str]) -> dict[int, ArmyRow]:
    """The factions' armies, by name, added to their rosters; returns them by id (1 query)."""
    armies: dict[int, ArmyRow] = {}
    for a in (
        Army.objects.filter(faction_id__in=list(rosters))
        .order_by("name", "id")
        .values(
            "id",
            "faction_id",
            "name",
            "commander__name",
            "province__name_en",
            "province__name_ru",
            "province__code",
            *_captor_fields("commander"),
        )
    ):
        row = ArmyRow(
            id=a["id"],
            name=a["name"],
            commander=a["commander__name"],
            province=pick(a["province__name_en"], a["province__name_ru"]),
            province_code=a["province__code"],
            units=[],
            commander_captor=_captor(a, "commander", pick),
        )
        armies[row.id] = row
        rosters[a["faction_id"]].armies.append(row)
    return armies


def _units_read(
    *, rosters: dict[int, FactionRoster], armies: dict[int, ArmyRow], pick: Callable[[str, str], str]
) -> None:
    """The factions' units, by id, added to their armies or to the units outside armies (1 query)."""
    units = Unit.objects.filter(faction_id__in=list(rosters)).order_by("id").values(*UNIT_FIELDS)
    for u in units:
        if u["army_id"] is None:
            rosters[u["faction_id"]].loose_units.append(_unit_row(u, pick))
        elif u["army_id"] in armies:
            armies[u["army_id"]].units.append(_unit_row(u, pick))


def army_units(*, army_ids: list[int]) -> dict[int, list[UnitRow]]:
    """The units of these armies as rows, by army id, each list by unit id (1 query; every id is a key)."""
    pick = _picker()
    result: dict[int, list[UnitRow]] = {pk: [] for pk in army_ids}
    # A unit in an army stands in no province of its own (``unit_in_army_or_province``): no province to join.
    fields = [name for name in UNIT_FIELDS if not name.startswith("province__")]
    for u in Unit.objects.filter(army_id__in=army_ids).order_by("id").values(*fields):
        result[u["army_id"]].append(_unit_row(u, pick))
    return result


@dataclass(frozen=True)
class FactionSummary:
    """A faction as the roster index shows it: how many armies and units, and their health together."""

    slug: str
    name: str
    color: str
    leader: str
    armies: int
    units: int
    health_halves: int
    max_health_halves: int
    leader_captor: Captor | None = None

    @property
    def health_text(self) -> str:
        """Health of all the units as "742.5/750" lines."""
        return f"{lines_text(self.health_halves)}/{lines_text(self.max_health_halves)}"


def roster_index(*, campaign: Campaign) -> list[FactionSummary]:
    """Every faction of ``campaign`` in turn order with its counts and total health (3 queries)."""
    pick = _picker()
    army_counts = dict(
        Army.objects.filter(campaign=campaign)
        .values("faction_id")
        .annotate(n=Count("id"))
        .order_by()
        .values_list("faction_id", "n")
    )
    unit_totals = {
        row["faction_id"]: row
        for row in Unit.objects.filter(campaign=campaign)
        .values("faction_id")
        .annotate(n=Count("id"), health=Sum("health_halves"), max_health=Sum("unit_type__health"))
        .order_by()
    }
    result = []
    for f in (
        Faction.objects.filter(campaign=campaign)
        .order_by("turn_order", "slug")
        .values("id", "slug", "name_en", "name_ru", "color", "leader__name", *_captor_fields("leader"))
    ):
        totals = unit_totals.get(f["id"], {})
        result.append(
            FactionSummary(
                slug=f["slug"],
                name=pick(f["name_en"], f["name_ru"]),
                color=f["color"],
                leader=f["leader__name"] or "",
                leader_captor=_captor(f, "leader", pick),
                armies=army_counts.get(f["id"], 0),
                units=totals.get("n", 0),
                health_halves=totals.get("health") or 0,
                max_health_halves=int((totals.get("max_health") or 0) * 2),
            )
        )
    return result


def _unit_bbcode(u: UnitRow) -> str:
    text = f"[*]{bbcode_text(u.label)}"
    if u.name:
        text += f" ({bbcode_text(u.type_name)})"
    text += f": {u.health_bar} {u.health_text}"
    if u.shoots:
        text += " — " + _("arrows") + f" {u.arrows}/{u.max_arrows}"
    if u.province:
        text += " — " + bbcode_text(u.province)
    if u.in_fortress:
        text += " — " + _("in the fortress city")
    return text


def roster_bbcode(rosters: list[FactionRoster]) -> str:
    """The rosters as BBCode for a phpBB-like forum ([b], [color], [list][*]); every name through
    ``bbcode_text``, so that no name opens or closes a tag."""
    blocks = []
    for f in rosters:
        lines = [f"[b][color={bbcode_text(f.color)}]{bbcode_text(f.name)}[/color][/b]"]
        if f.leader:
            leader = captive_name(f.leader, f.leader_captor)
            lines.append(_("Leader: %(name)s") % {"name": bbcode_text(leader)})
        for a in f.armies:
            lines.append(
                f"[b]{bbcode_text(a.name)}[/b] — "
                + _("commander %(commander)s, %(province)s")
                % {
                    "commander": bbcode_text(captive_name(a.commander, a.commander_captor)),
                    "province": bbcode_text(a.province),
                }
            )
            if a.units:
                lines.append("[list]")
                lines.extend(_unit_bbcode(u) for u in a.units)
                lines.append("[/list]")
            else:
                lines.append(_("no units"))
        if f.loose_units:
            lines.append("[b]" + _("Outside armies") + "[/b]")
            lines.append("[list]")
            lines.extend(_unit_bbcode(u) for u in f.loose_units)
            lines.append("[/list]")
        if not f.armies and not f.loose_units:
            lines.append(_("no units"))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def _unit_json(u: UnitRow) -> dict[str, object]:
    data: dict[str, object] = {
        "id": u.id,
        "name": u.name,
        "type": u.type_name,
        "class": u.unit_class,
        "health": u.health_halves / 2,
        "max_health": u.max_health_halves / 2,
        "arrows": u.arrows,
        "max_arrows": u.max_arrows,
    }
    if u.province:
        data["province"] = u.province
        data["in_fortress"] = u.in_fortress
    return data


def _captor_json(captor: Captor | None) -> dict[str, str] | None:
    return {"slug": captor.slug, "name": captor.name} if captor is not None else None


def roster_json(rosters: list[FactionRoster]) -> dict[str, object]:
    """The rosters as plain JSON data; a captive leader or commander (Q5) has his captor, else null."""
    return {
        "factions": [
            {
                "slug": f.slug,
                "name": f.name,
                "color": f.color,
                "leader": f.leader,
                "leader_captured_by": _captor_json(f.leader_captor),
                "armies": [
                    {
                        "id": a.id,
                        "name": a.name,
                        "commander": a.commander,
                        "commander_captured_by": _captor_json(a.commander_captor),
                        "province": a.province,
                        "province_code": a.province_code,
                        "units": [_unit_json(u) for u in a.units],
                    }
                    for a in f.armies
                ],
                "units_outside_armies": [_unit_json(u) for u in f.loose_units],
            }
            for f in rosters
        ]
    }
