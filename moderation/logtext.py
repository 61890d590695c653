"""Sentences of the moderation layer's campaign log entries (registered with ``campaign.logtext``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from campaign.logtext import register_sentences

SENTENCES = {
    "dispute_answered": _("The moderator answered dispute #%(dispute)s about entry %(entry)s."),
    "faction_deadline_extended": _("The deadline of %(faction)s was extended by %(hours)s h."),
    "interception_ruled": _("Interception by %(unit)s of %(target)s in battle #%(battle)s: %(verdict)s."),
    "battle_ended_by_moderator": _("The moderator ended battle #%(battle)s: the %(winner)s wins."),
    "battle_clock_paused": _("The moderator paused the clock of battle #%(battle)s with %(seconds)s s left."),
    "battle_clock_resumed": _("The moderator restarted the clock of battle #%(battle)s with %(seconds)s s left."),
    "battle_time_added": _("The moderator gave %(seconds)s s more in battle #%(battle)s."),
    "battle_corrected": _("The moderator corrected battle #%(battle)s (version %(version)s): %(units)s."),
    "battle_action_undone": _("The moderator took back version %(undone)s of battle #%(battle)s."),
    "battle_die_rolled": _("The moderator rolled the T7.6 die of battle #%(battle)s: %(dice)s."),
}
CHOICES = {
    "verdict": {"confirmed": _("confirmed"), "overruled": _("overruled")},
}
KIND_CHOICES = {
    "battle_ended_by_moderator": {"winner": {"attacker": _("attacker"), "defender": _("defender")}},
}


def register() -> None:
    """Add the sentences (called once from the app config)."""
    register_sentences(
        SENTENCES,
        choices=CHOICES,
        kind_keys={"interception_ruled": {"target": "unit"}},
        kind_choices=KIND_CHOICES,
    )
