"""The sentences the campaign app's services and selectors refuse with, each defined once.

A sentence's stable code is its name in lower case (``catalogue`` at the end, ``campaign.errors``).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from campaign.errors import catalogue

# services
NEEDS_LOGIN = _("You must be logged in to do this.")
NEEDS_MODERATOR = _("Only a moderator of this campaign may do this.")
NEEDS_FACTION_MEMBER = _(
    "Only the leader or a commander of the acting faction, or a moderator, may end its turn."
)
SLUG_TAKEN = _("This short name is already taken.")
BAD_SLUG = _("Use only letters, digits, hyphens and underscores.")
BAD_COLOR = _("Give a colour as #rrggbb.")
SAME_FACTION = _("A relation needs two different factions.")
NOT_IN_CAMPAIGN = _("This belongs to another campaign.")
COMMANDER_OTHER_FACTION = _("The commander belongs to another faction.")
ROLE_NEEDS_FACTION = _("A leader or commander needs a faction.")
ROLE_NO_FACTION = _("A moderator or observer has no faction.")
INVITATION_UNKNOWN = _("No such invitation.")
INVITATION_USED = _("This invitation has already been used.")
ALREADY_MEMBER = _("You already have a role in this campaign.")
COMMANDER_TAKEN = _("This commander is already played by someone else.")
LAST_MODERATOR = _("A campaign keeps at least one moderator.")
NOT_ECONOMIC = _("This can be done only in the economic phase (S4).")
NOT_STRATEGIC = _("This can be done only in the strategic phase (S4).")
NO_FACTIONS = _("The campaign has no factions to act (S4).")
NOT_ACTING_FACTION = _("It is not this faction's turn (S4).")
TURN_NOT_OVERDUE = _("The faction's time is not up yet (S4).")

# setup (M1)
EDITED_MEANWHILE = _("Someone else changed this after you opened it: reload the page and make your change again.")
CORRECTION_NEEDS_REASON = _(
    "The campaign has begun: this changes the state of the game and is a correction. Give a reason: it is "
    "written into the log every participant reads (M1)."
)
CREATORS_STAFF_ONLY = _("On this site only staff members may create campaigns.")
TEMPLATE_NOT_EMPTY = _("A template is copied only into a campaign without provinces, unit cards or factions.")
TEMPLATE_SAME = _("A campaign cannot be copied into itself.")

# api
CAMPAIGN_NOT_FOUND = _("No such campaign.")
OBJECT_NOT_FOUND = _("No such %(what)s in this campaign.")
NEEDS_MEMBER = _("Only members of this campaign may see who plays in it.")

# accounts
LOCKED_OUT = ngettext_lazy(
    "Too many failed attempts to log in. Try again in %(minutes)s minute.",
    "Too many failed attempts to log in. Try again in %(minutes)s minutes.",
    "minutes",
)

# what a client sends
UNSTORABLE_TEXT = _("The field %(field)s holds a NUL character, which cannot be stored: remove it.")
BIDI_TEXT = _(
    "The field %(field)s holds a text direction override (U+202A–U+202E, U+2066–U+2069), which would make it "
    "read otherwise than it is stored: remove it."
)

catalogue(globals())
