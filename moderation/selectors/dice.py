"""Dice anyone can check (M2): every logged roll of a battle recomputed from the revealed seed.

A tactical battle logs its dice on the ``BattleEvent`` rows (roll ``rolls_before + i`` of a row); a quick
battle logs each 3d6 roll in the campaign log (``quick_battle_roll``: roll ``n`` uses dice 3n..3n+2).
Roll ``k`` of a seed is ``combat.dice.seeded_roll(seed, k)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from campaign.models import LogEntry
from combat.dice import seed_commitment, seeded_roll
from strategic.models import Battle, QuickBattleRecord
from tactical.models import BattleEvent, LiveBattle
from tactical.protocol.eventtext import action_sentence, unit_name


@dataclass(frozen=True)
class CheckedRoll:
    """One die as logged, and as recomputed from the seed (None while the seed is secret)."""

    number: int
    asked_by: str
    at: datetime
    why: str
    logged: int
    recomputed: int | None

    @property
    def matches(self) -> bool | None:
        """True or False once the seed is revealed; None before."""
        return None if self.recomputed is None else self.recomputed == self.logged


@dataclass
class DiceReport:
    """The verification of one battle's dice."""

    battle: Battle
    kind: str  # "tactical" or "quick"
    commitment: str
    published_at: datetime | None
    seed: str | None  # hex, once revealed
    rolls: list[CheckedRoll] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def commitment_ok(self) -> bool | None:
        """Whether SHA-256 of the revealed seed is the published commitment (None before the reveal)."""
        if self.seed is None:
            return None
        try:
            return seed_commitment(bytes.fromhex(self.seed)) == self.commitment
        except ValueError:
            return False

    @property
    def mismatches(self) -> int:
        """How many logged rolls differ from the recomputed ones."""
        return sum(1 for r in self.rolls if r.matches is False)

    @property
    def verified(self) -> bool:
        """The seed is revealed, matches its commitment, every roll matches and nothing is missing."""
        return bool(self.commitment_ok) and self.mismatches == 0 and not self.problems


def _seed_bytes(seed_hex: str | None) -> bytes | None:
    try:
        return bytes.fromhex(seed_hex) if seed_hex else None
    except ValueError:
        return None


def _recompute(seed: bytes | None, number: int) -> int | None:
    return None if seed is None else seeded_roll(seed, number)


def _tactical(battle: Battle, live: LiveBattle) -> DiceReport:
    rows = list(BattleEvent.objects.filter(battle=live).select_related("actor").order_by("version"))
    setup = rows[0] if rows else None
    created: dict[str, Any] = next(
        (e for e in (setup.events if setup else []) if e.get("type") == "battle_created"), {}
    )
    revealed = next((e["seed"] for r in rows for e in r.events if e.get("type") == "seed_revealed"), None)
    report = DiceReport(
        battle=battle,
        kind="tactical",
        commitment=live.seed_commitment,
        published_at=setup.created_at if setup else None,
        seed=revealed,
    )
    if created.get("commitment") not in (None, live.seed_commitment):
        report.problems.append(_("The commitment logged at the setup differs from the one shown now."))
    seed = _seed_bytes(revealed)
    expected = 0
    for row in rows:
        if not row.dice:
            continue
        if row.rolls_before != expected:
            report.problems.append(
                _("Version %(version)s starts at roll %(start)s; roll %(expected)s was expected.")
                % {"version": row.version, "start": row.rolls_before, "expected": expected}
            )
        reasons = [e for e in row.events if e.get("type") == "die_rolled"]
        for index, value in enumerate(row.dice):
            number = row.rolls_before + index
            why = _("T7.6: both units of a pair destroyed at once")
            if index < len(reasons):
                pair = reasons[index].get("pair") or ["?", "?"]
                why = _("T7.6: %(a)s and %(b)s destroyed each other") % {
                    "a": unit_name(live.roster, pair[0]),
                    "b": unit_name(live.roster, pair[1]),
                }
            action = action_sentence(row.action, live.roster)
            report.rolls.append(
                CheckedRoll(
                    number=number,
                    asked_by=row.actor.get_username() if row.actor else _("the clock"),
                    at=row.created_at,
                    why=f"{why} — v{row.version}: {action}".strip(),
                    logged=int(value),
                    recomputed=_recompute(seed, number),
                )
            )
        expected = row.rolls_before + len(row.dice)
    if expected != live.rolls_used:
        report.problems.append(
            _("The battle counts %(used)s rolls; the log holds %(logged)s.")
            % {"used": live.rolls_used, "logged": expected}
        )
    return report


def _quick(battle: Battle, record: QuickBattleRecord) -> DiceReport:
    entries = LogEntry.objects.filter(campaign_id=battle.campaign_id, data__battle=battle.pk).select_related(
        "actor"
    )
    begun = entries.filter(kind="quick_battle_begun").order_by("id").first()
    seed_hex = record.seed or None
    report = DiceReport(
        battle=battle,
        kind="quick",
        commitment=record.seed_commitment,
        published_at=begun.created_at if begun else record.created_at,
        seed=seed_hex,
    )
    if begun is not None and begun.data.get("commitment") != record.seed_commitment:
        report.problems.append(
            _("The commitment logged before the first die differs from the one shown now.")
        )
    seed = _seed_bytes(seed_hex)
    rolls = sorted(entries.filter(kind="quick_battle_roll"), key=lambda e: (e.data.get("number", 0), e.pk))
    for position, entry in enumerate(rolls):
        data = entry.data
        if data.get("number") != position:
            report.problems.append(_("Roll %(number)s is missing from the log.") % {"number": position})
        why = f"{entry.rule}: {data.get('purpose', '')} — {data.get('side', '')} {data.get('roller', '')}".strip()
        for index, value in enumerate(data.get("dice") or []):
            number = 3 * position + index
            report.rolls.append(
                CheckedRoll(
                    number=number,
                    asked_by=entry.actor.get_username() if entry.actor else "",
                    at=entry.created_at,
                    why=why,
                    logged=int(value),
                    recomputed=_recompute(seed, number),
                )
            )
    return report


def dice_report(*, battle: Battle) -> DiceReport | None:
    """The dice of a battle fought on the tactical map or resolved as a quick battle; None if it has none."""
    live = LiveBattle.objects.filter(pk=battle.pk).first()
    if live is not None:
        return _tactical(battle, live)
    record = QuickBattleRecord.objects.filter(battle=battle).first()
    if record is not None:
        return _quick(battle, record)
    return None


def roll_summary(report: DiceReport) -> dict[str, Any]:
    """The report as JSON (the public API of the verification page)."""
    return {
        "battle": report.battle.pk,
        "kind": report.kind,
        "commitment": report.commitment,
        "seed": report.seed,
        "commitment_ok": report.commitment_ok,
        "verified": report.verified,
        "problems": [str(p) for p in report.problems],
        "rolls": [
            {
                "number": r.number,
                "asked_by": r.asked_by,
                "at": r.at.isoformat(),
                "why": r.why,
                "logged": r.logged,
                "recomputed": r.recomputed,
                "matches": r.matches,
            }
            for r in report.rolls
        ],
    }
