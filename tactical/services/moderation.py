"""The moderator's controls of a live battle (M1, M2, T6.1, T7.6): the clock, corrections, undo, the die.

Each is for the campaign's moderators only (403) and needs a reason (400 naming ``reason``). Each locks
the battle row, stores ``version + 1`` with one ``BattleEvent`` that carries the moderator and the reason
(through ``journal.record_version``, which also pushes the board after commit) and appends the reason to the
campaign log (M3).

While the clock is paused or a T7.6 die is awaited the battle is *halted*: every action is refused with 409
(``paused`` or ``awaiting_die``) except the moderator's ending of the battle (T11). When the campaign
setting ``moderator_rolls_die`` is on (the default: "the moderator rolls", M1), an action or a timeout
whose resolution would roll a T7.6 die is not applied: it is stored as pending, the clock stops, and
``battle_die_roll`` applies it with the battle's verifiable dice (M2) and restarts the clock.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaign.errors import Conflict, Forbidden, Invalid
from campaign.messages import NEEDS_LOGIN, NEEDS_MODERATOR
from campaign.permissions import Actor, can_moderate
from campaign.services import log_append
from combat.battle.corrections import CorrectionError, changes_from_list, correct
from combat.battle.model import BattleState, Phase
from combat.battle.serialize import action_from_dict
from tactical.messages import (
    ALREADY_PAUSED,
    AWAITING,
    BAD_SECONDS,
    NEEDS_REASON,
    NO_CLOCK,
    NO_DIE_AWAITED,
    NOT_BEGUN,
    NOT_PAUSED,
    NOTHING_TO_UNDO,
    OVER,
    ROLL_FIRST,
    WINDOW_OPEN,
)
from tactical.models import BattleEvent, LiveBattle
from tactical.selectors.replay import state_rebuild
from tactical.selectors.snapshots import state_of
from tactical.services import clock
from tactical.services.journal import engine_apply, expire_locked, halt_left, halt_save, record_version
from tactical.services.store import lock

Kind = BattleEvent.Kind
MAX_ADD_SECONDS = 600
MAX_REASON = 4000

CORRECTIONS = {
    "not_object": _("Each change is an object with a unit and the values to set."),
    "unknown_field": _("A change may set only x, y, facing, health and arrows."),
    "no_unit": _("There is no such unit in this battle."),
    "not_on_field": _("Only a unit on the field can be corrected."),
    "bad_cell": _("A cell is two whole numbers, x 0..17 and y 0..20."),
    "off_grid": _("The cell is off the field (x 0..17, y 0..20)."),
    "impassable": _("The cell is impassable."),
    "occupied": _("Another unit stands in that cell."),
    "bad_facing": _("Facing is N, E, S or W."),
    "bad_health": _("Health is counted in lines and half lines."),
    "health_range": _("Health is from 0 to the unit's full health (%(maximum)s)."),
    "bad_arrows": _("Arrows are a whole number."),
    "arrows_range": _("Arrows are from 0 to the unit's full supply (%(maximum)s)."),
    "nothing": _("The change changes nothing."),
    "empty": _("List at least one change."),
}


# -- the halt: hooks of the action path (tactical/services/play.py) ---------------------------------------


# -- helpers ---------------------------------------------------------------------------------------


def _begin(actor: Actor, battle_id: int, reason: Any) -> tuple[LiveBattle, str, datetime]:
    """Lock the battle, check the moderator and the reason, end an overdue turn first (T6.1)."""
    if actor is None or not getattr(actor, "is_authenticated", False):
        raise Forbidden(NEEDS_LOGIN)
    battle = lock(battle_id)
    if not can_moderate(actor, battle.campaign):
        raise Forbidden(NEEDS_MODERATOR, rule="M1")
    if not isinstance(reason, str) or not reason.strip() or len(reason) > MAX_REASON:
        raise Invalid(NEEDS_REASON, field="reason", rule="M1")
    now = timezone.now()
    if battle.pending is None:
        expire_locked(battle, now)
    if battle.status == LiveBattle.Status.ENDED:
        raise Conflict(OVER, rule="T11")
    return battle, reason.strip(), now


def _schedule(battle: LiveBattle) -> None:
    if battle.deadline is not None:
        battle_id, turn_key, deadline = battle.pk, battle.turn_key, battle.deadline
        transaction.on_commit(lambda: clock.schedule_timeout(battle_id, turn_key, deadline))


def _write(battle: LiveBattle, state: BattleState, *, kind: str, actor: Actor, now: datetime, why: str,
           action: dict[str, Any], events: list[dict[str, Any]], log_kind: str, rule: str,
           data: dict[str, Any], dice: list[int] | None = None, commander_id: int | None = None) -> BattleEvent:
    """Store the version, keep the halt fields, and log the reason in the campaign log (M3)."""
    by = actor.get_username()
    if state.phase is Phase.ENDED:
        battle.paused_left = battle.pending = None
    row = record_version(battle, state, kind=kind, now=now, actor=actor, commander_id=commander_id,
                  action={**action, "reason": why}, dice=dice,
                  events=[{**event, "by": by, "reason": why} if i == 0 else event for i, event in enumerate(events)])
    halt_save(battle)
    log_append(campaign=battle.campaign, kind=log_kind, actor=actor, rule=rule, reason=why,
               turn=battle.record.turn, data={"battle": battle.pk, "version": row.version, **data})
    return row


def _timed(battle: LiveBattle) -> BattleState:
    state = state_of(battle)
    if not clock.is_timed(state):
        raise Conflict(NO_CLOCK, rule="T6.1")
    return state


# -- the clock (T6.1) ------------------------------------------------------------------------------


def battle_clock_pause(*, actor: Actor, battle_id: int, reason: Any) -> LiveBattle:
    """Stop the turn clock: the time left is kept and the deadline cleared, so no timer ends the turn."""
    with transaction.atomic():
        battle, why, now = _begin(actor, battle_id, reason)
        state = _timed(battle)
        if battle.paused_left is not None:
            raise Conflict(AWAITING if battle.pending is not None else ALREADY_PAUSED, rule="T6.1")
        battle.paused_left = halt_left(battle, now)
        battle.deadline = None
        _write(battle, state, kind=Kind.CLOCK, actor=actor, now=now, why=why, action={"do": "pause_clock"},
               events=[{"type": "clock_paused", "seconds_left": battle.paused_left}],
               log_kind="battle_clock_paused", rule="T6.1", data={"seconds": battle.paused_left})
    return battle


def battle_clock_resume(*, actor: Actor, battle_id: int, reason: Any) -> LiveBattle:
    """Run the clock again: the deadline is now plus the time that was left, and its timer is queued."""
    with transaction.atomic():
        battle, why, now = _begin(actor, battle_id, reason)
        state = _timed(battle)
        if battle.pending is not None:
            raise Conflict(ROLL_FIRST, rule="T7.6")
        if battle.paused_left is None:
            raise Conflict(NOT_PAUSED, rule="T6.1")
        left = battle.paused_left
        battle.paused_left = None
        battle.deadline = now + timedelta(seconds=left)
        _write(battle, state, kind=Kind.CLOCK, actor=actor, now=now, why=why, action={"do": "resume_clock"},
               events=[{"type": "clock_resumed", "seconds_left": left}],
               log_kind="battle_clock_resumed", rule="T6.1", data={"seconds": left})
        _schedule(battle)
    return battle


def battle_clock_add_time(*, actor: Actor, battle_id: int, seconds: Any, reason: Any) -> LiveBattle:
    """Give the side more time in its turn: 1 to 600 seconds, paused or running."""
    with transaction.atomic():
        battle, why, now = _begin(actor, battle_id, reason)
        if isinstance(seconds, bool) or not isinstance(seconds, int) or not 1 <= seconds <= MAX_ADD_SECONDS:
            raise Invalid(BAD_SECONDS, field="seconds", rule="T6.1")
        state = _timed(battle)
        if battle.paused_left is not None:
            battle.paused_left = round(battle.paused_left + seconds, 3)
            left = battle.paused_left
        elif battle.deadline is not None:
            battle.deadline += timedelta(seconds=seconds)
            left = halt_left(battle, now)
        else:
            raise Conflict(NO_CLOCK, rule="T6.1")
        _write(battle, state, kind=Kind.CLOCK, actor=actor, now=now, why=why,
               action={"do": "add_time", "seconds": seconds},
               events=[{"type": "time_added", "seconds": seconds, "seconds_left": left}],
               log_kind="battle_time_added", rule="T6.1", data={"seconds": seconds})
        if battle.paused_left is None:
            _schedule(battle)
    return battle


# -- corrections and undo (M1) ----------------------------------------------------------------------


def _playing(battle: LiveBattle) -> BattleState:
    if battle.pending is not None:
        raise Conflict(ROLL_FIRST, rule="T7.6")
    state = state_of(battle)
    if state.phase is Phase.DEPLOYMENT:
        raise Conflict(NOT_BEGUN, rule="T1")
    return state


def battle_correct(*, actor: Actor, battle_id: int, changes: Any, reason: Any) -> LiveBattle:
    """Move or turn units, set their health or arrows (``combat.battle.corrections`` checks every change).

    Refused (409, T10) while an interception window is open: the interceptions declared in it were legal on
    the board before the correction (reach, contact, entered melee this turn), and cancelling them could not
    take back what they did (the move, a volley's damage, T10.3, the T10.4 record). The moderator closes
    the window (on the side's behalf, or its time runs out), then corrects; undo stays allowed, since it
    restores a whole earlier board. See docs/tactical-protocol.md, the moderator's hold.
    """
    with transaction.atomic():
        battle, why, now = _begin(actor, battle_id, reason)
        try:
            parsed = changes_from_list(changes)
            state = _playing(battle)
            if state.phase is Phase.INTERCEPTION:
                raise Conflict(WINDOW_OPEN, rule="T10")
            new, events = correct(state, parsed)
        except CorrectionError as error:
            message = str(CORRECTIONS.get(error.code, CORRECTIONS["nothing"]))
            raise Invalid(message % error.params if "%(" in message else message,
                               field=error.field, rule="M1") from None
        plain = [dict(item) for item in changes]
        _write(battle, new, kind=Kind.CORRECTION, actor=actor, now=now, why=why,
               action={"do": "correct", "changes": plain}, events=[{"type": "corrected"}, *events],
               log_kind="battle_corrected", rule="M1",
               data={"units": ", ".join(sorted({c.unit for c in parsed}))})
    return battle


def _undoable(battle: LiveBattle) -> BattleEvent | None:
    """The last player action not yet taken back, if it belongs to the current side's turn.

    Walking back from the newest row: clock changes and "done" are passed over, an undo passes over the
    action it took back; any other row (a correction, a timeout, a die, the start) stops the walk.
    """
    undone: set[int] = set()
    for row in BattleEvent.objects.filter(battle=battle).order_by("-version").only("version", "kind", "action"):
        if row.kind in (Kind.CLOCK, Kind.DONE) or row.version in undone:
            continue
        if row.kind == Kind.UNDO:
            undone.add(int(row.action["undoes"]))
            continue
        if row.kind in (Kind.ACTION, Kind.MODERATOR) and (row.action or {}).get("do") not in ("batch", "end_battle"):
            return row
        return None
    return None


def battle_action_undo(*, actor: Actor, battle_id: int, reason: Any) -> LiveBattle:
    """Take back the last player action of the current turn: the board before it returns, both stay logged."""
    with transaction.atomic():
        battle, why, now = _begin(actor, battle_id, reason)
        _playing(battle)
        target = _undoable(battle)
        before = state_rebuild(battle, upto=target.version - 1) if target is not None else None
        if target is None or before is None or clock.turn_key_of(before) != battle.turn_key:
            raise Conflict(NOTHING_TO_UNDO, rule="M1")
        _write(battle, before, kind=Kind.UNDO, actor=actor, now=now, why=why,
               action={"do": "undo", "undoes": target.version},
               events=[{"type": "action_undone", "version": target.version, "action": target.action}],
               log_kind="battle_action_undone", rule="M1", data={"undone": target.version})
    return battle


# -- the die (T7.6, M2) -----------------------------------------------------------------------------


def battle_die_roll(*, actor: Actor, battle_id: int, reason: Any) -> LiveBattle:
    """Roll the awaited T7.6 die: the pending action is applied with the battle's dice, the clock runs again."""
    with transaction.atomic():
        battle, why, now = _begin(actor, battle_id, reason)
        if battle.pending is None:
            raise Conflict(NO_DIE_AWAITED, rule="T7.6")
        pending = battle.pending
        state = state_of(battle)
        new, events, dice = engine_apply(battle, state, action_from_dict(pending["action"]))
        key = battle.turn_key
        battle.deadline = now + timedelta(seconds=battle.paused_left or 0)
        battle.paused_left = None
        battle.pending = None
        _write(battle, new, kind=Kind.DIE_ROLL, actor=actor, now=now, why=why,
               action={"do": "die_roll", "action": pending["action"]}, dice=dice,
               commander_id=pending.get("commander"),
               events=[{"type": "moderator_rolled", "rule": "T7.6", "dice": dice}, *pending.get("events", []),
                       *events],
               log_kind="battle_die_rolled", rule="T7.6", data={"dice": ", ".join(map(str, dice))})
        if battle.turn_key == key:
            _schedule(battle)
    return battle
