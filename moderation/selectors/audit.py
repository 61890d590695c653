"""Reads of the moderation layer: the audit log of a campaign (M3) and the disputes on it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import QuerySet

from campaign.errors import Invalid, NotFound
from campaign.logtext import entry_names as log_names
from campaign.logtext import sentence as log_sentence
from campaign.models import Campaign, LogEntry
from moderation.messages import BAD_FILTER, BAD_REF
from moderation.models import Dispute
from tactical.models import BattleEvent
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


def audit_log(*, campaign: Campaign, filters: AuditFilter | None = None) -> list[AuditRow]:
    """Every campaign log entry and every battle event of the campaign, oldest first, filtered."""
    filters = filters or AuditFilter()
    entries, events = _audit_queries(campaign=campaign, filters=filters)
    entry_list = list(entries)
    disputed = _dispute_counts(campaign)
    rows = _entry_rows(campaign=campaign, entries=entry_list, disputed=disputed)
    rows.extend(_event_row(row, disputed) for row in events)
    if filters.unit is not None:
        rows = [r for r in rows if filters.unit in r.units]
    rows.sort(key=lambda r: (r.created_at, r.source, r.ref))
    return rows


def _audit_queries(
    *, campaign: Campaign, filters: AuditFilter
) -> tuple[QuerySet[LogEntry], QuerySet[BattleEvent]]:
    """The campaign's log entries and battle events, narrowed by the turn, battle and person asked for."""
    entries = LogEntry.objects.filter(campaign=campaign).select_related("actor").order_by("id")
    events = (
        BattleEvent.objects.filter(battle__campaign=campaign)
        .select_related("actor", "battle__record", "commander__user")
        .order_by("battle_id", "version")
    )
    if filters.turn is not None:
        entries = entries.filter(turn=filters.turn)
        events = events.filter(battle__record__turn=filters.turn)
    if filters.battle is not None:
        entries = entries.filter(data__battle=filters.battle)
        events = events.filter(battle_id=filters.battle)
    if filters.person:
        entries = entries.filter(actor__username=filters.person)
        events = events.filter(actor__username=filters.person) | events.filter(
            commander__user__username=filters.person
        )
    return entries, events


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


def _event_row(row: BattleEvent, disputed: dict[str, int]) -> AuditRow:
    """One version of a battle as an audit row, with its sentence and the units it names."""
    actor = row.actor.get_username() if row.actor else ""
    return AuditRow(
        ref=f"B{row.battle_id}v{row.version}",
        source="battle",
        created_at=row.created_at,
        turn=row.battle.record.turn,
        battle=row.battle_id,
        version=row.version,
        actor=actor,
        kind=row.kind,
        rule="",
        text=battle_event_sentence(row, row.battle.roster),
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
