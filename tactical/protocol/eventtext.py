"""What a battle event says, in the reader's language: the one place for the sentences of a battle's log.

Two voices, both kept here so that no event is worded anywhere else:

- the board's log says each engine or moderator event as a sentence of its own (``LOG``); the board script
  gets them with the page's strings and fills in the values (``static/tactical/log.js``);
- the moderators' console and the audit log say one row of the event log (``BattleEvent``) as one sentence:
  what was done, then its notable consequences (``battle_event_sentence``).

Every sentence marks a value as ``{name}``, the one placeholder syntax of the board's strings.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

_SET_UP = gettext_lazy("The battle was set up on the tactical map.")

LOG: dict[str, Promise] = {
    "log_timeout": gettext_lazy("Time ran out for the {side} (round {round})."),
    "ev_battle_created": _SET_UP,
    "ev_map_changed": gettext_lazy("The map was changed."),
    "ev_deployment_opened": gettext_lazy("The moderator opened the deployment: the commanders may place their units."),
    "ev_deployed": gettext_lazy("{unit} was placed at {cell}, facing {facing}."),
    "ev_side_ready": gettext_lazy("The {side} is ready."),
    "ev_commander_ready": gettext_lazy("{commander} is ready."),
    "ev_commander_done": gettext_lazy("{commander} is done."),
    "ev_moved": gettext_lazy("{unit} moved to {cell} ({cost} pt, {left} left)."),
    "ev_turned": gettext_lazy("{unit} turned to face {facing} ({cost} pt)."),
    "ev_shot": gettext_lazy("{unit} shot at {target}: {damage} damage, {health} left."),
    "ev_contact_made": gettext_lazy("{unit} engaged {enemy}."),
    "ev_contact_charge": gettext_lazy("{unit} charged {enemy}."),
    "ev_left_melee": gettext_lazy("{unit} left the melee and took {damage} ({health} left)."),
    "ev_melee_resolved": gettext_lazy("Melee resolved:"),
    "ev_strike": gettext_lazy("{unit} dealt {damage} to {target}"),
    "ev_flank": gettext_lazy("flank"),
    "ev_charge": gettext_lazy("charge"),
    "ev_result": gettext_lazy("{unit}: {health} left"),
    "ev_die_rolled": gettext_lazy("A die rolled {value}: {unit} survives with {health}."),
    "ev_unit_routed": gettext_lazy("{unit} was routed."),
    "ev_unit_withdrew": gettext_lazy("{unit} withdrew from the field."),
    "ev_turn_ended": gettext_lazy("The {side}'s turn ended (round {round})."),
    "ev_turn_started": gettext_lazy("The {side}'s turn began (round {round})."),
    "ev_window_opened": gettext_lazy("The {side} may intercept: {units}."),
    "ev_window_closed": gettext_lazy("The interception window closed."),
    "ev_interception_declared": gettext_lazy("{unit} intercepted {target}."),
    "ev_reinforcement_placed": gettext_lazy("{unit} arrived at {cell}."),
    "ev_battle_ended": gettext_lazy("The battle ended: the {side} won."),
    "ev_action_void": gettext_lazy("The action had no effect."),
    "ev_seed_revealed": gettext_lazy("The dice seed was revealed: {seed}."),
    "ev_result_applied": gettext_lazy("The result went to the strategic map."),
    # the moderator's controls (tactical/services/moderation.py)
    "ev_clock_paused": gettext_lazy("The moderator paused the clock: {reason}"),
    "ev_clock_resumed": gettext_lazy("The moderator restarted the clock: {reason}"),
    "ev_time_added": gettext_lazy("The moderator added {seconds} s to the turn: {reason}"),
    "ev_corrected": gettext_lazy("The moderator corrected the board: {reason}"),
    "ev_unit_corrected": gettext_lazy("{unit}: {changes}"),
    "ev_action_undone": gettext_lazy("The moderator took back version {version}: {reason}"),
    "ev_die_awaited": gettext_lazy("Waiting for the moderator's die (T7.6)."),
    "ev_moderator_rolled": gettext_lazy("The moderator rolled the die: {dice} ({reason})"),
    # the values a correction changes, named in its line
    "field_health": pgettext_lazy("a value of a unit the moderator corrected", "health"),
    "field_arrows": pgettext_lazy("a value of a unit the moderator corrected", "arrows"),
    "field_facing": pgettext_lazy("a value of a unit the moderator corrected", "facing"),
}
"""The board log's sentence of each event (``ev_<type>``, or a variant of it), under the script's keys."""

ACTIONS: dict[str, Promise] = {
    "setup": _SET_UP,
    "map": gettext_lazy("The battle map was changed."),
    "open": gettext_lazy("The moderator opened the deployment."),
    "deploy": gettext_lazy("{unit} deployed at ({x}, {y}) facing {facing}."),
    "ready": gettext_lazy("The {side} side is ready."),
    "move": gettext_lazy("{unit} moved to {end}."),
    "turn": gettext_lazy("{unit} turned to face {facing}."),
    "shoot": gettext_lazy("{unit} shot at {target}."),
    # these two read as the board log's lines in English, not in Russian: a context tells them apart
    "withdraw": pgettext_lazy("what was done, in a row of the battle's event log",
                              "{unit} withdrew from the field."),
    "place": gettext_lazy("{unit} arrived as a reinforcement at column {x}."),
    "intercept": pgettext_lazy("what was done, in a row of the battle's event log",
                               "{unit} intercepted {target}."),
    "end_interceptions": gettext_lazy("The interception window was closed."),
    "end_turn": gettext_lazy("The turn was ended."),
    "concede": gettext_lazy("The {side} side conceded."),
    "end_battle": gettext_lazy("The moderator ended the battle: the {winner} side wins."),
    "batch": gettext_lazy("The moderator started the battle."),
    "pause_clock": gettext_lazy("The moderator paused the clock: {reason}."),
    "resume_clock": gettext_lazy("The moderator restarted the clock: {reason}."),
    "add_time": gettext_lazy("The moderator added {seconds} s to the turn: {reason}."),
    "correct": gettext_lazy("The moderator corrected the board: {reason}."),
    "undo": gettext_lazy("The moderator took back version {undoes}: {reason}."),
    "die_roll": gettext_lazy("The moderator rolled the T7.6 die: {reason}."),
}
"""A row's action (its ``do``) as the console's sentence."""

EVENTS: dict[str, Promise] = {
    "contact_made": gettext_lazy("contact: {unit} and {enemy}"),
    "melee_resolved": gettext_lazy("melee resolved"),
    "die_rolled": gettext_lazy("die {value}: {survivor} survives"),
    "unit_routed": gettext_lazy("{unit} routed"),
    "turn_timed_out": gettext_lazy("time ran out"),
    "battle_ended": gettext_lazy("the battle ended"),
    "seed_revealed": gettext_lazy("dice seed revealed"),
    "commander_done": gettext_lazy("a commander is done"),
    "commander_ready": gettext_lazy("a commander is ready"),
    "unit_corrected": gettext_lazy("{unit} corrected"),
    "die_awaited": gettext_lazy("waiting for the moderator's die (T7.6)"),
}
"""A row's notable events as the short phrases after its action; the other events say nothing there."""

SIDES = {"attacker": gettext_lazy("attacking"), "defender": gettext_lazy("defending")}


def log_sentences() -> dict[str, str]:
    """``LOG`` in the active language, for the board page's strings."""
    return {key: str(text) for key, text in LOG.items()}


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


def _fill(template: Promise, values: dict[str, Any]) -> str:
    """``template`` in the active language with its ``{name}`` values; "?" for a value the row lacks."""
    return str(template).format_map(_Missing(values))


def action_sentence(action: dict[str, Any] | None, roster: dict[str, Any]) -> str:
    """What was done, as a sentence."""
    if not action:
        return ""
    template = ACTIONS.get(str(action.get("do")))
    if template is None:
        return str(action.get("do", ""))
    return _fill(template, _values(action, roster))


def event_phrases(events: list[dict[str, Any]], roster: dict[str, Any]) -> list[str]:
    """The notable consequences of a version (contacts, dice, routs, interceptions)."""
    phrases = []
    for event in events or []:
        template = EVENTS.get(str(event.get("type")))
        if template is not None:
            phrases.append(_fill(template, _values(event, roster)))
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
