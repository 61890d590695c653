"""Reads of the strategic map: adjacency, who stands where, legal destinations, battlefield terrain."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, Q, QuerySet, Subquery
from django.utils import timezone

from campaign.models import Campaign, Faction, Relation
from campaign.selectors import relations_map
from strategic.models import Army, Battle, Border, Province, TerrainTransition, Unit


@dataclass(frozen=True)
class Destination:
    """A province an army may enter (S5) and what entering it would do."""

    province: Province
    kind: str  # "move" | "capture" | "battle"
    terrain: str  # the battlefield terrain should a battle begin (S9)
    border: str  # the border kind crossed


def battlefield_terrain(*, source: Province, target: Province) -> str:
    """S9: the transition table's terrain for (source, target), else the terrain of the province entered."""
    terrain = (
        TerrainTransition.objects.filter(source=source, target=target)
        .values_list("terrain", flat=True)
        .first()
    )
    return terrain or target.terrain


def border_between(*, a: Province, b: Province) -> Border | None:
    """The border of two provinces, if they are adjacent on the map."""
    low, high = sorted((a.pk, b.pk))
    return Border.objects.filter(a_id=low, b_id=high).first()


def neighbours(*, province: Province) -> list[tuple[Province, str]]:
    """Adjacent provinces with the kind of each border, impassable ones included."""
    borders = Border.objects.filter(Q(a=province) | Q(b=province)).select_related("a", "b")
    result = [(border.b if border.a_id == province.pk else border.a, border.kind) for border in borders]
    return sorted(result, key=lambda pair: pair[0].code)


def units_in_province(*, province: Province) -> QuerySet[Unit]:
    """Every unit standing in the province: in armies there and outside any army (garrisons, new units)."""
    # An id subquery rather than a join on armies: both halves then use their foreign-key indexes.
    return Unit.objects.filter(
        Q(province=province) | Q(army_id__in=Army.objects.filter(province=province).values("pk"))
    )


def armies_in_province(*, province: Province) -> QuerySet[Army]:
    """Armies standing in the province."""
    return Army.objects.filter(province=province).select_related("faction", "commander")


def unit_counts_by_faction(*, province: Province) -> dict[int, int]:
    """How many units of each faction stand in the province."""
    counts: dict[int, int] = {}
    for faction_id in units_in_province(province=province).values_list("faction_id", flat=True):
        counts[faction_id] = counts.get(faction_id, 0) + 1
    return counts


def units_of_faction(*, faction: Faction) -> QuerySet[Unit]:
    """A faction's units with their army and type."""
    return Unit.objects.filter(faction=faction).select_related("army", "province", "unit_type")


def unresolved_battle_in(*, province: Province) -> Battle | None:
    """A battle in the province that has not been resolved yet."""
    return Battle.objects.filter(province=province).exclude(status=Battle.Status.RESOLVED).first()


def army_in_unresolved_battle(*, army: Army) -> Battle | None:
    """The unresolved battle the army attacks in, supports, or stands in."""
    return (
        Battle.objects.exclude(status=Battle.Status.RESOLVED)
        .filter(Q(attacker_army=army) | Q(supports__army=army) | Q(province_id=army.province_id))
        .first()
    )


@dataclass(frozen=True)
class MoveFacts:
    """What the checks of a move read from the database, in one query (S5, S7, S8)."""

    in_battle: bool  # the army is in an unresolved battle (as ``army_in_unresolved_battle``)
    border: str | None  # the kind of the border to the destination, None if not adjacent
    battle_pending: bool  # an unresolved battle in the destination (as ``unresolved_battle_in``)


def move_facts(*, army: Army, destination: Province) -> MoveFacts:
    """The battle and border facts an army move checks, as one query instead of three."""
    unresolved = Battle.objects.exclude(status=Battle.Status.RESOLVED)
    in_battle = unresolved.filter(
        Q(attacker_army_id=army.pk) | Q(supports__army_id=army.pk) | Q(province_id=army.province_id)
    )
    low, high = sorted((army.province_id, destination.pk))
    in_battle_row, border, pending = (
        Army.objects.filter(pk=army.pk)
        .values_list(
            Exists(in_battle),
            Subquery(Border.objects.filter(a_id=low, b_id=high).values("kind")[:1]),
            Exists(unresolved.filter(province_id=destination.pk)),
        )
        .get()
    )
    return MoveFacts(in_battle=in_battle_row, border=border, battle_pending=pending)


def relations_of(*, faction: Faction) -> dict[tuple[int, int], str]:
    """The faction's own entries of ``relations_map`` (keys ``(faction, other)``): one query, not two."""
    result: dict[tuple[int, int], str] = {}
    rows = Relation.objects.filter(Q(a_id=faction.pk) | Q(b_id=faction.pk)).values_list("a_id", "b_id", "kind")
    for a_id, b_id, kind in rows:
        result[(a_id, b_id)] = kind
        result[(b_id, a_id)] = kind
    result[(faction.pk, faction.pk)] = Relation.Kind.ALLIED
    return result


@dataclass(frozen=True)
class Entry:
    """What entering a province means for a faction: its kind, and the enemy faction if a battle begins."""

    kind: str  # "move" | "capture" | "battle" | "third_power" | "battle_pending"
    defender_id: int | None = None


def entry_kind(
    *,
    campaign: Campaign,
    faction: Faction,
    province: Province,
    relations: dict[tuple[int, int], str] | None = None,
    battle_pending: bool | None = None,
) -> Entry:
    """S6/S7: battle if enemy units stand there, capture if it is an enemy province without them, else move.

    Units of a third power (neither friendly nor at war) bar the way: a battle needs war. ``battle_pending``
    is the answer of ``unresolved_battle_in`` when the caller has read it already.
    """
    relations = relations if relations is not None else relations_map(campaign=campaign)
    if battle_pending is None:
        battle_pending = unresolved_battle_in(province=province) is not None
    if battle_pending:
        return Entry("battle_pending")
    counts = unit_counts_by_faction(province=province)
    enemies = {fid: n for fid, n in counts.items() if relations.get((faction.pk, fid)) == Relation.Kind.WAR}
    if enemies:
        # The defender is the province's controller if it is among them, else the strongest enemy present.
        if province.controller_id in enemies:
            defender = province.controller_id
        else:
            defender = min(enemies, key=lambda fid: (-enemies[fid], fid))
        return Entry("battle", defender)
    third = [
        fid
        for fid in counts
        if relations.get((faction.pk, fid), Relation.Kind.NEUTRAL) == Relation.Kind.NEUTRAL
    ]
    if third:
        return Entry("third_power")
    controller = province.controller_id
    if controller is not None and relations.get((faction.pk, controller)) == Relation.Kind.WAR:
        return Entry("capture")
    return Entry("move")


def legal_destinations(*, army: Army) -> list[Destination]:
    """Provinces the army could enter by S5 from where it stands, with what entering would do (S6, S7, S9)."""
    relations = relations_map(campaign=army.campaign)
    result = []
    for province, border_kind in neighbours(province=army.province):
        if border_kind == Border.Kind.IMPASSABLE:
            continue
        entry = entry_kind(
            campaign=army.campaign, faction=army.faction, province=province, relations=relations
        )
        if entry.kind not in ("move", "capture", "battle"):
            continue
        result.append(
            Destination(
                province=province,
                kind=entry.kind,
                border=border_kind,
                terrain=battlefield_terrain(source=army.province, target=province),
            )
        )
    return result


def army_move_blocker(*, army: Army) -> tuple[str, str] | None:
    """Why the army cannot move now, as (message, rule), or None when it may (S4, S5, S7, S10)."""
    from strategic import services  # the messages live with the service that enforces them

    campaign = army.campaign
    if campaign.phase != Campaign.Phase.STRATEGIC or campaign.current_faction_id != army.faction_id:
        return str(services.NOT_YOUR_TURN), "S4"
    if campaign.faction_deadline is not None and campaign.faction_deadline <= timezone.now():
        return str(services.TIME_UP), "S4"
    if army.moved_turn is not None and army.moved_turn >= campaign.turn:
        return str(services.ALREADY_MOVED), "S5"
    if army.must_retreat:
        return str(services.MUST_RETREAT), "S10"
    if army_in_unresolved_battle(army=army) is not None:
        return str(services.IN_BATTLE), "S7"
    if not army.units.exists():
        return str(services.EMPTY_ARMY), "S2"
    return None


def battles_of(*, campaign: Campaign) -> QuerySet[Battle]:
    """A campaign's battles, newest first."""
    return (
        Battle.objects.filter(campaign=campaign)
        .select_related("province", "origin", "attacker_army", "attacker_faction", "defender_faction")
        .prefetch_related("supports")
    )
