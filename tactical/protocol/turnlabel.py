"""Whose turn or window it is and which round it belongs to, said the same on the board, the console and the
replay (T14.2: the window after a side's turn belongs to that turn's round and is named by whose it is).

The sentences mark the round as ``{round}``, the placeholder syntax of the board's strings, so that the board
script fills the same sentences (``window_attacker``, ``window_defender`` in ``BOARD_STRINGS``).
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from combat.battle.model import BattleState, Phase

ROUND = gettext_lazy("Round {round}")
TO_ACT = gettext_lazy("{side} to act")
SIDES: dict[str, Promise] = {"attacker": gettext_lazy("Attacker"), "defender": gettext_lazy("Defender")}
WINDOWS: dict[str, Promise] = {
    "attacker": gettext_lazy("Round {round} · the attacker's interception window, after the defender's turn"),
    "defender": gettext_lazy("Round {round} · the defender's interception window, after the attacker's turn"),
}
DEPLOYMENT = gettext_lazy("Deployment")
ENDED = gettext_lazy("The battle is over")


def turn_label(*, round_number: int, side: str, phase: str) -> str:
    """"Round 1 · Attacker to act", or in a window "Round 1 · the attacker's interception window, after the
    defender's turn"; deployment and the end by their names."""
    if phase == Phase.DEPLOYMENT.value:
        return str(DEPLOYMENT)
    if phase == Phase.ENDED.value:
        return str(ENDED)
    if phase == Phase.INTERCEPTION.value:
        return str(WINDOWS[side]).replace("{round}", str(round_number))
    return f"{str(ROUND).replace('{round}', str(round_number))} · {str(TO_ACT).replace('{side}', str(SIDES[side]))}"


def state_label(state: BattleState) -> str:
    """``turn_label`` of a battle state."""
    return turn_label(round_number=state.round, side=state.side.value, phase=state.phase.value)
