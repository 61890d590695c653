"""The interception record of a battle (T10.4): every interception declared, when, and the ruling on it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from moderation.eventtext import unit_name
from moderation.models import InterceptionRuling
from tactical.models import BattleEvent, LiveBattle


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


def interception_record(*, battle: LiveBattle) -> list[InterceptionEntry]:
    """Every interception in the order declared, with the end of the turn it answered."""
    rulings = {
        (r.version, r.unit): r
        for r in InterceptionRuling.objects.filter(battle=battle).select_related("moderator")
    }
    entries: list[InterceptionEntry] = []
    turn_ended: tuple[datetime, str] | None = None
    for row in BattleEvent.objects.filter(battle=battle).select_related("actor").order_by("version"):
        for event in row.events:
            kind = event.get("type")
            if kind == "turn_ended":
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
                    )
                )
    return entries
