"""Volleys (T9): who may shoot, range, damage applied at once."""

from __future__ import annotations

from combat.battle.draft import Draft
from combat.battle.events import Shot, lines
from combat.battle.geometry import in_range
from combat.battle.model import BattleState, UnitState
from combat.errors import IllegalAction


def check_volley(state: BattleState, shooter: UnitState, target: UnitState) -> None:
    """Raise ``IllegalAction`` unless ``shooter`` may loose a volley at ``target`` now (T9)."""
    card = state.unit_type(shooter)
    if not shooter.on_field:
        raise IllegalAction("T6", f"{shooter.id} is not on the field", code="unit_not_on_field",
                             params={"unit": shooter.id})
    if not card.missile:
        raise IllegalAction("T9", f"{shooter.id} ({card.name}) does not shoot", code="no_missile",
                             params={"unit": shooter.id, "type": card.name})
    if any(shooter.id in key for key in state.contacts):
        raise IllegalAction("T9.3", f"{shooter.id} is in melee and cannot shoot", code="shooter_in_melee",
                             params={"unit": shooter.id})
    if shooter.shot:
        raise IllegalAction("T9.3", f"{shooter.id} has already shot in this turn", code="already_shot",
                             params={"unit": shooter.id})
    if shooter.arrows <= 0:
        raise IllegalAction("T9", f"{shooter.id} has no arrows left", code="no_arrows", params={"unit": shooter.id})
    if target.side is shooter.side:
        raise IllegalAction("T9", f"{target.id} is not an enemy of {shooter.id}", code="target_not_enemy",
                             params={"target": target.id, "unit": shooter.id})
    if not target.on_field:
        raise IllegalAction("T9", f"{target.id} is not on the field", code="unit_not_on_field",
                             params={"unit": target.id})
    if not in_range(shooter, target.cell, state.settings.range_template):
        raise IllegalAction("T9.1", f"{target.id} is out of {shooter.id}'s range", code="out_of_range",
                             params={"target": target.id, "unit": shooter.id})


def volley_damage(state: BattleState, shooter: UnitState, target: UnitState) -> int:
    """The card's missile damage against the target's class where it sets one, else card damage (T9.4)."""
    card = state.unit_type(shooter)
    target_class = state.unit_type(target).unit_class
    if card.missile_damage is not None and target_class in card.missile_damage:
        return card.missile_damage[target_class]
    return card.damage.get(target_class, 0)


def shoot(draft: Draft, shooter_id: str, target_id: str, interception: bool) -> None:
    """Strike off one arrow and apply the volley's damage at once (T9, T9.4)."""
    state = draft.freeze()
    shooter, target = state.units[shooter_id], state.units[target_id]
    damage = volley_damage(state, shooter, target)
    draft.put(shooter.evolve(arrows=shooter.arrows - 1, shot=True))
    health = target.health - damage
    draft.put(target.evolve(health=health))
    draft.events.append(
        Shot(shooter_id, target_id, lines(damage), lines(max(health, 0)), shooter.arrows - 1, interception)
    )
    if health <= 0:
        draft.rout(target_id, "volley")
