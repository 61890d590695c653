"""Who may do what in a campaign: the one place where the API, the pages and the services ask."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeAlias

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

from campaign.models import Campaign, Faction, Membership

# Who acts in a service: ``request.user`` or a socket's ``scope["user"]``, a site user or the anonymous one.
# Where the system acts (a timer, a default choice) the service takes ``Actor | None`` and logs no one.
Actor: TypeAlias = AbstractBaseUser | AnonymousUser


def _is_authenticated(user: Any) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False))


# The memberships read inside ``memberships_read_once``, by (user, campaign); None outside such a block.
_read: ContextVar[dict[tuple[int, int], Membership | None] | None] = ContextVar("memberships_read", default=None)


@contextmanager
def memberships_read_once() -> Iterator[None]:
    """Inside the block each user's membership of a campaign is read from the database once, however many
    checks ask for it: for a page that only reads. A membership changed inside the block is not seen by them."""
    if _read.get() is not None:
        yield
        return
    token = _read.set({})
    try:
        yield
    finally:
        _read.reset(token)


def membership_in(user: Any, campaign_id: int) -> Membership | None:
    """The user's membership of the campaign, with its faction; None for the anonymous and non-members."""
    if not _is_authenticated(user):
        return None
    read = _read.get()
    if read is not None and (user.pk, campaign_id) in read:
        return read[(user.pk, campaign_id)]
    found = Membership.objects.filter(campaign_id=campaign_id, user=user).select_related("faction").first()
    if read is not None:
        read[(user.pk, campaign_id)] = found
    return found


def is_member(user: Any, campaign: Campaign) -> bool:
    """True for anyone with a role in the campaign (observers included)."""
    return membership_in(user, campaign.pk) is not None


def can_read_campaign(user: Any, campaign: Campaign, *, member: bool | None = None) -> bool:
    """Public campaigns are open to everybody; private ones to their members and site superusers.

    ``member`` says whether the user has a membership there, when the caller has read it already."""
    if campaign.is_public:
        return True
    if _is_authenticated(user) and user.is_superuser:
        return True
    return is_member(user, campaign) if member is None else member


def can_see_players(user: Any, campaign: Campaign, *, member: bool | None = None) -> bool:
    """Who plays whom (usernames, roles) is for the campaign's members and site superusers; the public
    pages name only the commanders and their factions.

    ``member`` says whether the user has a membership there, when the caller has read it already."""
    if not _is_authenticated(user):
        return False
    if user.is_superuser:
        return True
    return is_member(user, campaign) if member is None else member


def can_moderate(user: Any, campaign: Campaign) -> bool:
    """Moderators of this campaign (M1); a site superuser counts as one everywhere."""
    if not _is_authenticated(user):
        return False
    if user.is_superuser:
        return True
    membership = membership_in(user, campaign.pk)
    return membership is not None and membership.role == Membership.Role.MODERATOR


def can_lead_faction(user: Any, faction: Faction) -> bool:
    """The faction's leader (by membership or as its leader commander) or a moderator (S1, S2)."""
    if not _is_authenticated(user):
        return False
    if user.is_superuser:
        return True
    # One membership row answers both "moderator" and "leader by membership"; the leader commander last.
    membership = membership_in(user, faction.campaign_id)
    if membership is not None and _leads_by_membership(membership.role, membership.faction_id, faction.id):
        return True
    return faction.leader_id is not None and faction.leader is not None and faction.leader.user_id == user.id


def _leads_by_membership(role: str | None, member_faction_id: int | None, faction_id: int) -> bool:
    return role == Membership.Role.MODERATOR or (
        role == Membership.Role.LEADER and member_faction_id == faction_id
    )


def can_act_for_faction(user: Any, faction: Faction) -> bool:
    """Its leader, any of its commanders, or a moderator: who may end the faction's turn (S4)."""
    if can_lead_faction(user, faction):
        return True
    if not _is_authenticated(user):
        return False
    if faction.commanders.filter(user=user).exists():
        return True
    membership = membership_in(user, faction.campaign_id)
    return membership is not None and membership.faction_id == faction.id


def can_command_army(user: Any, army: Any) -> bool:
    """The army's commander, its faction's leader or a moderator (S2, S5)."""
    if not _is_authenticated(user):
        return False
    if army.commander.user_id is not None and army.commander.user_id == user.id:
        return True
    return can_lead_faction(user, army.faction)


def can_command_army_as_read(
    user: Any,
    *,
    faction_id: int,
    commander_user_id: int | None,
    leader_user_id: int | None,
    membership: tuple[str, int | None] | None,
) -> bool:
    """``can_command_army`` from what the caller has read already: the users of the army's commander and of
    its faction's leader commander, and the user's (role, faction) in the campaign (the move reads them with
    the army, in one query)."""
    if not _is_authenticated(user):
        return False
    if user.is_superuser or (commander_user_id is not None and commander_user_id == user.id):
        return True
    if membership is not None and _leads_by_membership(membership[0], membership[1], faction_id):
        return True
    return leader_user_id is not None and leader_user_id == user.id


def can_command_armies(user: Any, armies: Sequence[Any], *, campaign_id: int) -> dict[int, bool]:
    """``can_command_army`` of several armies of one campaign, by army id, reading the user's membership once.
    Each army should come with its commander and its faction's leader commander (``select_related``)."""
    if not _is_authenticated(user):
        return {army.id: False for army in armies}
    membership = None if user.is_superuser else membership_in(user, campaign_id)
    read = (membership.role, membership.faction_id) if membership is not None else None
    return {
        army.id: can_command_army_as_read(
            user,
            faction_id=army.faction_id,
            commander_user_id=army.commander.user_id,
            leader_user_id=army.faction.leader.user_id if army.faction.leader_id is not None else None,
            membership=read,
        )
        for army in armies
    }


def can_create_campaign(user: Any) -> bool:
    """Who may create a campaign: any signed-in user, or staff only (``LIMES_CAMPAIGN_CREATORS=staff``)."""
    from django.conf import settings

    if not _is_authenticated(user):
        return False
    if getattr(settings, "LIMES_CAMPAIGN_CREATORS", "anyone") == "staff":
        return bool(user.is_staff or user.is_superuser)
    return True
