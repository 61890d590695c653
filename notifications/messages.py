"""The sentences of notifications: what each kind of notice says, and what its services refuse with.

A notice stores its kind and params; the sentence is rendered in the reader's language when it is shown or
mailed (``notifications.render``). A sentence's stable code is its name in lower case (``campaign.errors``).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from campaign.errors import catalogue

# The kinds of notice, each with its sentence and its short name (the preferences page, the mail's subject).
TURN_BEGAN = _("Your faction %(faction)s may act in %(campaign)s, turn %(turn)s: the deadline is %(deadline)s.")
TURN_HOUR_LEFT = _("One hour left on the turn of %(faction)s in %(campaign)s: the deadline is %(deadline)s.")
BATTLE_CREATED = _("A battle began in %(province)s (%(campaign)s): your army %(army)s fights in it.")
BATTLE_SCHEDULED = _("The battle in %(province)s (%(campaign)s) is scheduled for %(at)s.")
BATTLE_MOVED = _("The battle in %(province)s (%(campaign)s) was moved to %(at)s.")
BATTLE_SOON = _("The battle in %(province)s (%(campaign)s) starts in 15 minutes, at %(at)s.")
DEPLOYMENT_OPEN = _("The board of the battle in %(province)s (%(campaign)s) is open: deploy your units.")
RETREAT_WAITS = _("Your army %(army)s must retreat (%(campaign)s): choose its route before %(deadline)s.")
DISPUTE_ANSWERED = _("The moderator of %(campaign)s answered your dispute: %(answer)s")
INVITED = _("You joined %(campaign)s as %(role)s.")
ROLE_GIVEN = _("You were given the role %(role)s in %(campaign)s.")

KIND_TURN_BEGAN = _("Your faction's turn began")
KIND_TURN_HOUR_LEFT = _("One hour left on your faction's turn")
KIND_BATTLE_CREATED = _("A battle involving your army")
KIND_BATTLE_SCHEDULED = _("A battle you are in was scheduled or moved")
KIND_BATTLE_SOON = _("A battle you are in starts in 15 minutes")
KIND_DEPLOYMENT_OPEN = _("The board opened for deployment")
KIND_RETREAT_WAITS = _("A retreat choice waits for you")
KIND_DISPUTE_ANSWERED = _("Your dispute was answered")
KIND_INVITED = _("You were invited or given a role")

# services
NEEDS_LOGIN = _("You must be logged in to do this.")
BAD_TIMEZONE = _("Unknown time zone “%(value)s”: choose one of the list (e.g. Europe/Moscow).")
BAD_LANGUAGE = _("Unknown language “%(value)s”: choose English or Russian.")
BAD_LINK = _("This link is invalid or has expired: ask for a new one.")
NO_EMAIL = _("Give an e-mail address first.")
NOT_YOURS = _("This notice is not yours.")

# webhooks
WEBHOOK_BAD_URL = _("Give an http:// or https:// address.")
WEBHOOK_PRIVATE_URL = _("This address is on a private or local network: the server may only post to public "
                        "addresses.")
WEBHOOK_UNRESOLVED = _("The host of this address is not known.")
WEBHOOK_NO_EVENTS = _("Choose at least one event.")
WEBHOOK_BAD_EVENT = _("Unknown event “%(value)s”.")
WEBHOOK_BAD_FORMAT = _("Choose the JSON or the Discord format.")
WEBHOOK_UNKNOWN = _("No such webhook in this campaign.")

EVENT_TURN_CHANGED = _("The turn changed")
EVENT_BATTLE_SCHEDULED = _("A battle was scheduled")
EVENT_BATTLE_STARTED = _("A battle started")
EVENT_BATTLE_ENDED = _("A battle ended")
EVENT_RETREAT_DONE = _("A retreat was made")
EVENT_QUICK_BATTLE = _("A quick battle was resolved")

catalogue(globals())
