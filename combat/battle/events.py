"""Events: what an action caused, with the data a board or a battle log needs.

Health and damage are in lines (2.5 is two and a half lines); every event has a ``type`` string.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from combat.battle.model import Cell, Facing, Side


def lines(halves: int) -> float:
    """Half-lines as lines."""
    return halves / 2


@dataclass(frozen=True, slots=True)
class Moved:
    """A unit moved along ``path`` for ``cost`` points (T6)."""

    type: ClassVar[str] = "moved"
    unit: str
    path: tuple[Cell, ...]
    cost: int
    points_left: int


@dataclass(frozen=True, slots=True)
class Turned:
    """A unit turned in place (T6)."""

    type: ClassVar[str] = "turned"
    unit: str
    facing: Facing
    cost: int
    points_left: int


@dataclass(frozen=True, slots=True)
class Shot:
    """A volley struck ``target`` (T9); ``interception`` when declared in a window (T10)."""

    type: ClassVar[str] = "shot"
    unit: str
    target: str
    damage: float
    health: float
    arrows_left: int
    interception: bool


@dataclass(frozen=True, slots=True)
class ContactMade:
    """Two enemy units came into contact (T7); ``initiator`` moved into it."""

    type: ClassVar[str] = "contact_made"
    unit: str
    enemy: str
    initiator: str | None
    charge: bool


@dataclass(frozen=True, slots=True)
class LeftMelee:
    """A bound unit stepped out of contact and took half damage at once (T8.2)."""

    type: ClassVar[str] = "left_melee"
    unit: str
    enemies: tuple[str, ...]
    damage: float
    health: float


@dataclass(frozen=True, slots=True)
class Strike:
    """One unit's blow in a resolution (T7.1, T7.2)."""

    unit: str
    target: str
    damage: float
    flank: bool
    charge: bool


@dataclass(frozen=True, slots=True)
class MeleeResult:
    """What one unit dealt and took in a resolution, and the health it was left with."""

    unit: str
    dealt: float
    taken: float
    health: float


@dataclass(frozen=True, slots=True)
class MeleeResolved:
    """Melee was resolved (T7.7): pairs in pairing order, every strike, every unit's result."""

    type: ClassVar[str] = "melee_resolved"
    pairs: tuple[tuple[str, str], ...]
    strikes: tuple[Strike, ...]
    results: tuple[MeleeResult, ...]


@dataclass(frozen=True, slots=True)
class DieRolled:
    """A die decided which of two paired units destroyed at once survives (T7.6)."""

    type: ClassVar[str] = "die_rolled"
    value: int
    pair: tuple[str, str]
    survivor: str
    survivor_health: float


@dataclass(frozen=True, slots=True)
class UnitRouted:
    """A unit at 0 lines or less left the field (T3.1); ``cause``: melee, volley or leaving."""

    type: ClassVar[str] = "unit_routed"
    unit: str
    cause: str


@dataclass(frozen=True, slots=True)
class UnitWithdrew:
    """A unit stepped off the field over its own edge and left alive (T11)."""

    type: ClassVar[str] = "unit_withdrew"
    unit: str
    path: tuple[Cell, ...]
    cost: int


@dataclass(frozen=True, slots=True)
class TurnEnded:
    """A side ended its turn (T13 step 2)."""

    type: ClassVar[str] = "turn_ended"
    side: Side
    round: int


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """A side's units got their points and may act (T13 steps 1–2)."""

    type: ClassVar[str] = "turn_started"
    side: Side
    round: int


@dataclass(frozen=True, slots=True)
class WindowOpened:
    """The interception window opened for ``side`` (T10.1, T13 step 3)."""

    type: ClassVar[str] = "window_opened"
    side: Side
    interceptors: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class WindowClosed:
    """The interception window closed; melee is resolved next (T13 step 4)."""

    type: ClassVar[str] = "window_closed"
    side: Side


@dataclass(frozen=True, slots=True)
class InterceptionDeclared:
    """An interception was declared (T10, recorded as T10.4 asks); no path means a volley."""

    type: ClassVar[str] = "interception_declared"
    unit: str
    target: str
    volley: bool
    path: tuple[Cell, ...]
    cost: int


@dataclass(frozen=True, slots=True)
class ReinforcementPlaced:
    """A reinforcement arrived on its side's own edge row (T9.6)."""

    type: ClassVar[str] = "reinforcement_placed"
    unit: str
    x: int
    y: int
    facing: Facing


@dataclass(frozen=True, slots=True)
class Deployed:
    """A unit was placed in its deployment rows (T1)."""

    type: ClassVar[str] = "deployed"
    unit: str
    x: int
    y: int
    facing: Facing


@dataclass(frozen=True, slots=True)
class SideReady:
    """A side finished deploying."""

    type: ClassVar[str] = "side_ready"
    side: Side


@dataclass(frozen=True, slots=True)
class BattleEnded:
    """The battle is over (T11); ``reason``: no_units, both_gone, conceded or moderator."""

    type: ClassVar[str] = "battle_ended"
    winner: Side
    reason: str


@dataclass(frozen=True, slots=True)
class ActionVoid:
    """The battle ended while the window closed, so the action that closed it did not apply (T11)."""

    type: ClassVar[str] = "action_void"
    do: str


Event = (
    Moved
    | Turned
    | Shot
    | ContactMade
    | LeftMelee
    | MeleeResolved
    | DieRolled
    | UnitRouted
    | UnitWithdrew
    | TurnEnded
    | TurnStarted
    | WindowOpened
    | WindowClosed
    | InterceptionDeclared
    | ReinforcementPlaced
    | Deployed
    | SideReady
    | BattleEnded
    | ActionVoid
)

EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        Moved,
        Turned,
        Shot,
        ContactMade,
        LeftMelee,
        MeleeResolved,
        DieRolled,
        UnitRouted,
        UnitWithdrew,
        TurnEnded,
        TurnStarted,
        WindowOpened,
        WindowClosed,
        InterceptionDeclared,
        ReinforcementPlaced,
        Deployed,
        SideReady,
        BattleEnded,
        ActionVoid,
    )
}
