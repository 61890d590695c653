"""The live tactical board page (issue 4) and the melee forecast it shows before a turn ends.

The page is rendered once; everything after that comes over the battle socket
(docs/tactical-protocol.md §6). Every string the board script shows is built here with gettext, in the
language of the request, and handed to the script as one JSON blob (no JavaScript catalogue to build, no
inline script).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from campaign.permissions import can_moderate, can_read_campaign
from combat.battle.queries import preview as melee_preview
from combat.battle.serialize import state_from_dict
from strategic.models import Battle, UnitType
from strategic.selectors.retreats import armies_to_retreat, retreat_battle_of
from tactical.messages import NO_BATTLE, NOT_WATCHER, WATCH_NEEDS_LOGIN
from tactical.models import LiveBattle
from tactical.protocol import turnlabel
from tactical.protocol.eventtext import log_sentences
from tactical.selectors.battles import STAGE_OF_LIVE, viewer_of, watch_refusal


def _battle_for(request: HttpRequest, battle_id: int) -> tuple[LiveBattle, str | None]:
    """The live battle (404 when there is none) and why the visitor may not watch it (None if he may)."""
    battle = LiveBattle.objects.select_related("campaign", "record__province").filter(pk=battle_id).first()
    if battle is None:
        raise Http404(NO_BATTLE)
    return battle, watch_refusal(user=request.user, battle=battle)


def _record_page(request: HttpRequest, record: Battle, battle: LiveBattle | None) -> HttpResponse:
    """A battle not yet on the board, or being prepared: what the moderator may do now, and for everyone else a
    page that waits and shows the board as soon as the moderator opens it (``static/tactical/waiting.js``)."""
    campaign = record.campaign
    if not can_read_campaign(request.user, campaign):
        raise Http404(NO_BATTLE)
    request.campaign = campaign  # type: ignore[attr-defined]
    return render(request, "tactical/board_waiting.html", {
        "record": record, "battle": battle, "campaign": campaign,
        "is_moderator": can_moderate(request.user, campaign),
        "stage_url": reverse("battle-board-stage", args=[record.pk]),
    })


def board_stage(request: HttpRequest, battle_id: int) -> JsonResponse:
    """Where a battle stands (pending, setup, deployment, live, finished): the waiting page asks it."""
    record = Battle.objects.select_related("campaign").filter(pk=battle_id).first()
    if record is None or not can_read_campaign(request.user, record.campaign):
        return JsonResponse({"status": 404, "code": "not_found", "detail": str(NO_BATTLE)}, status=404)
    battle = LiveBattle.objects.filter(pk=battle_id).only("status").first()
    stage = STAGE_OF_LIVE.get(battle.status, "live") if battle is not None else (
        "finished" if record.status == Battle.Status.RESOLVED else "pending")
    return JsonResponse({"battle": battle_id, "stage": stage})


def board_page(request: HttpRequest, battle_id: int) -> HttpResponse:
    """The board: an SVG grid driven by ``static/tactical/board.js`` over the battle socket.

    A visitor who may not watch: to the login page when anonymous (he may be a commander), else 403. A battle
    not yet on the board, or still being prepared, shows what waits (the moderator sees the setup tools).
    """
    battle = LiveBattle.objects.select_related("campaign", "record__province").filter(pk=battle_id).first()
    if battle is None:
        record = Battle.objects.select_related("campaign", "province").filter(pk=battle_id).first()
        if record is None:
            raise Http404(NO_BATTLE)
        return _record_page(request, record, None)
    refusal = watch_refusal(user=request.user, battle=battle)
    if refusal == "login":
        return redirect_to_login(request.get_full_path())
    if refusal is not None:
        raise PermissionDenied(NOT_WATCHER)
    request.campaign = battle.campaign  # type: ignore[attr-defined]  # the base layout's campaign bar
    viewer = viewer_of(user=request.user, battle=battle)
    record = battle.record
    setup_mode = battle.status == LiveBattle.Status.SETUP
    if setup_mode and not viewer.is_moderator:
        return _record_page(request, record, battle)
    types = UnitType.objects.filter(campaign=battle.campaign, code__in=_type_codes(battle))
    config = {
        "battle": battle.pk,
        "socket": f"/ws/battles/{battle.pk}/",
        "api": reverse("tactical-battle", args=[battle.pk]),
        "melee": reverse("battle-board-melee", args=[battle.pk]),
        "csrf": get_token(request),
        "lang": get_language() or "en",
        "viewer": viewer.as_dict(),
    }
    strings = {**board_strings(), **{f"type_{t.code}": t.name for t in types}}
    return render(request, "tactical/board.html", {
        "battle": battle, "record": record, "campaign": battle.campaign, "viewer": viewer,
        "config": config, "strings": strings, "setup_mode": setup_mode,
        "ended": battle.status == LiveBattle.Status.ENDED, "features": FEATURES,
        "retreats": _retreats_after(record) if battle.status == LiveBattle.Status.ENDED else [],
    })


# The cells a moderator may paint in setup (T5), in the palette's order; "clear" removes a feature.
FEATURES = [("clear", _("clear")), ("river", _("river")), ("swamp", _("swamp")), ("gorge", _("gorge")),
            ("wall", _("wall"))]


def _retreats_after(record: Battle) -> list[Any]:
    """The armies that owe a retreat after this battle (R1), for the finished board's links."""
    return [army for army in armies_to_retreat(campaign=record.campaign).order_by("pk")
            if (battle := retreat_battle_of(army=army)) is not None and battle.pk == record.pk]


def melee_forecast(request: HttpRequest, battle_id: int) -> JsonResponse:
    """What every unit in contact would deal and take if the turn ended now (T7, before any die)."""
    battle, refusal = _battle_for(request, battle_id)
    if refusal is not None:
        message = WATCH_NEEDS_LOGIN if refusal == "login" else NOT_WATCHER
        return JsonResponse({"status": 403, "code": "forbidden", "detail": str(message)}, status=403)
    state = state_from_dict(battle.state)
    units = {
        unit_id: {"target": p.target, "deals": p.deals, "takes": p.takes, "health": p.health,
                  "routed": p.routed, "needs_die": p.needs_die}
        for unit_id, p in melee_preview(state).items()
    }
    return JsonResponse({"battle": battle.pk, "version": battle.version, "units": units})


def _type_codes(battle: LiveBattle) -> list[str]:
    types = battle.state.get("unit_types", {})
    return list(types) if isinstance(types, dict) else []


# Every sentence the board script shows; ``{name}`` marks a value. The log's sentences are
# ``tactical.protocol.eventtext``'s and the unit types' names the campaign's (``board_strings``).
BOARD_STRINGS: dict[str, Promise] = {
    # status line
    "attacker": _("Attacker"),
    "defender": _("Defender"),
    "side_attacker": _("attacker"),
    "side_defender": _("defender"),
    "phase_setup": _("Preparing the field"),
    "phase_deployment": _("Deployment"),
    "phase_move": _("Movement"),
    "phase_interception": _("Interception window"),
    "phase_ended": _("The battle is over"),
    "round": turnlabel.ROUND,
    "to_act": turnlabel.TO_ACT,
    "window_attacker": turnlabel.WINDOWS["attacker"],
    "window_defender": turnlabel.WINDOWS["defender"],
    "winner": _("{side} won the battle"),
    "time_left": _("Time left"),
    "time_up": _("Time is up: the server ends the turn"),
    "no_clock": _("No clock in this phase"),
    "clock_paused": _("The clock is paused"),
    # the moderator's hold on the battle: a paused clock, a T7.6 die awaited
    "halt_paused": _("The moderator has paused the clock ({seconds} s left): no action is accepted until it "
                     "runs again."),
    "halt_awaiting": _("Waiting for the moderator's die (T7.6): no action is accepted until it is rolled."),
    "connected": _("Live"),
    "connecting": _("Connecting…"),
    "reconnecting": _("Connection lost: reconnecting in {seconds} s"),
    "closed_forbidden": _("You may not watch this battle."),
    "closed_missing": _("There is no such battle."),
    "spectator": _("You are watching this battle."),
    "your_side": _("You command units of the {side}."),
    "moderator": _("You moderate this battle."),
    # a hidden tab when the viewer's side begins its turn (static/tactical/attention.js)
    "attention_title": _("Your turn!"),
    "attention_body": _("Your side's turn began: round {round}."),
    # unit card
    "select_hint": _("Select a unit on the board."),
    "health": _("Health"),
    "arrows": _("Arrows"),
    "points": _("Points"),
    "facing": _("Facing"),
    "commander": _("Commander"),
    # the card's values on this battlefield and the strike a move would make (T3, T5, T7.2–T7.4)
    "card_damage": _("Damage, lines"),
    "card_melee": _("Melee"),
    "card_volley": _("Volley"),
    "card_speed_here": _("Speed on this battlefield"),
    "card_charge": _("Charge"),
    "card_charge_yes": _("+1 after moving more than 2 cells into contact"),
    "card_charge_no": _("not on this terrain"),
    "strike_preview": _("Moving here: {damage} against {target}"),
    "strike_flank": _("flank +1"),
    "strike_charge": _("charge +1"),
    "strike_plain": _("card damage only"),
    # keyboard play: what the cursor's cell offers (keyboard.js)
    "kbd_reach": _("a move ends here"),
    "kbd_reach_contact": _("a move here makes contact"),
    "kbd_deploy": _("a unit can be deployed here"),
    "kbd_range": _("in range"),
    "kbd_withdraw": _("the unit can withdraw from here"),
    "kbd_intercept": _("an interception ends here"),
    "kbd_nothing": _("nothing to do here"),
    "class_LI1": _("Light infantry, level 1"),
    "class_LI2": _("Light infantry, level 2"),
    "class_HI": _("Heavy infantry"),
    "class_LC": _("Light cavalry"),
    "class_HC": _("Heavy cavalry"),
    "status_routed": _("routed"),
    "status_withdrawn": _("withdrawn"),
    "status_reserve": _("in reserve"),
    "status_undeployed": _("not deployed"),
    "in_contact": _("in melee"),
    "restricted": _("intercepted: may not move this turn (T10.3)"),
    "shot": _("has shot this turn"),
    "N": _("North"),
    "E": _("East"),
    "S": _("South"),
    "W": _("West"),
    "turn_to": _("Face {direction} ({cost} pt)"),
    "turn_keys": _("Arrow keys turn the selected unit; Esc clears the selection."),
    # actions
    "end_turn": _("End turn"),
    "done": _("Done"),
    "waiting_done": _("Done: waiting for the other commanders of your side"),
    "end_interceptions": _("No more interceptions"),
    "ready": _("Ready"),
    "ready_wait": _("Ready: waiting for the other side"),
    "start": _("Start the battle"),
    "withdraw": _("Withdraw"),
    "withdraw_hint": _("Choose a highlighted cell of your edge to withdraw over it."),
    "cancel": _("Cancel"),
    "zoom_in": _("Enlarge the map"),
    "zoom_out": _("Fit the map to the screen"),
    "concede": _("Concede"),
    "concede_confirm": _("Really concede the battle? Click again (it stays armed until you cancel)"),
    "deploy_hint": _("Click a highlighted cell of your rows to place the unit; turn it with the buttons."),
    "move_hint": _("Click a highlighted cell to move; click an enemy in range to shoot."),
    "intercept_hint": _("Click a pulsing unit of yours, then the enemy it intercepts."),
    "interceptors": _("Units that may intercept"),
    "sent": _("Sent…"),
    "refused": _("Refused"),
    "rule": _("Rule {rule}"),
    # the rule beside the board (static/tactical/rules-panel.js)
    "rules_panel_title": _("Rule"),
    "rules_panel_close": _("Close"),
    "rules_panel_loading": _("Loading the rule…"),
    "rules_panel_failed": _("The rule could not be loaded; the full rules page has it."),
    "rules_panel_full": _("Open the full rules page"),
    "rule_T1": _("The field and deployment"),
    "rule_T2": _("Commanders on the field"),
    "rule_T4": _("Speed"),
    "rule_T5": _("Terrain"),
    "rule_T6": _("Moving"),
    "rule_T6.1": _("Time"),
    "rule_T7": _("Melee"),
    "rule_T8": _("The binding rule"),
    "rule_T9": _("Missile troops"),
    "rule_T9.1": _("Range"),
    "rule_T10": _("Interception"),
    "rule_T11": _("End of battle"),
    "paint_route_kept": _("A passable route between the deployment zones remains (T5)."),
    "paint_sent": _("Painting {count} cells…"),
    "error_stale": _("The battle had changed: the board is up to date now, try again."),
    # the terrain features, named in their cells' titles
    "feature_river": _("river"),
    "feature_swamp": _("swamp"),
    "feature_gorge": _("gorge"),
    "feature_wall": _("wall"),
    # melee preview
    "preview_title": _("If the turn ended now"),
    "preview_none": _("No unit is in melee."),
    "preview_unit": _("Unit"),
    "preview_deals": _("Deals"),
    "preview_takes": _("Takes"),
    "preview_left": _("Left"),
    "preview_routed": _("routed"),
    "preview_die": _("a die decides (T7.6)"),
    # log
    "log_title": _("Battle log"),
    "log_skipped": _("Earlier entries are not shown (versions up to {version})."),
    # orders (T2)
    "orders_title": _("Orders"),
    "orders_none": _("No orders yet."),
    "orders_to": _("To"),
    "orders_text": _("Order"),
    "orders_send": _("Give the order"),
    "orders_line": _("{from} to {to}: {text}"),
}


def board_strings() -> dict[str, str]:
    """Every sentence the board script shows, in the active language; ``{name}`` marks a value.

    The page hands them to the script in one JSON blob (``#board-strings``), with the campaign's names of
    the battle's unit types as ``type_<code>``; the log's sentences are ``tactical.protocol.eventtext``'s.
    """
    return {**{key: str(text) for key, text in BOARD_STRINGS.items()}, **log_sentences()}
