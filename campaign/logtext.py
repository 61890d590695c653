"""The campaign log as sentences in the reader's language (M3).

A ``LogEntry`` stores a stable ``kind`` and ids in ``data``; the sentence is made when it is read, so a
Russian reader and an English reader see the same entry in their own words and with current names. Apps
above ``campaign`` register how to name their objects (``register_names``) and their sentences
(``register_sentences``), so that this module imports none of them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext_lazy as _

from campaign.models import Campaign, Commander, Faction, LogEntry, Membership, Relation

Namer = Callable[[Campaign, set[Any]], dict[Any, str]]

_NAMERS: dict[str, Namer] = {}
# The entity each data key names; apps add theirs with ``register_names``.
KEY_ENTITY: dict[str, str] = {
    "faction": "faction",
    "next_faction": "faction",
    "a": "faction",
    "b": "faction",
    "attacker": "faction",
    "defender": "faction",
    "commander": "commander",
}
SENTENCES: dict[str, Any] = {
    "campaign_created": _("The campaign was created."),
    "settings_changed": _("The campaign settings were changed."),
    "campaign_changed": _("The campaign was changed."),
    "faction_created": _("Faction %(faction)s was created."),
    "faction_changed": _("Faction %(faction)s was changed."),
    "relation_set": _("%(a)s and %(b)s: %(after)s."),
    "commander_created": _("%(commander)s joined %(faction)s as %(rank)s."),
    "invitation_created": _("An invitation was created."),
    "member_joined": _("%(user)s joined the campaign as %(role)s."),
    "membership_set": _("%(user)s now has the role %(role)s."),
    "economic_phase_ended": _("The economic phase of turn %(turn)s ended; %(faction)s acts first."),
    "faction_turn_passed": _("%(faction)s ended its turn."),
    "faction_turn_expired": _("The time of %(faction)s ran out."),
}
# Data values that are choices: shown by their translated label.
CHOICE_LABELS: dict[str, dict[str, Any]] = {
    "role": dict(Membership.Role.choices),
    "rank": dict(Commander.Rank.choices),
}
# Where a kind uses a key differently from the rest of the log (``a`` is a faction in ``relation_set`` but a
# province in ``border_set``): per kind, key → entity (None: plain value) and key → choice labels.
KIND_KEYS: dict[str, dict[str, str | None]] = {"relation_set": {"before": None, "after": None}}
KIND_CHOICES: dict[str, dict[str, dict[str, Any]]] = {
    "relation_set": {"after": dict(Relation.Kind.choices), "before": dict(Relation.Kind.choices)},
}


def register_names(entity: str, namer: Namer, keys: Iterable[str] = ()) -> None:
    """Name objects of ``entity`` by id for log sentences; ``keys`` are the data keys that hold such ids."""
    _NAMERS[entity] = namer
    for key in keys:
        KEY_ENTITY[key] = entity


def register_sentences(
    sentences: dict[str, Any],
    choices: dict[str, dict[str, Any]] | None = None,
    kind_keys: dict[str, dict[str, str | None]] | None = None,
    kind_choices: dict[str, dict[str, dict[str, Any]]] | None = None,
) -> None:
    """Add an app's log sentences: ``%(key)s`` over the entry's data, or a callable of the data."""
    SENTENCES.update(sentences)
    CHOICE_LABELS.update(choices or {})
    KIND_KEYS.update(kind_keys or {})
    KIND_CHOICES.update(kind_choices or {})


def ids_of(values: set[Any]) -> set[int]:
    """The integer ids among logged values (a namer of rows by id ignores anything else)."""
    return {v for v in values if isinstance(v, int) and not isinstance(v, bool)}


def codes_of(values: set[Any]) -> set[str]:
    """The codes among logged values (a namer of rows by code ignores anything else)."""
    return {v for v in values if isinstance(v, str)}


def _faction_names(campaign: Campaign, values: set[Any]) -> dict[Any, str]:
    factions = Faction.objects.filter(campaign=campaign, pk__in=ids_of(values)).only("name_en", "name_ru")
    return {f.pk: f.name for f in factions}


def _commander_names(campaign: Campaign, values: set[Any]) -> dict[Any, str]:
    return dict(Commander.objects.filter(campaign=campaign, pk__in=ids_of(values)).values_list("pk", "name"))


register_names("faction", _faction_names)
register_names("commander", _commander_names)


@dataclass(frozen=True)
class LogLine:
    """One log entry as a reader sees it."""

    id: int
    turn: int
    created_at: datetime
    kind: str
    rule: str
    sentence: str
    reason: str
    actor: str


def _is_ref(value: Any) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def _entity(kind: str, key: str) -> str | None:
    overrides = KIND_KEYS.get(kind, {})
    return overrides[key] if key in overrides else KEY_ENTITY.get(key)


def entry_names(campaign: Campaign, entries: list[LogEntry]) -> dict[str, dict[Any, str]]:
    """The names of every object the entries refer to, by entity and id, read once for all of them; pass
    the result to ``sentence``."""
    wanted: dict[str, set[Any]] = defaultdict(set)
    for entry in entries:
        for key, value in (entry.data or {}).items():
            entity = _entity(entry.kind, key)
            # A list (the units swept up, the armies taken over) names each of its ids.
            refs = [v for v in (value if isinstance(value, list) else [value]) if _is_ref(v)]
            if entity and refs:
                wanted[entity].update(refs)
    return {entity: _NAMERS[entity](campaign, ids) for entity, ids in wanted.items() if entity in _NAMERS}


def _value(kind: str, key: str, value: Any, names: dict[str, dict[Any, str]]) -> str:
    entity = _entity(kind, key)
    if entity and _is_ref(value):
        return names.get(entity, {}).get(value, f"#{value}" if isinstance(value, int) else str(value))
    choices = KIND_CHOICES.get(kind, {}).get(key, CHOICE_LABELS.get(key))
    if choices is not None and isinstance(value, str):
        return str(choices.get(value, value))
    if isinstance(value, list):
        return ", ".join(_value(kind, key, v, names) for v in value)
    return "" if value is None else str(value)


class _Data(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "?"


def sentence(entry: LogEntry, names: dict[str, dict[Any, str]]) -> str:
    """The entry as a sentence in the active language."""
    data = _Data({k: _value(entry.kind, k, v, names) for k, v in (entry.data or {}).items()})
    template = SENTENCES.get(entry.kind)
    if callable(template):
        # Some kinds read differently by their data (a unit joining an army or leaving it).
        template = template(entry.data or {})
    if template is None:
        return entry.kind.replace("_", " ")
    try:
        return str(template) % data
    except (TypeError, ValueError):
        return entry.kind.replace("_", " ")


def log_lines(*, campaign: Campaign, limit: int = 20) -> list[LogLine]:
    """The latest ``limit`` entries, newest first, as sentences."""
    entries = list(LogEntry.objects.filter(campaign=campaign).select_related("actor").order_by("-id")[:limit])
    names = entry_names(campaign, entries)
    return [
        LogLine(
            id=e.pk,
            turn=e.turn,
            created_at=e.created_at,
            kind=e.kind,
            rule=e.rule,
            sentence=sentence(e, names),
            reason=e.reason,
            actor=e.actor.get_username() if e.actor else "",
        )
        for e in entries
    ]
