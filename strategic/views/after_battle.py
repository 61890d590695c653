"""Pages after a battle: the beaten commander's retreat (R1–R5) on the map, the moderator's quick battle
(Q1–Q7) and its rolls (M2), the support points won (R6) and the list of retreats owed and made."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from campaign import permissions
from campaign.errors import ServiceError
from campaign.models import Campaign, Commander
from campaign.refusals import penalty_reason, say
from campaign.views import campaign_for_page
from combat.retreat.model import Blocked, RetreatOptions
from strategic.logtext import RESULTS, ROLL_PURPOSES
from strategic.models import Army, Battle, Province, QuickBattleRecord, RetreatRecord
from strategic.render.map_data import map_data
from strategic.render.map_svg import map_svg
from strategic.selectors.retreats import (
    PendingRetreat,
    armies_to_retreat,
    captive_commanders,
    pending_retreat,
    recent_retreats,
)
from strategic.selectors.rosters import lines_text
from strategic.services import captives as captive_services
from strategic.services import quick_battles as quick_services
from strategic.services import retreats as retreat_services

OUTCOMES = {
    "holds": gettext_lazy("holds"),
    "retreat in good order": gettext_lazy("retreats in good order"),
    "rout": gettext_lazy("routs"),
    "surrender": gettext_lazy("surrenders"),
    "thrown back": gettext_lazy("thrown back"),
}
ROUTE_COLOUR = "#1b4f9c"


def blocked_reason(blocked: Blocked | None, names: dict[str, str]) -> str:
    """Why no land retreat is open (R1.4, or R3 for an army that sallied), in the reader's language, with
    the provinces' names: the engine's code and params said from the catalogue (``campaign.refusals``)."""
    if blocked is None:
        return ""
    return _("No retreat by land (%(rule)s): %(reason)s.") % {
        "rule": blocked.rule, "reason": say(blocked.code, blocked.params, names=names)}


def _route_overlay(paths: list[list[Province]], start: Province) -> str:
    """Lines from the battle along each legal route, drawn over the map picture."""
    lines = []
    for path in paths:
        points = " ".join(f"{p.x},{p.y}" for p in (start, *path))
        lines.append(f'<polyline class="retreat-route" points="{points}" fill="none" stroke="{ROUTE_COLOUR}" '
                     'stroke-width="5" stroke-linecap="round" stroke-linejoin="round" marker-end="url(#retreat-arrow)"/>')
    marker = ('<defs><marker id="retreat-arrow" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" '
              f'markerHeight="4" orient="auto"><path d="M0 0 L10 5 L0 10 Z" fill="{ROUTE_COLOUR}"/></marker></defs>')
    return f'<g class="retreat-routes">{marker}{"".join(lines)}</g>'


def _options_context(campaign: Campaign, pending: PendingRetreat) -> dict[str, Any]:
    provinces = {p.code: p for p in Province.objects.filter(campaign=campaign)}
    options: RetreatOptions = pending.options
    routes = []
    for option in options.routes:
        routes.append({
            "value": "route:" + ",".join(option.path),
            "path": [provinces[c] for c in option.path],
            "destination": provinces[option.destination],
            "swept": [{"province": provinces[s.province], "count": s.count, "allied": s.allied}
                      for s in option.swept],
            "penalties": [{"province": provinces[p.province], "units": p.units,
                           "reasons": [penalty_reason(r) for r in p.reasons]} for p in option.penalties],
            "penalty": option.penalty,
            "survivors": option.army_size - option.losses,
        })
    destinations = {provinces[c].pk: "move" for c in options.destinations}
    for route in routes:
        for p in route["path"][:-1]:
            destinations.setdefault(p.pk, "route")
    svg = map_svg(map_data(campaign=campaign), destinations=destinations, origin=pending.battle.province_id)
    svg = svg.replace("</svg>", _route_overlay([r["path"] for r in routes], pending.battle.province) + "</svg>")
    sea = None
    if options.sea is not None:
        sea = {"ports": [provinces[c] for c in options.sea.ports], "capacity": options.sea.capacity}
    return {
        "routes": routes, "sea": sea, "fortress": options.fortress, "destroyed": options.is_destroyed,
        "blocked_reason": blocked_reason(options.land_blocked, {c: p.name for c, p in provinces.items()}),
        "map_svg": svg,
        "nearest_distance": options.nearest_distance,
    }


def _units_of(army: Army) -> list[Any]:
    units = list(army.units.select_related("unit_type").order_by("health_halves", "pk"))
    for unit in units:
        unit.health_text = f"{lines_text(unit.health_halves)}/{lines_text(int(unit.unit_type.health * 2))}"  # type: ignore[attr-defined]
    return units


def _retreat_render(request: HttpRequest, campaign: Campaign, army: Army, *, status: int = 200,
                    error: ServiceError | None = None) -> HttpResponse:
    pending = pending_retreat(army=army)
    context: dict[str, Any] = {
        "campaign": campaign, "army": army, "pending": pending, "error": error,
        "may_choose": permissions.can_command_army(request.user, army),
        "units": _units_of(army),
        "records": list(RetreatRecord.objects.filter(army=army).select_related("destination", "battle__province")[:5]),
    }
    if pending is not None:
        context.update(_options_context(campaign, pending))
    return render(request, "strategic/after_battle/retreat.html", context, status=status)


def _army_for_page(request: HttpRequest, slug: str, army_id: int) -> tuple[Campaign, Army]:
    campaign = campaign_for_page(request, slug)
    army = get_object_or_404(Army.objects.select_related("faction", "commander", "province", "campaign"),
                             campaign=campaign, pk=army_id)
    return campaign, army


def retreat_page(request: HttpRequest, slug: str, army_id: int) -> HttpResponse:
    """The beaten army's legal retreats on the map, with penalties, sweeps, fortress and sea (R1–R5)."""
    campaign, army = _army_for_page(request, slug, army_id)
    # Whoever looks after the deadline sees the default applied (R1), as the sweep would apply it.
    if retreat_services.retreat_expire(army_id=army.pk) is not None:
        army = Army.objects.filter(pk=army.pk).select_related("faction", "commander", "province").first() or army
    return _retreat_render(request, campaign, army)


def _choice_from(post: Any) -> dict[str, Any]:
    option = post.get("option", "")
    choice: dict[str, Any] = {
        "fortress_units": post.getlist("fortress_units"), "sea_units": post.getlist("sea_units"),
        "lost_units": post.getlist("lost_units"),
    }
    if option.startswith("route:"):
        choice["route"] = [c for c in option[len("route:"):].split(",") if c]
    elif option.startswith("sea:"):
        choice["sea_port"] = option[len("sea:"):]
    return choice


@login_required
@require_POST
def retreat_choose_view(request: HttpRequest, slug: str, army_id: int) -> HttpResponse:
    """Apply the commander's choice; a refused choice re-renders the page with the rule and changes nothing."""
    campaign, army = _army_for_page(request, slug, army_id)
    # A choice that arrives after the deadline finds the default applied (R1).
    retreat_services.retreat_expire(army_id=army.pk)
    try:
        record = retreat_services.retreat_choose(actor=request.user, army=army, **_choice_from(request.POST))
    except ServiceError as exc:
        army = Army.objects.filter(pk=army.pk).select_related("faction", "commander", "province").first() or army
        return _retreat_render(request, campaign, army, status=exc.status, error=exc)
    messages.success(request, _("%(army)s retreated: %(kind)s.") % {"army": record.army_name,
                                                                    "kind": record.get_kind_display()})
    return redirect(reverse("after-battle", kwargs={"slug": campaign.slug}))


def after_battle_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Retreats owed (with deadlines), battles awaiting resolution, and the latest retreats."""
    campaign = campaign_for_page(request, slug)
    owed = []
    for army in armies_to_retreat(campaign=campaign).order_by("pk"):
        pending = pending_retreat(army=army)
        owed.append({"army": army, "pending": pending,
                     "may_choose": permissions.can_command_army(request.user, army)})
    is_moderator = permissions.can_moderate(request.user, campaign)
    pending_battles = list(Battle.objects.filter(campaign=campaign, status=Battle.Status.PENDING)
                           .select_related("province", "attacker_faction", "defender_faction", "attacker_army"))
    return render(request, "strategic/after_battle/index.html", {
        "campaign": campaign, "owed": owed, "records": recent_retreats(campaign=campaign),
        "captives": captive_commanders(campaign=campaign),
        "pending_battles": pending_battles, "is_moderator": is_moderator,
        "quick_battles": list(QuickBattleRecord.objects.filter(campaign=campaign).select_related(
            "battle__province")[:10]),
    })


def _quick_context(campaign: Campaign, battle: Battle) -> dict[str, Any]:
    record = QuickBattleRecord.objects.filter(battle=battle).first()
    context: dict[str, Any] = {"campaign": campaign, "battle": battle, "record": record,
                               "skills": QuickBattleRecord.Skill.choices}
    if record is not None and record.result:
        result = record.result
        context["result_label"] = RESULTS.get(result.get("result", ""), result.get("result", ""))
        context["rolls"] = [{**r, "purpose_label": ROLL_PURPOSES.get(r["purpose"], r["purpose"])}
                            for r in result.get("rolls", [])]
        context["unit_rows"] = [
            {**u, "outcome_label": OUTCOMES.get(u["outcome"], u["outcome"])} for u in result.get("units", [])
        ]
        context["retreats"] = list(RetreatRecord.objects.filter(battle=battle).select_related("destination"))
        captured = (battle.result or {}).get("captured_commander")
        context["captured"] = Commander.objects.filter(pk=captured).first() if captured else None
    return context


def quick_battle_page(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """The quick battle of a pending battle: the moderator's form, or the resolved battle with every die."""
    campaign = campaign_for_page(request, slug)
    battle = get_object_or_404(Battle.objects.select_related("province", "origin", "attacker_army"),
                               campaign=campaign, pk=battle_id)
    context = _quick_context(campaign, battle)
    context["is_moderator"] = permissions.can_moderate(request.user, campaign)
    return render(request, "strategic/after_battle/quick.html", context)


@login_required
@require_POST
def quick_battle_resolve_view(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """The moderator resolves the battle by the quick contest (Q1–Q7)."""
    campaign = campaign_for_page(request, slug)
    battle = get_object_or_404(Battle, campaign=campaign, pk=battle_id)
    try:
        quick_services.quick_battle_resolve(
            actor=request.user, battle=battle, skill=request.POST.get("skill", ""),
            open_field=request.POST.get("table") == "open_field", siege=bool(request.POST.get("siege")),
            storm=bool(request.POST.get("storm")),
        )
    except ServiceError as exc:
        context = _quick_context(campaign, battle)
        context.update({"error": exc, "is_moderator": permissions.can_moderate(request.user, campaign)})
        return render(request, "strategic/after_battle/quick.html", context, status=exc.status)
    return redirect(reverse("quick-battle", kwargs={"slug": campaign.slug, "battle_id": battle.pk}))


def _back_to_after_battle(request: HttpRequest, campaign: Campaign, write: Callable[[], Any], done: str,
                          anchor: str = "") -> HttpResponse:
    """Run a moderator's write from the after-battle page and go back to it, with its message or error."""
    url = reverse("after-battle", kwargs={"slug": campaign.slug})
    try:
        write()
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(f"{url}?error={exc.status}{anchor}")
    messages.success(request, done)
    return redirect(url + anchor)


@login_required
@require_POST
def support_set_view(request: HttpRequest, slug: str, record_id: int) -> HttpResponse:
    """The moderator splits the winner's support points between adding and removing (R6)."""
    campaign = campaign_for_page(request, slug)
    record = get_object_or_404(RetreatRecord, campaign=campaign, pk=record_id)
    try:
        removed = int(request.POST.get("removed", ""))
    except ValueError:
        removed = -1
    return _back_to_after_battle(
        request, campaign, lambda: retreat_services.retreat_support_set(actor=request.user, record=record,
                                                                        removed=removed),
        _("Support points changed (R6)."))


@login_required
@require_POST
def commander_release_view(request: HttpRequest, slug: str, commander_id: int) -> HttpResponse:
    """The moderator releases a captured commander, with a reason (Q5, M1)."""
    campaign = campaign_for_page(request, slug)
    commander = get_object_or_404(Commander, campaign=campaign, pk=commander_id)
    return _back_to_after_battle(
        request, campaign, lambda: captive_services.commander_release(
            actor=request.user, commander=commander, reason=request.POST.get("reason", "")),
        _("%(commander)s is released.") % {"commander": commander.name}, anchor="#captives")
