"""What the strategic services share: row locks, the version bump, and messages used by several of them."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from campaign.errors import Forbidden
from campaign.models import Campaign
from campaign.services import NEEDS_LOGIN
from strategic.models import Army

NEEDS_COMMANDER = _("Only the army's commander, its faction's leader or a moderator may give it orders (S5).")
MUST_RETREAT = _("This army lost a battle and must retreat first (S10).")
OTHER_FACTION = _("This belongs to another faction.")


def require_login(actor: Any) -> None:
    """403 for an anonymous actor."""
    if actor is None or not getattr(actor, "is_authenticated", False):
        raise Forbidden(str(NEEDS_LOGIN))


def lock_campaign(campaign_id: int) -> Campaign:
    """The campaign row, locked: every strategic write takes this lock first."""
    return Campaign.objects.select_for_update().get(pk=campaign_id)


def lock_armies(*armies: Army) -> list[Army]:
    """The armies' rows, locked in id order (no deadlock between two writers), fresh from the database."""
    ids = sorted({army.pk for army in armies})
    locked = {a.pk: a for a in Army.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
    return [locked[army.pk] for army in armies]


def lock_army(army_id: int) -> Army:
    """One army's row, locked, with its faction, commander and province read alongside (those not locked)."""
    return (
        Army.objects.select_for_update(of=("self",))
        .select_related("faction", "commander", "province")
        .get(pk=army_id)
    )


def touch(army: Army) -> None:
    """Save the army with its version + 1 (the optimistic check of ``expected_version``)."""
    army.version += 1
    army.save()
