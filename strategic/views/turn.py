"""The players' turn page (S2–S7): their armies, the orders they may give, and one small view per order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign import permissions
from campaign import services as campaign_services
from campaign.errors import ServiceError
from campaign.models import Campaign, Commander, Faction
from campaign.selectors import membership_of
from campaign.views import campaign_for_page
from strategic.messages import ALREADY_SUPPORTS, ATTACKER_SUPPORTS_ITSELF, TOO_FAR
from strategic.models import Army, Battle, Border, Province, Terrain, Unit
from strategic.render.map_data import map_data
from strategic.render.map_svg import map_svg
from strategic.selectors.map import (
    Destination,
    OpenBattles,
    army_move_blockers,
    destination_refusals,
    legal_destinations_of,
    neighbours_of,
    open_battles,
)
from strategic.selectors.rosters import army_units
from strategic.selectors.unit_cards import unit_cards
from strategic.services import armies as services
from strategic.services import moves
from strategic.services.battles import battle_support_declare
from strategic.views.forms import ArmyCreateForm, AssignForm, MergeForm, MoveForm, SplitForm, SupportForm


def _faction_for(request: HttpRequest, campaign: Campaign) -> Faction | None:
    """The faction whose turn page the user sees: a moderator may pick any with ``faction=<slug>``."""
    wanted = request.POST.get("faction") or request.GET.get("faction")
    if permissions.can_moderate(request.user, campaign):
        chosen: Faction | None = (
            Faction.objects.filter(campaign=campaign, slug=wanted).first() if wanted else None
        )
        return chosen or campaign.current_faction or campaign.factions.order_by("turn_order", "slug").first()
    membership = membership_of(user=request.user, campaign=campaign)
    if membership is not None and membership.faction is not None:
        return membership.faction
    commander = (
        Commander.objects.filter(campaign=campaign, user=request.user).select_related("faction").first()
    )
    return commander.faction if commander else None


def _army_card(
    army: Army,
    armies: list[Army],
    turn: int,
    *,
    may_command: bool,
    blocker: tuple[str, str] | None,
    legal: list[Destination],
) -> dict[str, Any]:
    """One army on the turn page: may the user command it, why it cannot move, where it may go (S5)."""
    kind_labels = {"battle": _("battle"), "capture": _("capture"), "move": _("move")}
    return {
        "army": army,
        "legal": legal,
        "may_command": may_command,
        "moved": army.moved_turn == turn,
        "blocker": blocker,
        "destinations": [
            {
                "province": d.province,
                "kind": d.kind,
                "kind_label": kind_labels.get(d.kind, kind_labels["move"]),
                "border": d.border,
                "border_label": Border.Kind(d.border).label,
                "terrain_label": Terrain(d.terrain).label,
            }
            for d in legal
        ],
        "siblings": [a for a in armies if a.province_id == army.province_id and a.id != army.id],
    }


def _army_cards(
    user: Any,
    campaign: Campaign,
    armies: list[Army],
    *,
    battles: OpenBattles,
    battle_provinces: set[int],
    unit_counts: dict[int, dict[int, int]],
) -> tuple[list[dict[str, Any]], dict[int, list[tuple[Province, str]]]]:
    """The cards of the faction's armies: who may command each, its blocker and its legal moves, read for all
    the armies at once (``can_command_armies``, ``army_move_blockers``, ``legal_destinations_of`` with the map's
    ``unit_counts``); and the neighbours of the provinces of the armies that may move and of ``battle_provinces``,
    read in the same query."""
    commands = permissions.can_command_armies(user, armies, campaign_id=campaign.pk)
    commanded = [army for army in armies if commands[army.id]]
    blockers = army_move_blockers(campaign=campaign, armies=commanded, battles=battles)
    movable = [a for a in commanded if blockers[a.id] is None]
    near = neighbours_of(province_ids={a.province_id for a in movable} | battle_provinces)
    legal = legal_destinations_of(campaign=campaign, armies=movable, near=near, battles=battles, counts=unit_counts)
    cards = [
        _army_card(
            army,
            armies,
            campaign.turn,
            may_command=commands[army.id],
            blocker=blockers.get(army.id),
            legal=legal.get(army.id, []),
        )
        for army in armies
    ]
    return cards, near


def _support_choices(battle: Battle, commandable: list[Army], near_by: list[tuple[Province, str]]) -> None:
    """The armies this person may declare in support of ``battle`` now (S8), and why the others may not: the
    attacking army fights already, one that supports already cannot again, one too far away cannot reach it.
    ``near_by`` are the ``neighbours`` of the battle's province."""
    supporting = {s.army_id for s in battle.supports.all()}
    near = {p.pk for p, kind in near_by if kind != Border.Kind.IMPASSABLE}
    choices, excluded = [], []
    for army in commandable:
        if army.id == battle.attacker_army_id:
            excluded.append((army, str(ATTACKER_SUPPORTS_ITSELF)))
        elif army.id in supporting:
            excluded.append((army, str(ALREADY_SUPPORTS)))
        elif army.province_id != battle.province_id and army.province_id not in near:
            excluded.append((army, str(TOO_FAR)))
        else:
            choices.append(army)
    battle.support_choices = choices  # type: ignore[attr-defined]
    battle.support_excluded = excluded  # type: ignore[attr-defined]


def _loose_groups(faction: Faction, armies: list[Army]) -> list[dict[str, Any]]:
    """The faction's units outside armies by province, each with the armies it could join there (S2, S4)."""
    groups: dict[int | None, dict[str, Any]] = {}
    units = Unit.objects.filter(faction=faction, army__isnull=True).select_related("unit_type", "province")
    for unit in units.order_by("province__code", "id"):
        unit.armies_here = [a for a in armies if a.province_id == unit.province_id]  # type: ignore[attr-defined]
        groups.setdefault(unit.province_id, {"province": unit.province, "units": []})["units"].append(unit)
    return list(groups.values())


def _turn_context(request: HttpRequest, campaign: Campaign, faction: Faction) -> dict[str, Any]:
    user = request.user
    is_turn = campaign.phase == Campaign.Phase.STRATEGIC and campaign.current_faction_id == faction.id
    armies = list(
        Army.objects.filter(faction=faction)
        .select_related("commander", "province", "faction__leader")
        .order_by("province__code", "name")
    )
    for army in armies:
        army.campaign = campaign  # the rules read the campaign's phase, turn and deadline of each army
    battles = open_battles(campaign=campaign)
    # Most turns have no pending battle: the cards' list of them is read only when there is one.
    pending_battles = (
        list(
            Battle.objects.filter(campaign=campaign, status=Battle.Status.PENDING)
            .select_related("province", "origin", "attacker_faction", "defender_faction", "attacker_army")
            .prefetch_related("supports__army__faction")
            .order_by("id")
        )
        if battles.pending_provinces
        else []
    )
    the_map = map_data(campaign=campaign)
    # The provinces of the battles as listed (not as ``battles`` saw them a query earlier) get their neighbours.
    cards, near = _army_cards(
        user,
        campaign,
        armies,
        battles=battles,
        battle_provinces={b.province_id for b in pending_battles},
        unit_counts=the_map.unit_counts,
    )
    # The cards list every unit of the faction, twice (the army's list, the split form): read as rows, not as
    # model instances, which cost about a tenth of the page's time.
    units = army_units(army_ids=[army.id for army in armies])
    for card in cards:
        card["units"] = units[card["army"].id]
    wanted = request.GET.get("army") or request.POST.get("army")
    # The army shown on the map: the one asked for, else the first that can move.
    selected = next((c for c in cards if str(c["army"].id) == wanted), None) if wanted else None
    if selected is None and not wanted:
        selected = next((c for c in cards if c["destinations"]), None)
    highlighted = {d["province"].id: d["kind"] for d in selected["destinations"]} if selected else {}
    refusals = (
        destination_refusals(
            army=selected["army"],
            blocker=selected["blocker"],
            legal=selected["legal"],
            near=near.get(selected["army"].province_id),
            province_ids=[province.id for province in the_map.provinces],
            battles=battles,
        )
        if selected and selected["may_command"]
        else {}
    )
    may_lead = permissions.can_lead_faction(user, faction)
    commandable = [c["army"] for c in cards if c["may_command"]]
    for battle in pending_battles:
        _support_choices(battle, commandable, near[battle.province_id])
    return {
        "campaign": campaign,
        "faction": faction,
        "is_turn": is_turn,
        "cards": cards,
        "selected": selected,
        "loose_groups": _loose_groups(faction, armies),
        "commanders": list(faction.commanders.filter(displaced=False).order_by("name")),
        "map_svg": map_svg(
            the_map,
            destinations=highlighted,
            origin=selected["army"].province_id if selected else None,
        ),
        "pending_battles": pending_battles,
        "commandable": commandable,
        "may_lead": may_lead,
        "map_refusals": {str(pk): text for pk, text in refusals.items()},
        "may_pass": is_turn and permissions.can_act_for_faction(user, faction),
        "is_moderator": permissions.can_moderate(user, campaign),
        "all_factions": list(campaign.factions.order_by("turn_order", "slug")),
        "unit_cards": unit_cards(
            campaign=campaign,
            terrain=selected["army"].province.terrain if selected else None,
        ),
    }


def _labelled_errors(form: Any) -> list[tuple[str, list[str]]]:
    """A form's errors under each field's translated label (none for the form's own), as a player reads them."""
    return [
        (str(form.fields[name].label or name) if name in form.fields else "", [str(e) for e in errors])
        for name, errors in form.errors.items()
    ]


def _turn_render(
    request: HttpRequest,
    campaign: Campaign,
    faction: Faction,
    *,
    status: int = 200,
    error: ServiceError | None = None,
    form: Any = None,
) -> HttpResponse:
    # The page asks a dozen permissions of one user: his membership is read once for all of them.
    with permissions.memberships_read_once():
        context = _turn_context(request, campaign, faction)
        context["error"] = error
        context["form_errors"] = _labelled_errors(form) if form is not None else None
        return render(request, "strategic/turn.html", context, status=status)


@login_required
def turn_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The acting players' page: place new units, move, split and merge armies, pass the turn."""
    with permissions.memberships_read_once():
        campaign = campaign_for_page(request, slug)
        faction = _faction_for(request, campaign)
        if faction is None:
            return render(request, "strategic/no_faction.html", {"campaign": campaign}, status=403)
        return _turn_render(request, campaign, faction)


Action = Callable[[Any, dict[str, Any], Faction], tuple[str, int | None]]


def _act(request: HttpRequest, slug: str, form_class: type | None, action: Action) -> HttpResponse:
    campaign = campaign_for_page(request, slug)
    faction = _faction_for(request, campaign)
    if faction is None:
        return render(request, "strategic/no_faction.html", {"campaign": campaign}, status=403)
    cleaned: dict[str, Any] = {}
    if form_class is not None:
        form = form_class(request.POST, faction=faction)
        if not form.is_valid():
            return _turn_render(request, campaign, faction, status=400, form=form)
        cleaned = form.cleaned_data
    try:
        message, army_id = action(request.user, cleaned, faction)
    except ServiceError as exc:
        return _turn_render(request, campaign, faction, status=exc.status, error=exc)
    messages.success(request, message)
    url = reverse("turn", kwargs={"slug": campaign.slug})
    query = []
    if permissions.can_moderate(request.user, campaign):
        query.append(f"faction={faction.slug}")
    if army_id:
        query.append(f"army={army_id}")
    return redirect(url + ("?" + "&".join(query) if query else ""))


def _assign(user: Any, data: dict[str, Any], faction: Faction) -> tuple[str, int | None]:
    unit = services.unit_assign(actor=user, unit=data["unit"], army=data["army"])
    return _("%(unit)s joined %(army)s.") % {"unit": unit, "army": data["army"].name}, data["army"].id


def _create(user: Any, data: dict[str, Any], faction: Faction) -> tuple[str, int | None]:
    units = list(data["units"])
    army = services.army_create(
        actor=user,
        faction=faction,
        commander=data["commander"],
        province=services.location_of(units[0]),
        name=data["name"],
        unit_ids=[u.id for u in units],
    )
    return _("Army %(army)s was formed.") % {"army": army.name}, army.id


def _move(user: Any, data: dict[str, Any], faction: Faction) -> tuple[str, int | None]:
    army, destination = data["army"], data["destination"]
    outcome = moves.army_move(
        actor=user, army=army, destination=destination, expected_version=data.get("expected_version")
    )
    text = {
        "moved": _("%(army)s moved into %(province)s."),
        "captured": _("%(army)s captured %(province)s."),
        "battle": _("%(army)s entered %(province)s: a battle begins."),
    }.get(outcome.kind, _("%(army)s moved into %(province)s."))
    return text % {"army": army.name, "province": destination.name}, army.id


def _split(user: Any, data: dict[str, Any], faction: Faction) -> tuple[str, int | None]:
    new = services.army_split(
        actor=user,
        army=data["army"],
        unit_ids=[u.id for u in data["units"]],
        name=data["name"],
        commander=data.get("commander"),
    )
    return _("Army %(army)s was split off.") % {"army": new.name}, new.id


def _merge(user: Any, data: dict[str, Any], faction: Faction) -> tuple[str, int | None]:
    into = services.army_merge(actor=user, army=data["army"], into=data["into"])
    return _("%(army)s was merged into %(into)s.") % {"army": data["army"].name, "into": into.name}, into.id


def _support(user: Any, data: dict[str, Any], faction: Faction) -> tuple[str, int | None]:
    battle, army = data["battle"], data["army"]
    battle_support_declare(actor=user, battle=battle, army=army, side=data["side"])
    return _("%(army)s declared support in %(province)s; side: %(side)s.") % {
        "army": army.name,
        "province": battle.province.name,
        "side": Battle.Side(data["side"]).label,
    }, army.id


def _pass(user: Any, data: dict[str, Any], faction: Faction) -> tuple[str, int | None]:
    campaign_services.faction_turn_pass(actor=user, faction=faction)
    return _("%(faction)s ended its turn.") % {"faction": faction.name}, None


@login_required
@require_POST
def unit_assign_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Place a unit into an army."""
    return _act(request, slug, AssignForm, _assign)


@login_required
@require_POST
def army_create_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Form a new army."""
    return _act(request, slug, ArmyCreateForm, _create)


@login_required
@require_POST
def army_move_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Move an army."""
    return _act(request, slug, MoveForm, _move)


@login_required
@require_POST
def army_split_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Split an army."""
    return _act(request, slug, SplitForm, _split)


@login_required
@require_POST
def army_merge_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Merge two armies."""
    return _act(request, slug, MergeForm, _merge)


@login_required
@require_POST
def battle_support_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Declare support in a pending battle."""
    return _act(request, slug, SupportForm, _support)


@login_required
@require_POST
def turn_pass_view(request: HttpRequest, slug: str) -> HttpResponse:
    """End the faction's turn."""
    return _act(request, slug, None, _pass)
