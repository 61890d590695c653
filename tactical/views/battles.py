"""The Battles page of a campaign and the moderator's way from a battle record to a live board (issue 16):
Prepare (the setup on the tactical map, S7), a new map, Open deployment (T1)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign import permissions
from campaign.errors import ServiceError
from campaign.views import campaign_for_page
from strategic.models import Battle, RetreatRecord
from strategic.selectors.retreats import armies_to_retreat, retreat_battle_of
from tactical.selectors.battles import campaign_battles
from tactical.services import play as services


def battles_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Every battle of the campaign, newest first: pending, being prepared, live, finished, with its links;
    ``?mine=1`` keeps the visitor's own."""
    campaign = campaign_for_page(request, slug)
    only_mine = request.GET.get("mine") == "1"
    rows = campaign_battles(campaign=campaign, user=request.user,
                            records=Battle.objects.filter(campaign=campaign).order_by("-pk"))
    owed: dict[int, list[Any]] = defaultdict(list)
    for army in armies_to_retreat(campaign=campaign).order_by("pk"):
        battle = retreat_battle_of(army=army)
        if battle is not None:
            owed[battle.pk].append(army)
    done: dict[int, list[RetreatRecord]] = defaultdict(list)
    for record in RetreatRecord.objects.filter(campaign=campaign).order_by("pk"):
        done[record.battle_id].append(record)
    for row in rows:
        row.retreats = owed.get(row.record.pk, [])
        row.retreats_done = done.get(row.record.pk, [])  # type: ignore[attr-defined]
    if only_mine:
        rows = [row for row in rows if row.mine]
    return render(request, "tactical/battles.html", {
        "campaign": campaign, "rows": rows, "only_mine": only_mine,
        "is_moderator": permissions.can_moderate(request.user, campaign),
    })


def _record_for(request: HttpRequest, slug: str, battle_id: int) -> Battle:
    campaign = campaign_for_page(request, slug)
    return get_object_or_404(Battle.objects.select_related("campaign"), campaign=campaign, pk=battle_id)


def _seed(request: HttpRequest) -> tuple[int | None, str]:
    """The optional map seed of a form: (the seed, "") or (None, why it is refused)."""
    raw = (request.POST.get("map_seed") or "").strip()
    if not raw:
        return None, ""
    if not raw.isdigit() or int(raw) > 2**62:
        return None, _("Map seed: a whole number from 0 to %(max)s, or empty for a random map.") % {"max": 2**62}
    return int(raw), ""


def _refused(request: HttpRequest, error: ServiceError | str) -> None:
    if isinstance(error, ServiceError):
        text = f"{error.rule}: {error.message}" if error.rule else str(error.message)
    else:
        text = error
    messages.error(request, text)


@login_required
@require_POST
def battle_prepare(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """The moderator takes a pending battle to the tactical map; the board opens in setup mode for him."""
    record = _record_for(request, slug, battle_id)
    seed, wrong = _seed(request)
    if wrong:
        _refused(request, wrong)
        return redirect(reverse("battles", args=[slug]))
    try:
        services.battle_setup(actor=request.user, record=record, map_seed=seed, open_deployment=False)
    except ServiceError as error:
        _refused(request, error)
        return redirect(reverse("battles", args=[slug]))
    messages.success(request, _("The battle is on the tactical map. Prepare the field, then open the deployment."))
    return redirect(reverse("battle-board", args=[battle_id]))


@login_required
@require_POST
def battle_map_new(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """The moderator draws a new map for the battle before deployment (T5)."""
    _record_for(request, slug, battle_id)
    seed, wrong = _seed(request)
    if wrong:
        _refused(request, wrong)
    else:
        try:
            services.battle_map_regenerate(actor=request.user, battle_id=battle_id, map_seed=seed)
        except ServiceError as error:
            _refused(request, error)
    return redirect(reverse("battle-board", args=[battle_id]))


@login_required
@require_POST
def battle_open(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """The moderator opens the deployment: the commanders' boards come alive (T1)."""
    _record_for(request, slug, battle_id)
    try:
        services.battle_deployment_open(actor=request.user, battle_id=battle_id)
    except ServiceError as error:
        _refused(request, error)
    else:
        messages.success(request, _("The deployment is open: the commanders may place their units."))
    return redirect(reverse("battle-board", args=[battle_id]))
