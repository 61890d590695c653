"""The public roster (S3): every faction's armies and units, always read from the game state.

``roster`` runs a constant number of queries whatever the number of units; ``roster_bbcode`` renders it
for a phpBB-like forum and ``roster_json`` as plain data.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from campaign.models import Campaign, Faction
from strategic.models import Army, Unit

FULL, HALF, EMPTY = "▮", "◧", "▯"


def health_bar(halves: int, max_halves: int) -> str:
    """Lines drawn as ▮ (whole), ◧ (half) and ▯ (lost), as many as the card's lines (T3.1)."""
    slots = max(1, math.ceil(max_halves / 2))
    halves = max(0, min(halves, slots * 2))
    return FULL * (halves // 2) + HALF * (halves % 2) + EMPTY * (slots - halves // 2 - halves % 2)


def lines_text(halves: int) -> str:
    """Half lines as a number a player reads: 7 → "3.5", 6 → "3"."""
    return str(halves // 2) + (".5" if halves % 2 else "")


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


@dataclass(frozen=True)
class ArmyRow:
    """One army: its commander, province and units."""

    id: int
    name: str
    commander: str
    province: str
    province_code: str
    units: list[UnitRow]

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
    armies: list[ArmyRow] = field(default_factory=list)
    loose_units: list[UnitRow] = field(default_factory=list)

    @property
    def unit_count(self) -> int:
        """Units in armies and outside them."""
        return sum(len(a.units) for a in self.armies) + len(self.loose_units)


def _unit_row(unit: Unit, *, with_province: bool) -> UnitRow:
    kind = unit.unit_type
    return UnitRow(
        id=unit.id,
        name=unit.name,
        type_name=kind.name,
        unit_class=kind.unit_class,
        health_halves=unit.health_halves,
        max_health_halves=int(kind.health * 2),
        arrows=unit.arrows,
        max_arrows=kind.arrows,
        shoots=kind.missile,
        province=unit.province.name if with_province and unit.province_id else "",
        in_fortress=unit.in_fortress,
    )


def roster(*, campaign: Campaign, faction: Faction | None = None) -> list[FactionRoster]:
    """The rosters of every faction of ``campaign`` (or of ``faction`` only), in turn order (4 queries)."""
    army_units = Prefetch("units", queryset=Unit.objects.select_related("unit_type").order_by("id"))
    armies = Prefetch(
        "armies",
        queryset=Army.objects.select_related("commander", "province")
        .prefetch_related(army_units)
        .order_by("name", "id"),
    )
    loose = Prefetch(
        "units",
        queryset=Unit.objects.filter(army__isnull=True)
        .select_related("unit_type", "province")
        .order_by("id"),
        to_attr="loose_units",
    )
    factions = (
        Faction.objects.filter(campaign=campaign).select_related("leader").prefetch_related(armies, loose)
    )
    if faction is not None:
        factions = factions.filter(pk=faction.pk)
    result = []
    for f in factions.order_by("turn_order", "slug"):
        result.append(
            FactionRoster(
                id=f.id,
                slug=f.slug,
                name=f.name,
                color=f.color,
                leader=f.leader.name if f.leader else "",
                armies=[
                    ArmyRow(
                        id=a.id,
                        name=a.name,
                        commander=a.commander.name,
                        province=a.province.name,
                        province_code=a.province.code,
                        units=[_unit_row(u, with_province=False) for u in a.units.all()],
                    )
                    for a in f.armies.all()
                ],
                loose_units=[_unit_row(u, with_province=True) for u in f.loose_units],  # type: ignore[attr-defined]
            )
        )
    return result


def _unit_bbcode(u: UnitRow) -> str:
    text = f"[*]{u.label}"
    if u.name:
        text += f" ({u.type_name})"
    text += f": {u.health_bar} {u.health_text}"
    if u.shoots:
        text += " — " + _("arrows") + f" {u.arrows}/{u.max_arrows}"
    if u.province:
        text += " — " + u.province
    if u.in_fortress:
        text += " — " + _("in the fortress city")
    return text


def roster_bbcode(rosters: list[FactionRoster]) -> str:
    """The rosters as BBCode for a phpBB-like forum ([b], [color], [list][*])."""
    blocks = []
    for f in rosters:
        lines = [f"[b][color={f.color}]{f.name}[/color][/b]"]
        if f.leader:
            lines.append(_("Leader: %(name)s") % {"name": f.leader})
        for a in f.armies:
            lines.append(
                f"[b]{a.name}[/b] — "
                + _("commander %(commander)s, %(province)s")
                % {"commander": a.commander, "province": a.province}
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


def roster_json(rosters: list[FactionRoster]) -> dict[str, object]:
    """The rosters as plain JSON data."""
    return {
        "factions": [
            {
                "slug": f.slug,
                "name": f.name,
                "color": f.color,
                "leader": f.leader,
                "armies": [
                    {
                        "id": a.id,
                        "name": a.name,
                        "commander": a.commander,
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
