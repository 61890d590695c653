"""The strategic map's pages: the map with the campaign's state, and the same picture as SVG and PNG files."""

from __future__ import annotations

import base64
import hashlib

from csp.decorators import csp_update
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from campaign.views import campaign_for_page
from strategic.models import Battle
from strategic.render.map_data import map_data
from strategic.render.map_png import map_png
from strategic.render.map_svg import MAP_STYLE, legend_items, map_svg


def map_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The strategic map, inline SVG, with its legend and a list of who stands where."""
    campaign = campaign_for_page(request, slug)
    battles = list(
        Battle.objects.filter(campaign=campaign, turn=campaign.turn)
        .select_related("province", "origin", "attacker_army", "attacker_faction", "defender_faction")
        .order_by("id")
    )
    data = map_data(campaign=campaign, battles=battles)
    provinces = sorted(data.provinces, key=lambda m: m.name)
    return render(
        request,
        "strategic/map.html",
        {
            "campaign": campaign,
            "map_svg": map_svg(data),
            "legend": legend_items(),
            "provinces": provinces,
            "battles": battles,
        },
    )


# The SVG file, opened in the browser, is a document under the site's policy: its own <style> element (and
# that one only) is allowed by its hash.
_MAP_STYLE_HASH = f"'sha256-{base64.b64encode(hashlib.sha256(MAP_STYLE.encode()).digest()).decode()}'"


@csp_update({"style-src": [_MAP_STYLE_HASH]})
def map_svg_file(request: HttpRequest, slug: str) -> HttpResponse:
    """The map as an SVG file, with its own style sheet."""
    campaign = campaign_for_page(request, slug)
    return HttpResponse(
        map_svg(map_data(campaign=campaign), standalone=True), content_type="image/svg+xml; charset=utf-8"
    )


def map_png_file(request: HttpRequest, slug: str) -> HttpResponse:
    """The map as a PNG picture for forum posts."""
    campaign = campaign_for_page(request, slug)
    response = HttpResponse(map_png(map_data(campaign=campaign)), content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="{campaign.slug}-turn-{campaign.turn}.png"'
    return response
