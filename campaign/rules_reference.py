"""The rules reference as a page shows it: each rule's text with the campaign's values of its settings.

Pure reading of ``rules_text`` and ``rules_settings`` with one campaign's settings; the views render it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from campaign.rules_settings import SETTINGS, SettingSpec
from campaign.rules_text import RULES, RULES_BY_ID, SECTIONS, RuleEntry

# Values fixed by the rules themselves (not settings), shown beside their rule like a setting's value.
FIXED_VALUES: dict[str, tuple[tuple[Promise, str], ...]] = {
    "T1": ((_("Grid"), "18 × 21"),),
    "T4": ((_("Infantry speed"), "3"), (_("Mounted speed"), "6")),
    "T7.2": ((_("Flank bonus"), "+1"), (_("Charge bonus"), "+1")),
    "T7.3": ((_("Charge distance: more than, in cells"), "2"),),
    "T7.6": ((_("Die"), "1–3 / 4–6"),),
    "R1.3": ((_("Provinces a retreat may enter, at most"), "4"),),
    "R3": ((_("Room in a fortress city in the source"), "3"),),
}


@dataclass(frozen=True)
class SettingValue:
    """One campaign setting beside its rule: what it means, its value here and its default."""

    spec: SettingSpec
    value: Any

    @property
    def is_default(self) -> bool:
        """Whether this campaign keeps the documented default."""
        return bool(self.value == self.spec.default)

    @property
    def is_bool(self) -> bool:
        """Whether the setting is a yes/no switch."""
        return self.spec.kind is bool


@dataclass(frozen=True)
class ShownRule:
    """A rule as the reference shows it."""

    entry: RuleEntry
    settings: tuple[SettingValue, ...] = ()
    fixed: tuple[tuple[Promise, str], ...] = ()
    picture: str = ""  # "range" or "flank": the template draws it

    @property
    def id(self) -> str:
        """The rule id, also the anchor of the entry."""
        return self.entry.id

    @property
    def is_part(self) -> bool:
        """A numbered part of a rule (``T6.1``), indented under its rule."""
        return self.entry.parent is not None


@dataclass(frozen=True)
class ShownSection:
    """One section (S, T, R, Q, M) of the reference."""

    letter: str
    title: Promise
    rules: list[ShownRule] = field(default_factory=list)


PICTURES = {"T9.1": "range", "T7.4": "flank"}


def campaign_values(settings: dict[str, Any]) -> dict[str, tuple[SettingValue, ...]]:
    """The settings of each rule id with this campaign's values (``settings`` has every name)."""
    by_rule: dict[str, list[SettingValue]] = {}
    for spec in SETTINGS:
        by_rule.setdefault(spec.rule, []).append(SettingValue(spec, settings[spec.name]))
    return {rule: tuple(values) for rule, values in by_rule.items()}


def shown_rule(entry: RuleEntry, values: dict[str, tuple[SettingValue, ...]]) -> ShownRule:
    """One entry with its settings, fixed values and picture."""
    return ShownRule(
        entry,
        settings=values.get(entry.id, ()),
        fixed=FIXED_VALUES.get(entry.id, ()),
        picture=PICTURES.get(entry.id, ""),
    )


def reference(settings: dict[str, Any]) -> list[ShownSection]:
    """Every section with every rule of RULES.md, in order."""
    values = campaign_values(settings)
    sections = {letter: ShownSection(letter, title) for letter, title in SECTIONS}
    for entry in RULES:
        sections[entry.section].rules.append(shown_rule(entry, values))
    return list(sections.values())


def rule_shown(rule_id: str, settings: dict[str, Any]) -> ShownRule | None:
    """One rule for the board's side panel, or None for an unknown id."""
    entry = RULES_BY_ID.get(rule_id)
    return None if entry is None else shown_rule(entry, campaign_values(settings))


@dataclass(frozen=True)
class RangeCell:
    """One cell of the range picture, in SVG units (the shooter at the centre, facing up)."""

    x: int
    y: int
    kind: str  # "shooter" or "in"


def range_cells(forward: float, lateral: float, size: int = 10) -> tuple[list[RangeCell], int, int]:
    """The cells in range (T9.1: (f/a)² + (l/b)² ≤ 1) around a shooter; the picture's width and height."""
    reach_f, reach_l = int(forward), int(lateral)
    cells: list[RangeCell] = []
    for f in range(-reach_f, reach_f + 1):
        for lat in range(-reach_l, reach_l + 1):
            if (f / forward) ** 2 + (lat / lateral) ** 2 <= 1:
                kind = "shooter" if f == 0 and lat == 0 else "in"
                cells.append(RangeCell((lat + reach_l) * size, (reach_f - f) * size, kind))
    return cells, (2 * reach_l + 1) * size, (2 * reach_f + 1) * size
