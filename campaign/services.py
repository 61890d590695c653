"""Writes of the campaign app: campaigns, factions, relations, commanders, memberships, the turn, the log."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaign import permissions
from campaign.errors import Conflict, Forbidden, Invalid, NotFound
from campaign.messages import (
    ALREADY_MEMBER,
    BAD_COLOR,
    BAD_SLUG,
    COMMANDER_OTHER_FACTION,
    COMMANDER_TAKEN,
    CREATORS_STAFF_ONLY,
    INVITATION_UNKNOWN,
    INVITATION_USED,
    LAST_MODERATOR,
    NEEDS_FACTION_MEMBER,
    NEEDS_LOGIN,
    NEEDS_MODERATOR,
    NO_FACTIONS,
    NOT_ACTING_FACTION,
    NOT_ECONOMIC,
    NOT_IN_CAMPAIGN,
    NOT_STRATEGIC,
    ROLE_NEEDS_FACTION,
    ROLE_NO_FACTION,
    SAME_FACTION,
    SLUG_TAKEN,
    TURN_NOT_OVERDUE,
)
from campaign.models import Campaign, Commander, Faction, Invitation, LogEntry, Membership, Relation
from campaign.permissions import Actor
from campaign.rules_settings import SETTINGS_BY_NAME, validate_settings
from campaign.selectors import factions_in_turn_order
from campaign.versions import require_version

SLUG_RE = re.compile(r"^[-a-zA-Z0-9_]+$")
COLOR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")


def _require_login(actor: Actor) -> None:
    if actor is None or not getattr(actor, "is_authenticated", False):
        raise Forbidden(NEEDS_LOGIN)


def require_moderator(actor: Actor, campaign: Campaign) -> None:
    """Raise 403 unless the actor moderates the campaign."""
    _require_login(actor)
    if not permissions.can_moderate(actor, campaign):
        raise Forbidden(NEEDS_MODERATOR)


def _require_same_campaign(obj: Any, campaign: Campaign, field: str) -> None:
    if obj is not None and obj.campaign_id != campaign.pk:
        raise Invalid(NOT_IN_CAMPAIGN, field=field)


# The apps above that want to hear of the log's entries (notifications): kind -> listeners, each called after
# the entry's transaction commits with the entry's id. campaign cannot import them; they subscribe here.
_LOG_LISTENERS: dict[str, list[Callable[[int], None]]] = {}


def log_subscribe(*, kinds: Iterable[str], listener: Callable[[int], None]) -> None:
    """Call ``listener(entry_id)`` after commit for every entry of these kinds (once per listener and kind)."""
    for kind in kinds:
        listeners = _LOG_LISTENERS.setdefault(kind, [])
        if listener not in listeners:
            listeners.append(listener)


# One INSERT is atomic on its own; a decorator here would cost callers a savepoint round trip each time.
def log_append(
    *,
    campaign: Campaign,
    kind: str,
    actor: Actor | None = None,
    data: dict[str, Any] | None = None,
    rule: str = "",
    reason: str = "",
    turn: int | None = None,
) -> LogEntry:
    """Append one entry to the campaign log (M3); the only writer of ``LogEntry``."""
    user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    entry = LogEntry.objects.create(
        campaign=campaign,
        turn=campaign.turn if turn is None else turn,
        actor=user,
        kind=kind,
        rule=rule,
        data=data or {},
        reason=reason,
    )
    for listener in _LOG_LISTENERS.get(kind, ()):
        # robust: a listener that fails is logged, and never fails the action that wrote the entry.
        transaction.on_commit(partial(listener, entry.pk), robust=True)
    return entry


def _settings_errors(values: dict[str, Any]) -> dict[str, list[str]]:
    _merged, errors = validate_settings(values)
    return {name: [message] for name, message in errors.items()}


@transaction.atomic
def campaign_create(
    *,
    actor: Actor,
    slug: str,
    name_en: str,
    name_ru: str,
    settings: dict[str, Any] | None = None,
    is_public: bool = True,
    description: str = "",
) -> Campaign:
    """Create a campaign; its creator becomes its first moderator (M1)."""
    _require_login(actor)
    if not permissions.can_create_campaign(actor):
        raise Forbidden(CREATORS_STAFF_ONLY)
    if not slug or not SLUG_RE.match(slug):
        raise Invalid(BAD_SLUG, field="slug")
    if Campaign.objects.filter(slug=slug).exists():
        raise Invalid(SLUG_TAKEN, field="slug")
    merged, errors = validate_settings(settings or {})
    if errors:
        raise Invalid(next(iter(errors.values())), errors={k: [v] for k, v in errors.items()})
    campaign = Campaign.objects.create(
        slug=slug,
        name_en=name_en,
        name_ru=name_ru,
        settings=merged,
        is_public=is_public,
        description=description,
    )
    Membership.objects.create(campaign=campaign, user=actor, role=Membership.Role.MODERATOR)
    log_append(campaign=campaign, kind="campaign_created", actor=actor, rule="M1", data={"slug": slug})
    return campaign


@transaction.atomic
def campaign_settings_update(*, actor: Actor, campaign: Campaign, settings: dict[str, Any]) -> Campaign:
    """Change some campaign settings; 400 naming each bad one."""
    require_moderator(actor, campaign)
    if not isinstance(settings, dict):
        raise Invalid(str(_("Settings must be an object of name: value.")), field="settings")
    errors = _settings_errors(settings)
    if errors:
        raise Invalid(next(iter(errors.values()))[0], errors=errors)
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    before = {name: campaign.setting(name) for name in settings}
    merged, _errors = validate_settings({**(campaign.settings or {}), **settings})
    campaign.settings = {name: merged[name] for name in SETTINGS_BY_NAME}
    campaign.save(update_fields=["settings"])
    after = {name: campaign.settings[name] for name in settings}
    log_append(
        campaign=campaign,
        kind="settings_changed",
        actor=actor,
        rule="M1",
        data={"before": before, "after": after},
    )
    return campaign


@transaction.atomic
def campaign_update(
    *, actor: Actor, campaign: Campaign, expected_version: str | None = None, **fields: Any
) -> Campaign:
    """Change a campaign's names, description or visibility (moderator)."""
    require_moderator(actor, campaign)
    allowed = {"name_en", "name_ru", "description", "is_public"}
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    require_version(campaign, expected_version)
    changed = {}
    for name, value in fields.items():
        if name not in allowed:
            raise Invalid(str(_("This field cannot be changed here.")), field=name)
        if getattr(campaign, name) != value:
            changed[name] = value
            setattr(campaign, name, value)
    if changed:
        campaign.save(update_fields=list(changed))
        log_append(campaign=campaign, kind="campaign_changed", actor=actor, rule="M1", data=changed)
    return campaign


@transaction.atomic
def faction_create(
    *,
    actor: Actor,
    campaign: Campaign,
    slug: str,
    name_en: str,
    name_ru: str,
    color: str = "#888888",
    turn_order: int = 0,
    naval_capacity: int = 0,
) -> Faction:
    """Add a faction to the campaign (S1)."""
    require_moderator(actor, campaign)
    if not slug or not SLUG_RE.match(slug):
        raise Invalid(BAD_SLUG, field="slug")
    if Faction.objects.filter(campaign=campaign, slug=slug).exists():
        raise Invalid(SLUG_TAKEN, field="slug")
    if not COLOR_RE.match(color or ""):
        raise Invalid(BAD_COLOR, field="color")
    faction = Faction.objects.create(
        campaign=campaign,
        slug=slug,
        name_en=name_en,
        name_ru=name_ru,
        color=color,
        turn_order=turn_order,
        naval_capacity=naval_capacity,
    )
    log_append(
        campaign=campaign,
        kind="faction_created",
        actor=actor,
        rule="S1",
        data={"faction": faction.pk, "slug": slug, "turn_order": turn_order},
    )
    return faction


@transaction.atomic
def faction_update(
    *, actor: Actor, faction: Faction, expected_version: str | None = None, **fields: Any
) -> Faction:
    """Change a faction: names, colour, turn order, naval capacity, leader, ``roster_locked`` (S2)."""
    campaign = faction.campaign
    require_moderator(actor, campaign)
    allowed = {"name_en", "name_ru", "color", "turn_order", "naval_capacity", "roster_locked", "leader"}
    faction = Faction.objects.select_for_update().get(pk=faction.pk)
    require_version(faction, expected_version)
    changed: dict[str, Any] = {}
    for name, value in fields.items():
        if name not in allowed:
            raise Invalid(str(_("This field cannot be changed here.")), field=name)
        if name == "color" and not COLOR_RE.match(value or ""):
            raise Invalid(BAD_COLOR, field="color")
        if name == "leader" and value is not None and value.faction_id != faction.pk:
            raise Invalid(COMMANDER_OTHER_FACTION, field="leader")
        if getattr(faction, name) != value:
            setattr(faction, name, value)
            changed[name] = value.pk if name == "leader" and value is not None else value
    if changed:
        faction.save(update_fields=list(changed))
        rule = "S2" if "roster_locked" in changed else "M1"
        log_append(
            campaign=campaign,
            kind="faction_changed",
            actor=actor,
            rule=rule,
            data={"faction": faction.pk, **changed},
        )
    return faction


@transaction.atomic
def relation_set(*, actor: Actor, campaign: Campaign, a: Faction, b: Faction, kind: str) -> Relation:
    """Set how two factions stand (S1): allied, at war or neutral."""
    require_moderator(actor, campaign)
    _require_same_campaign(a, campaign, "a")
    _require_same_campaign(b, campaign, "b")
    if a.pk == b.pk:
        raise Invalid(SAME_FACTION, field="b", rule="S1")
    if kind not in Relation.Kind.values:
        raise Invalid(str(_("Choose allied, war or neutral.")), field="kind", rule="S1")
    low, high = sorted((a, b), key=lambda f: f.pk)
    relation, _created = Relation.objects.select_for_update().get_or_create(
        campaign=campaign, a=low, b=high, defaults={"kind": kind}
    )
    before = Relation.Kind.NEUTRAL if _created else relation.kind
    if relation.kind != kind:
        relation.kind = kind
        relation.save(update_fields=["kind"])
    log_append(
        campaign=campaign,
        kind="relation_set",
        actor=actor,
        rule="S1",
        data={"a": low.pk, "b": high.pk, "before": before, "after": kind},
    )
    return relation


@transaction.atomic
def commander_create(
    *,
    actor: Actor,
    faction: Faction,
    name: str,
    rank: str = Commander.Rank.GENERAL,
    user: Any = None,
    strategy: int = 10,
    tactics: int = 10,
    has_luck: bool = False,
) -> Commander:
    """Add a commander to a faction (S1); a commander of rank leader becomes the faction's leader."""
    campaign = faction.campaign
    require_moderator(actor, campaign)
    if rank not in Commander.Rank.values:
        raise Invalid(str(_("Choose leader, general or chieftain.")), field="rank")
    commander = Commander.objects.create(
        campaign=campaign,
        faction=faction,
        name=name,
        rank=rank,
        user=user,
        strategy=strategy,
        tactics=tactics,
        has_luck=has_luck,
    )
    if rank == Commander.Rank.LEADER:
        Faction.objects.filter(pk=faction.pk).update(leader=commander)
        faction.leader = commander
    log_append(
        campaign=campaign,
        kind="commander_created",
        actor=actor,
        rule="S1",
        data={"commander": commander.pk, "faction": faction.pk, "name": name, "rank": rank},
    )
    return commander


def _check_role(role: str, faction: Faction | None) -> None:
    if role not in Membership.Role.values:
        raise Invalid(str(_("Choose moderator, leader, commander or observer.")), field="role")
    if role in (Membership.Role.LEADER, Membership.Role.COMMANDER) and faction is None:
        raise Invalid(ROLE_NEEDS_FACTION, field="faction")
    if role in (Membership.Role.MODERATOR, Membership.Role.OBSERVER) and faction is not None:
        raise Invalid(ROLE_NO_FACTION, field="faction")


@transaction.atomic
def invitation_create(
    *,
    actor: Actor,
    campaign: Campaign,
    role: str,
    faction: Faction | None = None,
    commander: Commander | None = None,
) -> Invitation:
    """A one-use link by which someone joins the campaign with this role (and commander to play)."""
    require_moderator(actor, campaign)
    _require_same_campaign(faction, campaign, "faction")
    _require_same_campaign(commander, campaign, "commander")
    _check_role(role, faction)
    if commander is not None and (faction is None or commander.faction_id != faction.pk):
        raise Invalid(COMMANDER_OTHER_FACTION, field="commander")
    invitation = Invitation.objects.create(
        campaign=campaign, role=role, faction=faction, commander=commander, created_by=actor
    )
    log_append(
        campaign=campaign,
        kind="invitation_created",
        actor=actor,
        rule="M1",
        data={
            "invitation": invitation.pk,
            "role": role,
            "faction": faction.pk if faction else None,
            "commander": commander.pk if commander else None,
        },
    )
    return invitation


@transaction.atomic
def invitation_accept(*, user: Any, token: str) -> Membership:
    """Join a campaign by an invitation: the membership, and the commander to play if it names one."""
    _require_login(user)
    invitation = Invitation.objects.select_for_update().filter(token=token).first()
    if invitation is None:
        raise NotFound(INVITATION_UNKNOWN, field="token")
    if invitation.used_at is not None:
        raise Conflict(INVITATION_USED, field="token")
    campaign = invitation.campaign
    if Membership.objects.filter(campaign=campaign, user=user).exists():
        raise Conflict(ALREADY_MEMBER)
    commander = invitation.commander
    if commander is not None:
        commander = Commander.objects.select_for_update().get(pk=commander.pk)
        if commander.user_id is not None and commander.user_id != user.pk:
            raise Conflict(COMMANDER_TAKEN, field="token")
        commander.user = user
        commander.save(update_fields=["user"])
        if invitation.role == Membership.Role.LEADER:
            Faction.objects.filter(pk=commander.faction_id).update(leader=commander)
    membership = Membership.objects.create(
        campaign=campaign, user=user, role=invitation.role, faction=invitation.faction
    )
    invitation.used_by = user
    invitation.used_at = timezone.now()
    invitation.save(update_fields=["used_by", "used_at"])
    log_append(
        campaign=campaign,
        kind="member_joined",
        actor=user,
        rule="M1",
        data={
            "user": user.get_username(),
            "role": invitation.role,
            "faction": invitation.faction_id,
            "commander": commander.pk if commander else None,
        },
    )
    return membership


@transaction.atomic
def membership_set(
    *, actor: Actor, campaign: Campaign, user: Any, role: str, faction: Faction | None = None
) -> Membership:
    """Give a user a role in the campaign, or change it (moderator)."""
    require_moderator(actor, campaign)
    _require_same_campaign(faction, campaign, "faction")
    _check_role(role, faction)
    membership = Membership.objects.select_for_update().filter(campaign=campaign, user=user).first()
    if (
        membership is not None
        and membership.role == Membership.Role.MODERATOR
        and role != Membership.Role.MODERATOR
    ):
        others = Membership.objects.filter(campaign=campaign, role=Membership.Role.MODERATOR).exclude(
            pk=membership.pk
        )
        if not others.exists():
            raise Conflict(LAST_MODERATOR, field="role")
    before = membership.role if membership else None
    if membership is None:
        membership = Membership.objects.create(campaign=campaign, user=user, role=role, faction=faction)
    else:
        membership.role = role
        membership.faction = faction
        membership.save(update_fields=["role", "faction"])
    log_append(
        campaign=campaign,
        kind="membership_set",
        actor=actor,
        rule="M1",
        data={
            "user": user.get_username(),
            "before": before,
            "role": role,
            "faction": faction.pk if faction else None,
        },
    )
    return membership


def _lock_campaign(campaign: Campaign) -> Campaign:
    # Turn changes and moves lock the campaign row first, so a pass and a move never interleave.
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


def _deadline(campaign: Campaign, now: datetime) -> datetime:
    hours = campaign.setting("faction_turn_hours")
    return now + timedelta(hours=float(hours))  # type: ignore[arg-type]


@transaction.atomic
def economic_phase_end(*, actor: Actor, campaign: Campaign) -> Campaign:
    """End the economic phase (S4): the strategic phase begins with the first faction and its deadline."""
    require_moderator(actor, campaign)
    campaign = _lock_campaign(campaign)
    if campaign.phase != Campaign.Phase.ECONOMIC:
        raise Conflict(NOT_ECONOMIC, rule="S4")
    order = factions_in_turn_order(campaign=campaign)
    if not order:
        raise Conflict(NO_FACTIONS, rule="S4")
    now = timezone.now()
    campaign.phase = Campaign.Phase.STRATEGIC
    campaign.current_faction = order[0]
    campaign.faction_deadline = _deadline(campaign, now)
    campaign.save(update_fields=["phase", "current_faction", "faction_deadline"])
    log_append(
        campaign=campaign,
        kind="economic_phase_ended",
        actor=actor,
        rule="S4",
        data={
            "turn": campaign.turn,
            "faction": order[0].pk,
            "deadline": campaign.faction_deadline.isoformat(),
        },
    )
    return campaign


def _advance(*, campaign: Campaign, faction: Faction, actor: Actor | None, kind: str, reason: str = "") -> Campaign:
    order = factions_in_turn_order(campaign=campaign)
    Faction.objects.filter(pk=faction.pk).update(passed_turn=campaign.turn)
    later = [
        f for f in order if (f.turn_order, f.slug, f.pk) > (faction.turn_order, faction.slug, faction.pk)
    ]
    data: dict[str, Any] = {"faction": faction.pk, "turn": campaign.turn}
    if later:
        campaign.current_faction = later[0]
        campaign.faction_deadline = _deadline(campaign, timezone.now())
        data["next_faction"] = later[0].pk
        data["deadline"] = campaign.faction_deadline.isoformat()
    else:
        campaign.turn += 1
        campaign.phase = Campaign.Phase.ECONOMIC
        campaign.current_faction = None
        campaign.faction_deadline = None
        data["next_turn"] = campaign.turn
    campaign.save(update_fields=["turn", "phase", "current_faction", "faction_deadline"])
    # The entry belongs to the turn that was played, even when the pass opened the next one.
    log_append(
        campaign=campaign, kind=kind, actor=actor, rule="S4", data=data, reason=reason, turn=data["turn"]
    )
    return campaign


@transaction.atomic
def faction_turn_pass(*, actor: Actor, faction: Faction) -> Campaign:
    """End the acting faction's strategic turn (S4): the next faction acts, or the next turn begins."""
    campaign = faction.campaign
    _require_login(actor)
    if not permissions.can_act_for_faction(actor, faction):
        raise Forbidden(NEEDS_FACTION_MEMBER)
    campaign = _lock_campaign(campaign)
    if campaign.phase != Campaign.Phase.STRATEGIC:
        raise Conflict(NOT_STRATEGIC, rule="S4")
    if campaign.current_faction_id != faction.pk:
        raise Conflict(NOT_ACTING_FACTION, field="faction", rule="S4")
    return _advance(campaign=campaign, faction=faction, actor=actor, kind="faction_turn_passed")


@transaction.atomic
def faction_turn_expire(*, campaign: Campaign, now: datetime | None = None) -> Campaign:
    """End the acting faction's turn because its deadline has passed (S4); for the clock and the moderator."""
    campaign = _lock_campaign(campaign)
    now = now or timezone.now()
    if campaign.phase != Campaign.Phase.STRATEGIC or campaign.current_faction is None:
        raise Conflict(NOT_STRATEGIC, rule="S4")
    if campaign.faction_deadline is None or campaign.faction_deadline > now:
        raise Conflict(TURN_NOT_OVERDUE, rule="S4")
    return _advance(
        campaign=campaign, faction=campaign.current_faction, actor=None, kind="faction_turn_expired"
    )


def faction_turns_expire_overdue(*, now: datetime | None = None) -> list[Campaign]:
    """Expire every overdue faction turn (for a periodic task); each campaign in its own transaction."""
    now = now or timezone.now()
    expired = []
    overdue = Campaign.objects.filter(phase=Campaign.Phase.STRATEGIC, faction_deadline__lte=now)
    for campaign in overdue:
        try:
            expired.append(faction_turn_expire(campaign=campaign, now=now))
        except Conflict:
            continue  # someone passed it meanwhile
    return expired
