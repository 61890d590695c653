"""The sentences the strategic app's services and selectors refuse with, each defined once.

A sentence's stable code is its name in lower case (``catalogue`` at the end, ``campaign.errors``).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from campaign.errors import catalogue

# services.locks
NEEDS_COMMANDER = _("Only the army's commander, its faction's leader or a moderator may give it orders (S5).")
MUST_RETREAT = _("This army lost a battle and must retreat first (S10).")
OTHER_FACTION = _("This belongs to another faction.")

# services.armies
NEEDS_LEADER = _("Only the faction's leader or a moderator may change its armies (S2).")
ROSTER_LOCKED = _("The moderator has locked this faction's army assignment (S2).")
NOT_YOUR_TURN = _("It is not this faction's turn (S4).")
TIME_UP = _("This faction's time for its turn is up (S4).")
NOT_ECONOMIC = _("New units appear only in the economic phase (S4).")
CAMPAIGN_FINISHED = _("The campaign is finished.")
ALREADY_MOVED = _("This army has already moved this turn (S5).")
MOVED_NO_REORG = _("An army that has moved this turn keeps its units until the next turn (S4).")
STALE_VERSION = _("The army has changed since you loaded it; reload and try again.")
IN_BATTLE = _("This army is engaged in a battle that has not been resolved (S7).")
EMPTY_ARMY = _("An army without units cannot move (S2).")
NOT_ADJACENT = _("An army moves only into an adjacent province (S5).")
IMPASSABLE = _("This border is impassable (S5).")
THIRD_POWER = _("Units of a faction you are not at war with hold this province: a battle needs war (S7).")
BATTLE_PENDING_THERE = _("A battle is pending in this province: declare support instead (S8).")
SAME_PROVINCE = _("The army is already in this province.")
NOT_SAME_PROVINCE = _("Units and armies must stand in the same province (S2).")
NO_UNITS = _("Choose at least one unit.")
UNITS_NOT_THERE = _("Every unit must belong to this faction and stand in this province (S2).")
UNITS_NOT_IN_ARMY = _("Every unit must belong to the army being split (S2).")
SPLIT_ALL = _("Leave at least one unit in the army being split (S2).")
MERGE_ITSELF = _("An army cannot be merged into itself.")
DISPLACED = _("This commander is displaced and out of command (R1.4).")
CAPTURED = _("This commander is held captive and cannot take command until a moderator releases him (Q5).")
NAME_REQUIRED = _("Give a name.")
NO_PROVINCE = _("Choose a province: the faction has no capital.")

# services.battles
BATTLE_STARTED = _("Support must be declared before the battle starts (S8).")
BATTLE_RESOLVED = _("This battle has already been resolved.")
NOT_FRIENDLY_SIDE = _("Only an army of the side's faction or of its allies may support it (S8).")
ATTACKER_SUPPORTS_ITSELF = _("The attacking army already fights in this battle.")
ALREADY_DEFENDS = _("An army of the defending side in the battle's province already defends it (S8).")
TOO_FAR = _("A supporting army must stand in the battle's province or next to it (S8).")
ALREADY_SUPPORTS = _("This army has already declared support in this battle (S8).")
BAD_SIDE = _("Choose attacker or defender.")
NOT_IN_CAMPAIGN = _("This belongs to another campaign.")
BAD_UNIT_CHANGE = _("Every changed unit must be one of this battle's units.")

# services.captives
NOT_CAPTURED = _("This commander is not held captive (Q5).")
RELEASE_NEEDS_REASON = _("Give a reason: it is written into the log every participant reads (M1).")

# services.map
NOT_NEIGHBOURS = _("A border joins two different provinces.")
BAD_DAMAGE = _("Give a whole number of damage, 0 or more, for each of LI1, LI2, HI, LC, HC (T3).")
BAD_HEALTH = _("Health is counted in half lines, more than 0 (T3.1).")
BAD_TERRAIN = _("Choose field, forest, mountains or desert (T5).")
BAD_UNIT_HEALTH = _("Give the health in lines, half lines allowed, more than 0 and at most %(most)s, the card's (T3.1).")
ONE_PLACE = _("Put the unit into an army or into a province, not both.")
PROVINCE_BUSY = _("Armies, units or battles are in %(code)s: it cannot be taken off the map.")

# services.map_file
NOT_AN_OBJECT = _("The map file must be a JSON object.")
BAD_FORMAT = _('"format" must be "limes-map".')
BAD_VERSION = _('"version" must be 1.')
BAD_SIZE = _('"%(field)s" must be %(value)s: maps are drawn on 1000 × 700.')
UNKNOWN_FIELD = _("%(entry)s: unknown field %(field)s.")
MISSING_FIELD = _("%(entry)s: %(field)s is missing.")
NOT_A_LIST = _('"%(field)s" must be a list.')
ENTRY_NOT_OBJECT = _("%(entry)s must be an object.")
NO_PROVINCES = _("The map has no provinces.")
BAD_CODE = _("%(entry)s: code must be 1 to 40 letters, digits, hyphens or underscores.")
DUPLICATE_CODE = _("%(entry)s: code %(code)s is used by another province too.")
BAD_NAME = _("%(entry)s: %(field)s must be a text of 1 to 120 characters.")
FILE_BAD_TERRAIN = _("%(entry)s: terrain must be one of %(choices)s.")
BAD_COORDINATE = _("%(entry)s: %(field)s must be a whole number from 0 to %(max)s.")
SAME_POSITION = _("%(entry)s: x, y is the position of %(other)s too.")
BAD_BOOLEAN = _("%(entry)s: %(field)s must be true or false.")
BAD_CAPACITY = _("%(entry)s: fortress_capacity must be a whole number from 1 to 99 (R3).")
BAD_OUTLINE = _("%(entry)s: outline must be a list of at least 3 [x, y] points inside the map.")
UNKNOWN_PROVINCE = _("%(entry)s: %(field)s names no province of this file (%(code)s).")
FILE_SAME_PROVINCE = _("%(entry)s: %(field)s must name a province other than %(code)s.")
BAD_KIND = _("%(entry)s: kind must be one of %(choices)s.")
DUPLICATE_BORDER = _("%(entry)s: the border %(a)s – %(b)s is listed twice.")
FILE_NOT_ADJACENT = _("%(entry)s: %(a)s and %(b)s share no border, so no army moves between them (S9).")
FILE_IMPASSABLE = _("%(entry)s: the border %(a)s – %(b)s is impassable, so no army moves across it (S9).")
DUPLICATE_TRANSITION = _("%(entry)s: the transition from %(a)s to %(b)s is listed twice.")
BAD_SEA_POINT = _("%(entry)s must be an [x, y] point inside the map.")
MAP_EXISTS = _("The campaign already has a map; import with replace to change it.")
PROVINCE_IN_USE = _("%(code)s is not in the file, but armies, units or battles are there.")
REFUSED = _("The map file was refused, nothing was changed: %(first)s")

# services.quick_battles
QUICK_NOT_PENDING = _("Only a battle awaiting resolution can be resolved as a quick battle.")
QUICK_NO_ATTACKER = _("The attacking army is gone: this battle cannot be resolved as a quick battle.")
QUICK_NO_COMMANDER = _("The defending side has no commander to contest the battle (Q1).")
QUICK_REFUSED = _("The quick battle is not allowed (%(rule)s): %(reason)s")
QUICK_MALFORMED = _("The quick battle cannot be set up: %(field)s: %(message)s")
QUICK_BAD_SKILL = _("Choose Strategy or Tactics (Q1).")
STORM_NEEDS_SIEGE = _("Only a siege can be stormed (Q6).")

# services.retreats
NEEDS_RETREAT_COMMANDER = _("Only the retreating army's commander, its faction's leader or a moderator may "
                            "choose its retreat (R1).")
NOT_RETREATING = _("This army has no retreat to make (S10).")
RETREAT_TIME_UP = _("The time to choose this retreat is up: the default retreat applies (R1).")
RETREAT_REFUSED = _("This retreat is not allowed (%(rule)s): %(reason)s")
RETREAT_MALFORMED = _("The choice is not understood: %(field)s: %(message)s")
SUPPORT_SPLIT = _("Choose how many of the %(points)s support points to remove from the loser: 0 to %(points)s (R6).")
NO_WINNER = _("This battle had no winner: no support points change (R6).")

# the battle's schedule (strategic/services/schedule.py)
SCHEDULE_FORBIDDEN = _("Only the battle's commanders and the campaign's moderators may schedule it.")
SCHEDULE_NOT_PENDING = _("Only a pending battle can be scheduled (S7).")
SCHEDULE_NO_TIMES = _("Propose at least one time.")
SCHEDULE_TOO_MANY = _("Propose at most %(count)s times at once.")
SCHEDULE_PAST = _("A battle can only be scheduled in the future.")
SCHEDULE_SIDE = _("Choose a side of the battle that you command.")
SCHEDULE_UNKNOWN_TIME = _("No such proposed time for this battle.")
SCHEDULE_NOT_SCHEDULED = _("The battle has no scheduled time yet.")
SCHEDULE_BAD_TIME = _("Give a date and time (YYYY-MM-DD HH:MM).")

catalogue(globals())
