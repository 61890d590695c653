"""Pages of the campaign app: home, sign-up, invitations, the campaign page and its rules page."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.forms import AuthenticationForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from campaign import permissions, services
from campaign.errors import ServiceError
from campaign.logtext import log_lines
from campaign.models import Campaign, Invitation, Membership, Relation
from campaign.rules_settings import SETTINGS
from campaign.selectors import campaign_visible_to, locked_out_detail, relations_map, turn_state

# What each rule id of a setting is about, shown beside it on the rules page.
RULE_TITLES = {
    "T1": gettext_lazy("The field"),
    "T6.1": gettext_lazy("Time"),
    "T7.6": gettext_lazy("Both destroyed"),
    "T9.1": gettext_lazy("Range"),
    "T9.6": gettext_lazy("Reinforcements"),
    "Q7": gettext_lazy("Consequences of a quick battle on the map"),
    "S4": gettext_lazy("Turn order"),
    "R1": gettext_lazy("Where to retreat"),
    "R2": gettext_lazy("Rout sweeping"),
    "M1": gettext_lazy("Moderation"),
}


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
    return render(request, "campaign/home.html", {"campaigns": campaigns, "my_memberships": mine})


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
    }
    return render(request, "campaign/campaign.html", context)


def rules_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Every campaign setting with its value, default, rule id and meaning."""
    campaign = campaign_for_page(request, slug)
    rows = []
    for spec in SETTINGS:
        value = campaign.setting(spec.name)
        rows.append(
            {
                "name": spec.name,
                "label": spec.label,
                "rule": spec.rule,
                "rule_title": RULE_TITLES.get(spec.rule, ""),
                "value": value,
                "default": spec.default,
                "is_default": value == spec.default,
                "is_bool": spec.kind is bool,
                "minimum": spec.minimum,
                "maximum": spec.maximum,
            }
        )
    return render(request, "campaign/rules.html", {"campaign": campaign, "settings_rows": rows})
