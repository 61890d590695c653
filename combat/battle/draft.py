"""A mutable working copy of a ``BattleState`` used inside one ``apply``: positions, contacts, events.

Only ``Draft.freeze`` leaves this module's callers, as a new frozen state; the input state is never
touched, so ``apply`` needs no deep copy.
"""

from __future__ import annotations

from dataclasses import replace

from combat.battle.events import BattleEnded, ContactMade, Event, UnitRouted
from combat.battle.geometry import DELTAS, NEIGHBOURS
from combat.battle.model import (
    BattleState,
    Cell,
    Contact,
    ContactKey,
    Interception,
    Phase,
    Side,
    Status,
    UnitState,
    contact_key,
)


class Draft:
    """The state being built by one action."""

    def __init__(self, state: BattleState) -> None:
        self.base = state
        self.units: dict[str, UnitState] = dict(state.units)
        self.contacts: dict[ContactKey, Contact] = dict(state.contacts)
        self.pairs: tuple[ContactKey, ...] = state.pairs
        self.interceptions: tuple[Interception, ...] = state.interceptions
        self.seq = state.seq
        self.round = state.round
        self.side = state.side
        self.phase = state.phase
        self.engaged_at_start = state.engaged_at_start
        self.winner = state.winner
        self.ready = state.ready
        self.events: list[Event] = []
        self._occupied: dict[Cell, str] | None = None

    def freeze(self) -> BattleState:
        """The new frozen state."""
        base = self.base
        return BattleState(
            terrain=base.terrain,
            cells=base.cells,
            unit_types=base.unit_types,
            settings=base.settings,
            units=self.units,
            contacts=self.contacts,
            round=self.round,
            side=self.side,
            phase=self.phase,
            seq=self.seq,
            pairs=self.pairs,
            interceptions=self.interceptions,
            engaged_at_start=self.engaged_at_start,
            winner=self.winner,
            ready=self.ready,
        )

    # -- positions -------------------------------------------------------------------------

    def occupied(self) -> dict[Cell, str]:
        """Cell → id of the unit standing there."""
        if self._occupied is None:
            self._occupied = occupancy(self.units)
        return self._occupied

    def put(self, unit: UnitState) -> None:
        """Store a changed unit."""
        old = self.units[unit.id]
        self.units[unit.id] = unit
        if old.status != unit.status or old.x != unit.x or old.y != unit.y:
            self._occupied = None

    # -- contacts --------------------------------------------------------------------------

    def drop_contacts(self, unit_id: str) -> None:
        """Remove every contact of a unit, and its pairs (a contact that forms again is new)."""
        gone = [key for key in self.contacts if unit_id in key]
        for key in gone:
            del self.contacts[key]
        if gone and any(unit_id in key for key in self.pairs):
            self.pairs = tuple(key for key in self.pairs if unit_id not in key)

    def make_contacts(self, unit_id: str, charge: bool, preferred: str | None = None) -> list[str]:
        """Contacts of a unit that has just entered its cell, with it as the initiator (T7).

        Returns the enemies touched; sets the enemy it moved against (T7.1, T13): ``preferred`` if
        touched, else the one in front, else the first of N, E, S, W.
        """
        unit = self.units[unit_id]
        occupied = self.occupied()
        enemies = []
        for cell in NEIGHBOURS[unit.cell]:
            other_id = occupied.get(cell)
            if other_id is not None and self.units[other_id].side is not unit.side:
                enemies.append(other_id)
        if not enemies:
            return enemies
        for enemy in enemies:
            key = contact_key(unit_id, enemy)
            if key not in self.contacts:
                self.contacts[key] = Contact(key[0], key[1], unit_id, self.seq, charge)
                self.seq += 1
                self.events.append(ContactMade(unit_id, enemy, unit_id, charge))
        against = preferred if preferred in enemies else None
        if against is None:
            dx, dy = DELTAS[unit.facing]
            front = occupied.get((unit.cell[0] + dx, unit.cell[1] + dy))
            against = front if front in enemies else enemies[0]
        self.put(unit.evolve(against=against))
        return enemies

    def enemies_of(self, unit_id: str) -> list[str]:
        """The enemies a unit is in contact with."""
        return [key[0] if key[1] == unit_id else key[1] for key in self.contacts if unit_id in key]

    # -- leaving the field -----------------------------------------------------------------

    def rout(self, unit_id: str, cause: str) -> None:
        """A unit at 0 lines or less leaves the field (T3.1)."""
        unit = self.units[unit_id]
        self.put(unit.evolve(status=Status.ROUTED, points=0))
        self.drop_contacts(unit_id)
        self.events.append(UnitRouted(unit_id, cause))

    def check_end(self) -> bool:
        """End the battle when a side has no unit on the field (T11); True when it has ended."""
        if self.phase is Phase.ENDED:
            return True
        present = {unit.side for unit in self.units.values() if unit.status is Status.FIELD}
        if len(present) == 2:
            return False
        if not present:
            self.end(Side.DEFENDER, "both_gone")
        else:
            (holder,) = present
            self.end(holder, "no_units")
        return True

    def end(self, winner: Side, reason: str) -> None:
        """Record the winner and close the battle."""
        self.winner = winner
        self.phase = Phase.ENDED
        self.events.append(BattleEnded(winner, reason))


def occupancy(units: dict[str, UnitState] | BattleState) -> dict[Cell, str]:
    """Cell → id of every unit on the field."""
    source = units.units if isinstance(units, BattleState) else units
    return {unit.cell: unit.id for unit in source.values() if unit.status is Status.FIELD}


def initial_contacts(state: BattleState) -> BattleState:
    """Contacts of units placed adjacent in a scenario: no initiator, ordered by the unit list."""
    contacts: dict[ContactKey, Contact] = {}
    occupied = occupancy(state)
    seq = state.seq
    for unit in state.units.values():
        if unit.status is not Status.FIELD:
            continue
        for cell in NEIGHBOURS[unit.cell]:
            other_id = occupied.get(cell)
            if other_id is None or state.units[other_id].side is unit.side:
                continue
            key = contact_key(unit.id, other_id)
            if key not in contacts:
                contacts[key] = Contact(key[0], key[1], None, seq)
                seq += 1
    return replace(state, contacts=contacts, seq=seq)
