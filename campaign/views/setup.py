"""The moderator's setup pages of campaign-level things (M1): the campaign itself, factions, relations,
commanders and invitations. Every change goes through ``campaign.services`` (same permissions, log entries and
refusals as the API); a refusal is shown on the field it names, with the status the API would answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from campaign import permissions, services
from campaign.errors import ServiceError
from campaign.forms import (
    CampaignEditForm,
    CommanderForm,
    FactionForm,
    InvitationForm,
    RelationForm,
    refusal_to_form,
)
from campaign.models import Campaign, Commander, Faction, Invitation, Relation
from campaign.selectors import campaign_has_begun, relations_map
from campaign.versions import row_version
from campaign.views import campaign_for_page


def campaign_for_setup(request: HttpRequest, slug: str) -> Campaign:
    """The campaign of the URL for one of its moderators: 404 when the visitor may not read it, else 403."""
    campaign = campaign_for_page(request, slug)
    if not permissions.can_moderate(request.user, campaign):
        raise PermissionDenied(_("Only a moderator of this campaign may set it up (M1)."))
    return campaign


def form_status(form: Any, error: ServiceError | None = None) -> int:
    """The status of a page re-drawn with a refused form: the service's, else 400 for the form's own checks."""
    return error.status if error is not None else 400


@require_http_methods(["GET", "POST"])
def setup_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The Setup section's first page: the campaign's names, description and visibility, and the sections."""
    campaign = campaign_for_setup(request, slug)
    initial = {
        "name_en": campaign.name_en, "name_ru": campaign.name_ru, "description": campaign.description,
        "is_public": campaign.is_public, "version": row_version(campaign),
    }
    form = CampaignEditForm(request.POST or None, initial=initial, prefix="campaign")
    status = 200
    if request.method == "POST":
        error = None
        if form.is_valid():
            data = dict(form.cleaned_data)
            version = data.pop("version")
            try:
                services.campaign_update(
                    actor=request.user, campaign=campaign, expected_version=version, **data
                )
            except ServiceError as exc:
                error = exc
                refusal_to_form(form, exc)
            else:
                messages.success(request, _("The campaign was saved."))
                return redirect("setup", slug=campaign.slug)
        status = form_status(form, error)
    context = {
        "campaign": campaign,
        "form": form,
        "begun": campaign_has_begun(campaign=campaign),
        "counts": {
            "factions": campaign.factions.count(),
            "commanders": campaign.commanders.count(),
            "invitations": campaign.invitations.filter(used_at__isnull=True).count(),
        },
    }
    return render(request, "campaign/setup/index.html", context, status=status)


def _factions(campaign: Campaign) -> list[Faction]:
    return list(Faction.objects.filter(campaign=campaign).select_related("leader").order_by("turn_order", "slug"))


def _forms(campaign: Campaign, factions: list[Faction], data: Any = None, only: str = "") -> dict[str, Any]:
    """The forms of the factions page, the one named ``only`` bound to ``data``."""
    commanders = list(Commander.objects.filter(campaign=campaign).select_related("faction"))

    def bound(name: str) -> Any:
        return data if name == only else None

    return {
        "faction_form": FactionForm(bound("faction"), prefix="faction"),
        "relation_form": RelationForm(bound("relation"), factions=factions, prefix="relation"),
        "commander_form": CommanderForm(bound("commander"), factions=factions, prefix="commander"),
        "invite_form": InvitationForm(
            bound("invite"), factions=factions, commanders=[c for c in commanders if c.user_id is None],
            prefix="invite",
        ),
    }


def _factions_context(request: HttpRequest, campaign: Campaign, forms: dict[str, Any]) -> dict[str, Any]:
    factions = _factions(campaign)
    relations = relations_map(campaign=campaign)
    labels = dict(Relation.Kind.choices)
    pairs = []
    for i, a in enumerate(factions):
        for b in factions[i + 1 :]:
            kind = relations.get((a.id, b.id), "neutral")
            pairs.append({"a": a, "b": b, "kind": kind, "label": labels.get(kind, kind)})
    invitations = [
        (i, request.build_absolute_uri(reverse("invitation", args=[i.token])))
        for i in Invitation.objects.filter(campaign=campaign).select_related("faction", "commander", "used_by")
        .order_by("-id")
    ]
    return {
        "campaign": campaign,
        "factions": factions,
        "relation_pairs": pairs,
        "commanders": Commander.objects.filter(campaign=campaign).select_related("faction", "user")
        .order_by("faction__turn_order", "name"),
        "invitations": invitations,
        **forms,
    }


def setup_factions_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Factions, their relations, commanders and invitation links."""
    campaign = campaign_for_setup(request, slug)
    context = _factions_context(request, campaign, _forms(campaign, _factions(campaign)))
    return render(request, "campaign/setup/factions.html", context)


# One adapter per form of the factions page: the cleaned form → one service call → what was done.


def _faction_create(request: HttpRequest, campaign: Campaign, data: dict[str, Any]) -> str:
    faction = services.faction_create(actor=request.user, campaign=campaign, **data)
    return _("Faction %(name)s was created.") % {"name": faction.name}


def _relation(request: HttpRequest, campaign: Campaign, data: dict[str, Any]) -> str:
    factions = {f.pk: f for f in Faction.objects.filter(campaign=campaign, pk__in=[data["a"], data["b"]])}
    services.relation_set(
        actor=request.user, campaign=campaign, a=factions[data["a"]], b=factions[data["b"]], kind=data["kind"]
    )
    return _("The relation was set.")


def _commander(request: HttpRequest, campaign: Campaign, data: dict[str, Any]) -> str:
    faction = Faction.objects.get(pk=data.pop("faction"), campaign=campaign)
    commander = services.commander_create(actor=request.user, faction=faction, **data)
    return _("%(name)s was added to %(faction)s.") % {"name": commander.name, "faction": faction.name}


def _invite(request: HttpRequest, campaign: Campaign, data: dict[str, Any]) -> str:
    faction = Faction.objects.filter(pk=data["faction"], campaign=campaign).first() if data["faction"] else None
    commander = (
        Commander.objects.filter(pk=data["commander"], campaign=campaign).first() if data["commander"] else None
    )
    invitation = services.invitation_create(
        actor=request.user, campaign=campaign, role=data["role"], faction=faction, commander=commander
    )
    link = request.build_absolute_uri(reverse("invitation", args=[invitation.token]))
    return _("Invitation link: %(link)s") % {"link": link}


FACTION_ACTIONS: dict[str, Callable[[HttpRequest, Campaign, dict[str, Any]], str]] = {
    "faction": _faction_create,
    "relation": _relation,
    "commander": _commander,
    "invite": _invite,
}


@require_POST
def setup_factions_action(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """One form of the factions page; a refused form is drawn again with its errors and the status."""
    campaign = campaign_for_setup(request, slug)
    if action not in FACTION_ACTIONS:
        raise Http404(_("No such setup form."))
    forms = _forms(campaign, _factions(campaign), request.POST, only=action)
    form = forms[f"{action}_form"]
    error = None
    if form.is_valid():
        try:
            done = FACTION_ACTIONS[action](request, campaign, dict(form.cleaned_data))
        except ServiceError as exc:
            error = exc
            refusal_to_form(form, exc)
        else:
            messages.success(request, done)
            return redirect(reverse("setup-factions", args=[campaign.slug]) + f"#{action}")
    context = {**_factions_context(request, campaign, forms), "failed": action}
    return render(request, "campaign/setup/factions.html", context, status=form_status(form, error))


@require_http_methods(["GET", "POST"])
def setup_faction_page(request: HttpRequest, slug: str, faction_id: int) -> HttpResponse:
    """One faction's names, colour, turn order, naval capacity and leader."""
    campaign = campaign_for_setup(request, slug)
    faction = get_object_or_404(Faction, pk=faction_id, campaign=campaign)
    leaders = Commander.objects.filter(faction=faction).order_by("name")
    initial = {
        "name_en": faction.name_en, "name_ru": faction.name_ru, "color": faction.color,
        "turn_order": faction.turn_order, "naval_capacity": faction.naval_capacity,
        "leader": faction.leader_id, "version": row_version(faction),
    }
    form = FactionForm(request.POST or None, initial=initial, leaders=leaders, editing=True, prefix="faction")
    status = 200
    if request.method == "POST":
        error = None
        if form.is_valid():
            data = dict(form.cleaned_data)
            version = data.pop("version")
            data["leader"] = leaders.filter(pk=data["leader"]).first() if data["leader"] else None
            try:
                services.faction_update(actor=request.user, faction=faction, expected_version=version, **data)
            except ServiceError as exc:
                error = exc
                refusal_to_form(form, exc)
            else:
                messages.success(request, _("Faction %(name)s was saved.") % {"name": data["name_en"]})
                return redirect("setup-factions", slug=campaign.slug)
        status = form_status(form, error)
    return render(
        request, "campaign/setup/faction.html", {"campaign": campaign, "faction": faction, "form": form},
        status=status,
    )
