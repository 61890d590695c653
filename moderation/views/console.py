"""The moderators' consoles (M1): the campaign console and the battle console. Everyone else gets 403."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign import permissions
from campaign import services as campaign_services
from campaign.errors import Invalid, ServiceError
from campaign.models import Campaign, Commander, Faction, Invitation, Membership
from campaign.rules_settings import SETTINGS
from moderation.models import Dispute, InterceptionRuling
from moderation.render.labels import FACING_NAMES, SIDE_NAMES, UNIT_STATUSES
from moderation.selectors.audit import disputes_of
from moderation.selectors.dice import dice_report
from moderation.selectors.interceptions import interception_record
from moderation.services import disputes as services
from strategic.selectors.rosters import lines_text
from tactical.models import BattleEvent, LiveBattle
from tactical.protocol.eventtext import action_sentence
from tactical.protocol.turnlabel import state_label
from tactical.selectors.snapshots import state_of
from tactical.services import moderation as moderator_services

CONSOLE_ACTIONS = ("role", "invite", "order", "deadline", "settings", "answer", "begin")
BATTLE_ACTIONS = ("rule", "end", "pause", "resume", "add_time", "correct", "undo", "roll")


def _moderated(request: HttpRequest, slug: str) -> Campaign:
    campaign = get_object_or_404(Campaign.objects.select_related("current_faction"), slug=slug)
    if not permissions.can_moderate(request.user, campaign):
        raise PermissionDenied(_("Only a moderator of this campaign may open its console (M1)."))
    request.campaign = campaign  # type: ignore[attr-defined]
    return campaign


def _int(value: Any, field: str) -> int:
    text = str(value or "").strip()
    if not text.isdigit() or len(text) > 12:
        raise Invalid(_("Give a whole number."), field=field)
    return int(text)


def _console_context(campaign: Campaign) -> dict[str, Any]:
    return {
        "campaign": campaign,
        "members": Membership.objects.filter(campaign=campaign)
        .select_related("user", "faction")
        .order_by("role", "user__username"),
        "roles": Membership.Role.choices,
        "factions": list(Faction.objects.filter(campaign=campaign).order_by("turn_order", "slug")),
        "commanders": Commander.objects.filter(campaign=campaign, user__isnull=True).select_related(
            "faction"
        ),
        "invitations": Invitation.objects.filter(campaign=campaign, used_by__isnull=True).order_by("-id"),
        "settings_rows": [
            {"spec": spec, "value": campaign.setting(spec.name), "is_bool": spec.kind is bool}
            for spec in SETTINGS
        ],
        "open_disputes": disputes_of(campaign=campaign, status=Dispute.Status.OPEN),
        "battles": LiveBattle.objects.filter(campaign=campaign).select_related("record__province"),
    }


def campaign_console(request: HttpRequest, slug: str) -> HttpResponse:
    """Members and roles, invitations, faction order, deadlines, settings, open disputes."""
    campaign = _moderated(request, slug)
    return render(request, "moderation/console.html", _console_context(campaign))


def _setting_value(spec: Any, raw: str) -> Any:
    if spec.kind is bool:
        return raw == "on"
    try:
        number = float(raw)
    except ValueError:
        return raw
    return int(number) if number == int(number) and spec.kind is int else number


def _faction_named(campaign: Campaign, raw: Any) -> Faction | None:
    """The campaign's faction a form names by id; None when it names none (or one of another campaign)."""
    if not raw:
        return None
    return Faction.objects.filter(pk=_int(raw, "faction"), campaign=campaign).first()


def _commander_named(campaign: Campaign, raw: Any) -> Commander | None:
    """The campaign's commander a form names by id; None when it names none (or one of another campaign)."""
    if not raw:
        return None
    return Commander.objects.filter(pk=_int(raw, "commander"), campaign=campaign).first()


# One adapter per form of the campaign console: parse the POST, check what it names, call the service, say
# what was done. A refusal is a ServiceError, rendered by ``campaign_console_action``.


def _role(request: HttpRequest, campaign: Campaign) -> str:
    post = request.POST
    user = get_user_model().objects.filter(pk=_int(post.get("user"), "user")).first()
    if user is None:
        raise Invalid(_("No such person."), field="user")
    faction = _faction_named(campaign, post.get("faction"))
    campaign_services.membership_set(
        actor=request.user, campaign=campaign, user=user, role=post.get("role", ""), faction=faction
    )
    return _("The role was changed.")


def _invite(request: HttpRequest, campaign: Campaign) -> str:
    post = request.POST
    faction = _faction_named(campaign, post.get("faction"))
    commander = _commander_named(campaign, post.get("commander"))
    invitation = campaign_services.invitation_create(
        actor=request.user, campaign=campaign, role=post.get("role", ""), faction=faction, commander=commander
    )
    link = request.build_absolute_uri(reverse("invitation", args=[invitation.token]))
    return _("Invitation link: %(link)s") % {"link": link}


def _order(request: HttpRequest, campaign: Campaign) -> str:
    post = request.POST
    ranked = sorted(
        (_int(post.get(f"order_{f.pk}"), f"order_{f.pk}"), f.pk)
        for f in Faction.objects.filter(campaign=campaign)
    )
    services.faction_order_set(actor=request.user, campaign=campaign, faction_ids=[pk for _n, pk in ranked])
    return _("The faction order was saved.")


def _deadline(request: HttpRequest, campaign: Campaign) -> str:
    post = request.POST
    hours = _int(post.get("hours"), "hours")
    services.faction_deadline_extend(
        actor=request.user, campaign=campaign, hours=hours, reason=post.get("reason", "")
    )
    return _("The deadline was extended.")


def _settings(request: HttpRequest, campaign: Campaign) -> str:
    post = request.POST
    values = {
        spec.name: _setting_value(spec, post.get(spec.name, ""))
        for spec in SETTINGS
        if spec.name in post or spec.kind is bool
    }
    changed = {name: value for name, value in values.items() if value != campaign.setting(name)}
    if changed:
        campaign_services.campaign_settings_update(actor=request.user, campaign=campaign, settings=changed)
    return _("The settings were saved.")


def _answer(request: HttpRequest, campaign: Campaign) -> str:
    post = request.POST
    dispute = Dispute.objects.filter(pk=_int(post.get("dispute"), "dispute"), campaign=campaign).first()
    if dispute is None:
        raise Invalid(_("No such dispute."), field="dispute")
    services.dispute_answer(actor=request.user, dispute=dispute, answer=post.get("answer", ""))
    return _("The answer was written into the log.")


def _begin(request: HttpRequest, campaign: Campaign) -> str:
    campaign = campaign_services.economic_phase_end(actor=request.user, campaign=campaign)
    return _("The strategic phase of turn %(turn)s began: %(faction)s acts first (S4).") % {
        "turn": campaign.turn, "faction": campaign.current_faction.name if campaign.current_faction else "—"}


_CONSOLE_FORMS: dict[str, Callable[[HttpRequest, Campaign], str]] = {
    "begin": _begin,
    "role": _role,
    "invite": _invite,
    "order": _order,
    "deadline": _deadline,
    "settings": _settings,
    "answer": _answer,
}


def _run_console_action(request: HttpRequest, campaign: Campaign, action: str) -> str:
    """The form ``action`` of the campaign console, by its adapter; the sentence saying what was done."""
    return _CONSOLE_FORMS[action](request, campaign)


@require_POST
def campaign_console_action(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """One form of the campaign console; a refusal re-renders the console with the reason and its status."""
    campaign = _moderated(request, slug)
    if action not in CONSOLE_ACTIONS:
        raise Http404(_("No such console action."))
    try:
        done = _run_console_action(request, campaign, action)
    except ServiceError as error:
        campaign.refresh_from_db()
        context = {**_console_context(campaign), "error": error, "failed": action}
        return render(request, "moderation/console.html", context, status=error.status)
    messages.success(request, done)
    return redirect(reverse("moderation-console", args=[campaign.slug]))


def _live(campaign: Campaign, battle_id: int) -> LiveBattle:
    live = (
        LiveBattle.objects.filter(pk=battle_id, campaign=campaign).select_related("record__province").first()
    )
    if live is None:
        raise Http404(_("This battle was not fought on the tactical map."))
    return live


def _battle_context(campaign: Campaign, live: LiveBattle) -> dict[str, Any]:
    state = state_of(live)
    report = dice_report(battle=live.record)
    return {
        "campaign": campaign,
        "live": live,
        "battle": live.record,
        "state": state,
        "turn_label": state_label(state),
        "interceptions": interception_record(battle=live),
        "verdicts": InterceptionRuling.Verdict.choices,
        "rolls": report.rolls if report else [],
        "facings": list(FACING_NAMES.items()),
        "state_side": SIDE_NAMES[state.side.value],
        "field_units": [
            (u, live.roster.get(u.id, {}).get("name", u.id))
            for u in sorted(state.units.values(), key=lambda u: (u.side.value, u.id))
            if u.on_field
        ],
        "pending": action_sentence(live.pending["action"], live.roster) if live.pending else "",
        "units": [
            (
                u,
                live.roster.get(u.id, {}).get("name", u.id),
                SIDE_NAMES[u.side.value],
                UNIT_STATUSES[u.status.value],
                lines_text(u.health),
            )
            for u in sorted(state.units.values(), key=lambda u: (u.side.value, u.id))
        ],
    }


def battle_console(request: HttpRequest, slug: str, battle_id: int) -> HttpResponse:
    """The live board's moderator controls: the clock, the T7.6 die, corrections and undo, the interception
    record, the end of the battle."""
    campaign = _moderated(request, slug)
    return render(
        request, "moderation/battle_console.html", _battle_context(campaign, _live(campaign, battle_id))
    )


def _number(value: Any, field: str) -> float | None:
    """A form's number (health in lines, half lines allowed); None when left empty."""
    text = str(value or "").strip().replace(",", ".")
    if not text:
        return None
    try:
        number = float(text)
    except ValueError:
        raise Invalid(_("Give a number."), field=field) from None
    return int(number) if number == int(number) else number


def _correction(post: Any) -> list[dict[str, Any]]:
    """The console's correction form as one change of ``moderator_services.battle_correct``."""
    change: dict[str, Any] = {"unit": post.get("unit", "")}
    for name in ("x", "y", "health", "arrows"):
        value = _number(post.get(name), f"changes[0].{name}")
        if value is not None:
            change[name] = value
    if post.get("facing"):
        change["facing"] = post.get("facing")
    return [change]


def _run_battle_control(request: HttpRequest, live: LiveBattle, action: str) -> str:
    """The clock, corrections, undo and the die (``tactical.services.moderation``)."""
    post = request.POST
    who = {"actor": request.user, "battle_id": live.pk, "reason": post.get("reason", "")}
    if action == "pause":
        moderator_services.battle_clock_pause(**who)
        return _("The clock is paused (T6.1).")
    if action == "resume":
        moderator_services.battle_clock_resume(**who)
        return _("The clock runs again (T6.1).")
    if action == "add_time":
        seconds = _int(post.get("seconds"), "seconds")
        moderator_services.battle_clock_add_time(**who, seconds=seconds)
        return _("%(seconds)s s were added to the turn (T6.1).") % {"seconds": seconds}
    if action == "correct":
        moderator_services.battle_correct(**who, changes=_correction(post))
        return _("The correction was recorded (M1).")
    if action == "undo":
        moderator_services.battle_action_undo(**who)
        return _("The last action was taken back (M1).")
    battle = moderator_services.battle_die_roll(**who)
    dice = BattleEvent.objects.get(battle=battle, version=battle.version).dice
    return _("The die was rolled: %(dice)s (T7.6).") % {"dice": ", ".join(map(str, dice))}


def _run_battle_action(request: HttpRequest, live: LiveBattle, action: str) -> str:
    post = request.POST
    if action not in ("rule", "end"):
        return _run_battle_control(request, live, action)
    if action == "rule":
        services.interception_rule(
            actor=request.user,
            battle_id=live.pk,
            version=_int(post.get("version"), "version"),
            unit=post.get("unit", ""),
            verdict=post.get("verdict", ""),
            reason=post.get("reason", ""),
        )
        return _("The ruling was recorded (T10.4).")
    services.battle_end(
        actor=request.user, battle_id=live.pk, winner=post.get("winner", ""), reason=post.get("reason", "")
    )
    return _("The battle was ended (T11).")


@require_POST
def battle_console_action(request: HttpRequest, slug: str, battle_id: int, action: str) -> HttpResponse:
    """One form of the battle console; a refusal re-renders it with the reason and its status."""
    campaign = _moderated(request, slug)
    if action not in BATTLE_ACTIONS:
        raise Http404(_("No such console action."))
    live = _live(campaign, battle_id)
    try:
        done = _run_battle_action(request, live, action)
    except ServiceError as error:
        live.refresh_from_db()
        context = {**_battle_context(campaign, live), "error": error, "failed": action}
        return render(request, "moderation/battle_console.html", context, status=error.status)
    messages.success(request, done)
    return redirect(reverse("moderation-battle-console", args=[campaign.slug, live.pk]))
