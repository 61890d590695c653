"""Builders shared by the campaign tests and the API's other tests: the campaign API's write endpoints."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from campaign.services import economic_phase_end
from tests.factories import ROLES

MODERATOR = {"moderator"}
ACTING_FACTION = {"east_general", "east_leader", "moderator"}
LOGGED_IN = set(ROLES) - {"anonymous"}

Request = tuple[str, str, dict[str, Any] | None]


def strategic_phase(w: Any) -> None:
    """The economic phase of ``build_world``'s campaign ends: the strategic phase begins."""
    economic_phase_end(actor=w.moderator, campaign=w.campaign)


ENDPOINTS: list[tuple[str, Callable[[Any], Request], set[str]]] = [
    # any logged-in user may found a campaign (and moderates it)
    (
        "campaign create",
        lambda w: ("post", "/api/campaigns/", {"slug": "new-war", "name_en": "New", "name_ru": "Новая"}),
        LOGGED_IN,
    ),
    # names, visibility and settings: the moderator
    (
        "campaign update",
        lambda w: ("patch", "/api/campaigns/limes/", {"settings": {"turn_seconds": 30}}),
        MODERATOR,
    ),
    (
        "faction create",
        lambda w: (
            "post",
            "/api/campaigns/limes/factions/",
            {"slug": "huns", "name_en": "Huns", "name_ru": "Гунны"},
        ),
        MODERATOR,
    ),
    # the roster lock (S2) is the moderator's
    (
        "faction update",
        lambda w: ("patch", f"/api/campaigns/limes/factions/{w.east.pk}/", {"roster_locked": True}),
        MODERATOR,
    ),
    (
        "relation set",
        lambda w: (
            "post",
            "/api/campaigns/limes/relations/",
            {"a": w.east.pk, "b": w.goths.pk, "kind": "war"},
        ),
        MODERATOR,
    ),
    (
        "commander create",
        lambda w: ("post", "/api/campaigns/limes/commanders/", {"faction": w.east.pk, "name": "Zeno"}),
        MODERATOR,
    ),
    (
        "membership set",
        lambda w: ("post", "/api/campaigns/limes/memberships/", {"user": "outsider", "role": "observer"}),
        MODERATOR,
    ),
    (
        "invitation create",
        lambda w: ("post", "/api/campaigns/limes/invitations/", {"role": "observer"}),
        MODERATOR,
    ),
    # invitation tokens are secrets: even reading them is the moderator's
    ("invitation list", lambda w: ("get", "/api/campaigns/limes/invitations/", None), MODERATOR),
    ("economic phase end", lambda w: ("post", "/api/campaigns/limes/turn/economic-end/", None), MODERATOR),
    # the acting faction's leader or commanders, or the moderator, end its turn
    (
        "faction pass",
        lambda w: (strategic_phase(w), ("post", "/api/campaigns/limes/turn/pass/", {"faction": w.east.pk}))[1],
        ACTING_FACTION,
    ),
]
