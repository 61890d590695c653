"""The moderator's unit cards (T3, Q2): every card as a player sees it, a form to add one and one to edit each;
through ``services.map.unit_type_create`` / ``unit_type_update``."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaign.errors import ServiceError
from campaign.forms import refusal_to_form
from campaign.selectors import campaign_has_begun
from campaign.versions import row_version
from campaign.views.setup import campaign_for_setup, form_status
from strategic.models import UnitType
from strategic.selectors.unit_cards import unit_card
from strategic.services import map as map_services
from strategic.views.setup_forms import UnitTypeForm, unit_type_initial

# The service names the card's damage tables as a whole; the form has one field per class.
DAMAGE_FIELDS = {"damage": "damage_LI1", "missile_damage": "volley_LI1"}


def _refuse(form: UnitTypeForm, error: ServiceError) -> None:
    for name, target in DAMAGE_FIELDS.items():
        if name in error.errors:
            error.errors[target] = error.errors.pop(name)
    refusal_to_form(form, error)


@require_http_methods(["GET", "POST"])
def setup_units_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Every unit card of the campaign, and a form to add one."""
    campaign = campaign_for_setup(request, slug)
    form = UnitTypeForm(request.POST or None, prefix="card")
    status = 200
    if request.method == "POST":
        error = None
        if form.is_valid():
            try:
                card = map_services.unit_type_create(
                    actor=request.user, campaign=campaign, code=form.cleaned_data["code"], **form.service_values()
                )
            except ServiceError as exc:
                error = exc
                _refuse(form, exc)
            else:
                messages.success(request, _("Unit card %(name)s was created.") % {"name": card.name})
                return redirect("setup-units", slug=campaign.slug)
        status = form_status(form, error)
    context = {
        "campaign": campaign,
        "begun": campaign_has_begun(campaign=campaign),
        # Each card as a player sees it (the rosters' and the turn page's), with the way to edit it.
        "cards": [(unit_card(t, campaign=campaign), reverse("setup-unit", args=[campaign.slug, t.pk]))
                  for t in UnitType.objects.filter(campaign=campaign).order_by("code")],
        "form": form,
    }
    return render(request, "strategic/setup/units.html", context, status=status)


@require_http_methods(["GET", "POST"])
def setup_unit_page(request: HttpRequest, slug: str, unit_type_id: int) -> HttpResponse:
    """One unit card: as a player sees it, and its form."""
    campaign = campaign_for_setup(request, slug)
    card = get_object_or_404(UnitType, pk=unit_type_id, campaign=campaign)
    form = UnitTypeForm(
        request.POST or None, initial=unit_type_initial(card, row_version(card)), editing=True, prefix="card"
    )
    status = 200
    if request.method == "POST":
        error = None
        if form.is_valid():
            try:
                card = map_services.unit_type_update(
                    actor=request.user, unit_type=card, expected_version=form.cleaned_data["version"],
                    **form.service_values(),
                )
            except ServiceError as exc:
                error = exc
                _refuse(form, exc)
            else:
                messages.success(request, _("Unit card %(name)s was saved.") % {"name": card.name})
                return redirect("setup-units", slug=campaign.slug)
        status = form_status(form, error)
    context = {"campaign": campaign, "card": card, "player_card": unit_card(card, campaign=campaign), "form": form}
    return render(request, "strategic/setup/unit.html", context, status=status)
