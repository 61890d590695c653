"""Reads of the moderation layer: the audit log of a campaign (M3) and the disputes on it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import F, Lookup, Q, QuerySet

# Django's row comparison, as its composite primary keys use it; SQLite gets the same condition spelt out.
from django.db.models.fields.tuple_lookups import Tuple, TupleGreaterThan, TupleLessThan

from campaign.errors import Invalid, NotFound
from campaign.logtext import entry_names as log_names
from campaign.logtext import sentence as log_sentence
from campaign.models import Campaign, Commander, LogEntry
from moderation.messages import BAD_CURSOR, BAD_FILTER, BAD_REF
from moderation.models import Dispute
from tactical.models import BattleEvent, LiveBattle
from tactical.protocol.eventtext import battle_event_sentence

REF_RE = re.compile(r"^(?:L(?P<entry>\d{1,12})|B(?P<battle>\d{1,12})v(?P<version>\d{1,9}))$")


@dataclass(frozen=True)
class AuditRow:
    """One entry of the audit log: a campaign log entry or one version of a battle."""

    ref: str
    source: str  # "campaign" or "battle"
    created_at: datetime
    turn: int
    battle: int | None
    version: int | None
    actor: str
    kind: str
    rule: str
    text: str
    reason: str
    units: tuple[int, ...]
    disputes: int


@dataclass(frozen=True)
class AuditFilter:
    """What the reader asked to see; None means everything."""

    battle: int | None = None
    turn: int | None = None
    unit: int | None = None
    person: str | None = None

    @classmethod
    def parse(cls, params: Any) -> AuditFilter:
        """From query parameters; a non-number where a number belongs is a 400."""
        values: dict[str, Any] = {}
        for name in ("battle", "turn", "unit"):
            raw = (params.get(name) or "").strip().lstrip("u")
            if raw:
                if not raw.isdigit() or len(raw) > 12:
                    raise Invalid(BAD_FILTER, field=name)
                values[name] = int(raw)
        person = (params.get("person") or "").strip()
        return cls(person=person or None, **values)


_UNIT_ID = re.compile(r'"u(\d+)"')


def _entry_units(data: dict[str, Any]) -> tuple[int, ...]:
    found: set[int] = set()
    for key in ("unit", "units"):
        value = data.get(key)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, int) and not isinstance(item, bool):
                found.add(item)
    return tuple(sorted(found))


def _event_units(row: BattleEvent) -> tuple[int, ...]:
    import json

    text = json.dumps([row.action, row.events])
    return tuple(sorted({int(m) for m in _UNIT_ID.findall(text)}))


PAGE_SIZE = 100
# Rows read at a time where a filter is applied in Python (a unit's battle events) and by the exports.
CHUNK = 500

# The log's order, which pages walk with a cursor (keyset pagination: no OFFSET, no count of the whole log):
# time, then the battle rows before the campaign's at the same time, then the entry's id or the battle and
# version. A key is (created_at, 0, battle, version) for a battle row and (created_at, 1, id, 0) for an entry.
Key = tuple[datetime, int, int, int]


@dataclass(frozen=True)
class AuditPage:
    """One page of the audit log and the references its links walk from (None: nothing that way)."""

    rows: list[AuditRow]
    older: str | None
    newer: str | None


@dataclass(frozen=True)
class _Source:
    """One of the log's streams (campaign entries, battle events) as a query narrowed by the filters."""

    rows: QuerySet[Any]
    rank: int
    ties: tuple[str, ...]
    keep: Any  # a predicate on a row, for what the query cannot say; None when the query says it all

    def key(self, row: Any) -> Key:
        values = [getattr(row, f) for f in self.ties]
        return (row.created_at, self.rank, values[0], values[1] if len(values) > 1 else 0)

    def beyond(self, key: Key | None, newer: bool) -> Q | Lookup:
        """Rows of this stream after ``key`` (before it when not ``newer``); every row when no key.

        A cursor in this stream is a row comparison, ``(created_at, *ties) > key``: PostgreSQL reads it as one
        range of the stream's time index, where the same condition spelt out with OR scanned from the start.
        """
        if key is None:
            return Q()
        at, rank, *values = key
        if rank == self.rank:
            compare = TupleGreaterThan if newer else TupleLessThan
            return compare(Tuple(F("created_at"), *map(F, self.ties)), (at, *values[: len(self.ties)]))
        inclusive = (self.rank > rank) == newer
        op = ("gte" if inclusive else "gt") if newer else ("lte" if inclusive else "lt")
        return Q(**{f"created_at__{op}": at})

    def take(self, key: Key | None, newer: bool, limit: int) -> list[Any]:
        """Up to ``limit`` rows beyond ``key`` that pass the filters, nearest first."""
        order = ["created_at", *self.ties] if newer else ["-created_at", *(f"-{f}" for f in self.ties)]
        found: list[Any] = []
        while len(found) < limit:
            size = limit - len(found) if self.keep is None else CHUNK
            batch = list(self.rows.filter(self.beyond(key, newer)).order_by(*order)[:size])
            found.extend(row for row in batch if self.keep is None or self.keep(row))
            if len(batch) < size:
                break
            key = self.key(batch[-1])
        return found[:limit]


def _user_id(username: str) -> int | None:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.filter(username=username).values_list("pk", flat=True).first()


def _sources(*, campaign: Campaign, filters: AuditFilter) -> list[_Source]:
    """The campaign's log entries and battle events, narrowed by the turn, battle, unit and person asked for.

    A person's battle rows are two streams (what he did, what his commander did), merged by the pages.
    """
    entries = LogEntry.objects.filter(campaign=campaign).select_related("actor")
    battles = LiveBattle.objects.filter(campaign=campaign)
    entry_keep = event_keep = None
    contains = connection.features.supports_json_field_contains
    if filters.turn is not None:
        entries = entries.filter(turn=filters.turn)
        battles = battles.filter(record__turn=filters.turn)
    if filters.battle is not None:
        # On PostgreSQL the containment is what the GIN index of the entries' data serves.
        entries = entries.filter(data__contains={"battle": filters.battle}) if contains else entries.filter(
            data__battle=filters.battle)
        battles = battles.filter(pk=filters.battle)
    if filters.unit is not None:
        unit = filters.unit
        if contains:
            entries = entries.filter(Q(data__contains={"unit": unit}) | Q(data__contains={"units": [unit]}))
        else:
            entry_keep = lambda e: unit in _entry_units(e.data or {})  # noqa: E731
        # A unit's battle rows are in the battles it fought (its roster key); which of them name it is read
        # from the row itself.
        battles = battles.filter(roster__has_key=f"u{unit}")
        event_keep = lambda r: unit in _event_units(r)  # noqa: E731
    events = BattleEvent.objects.filter(battle_id__in=battles.values("pk")).select_related("actor")
    event_streams = [events]
    if filters.person:
        user = _user_id(filters.person)
        entries = entries.filter(actor_id=user) if user is not None else entries.none()
        event_streams = [
            events.filter(actor_id=user),
            events.filter(commander_id__in=Commander.objects.filter(user_id=user).values("pk")),
        ] if user is not None else [events.none()]
    return [
        _Source(entries, 1, ("id",), entry_keep),
        *(_Source(stream, 0, ("battle_id", "version"), event_keep) for stream in event_streams),
    ]


def _window(sources: list[_Source], key: Key | None, newer: bool, limit: int) -> list[tuple[Key, Any]]:
    """The ``limit`` rows of every stream nearest beyond ``key``, nearest first, each row once."""
    merged: dict[Key, Any] = {}
    for source in sources:
        for row in source.take(key, newer, limit):
            merged[source.key(row)] = row
    return sorted(merged.items(), key=lambda item: item[0], reverse=not newer)[:limit]


def _rows(campaign: Campaign, window: list[tuple[Key, Any]], disputed: dict[str, int]) -> list[AuditRow]:
    """Audit rows of a window of log rows (entries and events), each with its sentence."""
    entries = [row for key, row in window if key[1] == 1]
    events = [row for key, row in window if key[1] == 0]
    made = {r.ref: r for r in _entry_rows(campaign=campaign, entries=entries, disputed=disputed)}
    battles = {
        b["pk"]: b
        for b in LiveBattle.objects.filter(pk__in={e.battle_id for e in events}).values(
            "pk", "roster", "record__turn"
        )
    }
    for event in events:
        row = _event_row(event, battles[event.battle_id], disputed)
        made[row.ref] = row
    return [made[f"L{row.pk}" if key[1] == 1 else f"B{row.battle_id}v{row.version}"] for key, row in window]


def _cursor(campaign: Campaign, ref: str, field: str) -> Key:
    """The key of the entry a page link names; a 400 naming the parameter when it names none of this log."""
    match = REF_RE.match(ref.strip())
    if match and match["entry"]:
        found = LogEntry.objects.filter(campaign=campaign, pk=int(match["entry"])).values_list(
            "created_at", flat=True).first()
        if found is not None:
            return (found, 1, int(match["entry"]), 0)
    elif match:
        battle, version = int(match["battle"]), int(match["version"])
        found = BattleEvent.objects.filter(battle__campaign=campaign, battle_id=battle, version=version
                                           ).values_list("created_at", flat=True).first()
        if found is not None:
            return (found, 0, battle, version)
    raise Invalid(BAD_CURSOR, field=field)


def audit_page(
    *,
    campaign: Campaign,
    filters: AuditFilter | None = None,
    after: str = "",
    before: str = "",
    latest: bool = False,
    size: int | None = None,
) -> AuditPage:
    """``size`` rows of the filtered log in its order: the oldest, those after the entry ``after`` names,
    those before the entry ``before`` names, or the latest; a reference of no entry of the log is a 400."""
    filters = filters or AuditFilter()
    size = size or PAGE_SIZE
    sources = _sources(campaign=campaign, filters=filters)
    newer = not (before or latest)
    key = None
    if after or before:
        key = _cursor(campaign, after or before, "after" if after else "before")
    window = _window(sources, key, newer, size + 1)
    more = len(window) > size
    window = window[:size]
    if not newer:
        window.reverse()
    rows = _rows(campaign, window, _dispute_counts(campaign))
    if not rows:
        return AuditPage(rows=[], older=None, newer=None)
    first, last = window[0][0], window[-1][0]
    # The way the page was reached: a row beyond the cursor's side exists when the cursor was given.
    older = rows[0].ref if (more if not newer else key is not None and _window(sources, first, False, 1)) else None
    newer_ref = rows[-1].ref if (more if newer else not latest and _window(sources, last, True, 1)) else None
    return AuditPage(rows=rows, older=older, newer=newer_ref)


def audit_rows(*, campaign: Campaign, filters: AuditFilter | None = None) -> Iterator[AuditRow]:
    """Every row of the filtered log, oldest first, read CHUNK rows at a time (the exports stream it)."""
    sources = _sources(campaign=campaign, filters=filters or AuditFilter())
    disputed = _dispute_counts(campaign)
    key = None
    while True:
        window = _window(sources, key, True, CHUNK)
        yield from _rows(campaign, window, disputed)
        if len(window) < CHUNK:
            return
        key = window[-1][0]


def audit_log(*, campaign: Campaign, filters: AuditFilter | None = None) -> list[AuditRow]:
    """Every campaign log entry and every battle event of the campaign, oldest first, filtered."""
    return list(audit_rows(campaign=campaign, filters=filters))


def _entry_rows(*, campaign: Campaign, entries: list[LogEntry], disputed: dict[str, int]) -> list[AuditRow]:
    """The campaign log entries as audit rows, each with its sentence and the units it names."""
    names = log_names(campaign, entries)
    return [
        AuditRow(
            ref=f"L{e.pk}",
            source="campaign",
            created_at=e.created_at,
            turn=e.turn,
            battle=e.data.get("battle") if isinstance(e.data.get("battle"), int) else None,
            version=None,
            actor=e.actor.get_username() if e.actor else "",
            kind=e.kind,
            rule=e.rule,
            text=log_sentence(e, names),
            reason=e.reason,
            units=_entry_units(e.data or {}),
            disputes=disputed.get(f"L{e.pk}", 0),
        )
        for e in entries
    ]


def _event_row(row: BattleEvent, battle: dict[str, Any], disputed: dict[str, int]) -> AuditRow:
    """One version of a battle as an audit row, with its sentence and the units it names; ``battle`` holds
    the battle's roster and turn (read once for a page, not joined to every row)."""
    actor = row.actor.get_username() if row.actor else ""
    return AuditRow(
        ref=f"B{row.battle_id}v{row.version}",
        source="battle",
        created_at=row.created_at,
        turn=battle["record__turn"],
        battle=row.battle_id,
        version=row.version,
        actor=actor,
        kind=row.kind,
        rule="",
        text=battle_event_sentence(row, battle["roster"]),
        reason="",
        units=_event_units(row),
        disputes=disputed.get(f"B{row.battle_id}v{row.version}", 0),
    )


def _dispute_counts(campaign: Campaign) -> dict[str, int]:
    counts: dict[str, int] = {}
    for dispute in Dispute.objects.filter(campaign=campaign).select_related("battle_event"):
        counts[dispute.entry_ref] = counts.get(dispute.entry_ref, 0) + 1
    return counts


def entry_by_ref(*, campaign: Campaign, ref: str) -> LogEntry | BattleEvent:
    """The log entry a reference names, in this campaign; 404 otherwise."""
    match = REF_RE.match((ref or "").strip())
    found: LogEntry | BattleEvent | None = None
    if match and match["entry"]:
        found = LogEntry.objects.filter(campaign=campaign, pk=int(match["entry"])).first()
    elif match:
        found = BattleEvent.objects.filter(
            battle__campaign=campaign, battle_id=int(match["battle"]), version=int(match["version"])
        ).first()
    if found is None:
        raise NotFound(BAD_REF, field="entry")
    return found


def disputes_of(*, campaign: Campaign, status: str | None = None) -> list[Dispute]:
    """The campaign's disputes, newest first (only one status when given)."""
    disputes = Dispute.objects.filter(campaign=campaign).select_related(
        "author", "answered_by", "battle_event"
    )
    if status:
        disputes = disputes.filter(status=status)
    return list(disputes)
