"""Moderation (M) in the rules reference."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from campaign.rules_text.entry import RuleEntry

RULES: tuple[RuleEntry, ...] = (
    RuleEntry(
        "M1", "M", _("Moderators"),
        _(
            "A campaign has one or more moderators. They create and edit the map, factions, unit types, units"
            " and settings; watch time in battles; roll the dice of T7.6; record interceptions (T10.4); end "
            "battles; and may correct the state, always with a reason that goes into a log every participant "
            "can read."
        ),
    ),
    RuleEntry(
        "M2", "M", _("Dice"),
        _(
            "Every die is rolled by the server and logged with who asked, when and why. Interpretation: "
            "before a battle the server publishes a hash of a secret seed; each roll derives from the seed "
            "and the roll's number; the seed is revealed when the battle ends, so anyone can recheck every "
            "roll."
        ),
    ),
    RuleEntry(
        "M3", "M", _("The log"),
        _(
            "Nothing is ever silently changed: every move, interception, roll, correction and result is an "
            "entry in an append-only log, from which the state of a battle at any turn can be rebuilt and "
            "shown."
        ),
    ),
)
