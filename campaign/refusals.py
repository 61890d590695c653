"""Refusals of the rules engine in the reader's language (issue 4): the catalogue and its renderer.

The engine (``combat/``, no Django) refuses with an English sentence, a rule id, a stable ``code`` and the
``params`` the sentence was built from (``combat.errors.IllegalAction``); malformed input of the retreat, the
quick battle and a live battle's actions (``InvalidAction``) and the reason no land retreat is open (``combat.retreat.model.Blocked``) carry
a code and params the same way. Here every code has its sentence
as a gettext message with ``%(name)s`` placeholders, said again in the active language, with names instead
of the engine's ids: the caller passes ``names`` (id → name), the live battle its units'
(``tactical.refusals``), the strategic map its provinces' (retreats). A code missing here falls back to the
engine's English sentence (tests/campaign/test_refusals.py checks that every code the engine raises is
listed). It lives in ``campaign`` because both ``strategic`` and ``tactical`` say refusals and neither may
import the other's way (DESIGN.md).

Like the engine's, a sentence starts in lower case and has no full stop: the board shows it after
"Rule T6: ", the strategic pages inside their own sentence. A side has a second form, ``%(side_of)s`` ("the
turn of the ..."), for languages that decline it: a sentence uses one of the two in every language, since its
translation must use the same placeholders.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

from combat.errors import IllegalAction, InvalidAction
from combat.retreat.model import PenaltyReason

log = logging.getLogger(__name__)

NAMED_PARAMS = ("unit", "target", "province", "from", "to")  # an id the reader knows by a name
NAMED_LISTS = ("units", "nearest")
SIDE_PARAMS = ("side", "turn")

SIDES: dict[str, tuple[Promise, Promise]] = {
    "attacker": (_("attacker"), pgettext_lazy("genitive: the turn of the ...", "attacker")),
    "defender": (_("defender"), pgettext_lazy("genitive: the turn of the ...", "defender")),
}
FEATURES: dict[str, Promise] = {"river": _("river"), "swamp": _("swamp"), "gorge": _("gorge"), "wall": _("wall")}
BORDERS: dict[str, Promise] = {
    "rough": pgettext_lazy("border", "rough"),
    "strait": pgettext_lazy("border", "strait"),
    "impassable": pgettext_lazy("border", "impassable"),
}
FACINGS: dict[str, Promise] = {
    "N": pgettext_lazy("turn to", "north"),
    "E": pgettext_lazy("turn to", "east"),
    "S": pgettext_lazy("turn to", "south"),
    "W": pgettext_lazy("turn to", "west"),
}

CATALOGUE: dict[str, Promise] = {
    # the battle and its phases (T1, T6, T10, T11)
    "battle_over": _("the battle is over; no further action is accepted"),
    "not_begun": _("the battle has not begun: the sides are still deploying"),
    "already_begun": _("the battle has already begun"),
    "deployment_over": _("deployment is over"),
    "not_your_turn": _("it is the %(side_of)s's turn"),
    "no_window": _("no interception window is open"),
    "window_of_other_side": _("the interception window belongs to the %(side)s"),
    # deployment (T1) and reinforcements (T9.6)
    "side_ready": _("the %(side)s has already finished deploying"),
    "deploy_off_rows": _("the %(side)s deploys in rows y = %(first)s..%(last)s"),
    "units_undeployed": _("deploy every unit first: %(units)s"),
    "no_free_cell": _("no free cell is left in the deployment rows"),
    "reinforcement_deploy": _("%(unit)s is a reinforcement; it arrives in round %(round)s"),
    "not_reinforcement": _("%(unit)s is not a reinforcement waiting to arrive"),
    "reinforcement_too_early": _("reinforcements arrive in round %(round)s"),
    "cell_off_field": _("(%(x)s, %(y)s) is off the field"),
    "cell_impassable": _("(%(x)s, %(y)s) is an impassable %(feature)s"),
    "cell_occupied": _("(%(x)s, %(y)s) is occupied by %(unit)s"),
    # the unit acting (T6, T10.3)
    "unit_not_on_field": _("%(unit)s is not on the field"),
    "unit_of_other_side": _("%(unit)s belongs to the %(side_of)s; it is the %(turn_of)s's turn"),
    "unit_restricted": _("%(unit)s intercepted and may neither move nor turn in this turn"),
    "unit_in_melee": _("%(unit)s is in melee"),
    # moving, turning, withdrawing (T4, T6, T8.1, T11)
    "path_past_contact": _("the move ends on contact; step %(step)s to (%(x)s, %(y)s) goes on after it"),
    "path_not_step": _("step %(step)s to (%(x)s, %(y)s) is not one orthogonal step from (%(from_x)s, %(from_y)s)"),
    "path_off_field": _("step %(step)s to (%(x)s, %(y)s) leaves the field; only a withdrawal (T11) may do that"),
    "path_impassable": _("step %(step)s to (%(x)s, %(y)s) enters an impassable %(feature)s"),
    "path_occupied": _("step %(step)s to (%(x)s, %(y)s) enters a cell occupied by %(unit)s"),
    "path_stays_in_contact": _(
        "a unit in melee must step out of contact first; step %(step)s to (%(x)s, %(y)s) stays in contact"),
    "path_too_costly": _("step %(step)s to (%(x)s, %(y)s) needs %(cost)s points; %(unit)s has %(points)s"),
    "turn_too_costly": _("turning %(unit)s to %(facing)s needs %(cost)s points; it has %(points)s"),
    "withdraw_off_edge": _("%(unit)s can leave the field only from its own edge row (y = %(row)s)"),
    "withdraw_into_contact": _("the move of %(unit)s ends on contact; it cannot step off the field"),
    "withdraw_too_costly": _("stepping off the field needs %(cost)s points; %(unit)s has %(points)s"),
    # missiles (T9)
    "no_missile": _("%(unit)s does not shoot"),
    "shooter_in_melee": _("%(unit)s is in melee and cannot shoot"),
    "already_shot": _("%(unit)s has already shot in this turn"),
    "no_arrows": _("%(unit)s has no arrows left"),
    "target_not_enemy": _("%(target)s is not an enemy of %(unit)s"),
    "out_of_range": _("%(target)s is out of %(unit)s's range"),
    # interception (T10)
    "interceptor_of_other_side": _("%(unit)s belongs to the %(side_of)s, not to the side intercepting"),
    "cannot_intercept": _("%(unit)s cannot intercept %(target)s: %(because)s"),
    "cannot_intercept_by_volley": _("%(unit)s cannot intercept %(target)s by volley: %(because)s"),
    "cannot_reach": _("%(unit)s cannot reach %(target)s: %(because)s"),
    "interception_short": _("%(unit)s's path does not end in contact with %(target)s"),
    "intercepted_already": _("%(unit)s intercepted and may not intercept again in this turn"),
    "target_not_enemy_on_field": _("%(target)s is not an enemy unit on the field"),
    "target_engaged_at_start": _("%(target)s was already in melee when its side's turn began"),
    "target_not_in_melee": _("%(target)s is not in melee"),
    # the quick battle (Q6) and the retreat (R1–R5), for the strategic pages
    "quick_siege_without_storm": _("in a siege the quick battle applies only when the attacker storms the city"),
    "retreat_no_border": _("%(from)s and %(to)s do not share a border"),
    "retreat_border_kind": _("a retreat may not cross the %(border)s border from %(from)s to %(to)s"),
    "retreat_attacker_origin": _("the attacker must first retreat into %(province)s"),
    "retreat_defender_origin": _("the defender may not enter %(province)s, where the attacker came from"),
    "retreat_reenter": _("a retreat may not re-enter %(province)s"),
    "retreat_too_long": _("a retreat may not enter more than %(count)s provinces"),
    "retreat_end_enemy": _("%(province)s holds enemy units"),
    "retreat_end_third_power": _("%(province)s holds units of a third power"),
    "retreat_end_unfriendly": _(
        "%(province)s is neither under friendly control nor holds more friendly units than the army"),
    "retreat_not_nearest": _(
        "%(province)s is farther from the battle than the nearest eligible province (%(nearest)s)"),
    "retreat_sallied": _("an army that sallied from the city must retreat back into it"),
    "retreat_no_fortress": _("only a defender may retreat into a friendly fortress city of the battle province"),
    "retreat_fortress_full": _("the city has room for %(count)s more units"),
    "retreat_nothing_left": _("every unit went into the city: nothing is left to retreat"),
    "retreat_split": _("the army may not split: choose a route or a port, not both"),
    "retreat_required": _("the beaten army must retreat: choose a route or a port"),
    "retreat_losses": ngettext_lazy("the retreat costs %(count)s unit, %(chosen)s were chosen",
                                    "the retreat costs %(count)s units, %(chosen)s were chosen", "count"),
    "retreat_no_sea": _("the army cannot retreat by sea from here"),
    "retreat_bad_port": _("%(province)s is not a friendly port free of enemy and third-power units"),
    "retreat_ships_full": _("the ships carry at most %(count)s units"),
    # why no land route is open (combat.retreat.model.Blocked; R3's is "retreat_sallied" above)
    "retreat_unreachable": _("no eligible province can be reached"),
    "retreat_nearest_too_far": ngettext_lazy(
        "the nearest eligible province (%(province)s) is %(count)s province away",
        "the nearest eligible province (%(province)s) is %(count)s provinces away", "count"),
    # malformed input of the retreat and the quick battle (InvalidAction), said after its field
    "unknown_province": _("unknown province “%(province)s”"),
    "unit_not_in_army": _("%(unit)s is not in the retreating army"),
    "unit_listed_twice": _("%(unit)s is listed twice"),
    "unit_id_used_twice": _("unit id %(unit)s is used twice"),
    "sweep_own_units_unlisted": ngettext_lazy(
        "the route sweeps up %(count)s unit of the army's faction in %(province)s: list them with id and health",
        "the route sweeps up %(count)s units of the army's faction in %(province)s: list them with id and health",
        "count"),
    "sweep_allied_units_unlisted": ngettext_lazy(
        "the route sweeps up %(count)s allied unit in %(province)s: list them with id and health",
        "the route sweeps up %(count)s allied units in %(province)s: list them with id and health", "count"),
    "army_without_units": _("the retreating army has no units"),
    "unit_ids_not_unique": _("unit ids must be unique"),
    "unit_without_id": _("must be a non-empty string"),
    "bad_health": _("must be a positive multiple of 0.5"),
    "negative": _("must not be negative"),
    "not_an_ally": _("must be an ally"),
    "garrison_too_large": _("is larger than the holder's units in the province"),
    "allied_garrison_of_holder": _("is the holder: its units inside are the garrison"),
    "allied_garrison_too_large": _("is larger than the faction's units in the province"),
    "sallied_without_city": _("there is no friendly fortress city in the battle province"),
    "men_not_positive": _("must be a positive number of men"),
    "rout_loss_range": _("must be between 0 and 1"),
    "side_without_units": _("the %(side_of)s needs at least one unit"),
    "storm_without_siege": _("only a siege can be stormed"),
    # malformed actions of a live battle (combat.battle.serialize, combat.battle.engine), said after their field
    "action_not_object": _('must be an object with a "do" field'),
    "unknown_action": _("unknown action %(action)s; expected one of %(expected)s"),
    "not_a_field_of_action": _("is not a field of %(action)s"),
    "field_missing": _("is missing"),
    "unit_id_not_string": _("must be a unit id (a non-empty string)"),
    "path_not_cells": _("must be a list of [x, y] cells, at least one"),
    "path_not_list": _("must be a list of [x, y] cells"),
    "path_empty": _("must list at least one cell"),
    "cell_not_pair": _("must be an [x, y] pair of integers"),
    "facing_not_compass": _("must be one of N, E, S, W"),
    "side_not_a_side": _('must be "attacker" or "defender"'),
    "not_an_integer": _("must be an integer"),
    "no_such_unit": _("there is no unit '%(unit)s'"),
}


# R4: why a province of a retreat route costs units (``combat.retreat.model.PenaltyReason``): not refusals,
# but said the same way, inside the route's line of the retreat page ("Sora: 2 (enemy control, 1 enemy unit)").
PENALTY_REASONS: dict[str, Promise] = {
    "enemy_control": _("enemy control"),
    "enemy_fortress_city": _("enemy fortress city"),
    "tribe": _("tribe"),
    "enemy_units": ngettext_lazy("%(count)s enemy unit", "%(count)s enemy units", "count"),
}


def _name(value: Any, names: Mapping[Any, str]) -> str:
    return str(names.get(value) or value)


def _values(params: Mapping[str, Any], names: Mapping[Any, str]) -> dict[str, Any]:
    """The params as the sentence shows them: names for ids, words for sides, features, borders and facings."""
    values: dict[str, Any] = {}
    for key, value in params.items():
        if key in NAMED_PARAMS:
            value = _name(value, names)
        elif key in NAMED_LISTS:
            value = ", ".join(_name(v, names) for v in value) or (_("none within reach") if key == "nearest" else "")
        elif key in SIDE_PARAMS and value in SIDES:
            values[f"{key}_of"] = str(SIDES[value][1])
            value = SIDES[value][0]
        elif key == "feature" and value in FEATURES:
            value = FEATURES[value]
        elif key == "border" and value in BORDERS:
            value = BORDERS[value]
        elif key == "facing" and value in FACINGS:
            value = FACINGS[value]
        elif key == "because" and isinstance(value, Mapping):
            value = say(value.get("code", ""), value.get("params") or {}, names=names)
        values[key] = str(value) if isinstance(value, Promise) else value
    return values


def say(code: str, params: Mapping[str, Any], *, names: Mapping[Any, str] | None = None,
        fallback: str | None = None, catalogue: Mapping[str, Promise] = CATALOGUE) -> str:
    """The sentence of ``code`` in the active language, or ``fallback`` (the engine's) if it has none."""
    message = catalogue.get(code)
    if message is None:
        if fallback is None:
            log.warning("refusal %r has no sentence in campaign.refusals", code)
        return fallback if fallback is not None else code
    try:
        return str(message % _values(params, names or {}))  # ngettext_lazy picks its form by "count"
    except (KeyError, TypeError, ValueError):
        log.warning("refusal %r could not be said with %r", code, params)
        return fallback if fallback is not None else str(message)


def sentence(error: IllegalAction | InvalidAction, names: Mapping[Any, str] | None = None) -> str:
    """The engine's refusal (or its malformed-input message, without the field) in the active language, with
    ``names`` (engine id → name) for its ids."""
    fallback = error.reason if isinstance(error, IllegalAction) else error.message
    return say(error.code, error.params, names=names, fallback=fallback)


def penalty_reason(reason: PenaltyReason) -> str:
    """Why a province of a retreat route costs units (R4), in the active language."""
    return say(reason.code, reason.params, fallback=reason.text, catalogue=PENALTY_REASONS)
