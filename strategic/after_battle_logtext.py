"""Sentences of the after-battle log kinds (retreats R1–R6, quick battles Q1–Q7, captives Q5), registered with
``campaign.logtext`` by ``StrategicConfig.ready()``: the log reads these entries on any page, command or task,
whether or not the after-battle views were imported."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy

from campaign.logtext import register_sentences
from strategic.models import RetreatRecord


def _swept_allied_sentence(data: dict[str, Any]) -> Any:
    """R2: what became of allied units swept up by a retreat (they stay their faction's)."""
    if data.get("units"):
        if data.get("allied_name"):
            return gettext_lazy("%(allied_name)s of %(faction)s, swept up by %(name)s, went with it to %(to)s "
                                "under its own commander: %(units)s.")
        return gettext_lazy("Units of %(faction)s swept up by %(name)s went with it to %(to)s: %(units)s.")
    if data.get("allied_name"):
        return gettext_lazy("%(allied_name)s of %(faction)s, swept up by %(name)s, lost every unit on the way.")
    return gettext_lazy("The units of %(faction)s swept up by %(name)s were lost on the way.")


def _captured_sentence(data: dict[str, Any]) -> Any:
    """Q5: a commander captured, and who took his armies."""
    if not data.get("armies"):
        return gettext_lazy("%(commander)s of %(faction)s was captured by %(by)s in %(province)s.")
    if data.get("successor"):
        return gettext_lazy("%(commander)s of %(faction)s was captured by %(by)s in %(province)s; %(successor)s "
                            "takes command of %(armies)s.")
    return gettext_lazy("%(commander)s of %(faction)s was captured by %(by)s in %(province)s; no free commander "
                        "of his faction can take %(armies)s: one must be appointed.")


LOG_SENTENCES: dict[str, Any] = {
    "retreat_applied": gettext_lazy("%(name)s retreated from %(province)s (%(kind)s): %(path)s."),
    "retreat_swept": gettext_lazy("%(name)s swept up units on its way: %(units)s."),
    "retreat_penalty": gettext_lazy("%(name)s lost %(penalty)s units on its retreat: %(units)s."),
    "army_destroyed": gettext_lazy("%(name)s of %(faction)s was destroyed; %(commander)s is displaced to "
                                   "%(capital)s."),
    "army_dissolved": gettext_lazy("%(name)s was swept into %(into)s."),
    "retreat_swept_allied": _swept_allied_sentence,
    "commander_captured": _captured_sentence,
    "commander_released": gettext_lazy("%(commander)s of %(faction)s, held by %(by)s, was released."),
    "support_points": gettext_lazy("Support points in %(province)s: +%(added)s for %(faction)s."),
    "support_points_changed": gettext_lazy("Support in %(province)s: %(faction)s adds %(added)s, %(loser)s "
                                           "loses %(removed)s."),
    "quick_battle_begun": gettext_lazy("A quick battle in %(province)s; the seed's hash is %(commitment)s."),
    "quick_battle_roll": lambda data: (
        gettext_lazy("%(unit)s rolled %(dice)s = %(total)s against %(target)s (%(purpose)s).") if data.get("unit")
        else gettext_lazy("%(roller)s rolled %(dice)s = %(total)s against %(target)s (%(purpose)s).")),
    "quick_battle_units_lost": gettext_lazy("Units lost in the quick battle: %(units)s."),
    "quick_battle_thrown_back": gettext_lazy("%(army)s is thrown back to %(to)s."),
    "quick_battle_resolved": gettext_lazy("The quick battle in %(province)s: %(result)s by %(margin)s "
                                          "(table %(table)s); winner: %(winner)s; seed %(seed)s."),
}
LOG_KIND_KEYS: dict[str, dict[str, str | None]] = {
    "retreat_swept": {"units": "unit"},
    "retreat_swept_allied": {"units": "unit", "lost": "unit", "allied_army": "army"},
    "commander_captured": {"by": "faction", "successor": "commander", "armies": "army"},
    "commander_released": {"by": "faction"},
    "retreat_applied": {"path": "province", "kind": None},
    "support_points_changed": {"loser": "faction"},
    "support_points": {"loser": "faction"},
    "army_destroyed": {"capital": "province"},
}
ROLL_PURPOSES = {
    "contest (strategy)": gettext_lazy("contest of Strategy"),
    "contest (tactics)": gettext_lazy("contest of Tactics"),
    "contest, Luck reroll": gettext_lazy("contest, Luck reroll"),
    "Morale: hold, retreat or rout": gettext_lazy("Morale: hold, retreat or rout"),
    "Morale: retreat in good order or rout": gettext_lazy("Morale: retreat in good order or rout"),
    "Morale: the army holds if half make it": gettext_lazy("Morale: the army holds if half make it"),
    "Morale again: nowhere to retreat": gettext_lazy("Morale again: nowhere to retreat"),
}
RESULTS = {
    "no clear winner": gettext_lazy("no clear winner"),
    "minor victory": gettext_lazy("minor victory"),
    "major victory": gettext_lazy("major victory"),
    "great victory": gettext_lazy("great victory"),
    "overwhelming victory": gettext_lazy("overwhelming victory"),
}
LOG_KIND_CHOICES = {
    "retreat_applied": {"kind": dict(RetreatRecord.Kind.choices)},
    "quick_battle_roll": {"purpose": ROLL_PURPOSES},
    "quick_battle_resolved": {"result": RESULTS},
}


def register() -> None:
    """Make the campaign log read the after-battle entries."""
    register_sentences(LOG_SENTENCES, kind_keys=LOG_KIND_KEYS, kind_choices=LOG_KIND_CHOICES)
