"""The kinds of notice: for each, the sentence it says, its short name and the group of the preferences
page it is switched on and off by."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise

from notifications import messages as m


@dataclass(frozen=True)
class Kind:
    """One kind of notice: ``sentence`` is filled from the notice's params, ``label`` names it."""

    name: str
    sentence: Promise
    label: Promise
    preference: str  # the preference that switches its mail off (several kinds may share one)


KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind("turn_began", m.TURN_BEGAN, m.KIND_TURN_BEGAN, "turn_began"),
        Kind("turn_hour_left", m.TURN_HOUR_LEFT, m.KIND_TURN_HOUR_LEFT, "turn_hour_left"),
        Kind("battle_created", m.BATTLE_CREATED, m.KIND_BATTLE_CREATED, "battle_created"),
        Kind("battle_scheduled", m.BATTLE_SCHEDULED, m.KIND_BATTLE_SCHEDULED, "battle_scheduled"),
        Kind("battle_moved", m.BATTLE_MOVED, m.KIND_BATTLE_SCHEDULED, "battle_scheduled"),
        Kind("battle_soon", m.BATTLE_SOON, m.KIND_BATTLE_SOON, "battle_soon"),
        Kind("deployment_open", m.DEPLOYMENT_OPEN, m.KIND_DEPLOYMENT_OPEN, "deployment_open"),
        Kind("retreat_waits", m.RETREAT_WAITS, m.KIND_RETREAT_WAITS, "retreat_waits"),
        Kind("dispute_answered", m.DISPUTE_ANSWERED, m.KIND_DISPUTE_ANSWERED, "dispute_answered"),
        Kind("invited", m.INVITED, m.KIND_INVITED, "invited"),
        Kind("role_given", m.ROLE_GIVEN, m.KIND_INVITED, "invited"),
    )
}

# The preferences page's rows, in this order: a preference's name and its label.
PREFERENCES: list[tuple[str, Promise]] = list(
    dict((k.preference, k.label) for k in KINDS.values()).items()
)
