"""The interception record of a battle (T10.4): every interception declared, when, and the ruling on it.

An interception the moderator took back (M1 undo: a row of kind ``undo`` whose action names the version it
``undoes``) stays in the record, since the log keeps both, but is marked as taken back with the undo's time,
moderator and reason; it no longer stands, so it is not ruled on (``moderation.services.disputes.interception_rule``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from moderation.models import InterceptionRuling
from tactical.models import BattleEvent, LiveBattle
from tactical.protocol.eventtext import unit_name


@dataclass(frozen=True)
class TakenBack:
    """The moderator's undo that took an interception back (M1)."""

    version: int  # the undo's own version
    at: datetime
    by: str
    reason: str


@dataclass(frozen=True)
class InterceptionEntry:
    """One declared interception and what the moderator recorded about it."""

    version: int
    unit: str
    unit_name: str
    target: str
    target_name: str
    volley: bool
    turn_ended_at: datetime | None  # when the attacking side's turn ended (the window opened)
    ended_side: str
    declared_at: datetime
    declared_by: str
    ruling: InterceptionRuling | None
    taken_back: TakenBack | None = None


def undo_of(row: BattleEvent) -> tuple[int, TakenBack] | None:
    """The version an undo row takes back and how, or None for any other row."""
    if row.kind != BattleEvent.Kind.UNDO or not isinstance(row.action, dict) or "undoes" not in row.action:
        return None
    return int(row.action["undoes"]), TakenBack(
        version=row.version,
        at=row.created_at,
        by=row.actor.get_username() if row.actor else "",
        reason=str(row.action.get("reason", "")),
    )


def interception_record(*, battle: LiveBattle) -> list[InterceptionEntry]:
    """Every interception in the order declared, with the end of the turn it answered and its undo, if any."""
    rulings = {
        (r.version, r.unit): r
        for r in InterceptionRuling.objects.filter(battle=battle).select_related("moderator")
    }
    rows = list(BattleEvent.objects.filter(battle=battle).select_related("actor").order_by("version"))
    taken_back = dict(undo for undo in map(undo_of, rows) if undo is not None)
    entries: list[InterceptionEntry] = []
    turn_ended: tuple[datetime, str] | None = None
    for row in rows:
        for event in row.events:
            kind = event.get("type")
            if kind == "turn_ended" and row.version not in taken_back:  # a turn end taken back did not happen
                turn_ended = (row.created_at, str(event.get("side", "")))
            elif kind == "interception_declared":
                unit, target = str(event.get("unit")), str(event.get("target"))
                entries.append(
                    InterceptionEntry(
                        version=row.version,
                        unit=unit,
                        unit_name=unit_name(battle.roster, unit),
                        target=target,
                        target_name=unit_name(battle.roster, target),
                        volley=bool(event.get("volley")),
                        turn_ended_at=turn_ended[0] if turn_ended else None,
                        ended_side=turn_ended[1] if turn_ended else "",
                        declared_at=row.created_at,
                        declared_by=row.actor.get_username() if row.actor else "",
                        ruling=rulings.get((row.version, unit)),
                        taken_back=taken_back.get(row.version),
                    )
                )
    return entries
