"""The public rosters (S3): the index of every faction, each faction's roster, and both as JSON, BBCode and PNG."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from campaign.models import Campaign, Faction
from campaign.views import campaign_for_page
from strategic.render.roster_png import roster_png
from strategic.selectors.rosters import roster, roster_bbcode, roster_index, roster_json
from strategic.selectors.unit_cards import unit_cards


def _roster_file(
    request: HttpRequest, campaign: Campaign, faction: Faction | None, kind: str
) -> HttpResponse:
    """The roster of every faction, or of one, as JSON, BBCode text or a PNG picture (S3)."""
    rosters = roster(campaign=campaign, faction=faction)
    name = f"{campaign.slug}-{faction.slug if faction else 'rosters'}-turn-{campaign.turn}"
    if kind == "png":
        title = f"{campaign.name} — " + _("Turn %(turn)s") % {"turn": campaign.turn}
        response = HttpResponse(roster_png(rosters, title=title), content_type="image/png")
        response["Content-Disposition"] = f'inline; filename="{name}.png"'
        return response
    if kind == "bbcode":
        response = HttpResponse(roster_bbcode(rosters), content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="{name}.txt"'
        return response
    return JsonResponse(
        {"campaign": campaign.slug, "turn": campaign.turn, **roster_json(rosters)},
        json_dumps_params={"ensure_ascii": False},
    )


def rosters_page(request: HttpRequest, slug: str, kind: str = "") -> HttpResponse:
    """The roster index (S3): one line per faction linking to its roster; every faction's full roster as
    JSON (``?format=json``, ``roster.json``) or BBCode (``roster.txt``). Pictures are per faction: the former
    ``roster.png`` of every faction (megabytes, seconds to draw) sends the reader to the index."""
    campaign = campaign_for_page(request, slug)
    if kind == "png":
        return redirect("rosters", slug=campaign.slug)
    if kind or request.GET.get("format") == "json":
        return _roster_file(request, campaign, None, kind or "json")
    return render(
        request,
        "strategic/rosters.html",
        {
            "campaign": campaign,
            "factions": roster_index(campaign=campaign),
            "unit_cards": unit_cards(campaign=campaign),
        },
    )


def faction_roster_page(request: HttpRequest, slug: str, faction: str, kind: str = "") -> HttpResponse:
    """One faction's roster (S3): armies, commanders, units and its BBCode; or JSON, BBCode text, PNG."""
    campaign = campaign_for_page(request, slug)
    chosen = get_object_or_404(Faction, campaign=campaign, slug=faction)
    if kind or request.GET.get("format") == "json":
        return _roster_file(request, campaign, chosen, kind or "json")
    rosters = roster(campaign=campaign, faction=chosen)
    return render(
        request,
        "strategic/roster.html",
        {
            "campaign": campaign,
            "rosters": rosters,
            "bbcode": roster_bbcode(rosters),
            "unit_cards": unit_cards(campaign=campaign),
            "faction": chosen,
            "factions": campaign.factions.order_by("turn_order", "slug"),
        },
    )
