"""The sentences the tactical app's services and selectors refuse with, each defined once.

A sentence's stable code is its name in lower case (``catalogue`` at the end, ``campaign.errors``).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from campaign.errors import catalogue

# errors
STALE = _("The battle has changed: reload it.")
DUPLICATE_ID = _("This action id was already used for another action.")
NOT_EDITABLE = _("The map can only be changed before any unit is deployed.")
ROUTE_CUT = _("The map must leave a passable route between the two deployment zones (T5).")
NOT_YOUR_UNIT = _("Only the unit's own commander or a moderator can act with it (T2).")
NOT_YOUR_SIDE = _("Only a commander of that side or a moderator can do this (T2).")
NOT_CHIEF = _("Only the side's chief commander or a moderator can concede (T11).")
MODERATORS_ONLY = _("Only a moderator of the campaign can do this (M1).")
NEEDS_LOGIN = _("Log in to take part in the battle.")
NO_BATTLE = _("There is no such battle.")
NOT_WATCHER = _("Only the battle's commanders, the leaders of its factions and the campaign's moderators "
                "may watch this battle.")
WATCH_NEEDS_LOGIN = _("Log in to watch this battle: only its commanders, the leaders of its factions and the "
                      "campaign's moderators may watch it.")
ALREADY_SET_UP = _("This battle is already being fought on the tactical map.")
NOT_OPEN = _("The moderator is still preparing the field: the deployment has not been opened yet.")
NOT_IN_SETUP = _("The deployment of this battle is already open.")
NOT_PENDING = _("Only a battle awaiting resolution can go to the tactical map.")
NO_UNITS = _("Both sides need at least one unit on the tactical map.")
NOT_LEADER = _("Only a faction leader can give orders, and only to a commander of his faction on the same side (T2).")
EMPTY_ORDER = _("An order needs some text (at most 2000 characters).")
UNKNOWN_UNIT = _("There is no such unit in this battle.")
BAD_PATH = _("A path is a list of [x, y] cells, at least one.")
BAD_CELL = _("Each cell needs x 0..17, y 0..20 and a feature: river, swamp, gorge, wall or null.")

# services.moderation
NEEDS_REASON = _("Give a reason: it is written into the log every participant reads (M1).")
PAUSED = _("The moderator has paused the clock: no action is accepted until it runs again (T6.1).")
AWAITING = _("The battle is waiting for the moderator's die (T7.6): no action is accepted until it is rolled.")
ALREADY_PAUSED = _("The clock is already paused.")
NOT_PAUSED = _("The clock is not paused.")
NO_CLOCK = _("No turn clock runs now: the battle is not in a side's turn (T6.1).")
BAD_SECONDS = _("Add a whole number of seconds from 1 to 600.")
NOTHING_TO_UNDO = _("There is no player action of the current turn left to take back.")
NO_DIE_AWAITED = _("No die is awaited: a T7.6 die is rolled only when both units of a pair fall at once.")
ROLL_FIRST = _("Roll the awaited T7.6 die first.")
OVER = _("The battle is over (T11).")
NOT_BEGUN = _("The battle has not begun: the sides are still deploying (T1).")
WINDOW_OPEN = _("An interception window is open: close it first (T10), by declaring no more interceptions or "
                "when the side's time runs out; a correction may not change the board under the interceptions "
                "already declared.")

# services.play
BAD_ACTION_ID = _("An action id is 1 to 64 letters, digits or _ . : -")

catalogue(globals())
