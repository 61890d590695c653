"""The page where a pending battle's time is agreed (S7), each reader seeing times in his own zone, and the
scheduled battle's iCalendar file."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import icalendar
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign import permissions
from campaign.errors import Invalid, ServiceError
from campaign.views import campaign_for_page
from notifications.services.mail import site_url
from strategic.messages import SCHEDULE_BAD_TIME
from strategic.models import Battle
from strategic.selectors.schedule import SIDES, battle_times, sides_of
from strategic.services import schedule as services

TIME_FIELDS = ("time1", "time2", "time3")


def _battle(request: HttpRequest, slug: str, battle_id: int) -> Battle:
    campaign = campaign_for_page(request, slug)
    return get_object_or_404(Battle.objects.select_related("campaign", "province", "attacker_faction",
                                                           "defender_faction"), campaign=campaign, pk=battle_id)


def _local_time(value: str, field: str) -> datetime:
    """A browser's ``datetime-local`` value, read in the reader's active time zone."""
    try:
        naive = datetime.fromisoformat(value.strip())
    except ValueError as error:
        raise Invalid(SCHEDULE_BAD_TIME, field=field) from error
    if naive.tzinfo is not None:
        return naive
    return timezone.make_aware(naive, timezone.get_current_timezone())


def _page(request: HttpRequest, battle: Battle, *, error: ServiceError | None = None, status: int = 200) -> HttpResponse:
    user = request.user
    context: dict[str, Any] = {
        "battle": battle, "times": battle_times(battle=battle), "sides": sides_of(user=user, battle=battle),
        "all_sides": [(s, Battle.Side(s).label) for s in SIDES], "error": error,
        "is_moderator": permissions.can_moderate(user, battle.campaign) if user.is_authenticated else False,
        "time_fields": TIME_FIELDS, "zone": timezone.get_current_timezone_name(),
    }
    return render(request, "strategic/schedule.html", context, status=status)


def battle_schedule_page(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """The battle's proposed times, who accepted which, and the scheduled time."""
    return _page(request, _battle(request, slug, battle_id))


def _propose(request: HttpRequest, battle: Battle) -> str:
    times = [_local_time(request.POST[f], f) for f in TIME_FIELDS if request.POST.get(f, "").strip()]
    services.battle_times_propose(actor=request.user, battle=battle, times=times)
    return _("The times are proposed.")


def _accept(request: HttpRequest, battle: Battle) -> str:
    try:
        time_id = int(request.POST.get("time", ""))
    except ValueError as error:
        raise Invalid(SCHEDULE_BAD_TIME, field="time") from error
    services.battle_time_accept(actor=request.user, battle=battle, time_id=time_id,
                                side=request.POST.get("side") or None)
    return _("Your side accepted the time.")


def _clear(request: HttpRequest, battle: Battle) -> str:
    services.battle_schedule_clear(actor=request.user, battle=battle, reason=request.POST.get("reason", ""))
    return _("The schedule is cleared: propose and accept a new time.")


def _no_show(request: HttpRequest, battle: Battle) -> str:
    services.battle_no_show(actor=request.user, battle=battle, side=request.POST.get("side", ""),
                            reason=request.POST.get("reason", ""))
    return _("Recorded: set the battle up on the board; the absent side's clock runs.")


ACTIONS = {"propose": _propose, "accept": _accept, "clear": _clear, "no_show": _no_show}


@login_required
@require_POST
def battle_schedule_action(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """One form of the schedule page: propose, accept, clear (moderator), no-show (moderator)."""
    battle = _battle(request, slug, battle_id)
    action = ACTIONS.get(request.POST.get("do", ""))
    if action is None:
        return _page(request, battle, error=Invalid(SCHEDULE_BAD_TIME, field="do"), status=400)
    try:
        done = action(request, battle)
    except ServiceError as exc:
        battle.refresh_from_db()
        return _page(request, battle, error=exc, status=exc.status)
    messages.success(request, done)
    if request.POST.get("do") == "no_show":
        return redirect("moderation-battle-console", slug=slug, battle_id=battle.pk)
    return redirect("battle-schedule", slug=slug, battle_id=battle.pk)


def battle_schedule_ics(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """The scheduled battle as an iCalendar event, its start in the reader's time zone (404 until scheduled)."""
    battle = _battle(request, slug, battle_id)
    if battle.scheduled_at is None:
        return HttpResponse(_("The battle has no scheduled time yet."), status=404, content_type="text/plain")
    calendar = icalendar.Calendar()
    calendar.add("prodid", "-//Limes//battle schedule//EN")
    calendar.add("version", "2.0")
    event = icalendar.Event()
    event.add("uid", f"battle-{battle.pk}@limes")
    event.add("dtstamp", timezone.now())
    start = timezone.localtime(battle.scheduled_at)
    event.add("dtstart", start)
    event.add("duration", timedelta(hours=2))
    event.add("summary", _("Battle in %(province)s · %(campaign)s")
              % {"province": battle.province.name, "campaign": battle.campaign.name})
    event.add("url", site_url(reverse("battle-schedule", args=[slug, battle.pk])))
    calendar.add_component(event)
    calendar.add_missing_timezones()
    response = HttpResponse(calendar.to_ical(), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="battle-{battle.pk}.ics"'
    return response
