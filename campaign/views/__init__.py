"""Pages of the campaign app: home, sign-up, invitations, the campaign page and its rules page."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.forms import AuthenticationForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaign import permissions, services
from campaign.errors import ServiceError
from campaign.logtext import log_lines
from campaign.models import Campaign, Invitation, Membership, Relation
from campaign.rules_reference import range_cells, reference, rule_shown
from campaign.rules_settings import SETTINGS
from campaign.rules_text import GLOSSARY, RULES_BY_ID
from campaign.selectors import campaign_visible_to, locked_out_detail, relations_map, turn_state


def campaign_for_page(request: HttpRequest, slug: str) -> Campaign:
    """The campaign of the URL if the visitor may read it (private ones look missing: 404)."""
    campaign = get_object_or_404(Campaign.objects.select_related("current_faction"), slug=slug)
    if not permissions.can_read_campaign(request.user, campaign):
        raise Http404(_("No such campaign."))
    request.campaign = campaign  # type: ignore[attr-defined]
    return campaign


def _safe_next(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


def home(request: HttpRequest) -> HttpResponse:
    """The campaigns the visitor may read, and the visitor's own ones with the role in each."""
    mine = []
    if request.user.is_authenticated:
        mine = list(
            Membership.objects.filter(user=request.user)
            .select_related("campaign", "faction")
            .order_by("campaign__slug")
        )
    campaigns = campaign_visible_to(user=request.user).select_related("current_faction").order_by("slug")
    context = {
        "campaigns": campaigns,
        "my_memberships": mine,
        "can_create": permissions.can_create_campaign(request.user),
    }
    return render(request, "campaign/home.html", context)


@require_http_methods(["GET", "POST"])
def locked_out(request: HttpRequest, *_: object) -> HttpResponse:
    """The login page when the throttle refused the login (django-axes' AXES_LOCKOUT_CALLABLE): 429 and how
    long to wait, in the reader's language.

    Axes calls it with (request, response, credentials) from a synchronous request and (request,
    credentials) from an asynchronous one, so neither is relied on: the page is drawn anew."""
    form = AuthenticationForm(request)
    context = {"form": form, "next": _safe_next(request, ""), "locked_out": locked_out_detail()}
    return render(request, "registration/login.html", context, status=429)


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation link: shows what it offers; once logged in, accepting it joins the campaign."""
    invite = get_object_or_404(
        Invitation.objects.select_related("campaign", "faction", "commander"), token=token
    )
    context: dict[str, Any] = {"invitation": invite, "used": invite.used_at is not None}
    if request.method == "POST" and request.user.is_authenticated:
        try:
            membership = services.invitation_accept(user=request.user, token=token)
        except ServiceError as exc:
            context["error"] = exc
            return render(request, "campaign/invitation.html", context, status=exc.status)
        messages.success(
            request,
            _("You joined %(campaign)s as %(role)s.")
            % {"campaign": membership.campaign.name, "role": membership.get_role_display()},
        )
        return redirect("campaign", slug=membership.campaign.slug)
    return render(request, "campaign/invitation.html", context)


def campaign_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Turn, phase, who acts until when, the factions and their relations, the latest log."""
    campaign = campaign_for_page(request, slug)
    state = turn_state(campaign=campaign)
    # The leader's captor (Q5) comes in the same query: the leader column marks a captive.
    factions = list(
        campaign.factions.select_related("leader__captured_by", "capital").order_by("turn_order", "slug")
    )
    relations = relations_map(campaign=campaign)
    labels = dict(Relation.Kind.choices)
    pairs = []
    for i, a in enumerate(factions):
        for b in factions[i + 1 :]:
            kind = relations.get((a.id, b.id), "neutral")
            pairs.append({"a": a, "b": b, "kind": kind, "label": labels.get(kind, kind)})
    context = {
        "campaign": campaign,
        "state": state,
        "factions": factions,
        "relation_pairs": pairs,
        "log": log_lines(campaign=campaign, limit=20),
        "can_moderate": permissions.can_moderate(request.user, campaign),
        # The strategic records by their reverse relation: this app sits below strategic and imports none of it.
        # Only what the list prints: the battle's whole row and its three relations' cost more to build than to read.
        "battles": list(
            campaign.battles.select_related(  # type: ignore[attr-defined]
                "province", "attacker_faction", "defender_faction"
            )
            .only(
                "campaign", "status", "province__name_en", "province__name_ru", "attacker_faction__name_en",
                "attacker_faction__name_ru", "defender_faction__name_en", "defender_faction__name_ru",
            )
            .order_by("-pk")[:8]
        ),
    }
    return render(request, "campaign/campaign.html", context)


def rules_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The rules reference (every rule of RULES.md, with an anchor per id) and every campaign setting with
    its value, default, rule id and meaning."""
    campaign = campaign_for_page(request, slug)
    rows = []
    for spec in SETTINGS:
        value = campaign.setting(spec.name)
        rows.append(
            {
                "name": spec.name,
                "label": spec.label,
                "rule": spec.rule,
                "rule_title": RULES_BY_ID[spec.rule].title,
                "value": value,
                "default": spec.default,
                "is_default": value == spec.default,
                "is_bool": spec.kind is bool,
                "minimum": spec.minimum,
                "maximum": spec.maximum,
            }
        )
    settings = _settings_of(campaign)
    cells, width, height = range_cells(settings["range_forward"], settings["range_lateral"])
    context = {
        "campaign": campaign,
        "settings_rows": rows,
        "sections": reference(settings),
        "glossary": GLOSSARY,
        "range_picture": {"cells": cells, "width": width, "height": height, "in_range": len(cells) - 1},
    }
    return render(request, "campaign/rules.html", context)


def rule_entry(request: HttpRequest, slug: str, rule_id: str) -> HttpResponse:
    """One rule's entry as an HTML fragment, for the board's side panel (the turn is not left)."""
    campaign = campaign_for_page(request, slug)
    settings = _settings_of(campaign)
    rule = rule_shown(rule_id, settings)
    if rule is None:
        raise Http404(_("No such rule."))
    cells, width, height = range_cells(settings["range_forward"], settings["range_lateral"])
    context = {
        "campaign": campaign,
        "rule": rule,
        "fragment": True,
        "range_picture": {"cells": cells, "width": width, "height": height, "in_range": len(cells) - 1},
    }
    return render(request, "campaign/rule_fragment.html", context)


def _settings_of(campaign: Campaign) -> dict[str, Any]:
    return {spec.name: campaign.setting(spec.name) for spec in SETTINGS}
