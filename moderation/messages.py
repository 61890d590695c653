"""The sentences the moderation app's services and selectors refuse with, each defined once.

A sentence's stable code is its name in lower case (``catalogue`` at the end, ``campaign.errors``).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from campaign.errors import catalogue

# services.disputes
NEEDS_MEMBER = _("Only a participant of the campaign can dispute an entry of its log.")
NEEDS_TEXT = _("Say what is wrong with the entry (at most 4000 characters).")
NEEDS_REASON = _("Give a reason: it is written into the log every participant reads (M1).")
NEEDS_ANSWER = _("Write the answer (at most 4000 characters).")
ALREADY_ANSWERED = _("This dispute has already been answered.")
NO_DEADLINE = _("No faction is acting against a deadline now (S4).")
BAD_HOURS = _("Extend by a whole number of hours from 1 to 336.")
BAD_ORDER = _("List every faction of the campaign exactly once.")
NO_INTERCEPTION = _("No such interception was declared in this battle (T10.4).")
ALREADY_RULED = _("This interception has already been ruled on (T10.4).")
TAKEN_BACK = _(
    "This interception was taken back by the moderator in version %(version)s (M1): it no longer stands, so "
    "there is nothing to rule on (T10.4)."
)
BAD_VERDICT = _("Rule 'confirmed' or 'overruled'.")
BAD_WINNER = _("Name the winner: attacker or defender (T11).")
BATTLE_OVER = _("The battle is over (T11).")

# services.purge
NEEDS_ADMIN = _("Only an administrator can delete a whole campaign or battle with its logs (M3).")

# selectors.audit
BAD_REF = _(
    "No such log entry: give L<number> for the campaign log or B<battle>v<version> for a battle's log."
)
BAD_FILTER = _("Filter by a whole number.")
BAD_CURSOR = _("This page link names no entry of this log: open the log's first page again.")

# api
NO_CAMPAIGN = _("No such campaign.")
NO_DICE = _("This battle rolled no dice.")
NO_BATTLE = _("No such battle in this campaign.")

catalogue(globals())
