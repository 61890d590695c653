"""Notices of the campaign's own events, read from its log: turns (S4), invitations and roles (M1).

``campaign`` sits below this app and cannot call it; it tells the subscribers of its log (after commit, with
the entry's id only), and this module turns the entries that concern someone into notices.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth import get_user_model
from django.urls import reverse

from campaign.models import Campaign, Faction, LogEntry
from campaign.services import log_subscribe
from notifications.names import both
from notifications.services.inbox import notify
from notifications.services.recipients import faction_players

log = logging.getLogger(__name__)

TURN_KINDS = ("economic_phase_ended", "faction_turn_passed", "faction_turn_expired")
ROLE_KINDS = ("member_joined", "membership_set")


def subscribe() -> None:
    """Hear the campaign log's entries of these kinds (once per process, from the app's ready())."""
    log_subscribe(kinds=(*TURN_KINDS, *ROLE_KINDS), listener=entry_notify)


def entry_notify(entry_id: int) -> None:
    """The notices of one log entry; a failure is logged, never raised into the game's request."""
    try:
        entry = LogEntry.objects.select_related("campaign").filter(pk=entry_id).first()
        if entry is None:
            return
        if entry.kind in TURN_KINDS:
            _turn_began(entry)
        elif entry.kind in ROLE_KINDS:
            _role(entry)
    except Exception:
        log.exception("could not write the notices of log entry %s", entry_id)


def turn_began_notify(*, campaign: Campaign, faction_id: int, turn: int, deadline: str | None) -> None:
    """Tell a faction's players that their strategic turn began, with its deadline (S4)."""
    faction = Faction.objects.filter(pk=faction_id).first()
    if faction is None:
        return
    notify(
        kind="turn_began",
        user_ids=faction_players(faction_ids=[faction_id]),
        key=f"turn:{campaign.pk}:{turn}:{faction_id}",
        campaign_id=campaign.pk,
        params={"campaign": campaign.name, "faction": both(faction), "turn": turn, "deadline": deadline or ""},
        link=reverse("turn", args=[campaign.slug]),
    )


def _turn_began(entry: LogEntry) -> None:
    data: dict[str, Any] = entry.data
    if entry.kind == "economic_phase_ended":
        faction_id = data.get("faction")
    else:
        faction_id = data.get("next_faction")
    if faction_id is None:
        return
    turn_began_notify(campaign=entry.campaign, faction_id=faction_id, turn=int(data.get("turn") or entry.turn),
                      deadline=data.get("deadline"))


def _role(entry: LogEntry) -> None:
    data: dict[str, Any] = entry.data
    user = get_user_model().objects.filter(username=data.get("user")).first()
    if user is None:
        return
    campaign = entry.campaign
    notify(
        kind="invited" if entry.kind == "member_joined" else "role_given",
        user_ids=[user.pk],
        key=f"log:{entry.pk}",
        campaign_id=campaign.pk,
        params={"campaign": campaign.name, "role": data.get("role") or ""},
        link=reverse("campaign", args=[campaign.slug]),
    )
