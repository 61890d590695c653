"""Dice sources. The engine never rolls on its own: a ``Dice`` is passed in.

* ``FixedDice`` replays a list (tests, scenario files).
* ``SeededDice`` derives every roll from a secret seed and the roll's number with HMAC-SHA256
  (rule M2), so that once the seed is revealed anyone can recompute every roll.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Protocol

from combat.errors import DiceExhausted


class Dice(Protocol):
    """Anything that rolls a die with ``sides`` faces and returns 1..sides."""

    def roll(self, sides: int = 6) -> int:
        """Return the next roll, 1..sides."""
        ...


@dataclass
class FixedDice:
    """Rolls taken in order from a list; raises ``DiceExhausted`` when none is left."""

    values: list[int]
    used: int = 0

    def roll(self, sides: int = 6) -> int:
        """Return the next listed value."""
        if self.used >= len(self.values):
            raise DiceExhausted("a die was needed but none was left in the dice list")
        value = self.values[self.used]
        self.used += 1
        if not 1 <= value <= sides:
            raise DiceExhausted(f"die value {value} is not between 1 and {sides}")
        return value


def seeded_roll(seed: bytes, number: int, sides: int = 6) -> int:
    """The roll number ``number`` (0-based) of a seed: HMAC-SHA256(seed, number) mod sides, unbiased.

    Rejection sampling over 8-byte windows keeps every face equally likely.
    """
    counter = 0
    limit = (2**64 // sides) * sides
    while True:
        digest = hmac.new(seed, f"{number}:{counter}".encode(), hashlib.sha256).digest()
        for offset in range(0, 32, 8):
            value = int.from_bytes(digest[offset : offset + 8], "big")
            if value < limit:
                return value % sides + 1
        counter += 1


def seed_commitment(seed: bytes) -> str:
    """The SHA-256 hex digest published before the seed is revealed (M2)."""
    return hashlib.sha256(seed).hexdigest()


@dataclass
class SeededDice:
    """Verifiable dice: roll ``n`` is ``seeded_roll(seed, start + n)``."""

    seed: bytes
    start: int = 0
    rolls: list[int] = field(default_factory=list)

    @property
    def next_number(self) -> int:
        """The number of the next roll (how many were made before it, from ``start``)."""
        return self.start + len(self.rolls)

    def roll(self, sides: int = 6) -> int:
        """Roll the next die and remember it."""
        value = seeded_roll(self.seed, self.next_number, sides)
        self.rolls.append(value)
        return value
