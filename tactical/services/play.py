"""Writes of live battles: setup, map, every action (HTTP and WebSocket alike), the clock, orders.

Every write locks the battle row, ends an overdue turn first (T6.1), stores the engine state with
``version + 1``, appends one ``BattleEvent`` and pushes after commit (``tactical.protocol.push``).
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from campaign.errors import Conflict, NotFound, ServiceError
from campaign.models import Commander
from campaign.permissions import Actor, can_moderate
from combat.battle.actions import Action, Concede, Deploy, EndBattle, EndTurn, Ready
from combat.battle.geometry import deployment_rows
from combat.battle.model import BattleState, CellFeature, Phase, Side, Status, Terrain
from combat.battle.serialize import action_from_dict, action_to_dict, state_to_dict
from combat.dice import seed_commitment
from combat.errors import IllegalAction, InvalidAction
from notifications.names import both
from notifications.services.inbox import notify_on_commit
from strategic.models import Battle
from strategic.services.battles import battle_tactical_start
from tactical import errors, mapgen
from tactical.messages import (
    ALREADY_SET_UP,
    BAD_ACTION_ID,
    BAD_CELL,
    DUPLICATE_ID,
    EMPTY_ORDER,
    MODERATORS_ONLY,
    NEEDS_LOGIN,
    NO_UNITS,
    NOT_CHIEF,
    NOT_EDITABLE,
    NOT_IN_SETUP,
    NOT_LEADER,
    NOT_OPEN,
    NOT_PENDING,
    NOT_YOUR_SIDE,
    NOT_YOUR_UNIT,
    ROUTE_CUT,
    STALE,
)
from tactical.models import BattleEvent, BattleUnit, LiveBattle
from tactical.protocol.board import board_state
from tactical.protocol.push import send_on_commit
from tactical.selectors.battles import side_chief
from tactical.selectors.snapshots import state_of
from tactical.services.building import combatants, engine_settings, initial_state, roster_entry
from tactical.services.journal import (
    die_await,
    engine_apply,
    expire_locked,
    moderator_rolls,
    record_version,
    refuse_halted,
)
from tactical.services.store import Seat, lock, seats

log = logging.getLogger(__name__)
ACTION_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")


@dataclass
class ActionResult:
    """What an action did: the version it made (or had made, for a resend) and its events."""

    battle: LiveBattle
    version: int
    events: list[dict[str, Any]]
    replayed: bool
    action_id: str
    state_json: str | None = None  # the board after this version, encoded (None for a resend)


def _require_login(actor: Actor) -> None:
    if actor is None or not getattr(actor, "is_authenticated", False):
        raise errors.denied(NEEDS_LOGIN)


# -- setup and the map ------------------------------------------------------------------------------


@transaction.atomic
def battle_setup(*, actor: Actor, record: Battle, map_seed: int | None = None,
                 open_deployment: bool = True) -> LiveBattle:
    """A moderator takes a pending battle to the tactical map: sides, map, sealed dice (S7–S9, M2).

    With ``open_deployment=False`` the battle waits in setup: the moderator prepares the field (a new map,
    painted cells) and only ``battle_deployment_open`` lets the commanders deploy."""
    _require_login(actor)
    if not can_moderate(actor, record.campaign):
        raise errors.denied(MODERATORS_ONLY)
    if LiveBattle.objects.filter(pk=record.pk).exists():
        raise Conflict(ALREADY_SET_UP, code="exists")
    if record.status != Battle.Status.PENDING:
        raise Conflict(NOT_PENDING, code="illegal", rule="S7")
    fighters = combatants(record)
    if {f.side for f in fighters if not f.reinforcement} != {Side.ATTACKER, Side.DEFENDER}:
        raise errors.invalid(NO_UNITS)
    settings = engine_settings(record.campaign)
    map_seed = secrets.randbelow(2**31) if map_seed is None else int(map_seed)
    cells = mapgen.generate(Terrain(record.terrain), map_seed, settings.deployment_rows)
    state = initial_state(record, fighters, cells, settings)
    battle_tactical_start(actor=actor, battle=record)
    seed = secrets.token_bytes(32)
    now = timezone.now()
    battle = LiveBattle.objects.create(
        record=record, campaign=record.campaign, state=state_to_dict(state), version=0, turn_key="",
        map_seed=map_seed, seed=seed, seed_commitment=seed_commitment(seed),
        roster={f.engine_id: roster_entry(f) for f in fighters}, created_at=now,
        status=LiveBattle.Status.DEPLOYMENT if open_deployment else LiveBattle.Status.SETUP,
    )
    BattleUnit.objects.bulk_create(
        BattleUnit(battle=battle, engine_id=f.engine_id, unit=f.unit, side=f.side.value,
                   faction=f.unit.faction, commander=f.commander, reinforcement=f.reinforcement)
        for f in fighters
    )
    record_version(battle, state, kind=BattleEvent.Kind.SETUP, now=now, actor=actor,
            action={"do": "setup", "state": state_to_dict(state), "map_seed": map_seed},
            events=[{"type": "battle_created", "commitment": battle.seed_commitment, "map_seed": map_seed}])
    if open_deployment:
        deployment_open_notify(battle=battle)
    return battle


def battle_deployment_open(*, actor: Actor, battle_id: int) -> LiveBattle:
    """A moderator ends the setup: the field is as he left it and the commanders may deploy (T1)."""
    _require_login(actor)
    with transaction.atomic():
        battle = lock(battle_id)
        if not can_moderate(actor, battle.campaign):
            raise errors.denied(MODERATORS_ONLY)
        if battle.status != LiveBattle.Status.SETUP:
            raise Conflict(NOT_IN_SETUP, code="not_in_setup", rule="T1")
        battle.status = LiveBattle.Status.DEPLOYMENT
        record_version(battle, state_of(battle), kind=BattleEvent.Kind.OPEN, now=timezone.now(), actor=actor,
                       action={"do": "open"}, events=[{"type": "deployment_opened"}])
        deployment_open_notify(battle=battle)
        return battle


def _refuse_in_setup(battle: LiveBattle) -> None:
    if battle.status == LiveBattle.Status.SETUP:
        raise Conflict(NOT_OPEN, code="not_open", rule="T1")
def deployment_open_notify(*, battle: LiveBattle) -> None:
    """Tell every commander with units in the battle that its board is open for deployment (after commit).

    Called when the board opens: at setup when it opens at once, else when the moderator opens the deployment.
    """
    record = battle.record
    users = BattleUnit.objects.filter(battle=battle, commander__user__isnull=False).values_list(
        "commander__user_id", flat=True
    )
    notify_on_commit(
        kind="deployment_open", user_ids=set(users), key=f"deploy:{battle.pk}", campaign_id=battle.campaign_id,
        params={"campaign": record.campaign.name, "province": both(record.province)},
        link=reverse("battle-board", args=[battle.pk]),
    )


def _editable(battle: LiveBattle, actor: Actor) -> BattleState:
    _require_login(actor)
    if not can_moderate(actor, battle.campaign):
        raise errors.denied(MODERATORS_ONLY)
    state = state_of(battle)
    if state.phase is not Phase.DEPLOYMENT or any(u.status is Status.FIELD for u in state.units.values()):
        raise Conflict(NOT_EDITABLE, code="not_editable", rule="T5")
    return state


def _map_changed(battle: LiveBattle, state: BattleState, cells: dict[Any, CellFeature], actor: Actor,
                 map_seed: int, kind_of_change: str) -> LiveBattle:
    if not mapgen.zones_connected(cells, state.settings.deployment_rows):
        raise errors.invalid(ROUTE_CUT, rule="T5")
    # Row by row, as the log stores them: the replay rebuilds the cells in this order (M3).
    cells = dict(sorted(cells.items(), key=lambda i: (i[0][1], i[0][0])))
    new = replace(state, cells=cells)
    battle.map_seed = map_seed
    plain = [[x, y, f.value] for (x, y), f in cells.items()]
    record_version(battle, new, kind=BattleEvent.Kind.MAP, now=timezone.now(), actor=actor,
            action={"do": "map", "cells": plain, "map_seed": map_seed},
            events=[{"type": "map_changed", "change": kind_of_change, "map_seed": map_seed,
                     "cells": [{"x": x, "y": y, "feature": f} for x, y, f in plain]}])
    return battle


def battle_map_regenerate(*, actor: Actor, battle_id: int, map_seed: int | None = None) -> LiveBattle:
    """A moderator draws a new map before deployment (T5 Interpretation)."""
    with transaction.atomic():
        battle = lock(battle_id)
        state = _editable(battle, actor)
        seed = secrets.randbelow(2**31) if map_seed is None else int(map_seed)
        cells = mapgen.generate(state.terrain, seed, state.settings.deployment_rows)
        return _map_changed(battle, state, cells, actor, seed, "regenerated")


def battle_map_edit(*, actor: Actor, battle_id: int, cells: list[dict[str, Any]]) -> LiveBattle:
    """A moderator sets or clears single cells before deployment; the route between zones must remain."""
    with transaction.atomic():
        battle = lock(battle_id)
        state = _editable(battle, actor)
        new = dict(state.cells)
        for index, item in enumerate(cells if isinstance(cells, list) else [None]):
            ok = isinstance(item, dict) and all(isinstance(item.get(k), int) and not isinstance(item.get(k), bool)
                                                for k in ("x", "y"))
            if ok and not (0 <= item["x"] < 18 and 0 <= item["y"] < 21):  # type: ignore[index]
                ok = False
            feature = item.get("feature") if isinstance(item, dict) else None
            if ok and feature is not None and feature not in {f.value for f in CellFeature}:
                ok = False
            if not ok:
                raise errors.invalid(BAD_CELL, field=f"cells[{index}]")
            cell = (item["x"], item["y"])  # type: ignore[index]
            if feature is None:
                new.pop(cell, None)
            else:
                new[cell] = CellFeature(feature)
        return _map_changed(battle, state, new, actor, battle.map_seed, "edited")


# -- actions ---------------------------------------------------------------------------------------


def _authorize(actor: Actor, battle: LiveBattle, state: BattleState, action: Action,
               rows: dict[str, Seat], is_moderator: Callable[[], bool]) -> tuple[int | None, str, set[int]]:
    """T2: who acts; returns (the commander recorded, the event kind, the actor's commanders on the side).

    The moderator check costs a query, so it is made only when the actor does not command what he acts with.
    """
    unit_id = getattr(action, "unit", None)
    if unit_id is not None:
        row = rows.get(unit_id)
        own = row is not None and row.user_id is not None and row.user_id == actor.id
        if not own and not is_moderator():
            raise errors.denied(NOT_YOUR_UNIT, rule="T2")
        return (row.commander_id if row else None), (BattleEvent.Kind.ACTION if own else BattleEvent.Kind.MODERATOR), set()
    if isinstance(action, EndBattle):
        if not is_moderator():
            raise errors.denied(MODERATORS_ONLY, rule="T11")
        return None, BattleEvent.Kind.MODERATOR, set()
    side = getattr(action, "side", None) or state.side
    mine = {r.commander_id for r in rows.values()
            if r.side == side.value and r.user_id is not None and r.user_id == actor.id}
    if isinstance(action, Concede):
        chief = side_chief(battle=battle, side=side)
        if chief not in mine and not is_moderator():
            raise errors.denied(NOT_CHIEF, rule="T11")
        return (chief if chief in mine else None), (BattleEvent.Kind.ACTION if chief in mine else BattleEvent.Kind.MODERATOR), mine
    if not mine and not is_moderator():
        raise errors.denied(NOT_YOUR_SIDE, rule="T2")
    return (min(mine) if mine else None), (BattleEvent.Kind.ACTION if mine else BattleEvent.Kind.MODERATOR), mine


def _needed(rows: dict[str, Seat], state: BattleState, side: Side, deploying: bool) -> set[int]:
    """Commanders who must say done (T6) or ready (T1) before the side's turn ends or it is ready."""
    wanted = (Status.UNDEPLOYED, Status.FIELD) if deploying else (Status.FIELD,)
    return {row.commander_id for row in rows.values()
            if row.side == side.value and row.commander_id is not None
            and state.units[row.engine_id].status in wanted}


def _apply_locked(battle: LiveBattle, actor: Actor, action: Action, normalized: dict[str, Any],
                  action_id: str, expected_version: int | None, now: datetime) -> ActionResult:
    if expected_version is not None and expected_version != battle.version:
        raise Conflict(STALE, code="stale", version=battle.version, state=board_state(battle, now=now))
    _refuse_in_setup(battle)
    state = state_of(battle)
    if state.phase is Phase.ENDED:
        raise errors.refused_by_rules(IllegalAction("T11", "the battle is over; no further action is accepted",
                                                    code="battle_over"), code="ended")
    if battle.paused_left is not None or battle.pending is not None:  # moderator hook: the clock is halted
        refuse_halted(battle, action)
    rows = seats(battle)
    commander_id, kind, mine = _authorize(actor, battle, state, action, rows, lambda: can_moderate(actor, battle.campaign))
    if isinstance(action, (EndTurn, Ready)) and mine and state.phase is not Phase.ENDED:
        side = action.side or state.side
        deploying = isinstance(action, Ready)
        if deploying and state.phase is Phase.DEPLOYMENT:
            waiting = sorted(r.engine_id for r in rows.values() if r.commander_id in mine
                             and state.units[r.engine_id].status is Status.UNDEPLOYED)
            if waiting:
                raise errors.refused_by_rules(IllegalAction("T1", f"deploy every unit first: {', '.join(waiting)}",
                                                            code="units_undeployed", params={"units": waiting}),
                                              roster=battle.roster)
        phase_ok = state.phase is Phase.DEPLOYMENT if deploying else state.phase is not Phase.DEPLOYMENT
        if phase_ok and (side not in state.ready if deploying else side is state.side):
            done = set(battle.done) | mine
            if not _needed(rows, state, side, deploying) <= done:
                battle.done = sorted(done)
                kind_name = "commander_ready" if deploying else "commander_done"
                row = record_version(battle, state, kind=BattleEvent.Kind.DONE, now=now, actor=actor,
                              commander_id=commander_id, action=normalized, action_id=action_id,
                              events=[{"type": kind_name, "commander": c, "side": side.value} for c in sorted(mine)])
                return ActionResult(battle, row.version, row.events, False, action_id, row.board_json)  # type: ignore[attr-defined]
    new, events, dice = engine_apply(battle, state, action)
    if dice and moderator_rolls(battle):  # moderator hook: T7.6 waits for the moderator
        row = die_await(battle, state, kind=kind, action=normalized, now=now, actor=actor,
                                           commander_id=commander_id, action_id=action_id)
        return ActionResult(battle, row.version, row.events, False, action_id, row.board_json)  # type: ignore[attr-defined]
    row = record_version(battle, new, kind=kind, now=now, actor=actor, commander_id=commander_id,
                  action=normalized, action_id=action_id, events=events, dice=dice)
    return ActionResult(battle, row.version, row.events, False, action_id, row.board_json)  # type: ignore[attr-defined]


def battle_action_apply(*, actor: Actor, battle_id: int, action: Any, action_id: str = "",
                        expected_version: int | None = None, now: datetime | None = None) -> ActionResult:
    """Apply one client action (docs/tactical-protocol.md §3); a resent id gets the stored result."""
    _require_login(actor)
    if action_id and not ACTION_ID.match(action_id):
        raise errors.invalid(BAD_ACTION_ID, field="id")
    try:
        parsed = action_from_dict(action)
    except InvalidAction as error:
        raise errors.malformed(error) from None
    normalized = action_to_dict(parsed)
    failure: ServiceError | None = None
    result: ActionResult | None = None
    with transaction.atomic():
        battle = lock(battle_id, action_id)
        now = now or timezone.now()
        expire_locked(battle, now)  # committed even when the action is then refused
        prior_version = getattr(battle, "prior_version", None)
        prior = BattleEvent.objects.get(battle=battle, version=prior_version) if prior_version else None
        if prior is not None:
            if prior.action != normalized or prior.actor_id != actor.id:
                failure = Conflict(DUPLICATE_ID, code="duplicate_id", version=battle.version)
            else:
                result = ActionResult(battle, prior.version, prior.events, True, action_id)
        else:
            try:
                result = _apply_locked(battle, actor, parsed, normalized, action_id, expected_version, now)
            except ServiceError as error:
                failure = error
    if failure is not None:
        raise failure
    assert result is not None
    return result


def battle_start(*, actor: Actor, battle_id: int) -> LiveBattle:
    """A moderator starts round 1: units not yet deployed are placed in their rows, both sides ready."""
    _require_login(actor)
    with transaction.atomic():
        battle = lock(battle_id)
        if not can_moderate(actor, battle.campaign):
            raise errors.denied(MODERATORS_ONLY)
        now = timezone.now()
        expire_locked(battle, now)
        _refuse_in_setup(battle)
        state = state_of(battle)
        if state.phase is not Phase.DEPLOYMENT:
            raise errors.refused_by_rules(IllegalAction("T6", "The battle has already begun.", code="already_begun"))
        actions: list[Action] = []
        taken = {u.cell for u in state.units.values() if u.status is Status.FIELD}
        for unit in state.units.values():
            if unit.status is not Status.UNDEPLOYED:
                continue
            rows = list(deployment_rows(unit.side, state.settings.deployment_rows))
            rows = rows if unit.side is Side.ATTACKER else rows[::-1]  # the row nearest the enemy first
            free = [(x, y) for y in rows for x in sorted(range(18), key=lambda c: (abs(c - 8.5), c))
                    if (x, y) not in taken and not (state.cells.get((x, y)) and state.cells[(x, y)].is_impassable)]
            if not free:
                raise errors.refused_by_rules(IllegalAction("T1", "No free cell is left in the deployment rows.",
                                                            code="no_free_cell"))
            taken.add(free[0])
            actions.append(Deploy(unit.id, free[0][0], free[0][1], unit.facing))
        actions += [Ready(side) for side in (Side.ATTACKER, Side.DEFENDER) if side not in state.ready]
        events: list[dict[str, Any]] = []
        dice: list[int] = []
        for step in actions:
            state, step_events, step_dice = engine_apply(battle, state, step)
            events += step_events
            dice += step_dice
        record_version(battle, state, kind=BattleEvent.Kind.MODERATOR, now=now, actor=actor,
                action={"do": "batch", "actions": [action_to_dict(a) for a in actions]}, events=events, dice=dice)
        return battle


# -- the clock -------------------------------------------------------------------------------------


def battle_turn_expire(*, battle_id: int, turn_key: str | None = None, now: datetime | None = None,
                       skip_locked: bool = False) -> bool:
    """End the current turn if it is overdue (and is ``turn_key`` when given); True when it ended one.

    ``skip_locked``: leave a battle that another transaction holds (it ends an overdue turn itself).
    """
    with transaction.atomic():
        if skip_locked:
            battle = LiveBattle.objects.select_for_update(skip_locked=True).filter(pk=battle_id).first()
        else:
            try:
                battle = lock(battle_id)
            except NotFound:
                return False
        if battle is None or (turn_key is not None and battle.turn_key != turn_key):
            return False
        return expire_locked(battle, now or timezone.now())


def battle_clock_sweep(*, now: datetime | None = None) -> int:
    """End every overdue turn (timers lost with a worker); returns how many it ended.

    Sweeps that overlap, and the timer tasks, share the work: a battle being ended elsewhere is skipped.
    """
    now = now or timezone.now()
    ended = 0
    while True:
        # Batches of rows locked together: one lock statement and one commit for many turns when a whole
        # second's deadlines fall due at once.
        with transaction.atomic():
            due = list(LiveBattle.objects.select_for_update(skip_locked=True)
                       .filter(status=LiveBattle.Status.LIVE, deadline__lte=now).order_by("deadline")[:SWEEP_BATCH])
            for battle in due:
                try:
                    with transaction.atomic():  # a failing battle does not hold back the others
                        ended += expire_locked(battle, now)
                except Exception:
                    log.exception("the clock could not end the turn of battle %s", battle.pk)
        if len(due) < SWEEP_BATCH:
            return ended


SWEEP_BATCH = 25


# -- orders (T2) -----------------------------------------------------------------------------------


def battle_order_give(*, actor: Actor, battle_id: int, to: Any, text: Any) -> Any:
    """A faction leader orders a subordinate of his faction on the same side; pushed to him and the moderators."""
    from tactical.models import BattleOrder
    from tactical.protocol.messages import order_message
    from tactical.protocol.push import commander_group, moderators_group

    _require_login(actor)
    if not isinstance(text, str) or not text.strip() or len(text) > 2000:
        raise errors.invalid(EMPTY_ORDER, field="text")
    if isinstance(to, bool) or not isinstance(to, int):
        raise errors.invalid(NOT_LEADER, field="to")
    with transaction.atomic():
        battle = lock(battle_id)
        rows = list(BattleUnit.objects.filter(battle=battle))
        sides = {row.commander_id: row.side for row in rows if row.commander_id is not None}
        recipient = Commander.objects.filter(pk=to, campaign=battle.campaign).first()
        author = None
        if recipient is not None and to in sides:
            author = Commander.objects.filter(
                user=actor, faction=recipient.faction, pk__in=list(sides), faction__leader__user=actor,
            ).exclude(pk=recipient.pk).filter(pk=recipient.faction.leader_id).first()
        if author is None or recipient is None or sides.get(author.pk) != sides.get(recipient.pk):
            raise errors.denied(NOT_LEADER, rule="T2")
        order = BattleOrder.objects.create(battle=battle, author=author, recipient=recipient, user=actor,
                                           text=text.strip(), version=battle.version)
        groups = [commander_group(battle.pk, recipient.pk), commander_group(battle.pk, author.pk),
                  moderators_group(battle.pk)]
        send_on_commit(groups, {"type": "order", "order": order_message(order)}, order=order.pk)
        return order
