"""A battle's event log row (``BattleEvent``) as one sentence in the reader's language (M3)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

ACTIONS: dict[str, Any] = {
    "setup": gettext_lazy("The battle was set up on the tactical map."),
    "map": gettext_lazy("The battle map was changed."),
    "deploy": gettext_lazy("%(unit)s deployed at (%(x)s, %(y)s) facing %(facing)s."),
    "ready": gettext_lazy("The %(side)s side is ready."),
    "move": gettext_lazy("%(unit)s moved to %(end)s."),
    "turn": gettext_lazy("%(unit)s turned to face %(facing)s."),
    "shoot": gettext_lazy("%(unit)s shot at %(target)s."),
    "withdraw": gettext_lazy("%(unit)s withdrew from the field."),
    "place": gettext_lazy("%(unit)s arrived as a reinforcement at column %(x)s."),
    "intercept": gettext_lazy("%(unit)s intercepted %(target)s."),
    "end_interceptions": gettext_lazy("The interception window was closed."),
    "end_turn": gettext_lazy("The turn was ended."),
    "concede": gettext_lazy("The %(side)s side conceded."),
    "end_battle": gettext_lazy("The moderator ended the battle: the %(winner)s side wins."),
    "batch": gettext_lazy("The moderator started the battle."),
    "pause_clock": gettext_lazy("The moderator paused the clock: %(reason)s."),
    "resume_clock": gettext_lazy("The moderator restarted the clock: %(reason)s."),
    "add_time": gettext_lazy("The moderator added %(seconds)s s to the turn: %(reason)s."),
    "correct": gettext_lazy("The moderator corrected the board: %(reason)s."),
    "undo": gettext_lazy("The moderator took back version %(undoes)s: %(reason)s."),
    "die_roll": gettext_lazy("The moderator rolled the T7.6 die: %(reason)s."),
}
EVENTS: dict[str, Any] = {
    "contact_made": gettext_lazy("contact: %(unit)s and %(enemy)s"),
    "melee_resolved": gettext_lazy("melee resolved"),
    "die_rolled": gettext_lazy("die %(value)s: %(survivor)s survives"),
    "unit_routed": gettext_lazy("%(unit)s routed"),
    "turn_timed_out": gettext_lazy("time ran out"),
    "battle_ended": gettext_lazy("the battle ended"),
    "seed_revealed": gettext_lazy("dice seed revealed"),
    "commander_done": gettext_lazy("a commander is done"),
    "commander_ready": gettext_lazy("a commander is ready"),
    "unit_corrected": gettext_lazy("%(unit)s corrected"),
    "die_awaited": gettext_lazy("waiting for the moderator's die (T7.6)"),
}
SIDES = {"attacker": gettext_lazy("attacking"), "defender": gettext_lazy("defending")}
SIDE_NAMES = {"attacker": gettext_lazy("Attacker"), "defender": gettext_lazy("Defender")}
UNIT_STATUSES = {
    "field": gettext_lazy("on the field"),
    "routed": gettext_lazy("routed"),
    "withdrawn": gettext_lazy("withdrawn"),
    "reserve": gettext_lazy("in reserve"),
    "undeployed": gettext_lazy("not deployed"),
}


def unit_name(roster: dict[str, Any], engine_id: Any) -> str:
    """A unit of the battle by its name on the board, with its engine id."""
    if not isinstance(engine_id, str):
        return "?"
    facts = roster.get(engine_id) or {}
    name = facts.get("name")
    return f"{name} ({engine_id})" if name else engine_id


def _values(data: dict[str, Any], roster: dict[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = {k: v for k, v in data.items() if isinstance(v, (str, int, float))}
    for key in ("unit", "target", "enemy", "survivor"):
        if key in data:
            values[key] = unit_name(roster, data[key])
    for key in ("side", "winner"):
        if data.get(key) in SIDES:
            values[key] = str(SIDES[data[key]])
    path = data.get("path")
    if isinstance(path, list) and path:
        values["end"] = "({}, {})".format(*path[-1])
    return values


class _Missing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


def action_sentence(action: dict[str, Any] | None, roster: dict[str, Any]) -> str:
    """What was done, as a sentence."""
    if not action:
        return ""
    template = ACTIONS.get(str(action.get("do")))
    if template is None:
        return str(action.get("do", ""))
    return str(template) % _Missing(_values(action, roster))


def event_phrases(events: list[dict[str, Any]], roster: dict[str, Any]) -> list[str]:
    """The notable consequences of a version (contacts, dice, routs, interceptions)."""
    phrases = []
    for event in events or []:
        template = EVENTS.get(str(event.get("type")))
        if template is not None:
            phrases.append(str(template) % _Missing(_values(event, roster)))
    return phrases


def battle_event_sentence(row: Any, roster: dict[str, Any]) -> str:
    """The row as one sentence: its action, then its consequences."""
    text = action_sentence(row.action, roster)
    if row.kind == "timeout":
        text = _("Time ran out (T6.1): the turn ended.")
    phrases = event_phrases(row.events, roster)
    if phrases:
        text = f"{text} ({'; '.join(phrases)})" if text else "; ".join(phrases)
    return text
