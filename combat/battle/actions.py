"""The actions a battle accepts (T6–T11, deployment and T9.6 placement for the live app)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from combat.battle.model import Cell, Facing, Side


@dataclass(frozen=True, slots=True)
class Move:
    """Move a unit along a path of orthogonal steps (T6); ``path`` lists the cells entered."""

    do: ClassVar[str] = "move"
    unit: str
    path: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class Turn:
    """Turn a unit in place to a facing (T6)."""

    do: ClassVar[str] = "turn"
    unit: str
    facing: Facing


@dataclass(frozen=True, slots=True)
class Shoot:
    """A volley at an enemy unit (T9), in either side's turn."""

    do: ClassVar[str] = "shoot"
    unit: str
    target: str


@dataclass(frozen=True, slots=True)
class Withdraw:
    """Move to the side's own edge row and step off the field (T11); the path may be empty."""

    do: ClassVar[str] = "withdraw"
    unit: str
    path: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class EndTurn:
    """The acting side ends its turn (T13 step 2); ``side``, when given, must be the acting side."""

    do: ClassVar[str] = "end_turn"
    side: Side | None = None


@dataclass(frozen=True, slots=True)
class Intercept:
    """Declare an interception in the open window (T10): by a path, or by a volley when no path."""

    do: ClassVar[str] = "intercept"
    unit: str
    target: str
    path: tuple[Cell, ...] | None = None


@dataclass(frozen=True, slots=True)
class EndInterceptions:
    """The intercepting side is done declaring (T10.1)."""

    do: ClassVar[str] = "end_interceptions"
    side: Side | None = None


@dataclass(frozen=True, slots=True)
class Concede:
    """A side gives up the battle (T11)."""

    do: ClassVar[str] = "concede"
    side: Side


@dataclass(frozen=True, slots=True)
class EndBattle:
    """The moderator ends the battle with a winner (T11)."""

    do: ClassVar[str] = "end_battle"
    winner: Side


@dataclass(frozen=True, slots=True)
class Deploy:
    """Place (or move again) a unit in its side's deployment rows before round 1 (T1)."""

    do: ClassVar[str] = "deploy"
    unit: str
    x: int
    y: int
    facing: Facing


@dataclass(frozen=True, slots=True)
class Ready:
    """A side has finished deploying; when both are ready, round 1 begins (T6)."""

    do: ClassVar[str] = "ready"
    side: Side


@dataclass(frozen=True, slots=True)
class PlaceReinforcement:
    """Place a reinforcement on its side's own edge row in its side's turn (T9.6)."""

    do: ClassVar[str] = "place"
    unit: str
    x: int
    facing: Facing | None = None


Action = (
    Move
    | Turn
    | Shoot
    | Withdraw
    | EndTurn
    | Intercept
    | EndInterceptions
    | Concede
    | EndBattle
    | Deploy
    | Ready
    | PlaceReinforcement
)

ACTION_TYPES: dict[str, type[Action]] = {
    cls.do: cls
    for cls in (
        Move,
        Turn,
        Shoot,
        Withdraw,
        EndTurn,
        Intercept,
        EndInterceptions,
        Concede,
        EndBattle,
        Deploy,
        Ready,
        PlaceReinforcement,
    )
}
