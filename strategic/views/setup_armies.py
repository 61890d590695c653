"""The moderator's starting units and armies (S2, S4): new units of each faction placed province by province,
and armies formed of them under a commander; through ``services.armies.unit_create`` and ``army_create``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from campaign.errors import ServiceError
from campaign.forms import refusal_to_form
from campaign.models import Campaign, Commander, Faction
from campaign.selectors import campaign_has_begun
from campaign.versions import row_version
from campaign.views.setup import campaign_for_setup, form_status
from strategic.models import Army, Province, Unit, UnitType
from strategic.services import armies as army_services
from strategic.services import corrections
from strategic.views.setup_forms import ArmyCreateForm, UnitCorrectForm, UnitsCreateForm


def _forms(campaign: Campaign, data: Any = None, only: str = "") -> dict[str, Any]:
    factions = list(Faction.objects.filter(campaign=campaign).order_by("turn_order", "slug"))
    loose = Unit.objects.filter(campaign=campaign, army__isnull=True).select_related(
        "faction", "province", "unit_type"
    ).order_by("faction__turn_order", "province__code", "id")
    return {
        "unit_form": UnitsCreateForm(
            data if only == "unit" else None, prefix="unit", factions=factions,
            unit_types=UnitType.objects.filter(campaign=campaign).order_by("code"),
            provinces=Province.objects.filter(campaign=campaign).order_by("code"),
        ),
        "army_form": ArmyCreateForm(
            data if only == "army" else None, prefix="army",
            commanders=Commander.objects.filter(campaign=campaign, displaced=False).select_related("faction")
            .order_by("faction__turn_order", "name"),
            units=loose,
        ),
    }


def _context(campaign: Campaign, forms: dict[str, Any]) -> dict[str, Any]:
    factions = list(Faction.objects.filter(campaign=campaign).order_by("turn_order", "slug"))
    armies = Army.objects.filter(campaign=campaign).select_related("province", "commander").order_by("name")
    units = Unit.objects.filter(campaign=campaign).select_related("unit_type", "province", "army__province")
    rows = []
    for faction in factions:
        rows.append({
            "faction": faction,
            "armies": [
                (a, [u for u in units if u.army_id == a.pk]) for a in armies if a.faction_id == faction.pk
            ],
            "loose": [u for u in units if u.faction_id == faction.pk and u.army_id is None],
        })
    return {
        "campaign": campaign,
        "begun": campaign_has_begun(campaign=campaign),
        "rows": rows,
        **forms,
    }


def setup_armies_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Each faction's armies and loose units by province; forms to add units and to form armies."""
    campaign = campaign_for_setup(request, slug)
    return render(request, "strategic/setup/armies.html", _context(campaign, _forms(campaign)))


def _units(request: HttpRequest, campaign: Campaign, data: dict[str, Any]) -> str:
    faction = Faction.objects.get(pk=data["faction"], campaign=campaign)
    unit_type = UnitType.objects.get(pk=data["unit_type"], campaign=campaign)
    province = Province.objects.get(pk=data["province"], campaign=campaign)
    with transaction.atomic():  # all the units or none
        for _n in range(data["count"]):
            army_services.unit_create(
                actor=request.user, campaign=campaign, faction=faction, unit_type=unit_type,
                province=province, name=data["name"],
            )
    return ngettext(
        "%(count)s unit of %(faction)s was placed in %(province)s.",
        "%(count)s units of %(faction)s were placed in %(province)s.",
        data["count"],
    ) % {"count": data["count"], "faction": faction.name, "province": province.name}


def _army(request: HttpRequest, campaign: Campaign, data: dict[str, Any]) -> str:
    commander = Commander.objects.select_related("faction").get(pk=data["commander"], campaign=campaign)
    first = Unit.objects.select_related("army__province", "province").get(pk=data["units"][0], campaign=campaign)
    province = army_services.location_of(first)
    army = army_services.army_create(
        actor=request.user, faction=commander.faction, commander=commander, province=province,
        name=data["name"], unit_ids=data["units"],
    )
    return _("Army %(name)s was formed in %(province)s.") % {"name": army.name, "province": province.name}


ARMY_ACTIONS: dict[str, Callable[[HttpRequest, Campaign, dict[str, Any]], str]] = {"unit": _units, "army": _army}


@require_POST
def setup_armies_action(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """One form of the armies page; a refused form is drawn again with its errors and the status."""
    campaign = campaign_for_setup(request, slug)
    if action not in ARMY_ACTIONS:
        raise Http404(_("No such setup form."))
    forms = _forms(campaign, request.POST, only=action)
    form = forms[f"{action}_form"]
    error = None
    if form.is_valid():
        try:
            done = ARMY_ACTIONS[action](request, campaign, dict(form.cleaned_data))
        except ServiceError as exc:
            error = exc
            if "unit_ids" in exc.errors:
                exc.errors["units"] = exc.errors.pop("unit_ids")
            refusal_to_form(form, exc)
        else:
            messages.success(request, done)
            return redirect(reverse("setup-armies", args=[campaign.slug]) + f"#{action}")
    context = {**_context(campaign, forms), "failed": action}
    return render(request, "strategic/setup/armies.html", context, status=form_status(form, error))


@require_http_methods(["GET", "POST"])
def setup_unit_correct_page(request: HttpRequest, slug: str, unit_id: int) -> HttpResponse:
    """One unit's health and place, set by the moderator (``services.corrections.unit_correct``); once the
    campaign has begun a change needs a reason (M1)."""
    campaign = campaign_for_setup(request, slug)
    unit = get_object_or_404(
        Unit.objects.select_related("unit_type", "faction", "army__province", "province"), pk=unit_id,
        campaign=campaign,
    )
    armies = Army.objects.filter(faction=unit.faction).select_related("province").order_by("name")
    provinces = Province.objects.filter(campaign=campaign).order_by("code")
    initial = {
        "health": unit.health_halves / 2, "army": unit.army_id, "province": None if unit.army_id else unit.province_id,
        "version": row_version(unit),
    }
    form = UnitCorrectForm(request.POST or None, initial=initial, armies=armies, provinces=provinces, prefix="fix")
    status = 200
    if request.method == "POST":
        error = None
        if form.is_valid():
            data = form.cleaned_data
            try:
                corrections.unit_correct(
                    actor=request.user, unit=unit, reason=data["reason"], health=data["health"],
                    army=armies.filter(pk=data["army"]).first() if data["army"] else None,
                    province=provinces.filter(pk=data["province"]).first() if data["province"] else None,
                    expected_version=data["version"],
                )
            except ServiceError as exc:
                error = exc
                refusal_to_form(form, exc)
            else:
                messages.success(request, _("%(unit)s was saved.") % {"unit": unit})
                return redirect(reverse("setup-armies", args=[campaign.slug]) + f"#forces-{unit.faction.slug}")
        status = form_status(form, error)
    context = {"campaign": campaign, "unit": unit, "form": form, "begun": campaign_has_begun(campaign=campaign)}
    return render(request, "strategic/setup/unit_correct.html", context, status=status)
