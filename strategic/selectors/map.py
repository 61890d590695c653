"""Reads of the strategic map: adjacency, who stands where, legal destinations, battlefield terrain."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from django.db import connection
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.functional import Promise

from campaign.models import Campaign, Faction, Relation
from campaign.selectors import relations_map
from strategic.messages import (
    ALREADY_MOVED,
    BATTLE_PENDING_THERE,
    EMPTY_ARMY,
    IMPASSABLE,
    IN_BATTLE,
    MUST_RETREAT,
    NOT_ADJACENT,
    NOT_YOUR_TURN,
    SAME_PROVINCE,
    THIRD_POWER,
    TIME_UP,
)
from strategic.models import Army, Battle, BattleSupport, Border, Province, TerrainTransition, Unit


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
class MoveRead:
    """What an army move reads, under the campaign's lock, with the army's row locked (S2, S5–S7, S9)."""

    army: Army  # every field of the army's row
    commander_user_id: int | None  # who plays the army's commander
    leader_user_id: int | None  # who plays the faction's leader commander
    membership: tuple[str, int | None] | None  # the actor's (role, faction) in the campaign
    origin_code: str
    destination: Province | None  # id, campaign, code, terrain and controller only; None if no such id
    border: str | None  # the kind of the border to the destination, None if not adjacent
    in_battle: bool  # the army is in an unresolved battle (as ``army_in_unresolved_battle``)
    battle_pending: bool  # an unresolved battle in the destination (as ``unresolved_battle_in``)
    battlefield_terrain: str | None  # S9, as ``battlefield_terrain`` (None without a destination)
    unit_ids: list[int]  # the army's units
    counts: dict[int, int]  # units in the destination by faction (as ``unit_counts_by_faction``)
    relations: dict[tuple[int, int], str]  # the faction's own entries of ``relations_map``


_ARMY_FIELDS = [f.attname for f in Army._meta.concrete_fields]
_DESTINATION_FIELDS = ["id", "campaign_id", "code", "terrain", "controller_id"]  # in the model's field order

# One statement for what took seven ORM queries (the army with its commander and faction, the membership, the
# battles and the border, the units, the relations, the units in the destination, the terrain): building
# those queries cost more than running them. Plain SQL that PostgreSQL and SQLite both run; lists come back
# as "a:b,c:d" strings.
_MOVE_SQL = """
SELECT {army},
    cmd.user_id, ldr.user_id, m.role, m.faction_id, o.code,
    d.id, d.campaign_id, d.code, d.terrain, d.controller_id,
    (SELECT b.kind FROM strategic_border b
        WHERE (b.a_id = a.province_id AND b.b_id = %(destination)s)
           OR (b.a_id = %(destination)s AND b.b_id = a.province_id) LIMIT 1),
    EXISTS (SELECT 1 FROM strategic_battle bt WHERE bt.status <> %(resolved)s AND (
        bt.attacker_army_id = a.id OR bt.province_id = a.province_id
        OR EXISTS (SELECT 1 FROM strategic_battlesupport s WHERE s.battle_id = bt.id AND s.army_id = a.id))),
    EXISTS (SELECT 1 FROM strategic_battle bt WHERE bt.status <> %(resolved)s AND bt.province_id = %(destination)s),
    COALESCE((SELECT t.terrain FROM strategic_terraintransition t
        WHERE t.source_id = a.province_id AND t.target_id = %(destination)s LIMIT 1), d.terrain),
    (SELECT {agg}(CAST(u.id AS TEXT), ',') FROM strategic_unit u WHERE u.army_id = a.id),
    (SELECT {agg}(CAST(n.faction_id AS TEXT) || ':' || CAST(n.units AS TEXT), ',') FROM (
        SELECT here.faction_id, COUNT(*) AS units FROM (
            SELECT u.faction_id FROM strategic_unit u WHERE u.province_id = %(destination)s
            UNION ALL
            SELECT u.faction_id FROM strategic_army ua JOIN strategic_unit u ON u.army_id = ua.id
            WHERE ua.province_id = %(destination)s) here
        GROUP BY here.faction_id) n),
    (SELECT {agg}(CAST(r.a_id AS TEXT) || ':' || CAST(r.b_id AS TEXT) || ':' || r.kind, ',')
        FROM campaign_relation r WHERE r.a_id = a.faction_id OR r.b_id = a.faction_id)
FROM strategic_army a
JOIN campaign_faction f ON f.id = a.faction_id
JOIN campaign_commander cmd ON cmd.id = a.commander_id
JOIN strategic_province o ON o.id = a.province_id
LEFT JOIN campaign_commander ldr ON ldr.id = f.leader_id
LEFT JOIN campaign_membership m ON m.campaign_id = a.campaign_id AND m.user_id = %(user)s
LEFT JOIN strategic_province d ON d.id = %(destination)s
WHERE a.id = %(army)s AND a.campaign_id = %(campaign)s
{lock}"""


def _pairs(text: str | None) -> list[list[str]]:
    return [item.split(":") for item in text.split(",")] if text else []


def move_read(*, campaign_id: int, army_id: int, destination_id: int, user_id: int | None) -> MoveRead | None:
    """Everything an army move checks, in one query that locks the army's row; None if the campaign has no
    such army. The caller has taken the campaign's lock in an earlier statement: this one then reads what
    the writes before it committed, and nothing it reads changes before the move is written."""
    sql = _MOVE_SQL.format(
        army=", ".join(f"a.{name}" for name in _ARMY_FIELDS),
        agg="string_agg" if connection.vendor == "postgresql" else "group_concat",
        lock="FOR UPDATE OF a" if connection.features.has_select_for_update_of else "",
    )
    params = {
        "campaign": campaign_id,
        "army": army_id,
        "destination": destination_id,
        "user": user_id,
        "resolved": Battle.Status.RESOLVED.value,
    }
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    n = len(_ARMY_FIELDS)
    army = Army.from_db(connection.alias, _ARMY_FIELDS, row[:n])
    commander_user, leader_user, role, member_faction, origin_code = row[n : n + 5]
    destination_row = row[n + 5 : n + 10]
    border, in_battle, pending, terrain, units, counts, relations = row[n + 10 :]
    destination = None
    if destination_row[0] is not None:
        destination = Province.from_db(connection.alias, _DESTINATION_FIELDS, destination_row)
    relation_map: dict[tuple[int, int], str] = {(army.faction_id, army.faction_id): Relation.Kind.ALLIED}
    for a_id, b_id, kind in _pairs(relations):
        relation_map[(int(a_id), int(b_id))] = kind
        relation_map[(int(b_id), int(a_id))] = kind
    return MoveRead(
        army=army,
        commander_user_id=commander_user,
        leader_user_id=leader_user,
        membership=(role, member_faction) if role is not None else None,
        origin_code=origin_code,
        destination=destination,
        border=border,
        in_battle=bool(in_battle),
        battle_pending=bool(pending),
        battlefield_terrain=terrain,
        # Ascending ids: the order of ``army.units`` (campaign, faction, id) for units of one army.
        unit_ids=sorted(int(pk) for pk in units.split(",")) if units else [],
        counts={int(faction): int(count) for faction, count in _pairs(counts)},
        relations=relation_map,
    )


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
    """S6/S7 for entering ``province`` (``entry_of``), reading what the caller has not read already.

    ``battle_pending`` is the answer of ``unresolved_battle_in`` when the caller has read it already.
    """
    relations = relations if relations is not None else relations_map(campaign=campaign)
    if battle_pending is None:
        battle_pending = unresolved_battle_in(province=province) is not None
    if battle_pending:
        return Entry("battle_pending")
    return entry_of(
        faction_id=faction.pk,
        controller_id=province.controller_id,
        counts=unit_counts_by_faction(province=province),
        relations=relations,
        battle_pending=False,
    )


def entry_of(
    *,
    faction_id: int,
    controller_id: int | None,
    counts: dict[int, int],
    relations: dict[tuple[int, int], str],
    battle_pending: bool,
) -> Entry:
    """S6/S7: battle if enemy units stand there, capture if it is an enemy province without them, else move.

    Units of a third power (neither friendly nor at war) bar the way: a battle needs war; so does an unresolved
    battle there (S8: support it instead). ``counts`` are the province's units by faction, ``relations`` the
    entries of ``relations_map`` for the entering faction.
    """
    if battle_pending:
        return Entry("battle_pending")
    enemies = {fid: n for fid, n in counts.items() if relations.get((faction_id, fid)) == Relation.Kind.WAR}
    if enemies:
        # The defender is the province's controller if it is among them, else the strongest enemy present.
        if controller_id in enemies:
            defender = controller_id
        else:
            defender = min(enemies, key=lambda fid: (-enemies[fid], fid))
        return Entry("battle", defender)
    third = [
        fid
        for fid in counts
        if relations.get((faction_id, fid), Relation.Kind.NEUTRAL) == Relation.Kind.NEUTRAL
    ]
    if third:
        return Entry("third_power")
    if controller_id is not None and relations.get((faction_id, controller_id)) == Relation.Kind.WAR:
        return Entry("capture")
    return Entry("move")


def neighbours_of(*, province_ids: Iterable[int]) -> dict[int, list[tuple[Province, str]]]:
    """``neighbours`` of several provinces in one query, by province id (every id asked for is a key)."""
    ids = set(province_ids)
    result: dict[int, list[tuple[Province, str]]] = {pk: [] for pk in ids}
    if not ids:
        return result
    for border in Border.objects.filter(Q(a_id__in=ids) | Q(b_id__in=ids)).select_related("a", "b"):
        if border.a_id in ids:
            result[border.a_id].append((border.b, border.kind))
        if border.b_id in ids:
            result[border.b_id].append((border.a, border.kind))
    for pairs in result.values():
        pairs.sort(key=lambda pair: pair[0].code)
    return result


def unit_counts_by_province(*, province_ids: Iterable[int]) -> dict[int, dict[int, int]]:
    """``unit_counts_by_faction`` of several provinces in two queries, by province id."""
    ids = set(province_ids)
    result: dict[int, dict[int, int]] = {pk: {} for pk in ids}
    if not ids:
        return result
    # A unit stands in a province by its own row or by its army's, never both (``unit_in_army_or_province``):
    # two grouped reads, each by its index, where one with OR across the join read every unit of the map.
    loose = Unit.objects.filter(province_id__in=ids).values_list("province_id", "faction_id")
    in_armies = Unit.objects.filter(army__province_id__in=ids).values_list("army__province_id", "faction_id")
    for rows in (loose, in_armies):
        for pk, faction_id, n in rows.annotate(n=Count("id")).order_by():
            result[pk][faction_id] = result[pk].get(faction_id, 0) + n
    return result


def legal_destinations_of(
    *,
    campaign: Campaign,
    armies: Sequence[Army],
    near: dict[int, list[tuple[Province, str]]] | None = None,
    battles: OpenBattles | None = None,
    counts: dict[int, dict[int, int]] | None = None,
) -> dict[int, list[Destination]]:
    """``legal_destinations`` of several armies of one campaign, by army id: seven queries for any number of
    armies (relations, borders, battles, units, terrain transitions), none without armies. ``near`` are the
    ``neighbours_of`` the armies' provinces, ``battles`` the ``open_battles`` and ``counts`` the
    ``unit_counts_by_province`` of the whole campaign (as the map has them) if the caller has read them (a query
    fewer each, two for the counts)."""
    if not armies:
        return {}
    relations = relations_map(campaign=campaign)
    if near is None:
        near = neighbours_of(province_ids={army.province_id for army in armies})
    passable = {p.pk for pairs in near.values() for p, kind in pairs if kind != Border.Kind.IMPASSABLE}
    if battles is not None:
        pending = passable & battles.provinces
    else:
        pending = set(
            Battle.objects.filter(province_id__in=passable)
            .exclude(status=Battle.Status.RESOLVED)
            .values_list("province_id", flat=True)
        )
    if counts is None:
        counts = unit_counts_by_province(province_ids=passable - pending)
    transitions = {
        (source, target): terrain
        for source, target, terrain in TerrainTransition.objects.filter(
            source_id__in=near.keys(), target_id__in=passable
        ).values_list("source_id", "target_id", "terrain")
    }
    result: dict[int, list[Destination]] = {}
    for army in armies:
        found = []
        for province, border_kind in near[army.province_id]:
            if border_kind == Border.Kind.IMPASSABLE:
                continue
            entry = entry_of(
                faction_id=army.faction_id,
                controller_id=province.controller_id,
                counts=counts.get(province.pk, {}),
                relations=relations,
                battle_pending=province.pk in pending,
            )
            if entry.kind not in ("move", "capture", "battle"):
                continue
            found.append(
                Destination(
                    province=province,
                    kind=entry.kind,
                    border=border_kind,
                    # S9, as ``battlefield_terrain``.
                    terrain=transitions.get((army.province_id, province.pk)) or province.terrain,
                )
            )
        result[army.id] = found
    return result


def legal_destinations(*, army: Army) -> list[Destination]:
    """Provinces the army could enter by S5 from where it stands, with what entering would do (S6, S7, S9)."""
    return legal_destinations_of(campaign=army.campaign, armies=[army])[army.id]


def move_refusal(
    *, campaign: Campaign, army: Army, in_battle: Callable[[], bool], has_units: Callable[[], bool]
) -> tuple[Promise, str] | None:
    """The first guard of a move's turn that refuses it, as (message, rule), or None (S4, S5, S10, S7, S2).

    The one list of these guards: the move service refuses with it and the turn page explains with it. The
    last two are asked only when the others pass, so that a page pays for their queries only then."""
    if campaign.phase != Campaign.Phase.STRATEGIC or campaign.current_faction_id != army.faction_id:
        return NOT_YOUR_TURN, "S4"
    if campaign.faction_deadline is not None and campaign.faction_deadline <= timezone.now():
        return TIME_UP, "S4"
    if army.moved_turn is not None and army.moved_turn >= campaign.turn:
        return ALREADY_MOVED, "S5"
    if army.must_retreat:
        return MUST_RETREAT, "S10"
    if in_battle():
        return IN_BATTLE, "S7"
    if not has_units():
        return EMPTY_ARMY, "S2"
    return None


def destination_refusals(
    *,
    army: Army,
    blocker: tuple[str, str] | None,
    legal: list[Destination],
    near: list[tuple[Province, str]] | None = None,
    province_ids: Iterable[int] | None = None,
    battles: OpenBattles | None = None,
) -> dict[int, str]:
    """Why each province the army may not enter now is no legal move, by province id: the turn page says it
    when such a province is clicked on its map (S5, S7, S8). ``blocker`` and ``legal`` are what the page has
    already read (``army_move_blocker``, ``legal_destinations``), ``near`` the ``neighbours`` of the army's
    province, ``province_ids`` the campaign's provinces and ``battles`` the ``open_battles`` if it has read them
    too; up to 3 queries, none when the page has read all three."""
    if province_ids is None:
        province_ids = Province.objects.filter(campaign_id=army.campaign_id).values_list("pk", flat=True)
    ids = list(province_ids)
    if blocker is not None:
        reason = str(blocker[0])
        return {pk: reason for pk in ids}
    allowed = {d.province.pk for d in legal}
    kinds = {p.pk: kind for p, kind in (near if near is not None else neighbours(province=army.province))}
    pending: set[int] | frozenset[int] | None = battles.pending_provinces if battles is not None else None
    refusals: dict[int, str] = {}
    not_adjacent = str(NOT_ADJACENT)  # the answer of most provinces: translated once
    for pk in ids:
        if pk in allowed:
            continue
        if pk == army.province_id:
            refusals[pk] = str(SAME_PROVINCE)
        elif pk not in kinds:
            refusals[pk] = not_adjacent
        elif kinds[pk] == Border.Kind.IMPASSABLE:
            refusals[pk] = str(IMPASSABLE)
        else:  # adjacent and passable, yet no legal entry: a neutral power holds it, or a battle is pending
            if pending is None:
                pending = set(
                    Battle.objects.filter(province_id__in=kinds.keys(), status=Battle.Status.PENDING)
                    .values_list("province_id", flat=True)
                )
            refusals[pk] = str(BATTLE_PENDING_THERE if pk in pending else THIRD_POWER)
    return refusals


@dataclass(frozen=True)
class OpenBattles:
    """A campaign's unresolved battles as the turn's rules ask about them (S7, S8): where they are, which are
    still pending, and which armies fight in them as attackers or supporters."""

    provinces: frozenset[int]
    pending_provinces: frozenset[int]
    fighting: frozenset[int]


def open_battles(*, campaign: Campaign) -> OpenBattles:
    """The unresolved battles of ``campaign`` (1 query, 2 when there is one): a page that asks several rules
    about them reads them once (``army_move_blockers``, ``legal_destinations_of``, ``destination_refusals``)."""
    rows = list(
        Battle.objects.filter(campaign=campaign)
        .exclude(status=Battle.Status.RESOLVED)
        .order_by()
        .values_list("id", "province_id", "status", "attacker_army_id")
    )
    supporters: set[int] = set()
    if rows:
        supporters = set(
            BattleSupport.objects.filter(battle_id__in=[row[0] for row in rows]).values_list("army_id", flat=True)
        )
    return OpenBattles(
        provinces=frozenset(row[1] for row in rows),
        pending_provinces=frozenset(row[1] for row in rows if row[2] == Battle.Status.PENDING),
        fighting=frozenset({row[3] for row in rows if row[3] is not None} | supporters),
    )


def army_move_blockers(
    *, campaign: Campaign, armies: Sequence[Army], battles: OpenBattles | None = None
) -> dict[int, tuple[str, str] | None]:
    """``army_move_blocker`` of several armies of one campaign, by army id: the guards' two queries (battles,
    units) are asked once for all the armies, and only if one of them passes the guards before; none for the
    battles when the caller has read ``open_battles``."""
    ids = [army.id for army in armies]

    @cache
    def engaged() -> tuple[set[int] | frozenset[int], set[int] | frozenset[int]]:
        """The armies in unresolved battles (as attackers or supporters) and the provinces of such battles."""
        if battles is not None:
            return battles.fighting, battles.provinces
        rows = (
            Battle.objects.exclude(status=Battle.Status.RESOLVED)
            .filter(
                Q(attacker_army_id__in=ids)
                | Q(supports__army_id__in=ids)
                | Q(province_id__in={army.province_id for army in armies})
            )
            .values_list("attacker_army_id", "supports__army_id", "province_id")
        )
        fighting: set[int] = set()
        provinces: set[int] = set()
        for attacker, supporter, province in rows:
            fighting.update(pk for pk in (attacker, supporter) if pk is not None)
            provinces.add(province)
        return fighting, provinces

    @cache
    def manned() -> set[int]:
        return set(Unit.objects.filter(army_id__in=ids).order_by().values_list("army_id", flat=True).distinct())

    result: dict[int, tuple[str, str] | None] = {}
    for army in armies:
        refusal = move_refusal(
            campaign=campaign,
            army=army,
            # As ``army_in_unresolved_battle``: it attacks or supports there, or stands in its province.
            in_battle=lambda army=army: army.id in engaged()[0] or army.province_id in engaged()[1],
            has_units=lambda army=army: army.id in manned(),
        )
        result[army.id] = None if refusal is None else (str(refusal[0]), refusal[1])
    return result


def army_move_blocker(*, army: Army) -> tuple[str, str] | None:
    """Why the army cannot move now, as (message, rule), or None when it may (``move_refusal``)."""
    return army_move_blockers(campaign=army.campaign, armies=[army])[army.id]


def battles_of(*, campaign: Campaign) -> QuerySet[Battle]:
    """A campaign's battles, newest first."""
    return (
        Battle.objects.filter(campaign=campaign)
        .select_related("province", "origin", "attacker_army", "attacker_faction", "defender_faction")
        .prefetch_related("supports")
    )
