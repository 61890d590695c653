"""The audit log as CSV and as BBCode, and a battle's report as BBCode for the forum."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import UTC
from itertools import islice

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaign.textexport import bbcode_text, csv_text
from combat.battle.model import BattleState, Status
from moderation.selectors.audit import AuditRow
from moderation.selectors.dice import DiceReport
from moderation.selectors.interceptions import interception_record
from strategic.selectors.rosters import lines_text
from tactical.models import LiveBattle
from tactical.protocol.eventtext import unit_name

CSV_COLUMNS = ("ref", "created_at", "turn", "battle", "version", "actor", "kind", "rule", "text", "reason")


# Rows written at a time by the streamed exports.
CHUNK = 500


def audit_csv_chunks(rows: Iterable[AuditRow]) -> Iterator[str]:
    """The CSV file a few hundred lines at a time: the header naming the columns, then one line per entry."""
    yield csv_text([CSV_COLUMNS])
    rows = iter(rows)
    while batch := list(islice(rows, CHUNK)):
        yield csv_text(
            (row.ref, row.created_at.isoformat(), row.turn, row.battle or "", row.version or "", row.actor,
             row.kind, row.rule, row.text, row.reason)
            for row in batch
        )


def audit_csv(rows: Iterable[AuditRow]) -> str:
    """One line per entry, the header naming the columns."""
    return "".join(audit_csv_chunks(rows))


def audit_bbcode_chunks(rows: Iterable[AuditRow], *, title: str) -> Iterator[str]:
    """The forum list a few hundred entries at a time: reference, time, who, what, why."""
    yield f"[b]{bbcode_text(title)}[/b]\n[list]\n"
    rows = iter(rows)
    while batch := list(islice(rows, CHUNK)):
        yield "".join(_bbcode_line(row) + "\n" for row in batch)
    yield "[/list]\n"


def audit_bbcode(rows: Iterable[AuditRow], *, title: str) -> str:
    """The entries as a forum list: reference, time, who, what, why."""
    return "".join(audit_bbcode_chunks(rows, title=title))


def _bbcode_line(row: AuditRow) -> str:
    line = f"[*][i]{row.ref}[/i] {row.created_at:%Y-%m-%d %H:%M} UTC"
    if row.actor:
        line += f" — {bbcode_text(row.actor)}"
    if row.rule:
        line += f" ({bbcode_text(row.rule)})"
    line += f": {bbcode_text(row.text)}"
    if row.reason:
        line += f" [i]{bbcode_text(_('Reason'))}: {bbcode_text(row.reason)}[/i]"
    return line


def battle_report_bbcode(
    *, battle: LiveBattle, state: BattleState, dice: DiceReport | None, verify_url: str
) -> str:
    """Sides, losses, interceptions and rolls of a tactical battle, with the link to check the dice (M2)."""
    record = battle.record
    roster = battle.roster
    side_names = {"attacker": _("Attacker"), "defender": _("Defender")}
    title = _("Battle #%(id)s in %(province)s") % {"id": record.pk, "province": record.province.name}
    lines = [f"[b]{bbcode_text(title)}[/b]"]
    if state.winner is not None:
        lines.append(_("Winner: %(side)s") % {"side": side_names[state.winner.value]})
    for side in ("attacker", "defender"):
        lines.append(f"[b]{side_names[side]}[/b]")
        lines.append("[list]")
        for unit in sorted((u for u in state.units.values() if u.side.value == side), key=lambda u: u.id):
            facts = roster.get(unit.id) or {}
            commander = (facts.get("commander") or {}).get("name", "")
            halves = max(unit.health, 0)
            status = {Status.ROUTED: _("routed"), Status.WITHDRAWN: _("withdrawn")}.get(unit.status, "")
            line = f"[*]{bbcode_text(unit_name(roster, unit.id))}"
            if commander:
                line += f" — {bbcode_text(commander)}"
            # A half-line count reads as a plural of "few" ("2½ линии", "½ lines"): counted as 2 (T3.1).
            count = halves // 2 if halves % 2 == 0 else 2
            line += " — " + ngettext("%(health)s line", "%(health)s lines", count) % {"health": lines_text(halves)}
            if status:
                line += f" [b]{status}[/b]"
            lines.append(line)
        lines.append("[/list]")
    lost = [u for u in state.units.values() if u.status is Status.ROUTED]
    lines.append(
        ngettext("Losses: %(count)s unit routed", "Losses: %(count)s units routed", len(lost))
        % {"count": len(lost)}
    )
    interceptions = interception_record(battle=battle)
    if interceptions:
        lines.append(f"[b]{_('Interceptions (T10.4)')}[/b]")
        lines.append("[list]")
        for entry in interceptions:
            said = _("v%(version)s: %(unit)s intercepted %(target)s") % {
                "version": entry.version,
                "unit": bbcode_text(entry.unit_name),
                "target": bbcode_text(entry.target_name),
            }
            back = entry.taken_back
            if back is not None:  # struck through: the log keeps it, but it no longer stands (M1)
                said = f"[s]{said}[/s] — " + bbcode_text(
                    _("Taken back by %(by)s in v%(version)s at %(at)s UTC (M1): %(reason)s")
                    % {"by": back.by, "version": back.version, "at": back.at.astimezone(UTC).strftime("%H:%M:%S.%f"),
                       "reason": back.reason}
                )
            lines.append(f"[*]{said}")
        lines.append("[/list]")
    if dice is not None and dice.rolls:
        lines.append(f"[b]{_('Dice (M2)')}[/b]")
        lines.append("[list]")
        for roll in dice.rolls:
            lines.append(f"[*]#{roll.number}: {roll.logged} — {bbcode_text(roll.why)}")
        lines.append("[/list]")
    # The link is the site's own address (its host checked against ALLOWED_HOSTS), not free text.
    lines.append(_("Check every die: %(url)s") % {"url": f"[url]{verify_url}[/url]"})
    return "\n".join(lines) + "\n"
