"""The end of a battle (T11): the result handed to the strategic stage (S10)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaign.permissions import Actor
from combat.battle.model import BattleState, Status
from strategic.models import Battle
from strategic.services.battles import UnitChange, battle_result_apply

if TYPE_CHECKING:
    from tactical.models import LiveBattle


def battle_finish(*, battle: LiveBattle, state: BattleState, actor: Actor | None = None) -> list[dict[str, Any]]:
    """Apply the ended battle to the strategic map (health, arrows, routed units, winner, capture, retreat).

    Returns the events to log. A record already resolved elsewhere (a moderator's quick battle) is left
    as it is.
    """
    assert state.winner is not None
    record = Battle.objects.get(pk=battle.pk)
    if record.status == Battle.Status.RESOLVED:
        return [{"type": "result_not_applied", "reason": "already_resolved"}]
    links = dict(battle.units.exclude(unit__isnull=True).values_list("engine_id", "unit_id"))
    changes = []
    survivors: dict[str, list[str]] = {"attacker": [], "defender": []}
    for unit in state.units.values():
        if unit.id not in links:
            continue
        routed = unit.status is Status.ROUTED or unit.health <= 0
        changes.append(UnitChange(unit_id=links[unit.id], health_halves=max(unit.health, 0),
                                  arrows=unit.arrows, routed=routed))
        if not routed:
            survivors[unit.side.value].append(unit.id)
    actor = actor if getattr(actor, "is_authenticated", False) else None
    battle_result_apply(battle=record, winner=state.winner.value, unit_changes=changes, actor=actor,
                        result={"tactical": True, "version": battle.version, "map_seed": battle.map_seed,
                                "seed": bytes(battle.seed).hex(), "rounds": state.round},
                        reason="T11")
    return [{"type": "result_applied", "winner": state.winner.value, "survivors": survivors}]
