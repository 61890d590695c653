"""The live battle's journal: every version of a battle is written here, by the players' services
(``play``) and the moderator's (``moderation``) alike.

``record_version`` stores a state as the next version, appends its log row and pushes it after commit;
``engine_apply`` calls the rules engine with the battle's sealed dice; ``expire_locked`` ends an overdue
turn (T6.1); the halt (``refuse_halted``, ``die_await``) is how the moderator's pause and the T7.6 die
hold the action path.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction

from campaign.errors import Conflict
from campaign.permissions import Actor
from combat.battle.actions import Action, EndTurn
from combat.battle.engine import apply
from combat.battle.model import BattleState, Phase
from combat.battle.serialize import action_to_dict, event_to_dict, state_to_dict
from combat.dice import SeededDice
from combat.errors import IllegalAction, InvalidAction
from tactical import errors
from tactical.messages import AWAITING, PAUSED
from tactical.models import BattleEvent, LiveBattle
from tactical.protocol.board import board_state, iso
from tactical.protocol.messages import event_message
from tactical.protocol.push import battle_group, dumps, send_on_commit
from tactical.selectors.snapshots import remember, state_of
from tactical.services import clock
from tactical.services.finish import battle_finish
from tactical.services.store import store


def record_version(
    battle: LiveBattle,
    state: BattleState,
    *,
    kind: str,
    now: datetime,
    actor: Actor | None = None,
    commander_id: int | None = None,
    action: dict[str, Any] | None = None,
    action_id: str = "",
    events: list[dict[str, Any]] | None = None,
    dice: list[int] | None = None,
) -> BattleEvent:
    """Store ``state`` as the next version, append its log row and push it after commit."""
    events = list(events or [])
    dice = list(dice or [])
    rolls_before = battle.rolls_used
    battle.version += 1
    battle.state = state_to_dict(state)
    transaction.on_commit(lambda version=battle.version: remember(battle.pk, version, battle.seed_commitment, state))
    battle.rolls_used = rolls_before + len(dice)
    key = clock.turn_key_of(state)
    new_turn = key != battle.turn_key
    if new_turn:
        battle.turn_key = key
        battle.done = []
        battle.deadline = now + timedelta(seconds=state.settings.turn_seconds) if clock.is_timed(state) else None
    if state.phase is Phase.ENDED and battle.status != LiveBattle.Status.ENDED:
        battle.status = LiveBattle.Status.ENDED
        battle.ended_at = now
        events.append({"type": "seed_revealed", "seed": bytes(battle.seed).hex()})
        events.extend(battle_finish(battle=battle, state=state, actor=actor))
    elif clock.is_timed(state):
        battle.status = LiveBattle.Status.LIVE
    row = BattleEvent(
        battle=battle, version=battle.version, kind=kind,
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        commander_id=commander_id, action_id=action_id, action=action, events=events,
        rolls_before=rolls_before, dice=dice, created_at=now,
    )
    store(battle, row)
    row.board_json = dumps(board_state(battle, state, now))  # type: ignore[attr-defined]
    send_on_commit([battle_group(battle.pk)], event_message(row, None), row.board_json,  # type: ignore[attr-defined]
                   version=battle.version, deadline=iso(battle.deadline), turn_key=battle.turn_key)
    if new_turn and battle.deadline is not None:
        battle_id, turn_key, deadline = battle.pk, battle.turn_key, battle.deadline
        transaction.on_commit(lambda: clock.schedule_timeout(battle_id, turn_key, deadline))
    return row


def engine_apply(battle: LiveBattle, state: BattleState, action: Action) -> tuple[BattleState, list[dict[str, Any]], list[int]]:
    """The engine applies the action with the battle's sealed dice; a refusal becomes the protocol's error."""
    dice = SeededDice(bytes(battle.seed), start=battle.rolls_used)
    try:
        outcome = apply(state, action, dice)
    except IllegalAction as error:
        code = "ended" if error.rule == "T11" and state.phase is Phase.ENDED else "illegal"
        raise errors.refused_by_rules(error, code=code, roster=battle.roster) from None
    except InvalidAction as error:
        raise errors.malformed(error, roster=battle.roster) from None
    return outcome.state, [event_to_dict(e) for e in outcome.events], list(dice.rolls)


def expire_locked(battle: LiveBattle, now: datetime) -> bool:
    """T6.1: end the side's turn if its deadline has passed (an open window closes without more)."""
    if battle.deadline is None or now < battle.deadline or battle.status != LiveBattle.Status.LIVE:
        return False
    state = state_of(battle)
    if not clock.is_timed(state):
        return False
    action = EndTurn(state.side)
    timed_out = {"type": "turn_timed_out", "side": state.side.value, "round": state.round,
                 "deadline": iso(battle.deadline)}
    new, events, dice = engine_apply(battle, state, action)
    if dice and moderator_rolls(battle):  # moderator hook: T7.6 waits for the moderator
        die_await(battle, state, kind=BattleEvent.Kind.TIMEOUT, action=action_to_dict(action),
                                     now=now, events=[timed_out])
        return True
    record_version(battle, new, kind=BattleEvent.Kind.TIMEOUT, now=now, action=action_to_dict(action),
            events=[timed_out, *events], dice=dice)
    return True


# -- the halt: the moderator's pause and the T7.6 die hold the action path ------------------------


def refuse_halted(battle: LiveBattle, action: Any) -> None:
    """409 for any action while the clock is paused or a die is awaited, except ending the battle."""
    if getattr(action, "do", None) == "end_battle":
        return
    if battle.pending is not None:
        raise Conflict(AWAITING, code="awaiting_die", rule="T7.6")
    raise Conflict(PAUSED, code="paused", rule="T6.1")


def moderator_rolls(battle: LiveBattle) -> bool:
    """Whether a T7.6 die waits for the moderator in this battle's campaign (``moderator_rolls_die``)."""
    return bool(battle.campaign.setting("moderator_rolls_die"))


def die_await(battle: LiveBattle, state: BattleState, *, kind: str, action: dict[str, Any], now: datetime,
              actor: Actor | None = None, commander_id: int | None = None, action_id: str = "",
              events: list[dict[str, Any]] | None = None) -> BattleEvent:
    """Keep an action whose resolution needs a T7.6 die; the board is unchanged and the clock stops."""
    before = list(events or [])
    battle.paused_left = halt_left(battle, now)
    battle.deadline = None
    battle.pending = {"action": action, "kind": kind, "commander": commander_id, "events": before}
    row = record_version(battle, state, kind=BattleEvent.Kind.AWAIT_DIE, now=now, actor=actor, commander_id=commander_id,
                  action=action, action_id=action_id,  # as sent, so that a resend finds it
                  events=[*before, {"type": "die_awaited", "rule": "T7.6"}])
    halt_save(battle)
    return row


def halt_left(battle: LiveBattle, now: datetime) -> float:
    if battle.paused_left is not None:
        return battle.paused_left
    if battle.deadline is None:
        return 0.0
    return round(max((battle.deadline - now).total_seconds(), 0.0), 3)


def halt_save(battle: LiveBattle) -> None:
    """The two halt fields, which the move path's single-statement store does not write."""
    LiveBattle.objects.filter(pk=battle.pk).update(paused_left=battle.paused_left, pending=battle.pending)
