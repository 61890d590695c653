"""Melee (T7): pairing (T7.1), damage (T7.2–T7.4), resolution with T7.6, leaving damage (T8.2)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from combat.battle.draft import Draft
from combat.battle.events import DieRolled, MeleeResolved, MeleeResult, Strike, lines
from combat.battle.geometry import DELTAS
from combat.battle.model import BattleState, Contact, ContactKey, Interception, UnitState, contact_key
from combat.dice import Dice


@dataclass(frozen=True, slots=True)
class Blow:
    """What one unit deals in a resolution, in half-lines."""

    unit: str
    target: str
    damage: int
    flank: bool
    charge: bool


@dataclass(frozen=True, slots=True)
class Resolution:
    """The outcome of resolving melee now, before any die (T7): health in half-lines."""

    pairs: tuple[ContactKey, ...]
    blows: tuple[Blow, ...]
    taken: Mapping[str, int]
    health: Mapping[str, int]
    dice_pairs: tuple[ContactKey, ...]  # pairs whose two units both end at 0 or less (T7.6)
    dealt: Mapping[str, int]


def pairing(
    contacts: Mapping[ContactKey, Contact],
    interceptions: Iterable[Interception],
    previous: Iterable[ContactKey],
) -> list[ContactKey]:
    """The pairs in T7.1 order: interceptions, then continuing pairs, then contacts by age."""
    paired: set[str] = set()
    order: list[ContactKey] = []

    def offer(key: ContactKey) -> None:
        if key in contacts and key[0] not in paired and key[1] not in paired:
            paired.update(key)
            order.append(key)

    for interception in interceptions:
        if not interception.volley:
            offer(contact_key(interception.unit, interception.target))
    for key in previous:
        offer(key)
    for contact in sorted(contacts.values(), key=lambda c: c.seq):
        offer(contact.key)
    return order


def targets(
    units: Mapping[str, UnitState], contacts: Mapping[ContactKey, Contact], pairs: Iterable[ContactKey]
) -> dict[str, Contact]:
    """The contact along which every unit in contact deals its damage (T7.1)."""
    partner: dict[str, str] = {}
    for a, b in pairs:
        partner[a] = b
        partner[b] = a
    oldest: dict[str, Contact] = {}
    for contact in contacts.values():
        for unit_id in contact.key:
            known = oldest.get(unit_id)
            if known is None or contact.seq < known.seq:
                oldest[unit_id] = contact
    chosen: dict[str, Contact] = {}
    for unit_id, first in oldest.items():
        if unit_id in partner:
            chosen[unit_id] = contacts[contact_key(unit_id, partner[unit_id])]
            continue
        against = units[unit_id].against
        moved = contacts.get(contact_key(unit_id, against)) if against is not None else None
        chosen[unit_id] = moved if moved is not None else first
    return chosen


def blow(state: BattleState, unit: UnitState, target: UnitState, contact: Contact) -> Blow:
    """Card damage against the target's class, + 1 flank (T7.4), + 1 charge (T7.3), in half-lines."""
    damage = state.unit_type(unit).damage.get(state.unit_type(target).unit_class, 0)
    flank = charge = False
    if contact.initiator == unit.id:
        dx, dy = DELTAS[target.facing]
        flank = (target.cell[0] + dx, target.cell[1] + dy) != unit.cell
        charge = contact.charge
    return Blow(unit.id, target.id, damage + 2 * flank + 2 * charge, flank, charge)


def compute(state: BattleState) -> Resolution:
    """Resolve melee on the current contacts without applying it (T7.1–T7.6 before any die)."""
    units = state.units
    pairs = pairing(state.contacts, state.interceptions, state.pairs)
    chosen = targets(units, state.contacts, pairs)
    blows = []
    taken: dict[str, int] = dict.fromkeys(chosen, 0)
    dealt: dict[str, int] = dict.fromkeys(chosen, 0)
    for unit_id, contact in chosen.items():
        unit = units[unit_id]
        if unit.left_melee:  # T8.2: a unit that left melee this turn deals nothing
            continue
        target = units[contact.other(unit_id)]
        hit = blow(state, unit, target, contact)
        blows.append(hit)
        taken[target.id] += hit.damage
        dealt[unit_id] = hit.damage
    health = {unit_id: units[unit_id].health - damage for unit_id, damage in taken.items()}
    dice_pairs = tuple(key for key in pairs if health[key[0]] <= 0 and health[key[1]] <= 0)
    return Resolution(tuple(pairs), tuple(blows), taken, health, dice_pairs, dealt)


def resolve(draft: Draft, dice: Dice) -> None:
    """Resolve melee for every unit in contact (T7.7) and apply it, rolling dice as T7.6 says."""
    state = draft.freeze()
    if not state.contacts:
        draft.interceptions = ()
        _clear_left_melee(draft)
        return
    outcome = compute(state)
    survivors: dict[str, int] = {}
    losers: set[str] = set()
    die_events = []
    for key in outcome.dice_pairs:
        value = dice.roll(6)
        contact = state.contacts[key]
        first = contact.initiator or _listed_first(state, key)
        survivor = first if value <= 3 else contact.other(first)
        survivors[survivor] = state.settings.survivor_halves
        losers.add(contact.other(survivor))
        die_events.append(DieRolled(value, key, survivor, lines(state.settings.survivor_halves)))
    health = {**outcome.health, **survivors}
    results = tuple(
        MeleeResult(
            unit_id,
            lines(outcome.dealt[unit_id]),
            lines(outcome.taken[unit_id]),
            lines(max(health[unit_id], 0)),
        )
        for unit_id in outcome.taken
    )
    strikes = tuple(Strike(b.unit, b.target, lines(b.damage), b.flank, b.charge) for b in outcome.blows)
    draft.events.append(MeleeResolved(outcome.pairs, strikes, results))
    draft.events.extend(die_events)
    for unit_id, value in health.items():
        draft.put(draft.units[unit_id].evolve(health=value))
    for unit_id, value in health.items():
        if value <= 0:
            draft.rout(unit_id, "melee")
    # A charge counts only in the first resolution of its contact (T7.3).
    for key, contact in list(draft.contacts.items()):
        if contact.charge:
            draft.contacts[key] = replace(contact, charge=False)
    draft.pairs = tuple(key for key in outcome.pairs if key in draft.contacts)
    draft.interceptions = ()
    _clear_left_melee(draft)


def _clear_left_melee(draft: Draft) -> None:
    for unit in list(draft.units.values()):
        if unit.left_melee:
            draft.put(unit.evolve(left_melee=False))


def _listed_first(state: BattleState, key: ContactKey) -> str:
    """For a contact with no initiator (placed so in a scenario), the unit listed first."""
    for unit_id in state.units:
        if unit_id in key:
            return unit_id
    return key[0]


def leaving_damage(state: BattleState, unit_id: str) -> tuple[int, tuple[str, ...]]:
    """Half the card damage of each enemy that would deal to the unit now (T8.2), in half-lines."""
    pairs = pairing(state.contacts, state.interceptions, state.pairs)
    chosen = targets(state.units, state.contacts, pairs)
    unit = state.units[unit_id]
    unit_class = state.unit_type(unit).unit_class
    total = 0
    dealers = []
    for other_id, contact in chosen.items():
        other = state.units[other_id]
        if contact.other(other_id) != unit_id or other.left_melee:
            continue
        total += state.unit_type(other).damage.get(unit_class, 0) // 2
        dealers.append(other_id)
    return total, tuple(dealers)
