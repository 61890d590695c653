"""The campaign settings of RULES.md: names, defaults, limits and what each means.

One table serves validation (services, API, admin) and the public rules page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class SettingSpec:
    """One campaign setting: its default, its bounds and the rule that names it."""

    name: str
    default: Any
    rule: str
    label: Any
    minimum: float | None = None
    maximum: float | None = None
    kind: type = int

    @property
    def step(self) -> str:
        """The input's step: whole numbers, half lines (T3.1) or any number."""
        if self.kind is int:
            return "1"
        return "0.5" if self.name == "mutual_destruction_survivor_health" else "any"


SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec("deployment_rows", 3, "T1", _("Rows of each side's deployment zone"), 1, 9),
    SettingSpec("turn_seconds", 40, "T6.1", _("Seconds in each side's tactical turn"), 10, 600),
    SettingSpec(
        "mutual_destruction_survivor_health", 1, "T7.6",
        _("Lines left to the survivor of a mutual destruction"), 0.5, 10, float,
    ),
    SettingSpec("range_forward", 6.5, "T9.1", _("Range template: semi-axis forward and back"), 1, 17, float),
    SettingSpec("range_lateral", 5.5, "T9.1", _("Range template: semi-axis left and right"), 1, 17, float),
    SettingSpec("reinforcement_round", 6, "T9.6", _("Round in which supporters from an adjacent province arrive"), 2, 50),
    SettingSpec("rout_health_loss", 0.5, "Q7", _("Share of current health a routed unit loses in a quick battle"), 0, 1, float),
    SettingSpec("faction_turn_hours", 48, "S4", _("Hours each faction has for its strategic turn"), 1, 24 * 14),
    SettingSpec("retreat_hours", 24, "R1", _("Hours a retreating commander has to choose a route"), 1, 24 * 14),
    SettingSpec(
        "retreat_sweeps_allies", True, "R2",
        _("A retreat sweeps up allied units met on its route, not only the faction's own"), kind=bool,
    ),
    SettingSpec("spectators_allowed", True, "M1", _("Anyone may watch battles live"), kind=bool),
    SettingSpec(
        "moderator_rolls_die", True, "T7.6",
        _("A battle waits for the moderator to roll each T7.6 die (off: the server rolls at once)"), kind=bool,
    ),
)
SETTINGS_BY_NAME = {spec.name: spec for spec in SETTINGS}


def default_settings() -> dict[str, Any]:
    """Every setting at its documented default."""
    return {spec.name: spec.default for spec in SETTINGS}


def validate_settings(values: object) -> tuple[dict[str, Any], dict[str, str]]:
    """Merge ``values`` over the defaults; return (settings, errors by setting name)."""
    merged = default_settings()
    errors: dict[str, str] = {}
    if not isinstance(values, dict):
        return merged, {"settings": str(_("Settings must be an object of name: value."))}
    for name, value in values.items():
        spec = SETTINGS_BY_NAME.get(name)
        if spec is None:
            errors[name] = str(_("Unknown setting."))
            continue
        if spec.kind is bool:
            if not isinstance(value, bool):
                errors[name] = str(_("Must be true or false."))
                continue
        elif isinstance(value, bool) or not isinstance(value, (int, float)):
            errors[name] = str(_("Must be a number."))
            continue
        elif spec.kind is int and value != int(value):
            errors[name] = str(_("Must be a whole number."))
            continue
        elif spec.kind is float and spec.name == "mutual_destruction_survivor_health" and (value * 2) != int(value * 2):
            errors[name] = str(_("Health is counted in half lines."))
            continue
        elif (spec.minimum is not None and value < spec.minimum) or (spec.maximum is not None and value > spec.maximum):
            # Named: the sentence is read beside the whole settings form, not beside its input.
            errors[name] = str(
                _("%(field)s (%(rule)s) must be between %(min)s and %(max)s.")
                % {"field": spec.label, "rule": spec.rule, "min": spec.minimum, "max": spec.maximum}
            )
            continue
        merged[name] = spec.kind(value)
    return merged, errors
