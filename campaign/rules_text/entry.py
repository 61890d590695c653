"""One entry of the rules reference."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise


@dataclass(frozen=True)
class RuleEntry:
    """One rule: its id (``T6.1``), its section letter, its title and its text."""

    id: str
    section: str
    title: Promise
    text: Promise

    @property
    def parent(self) -> str | None:
        """The rule this one is a part of (``T6`` for ``T6.1``), or None."""
        return self.id.split(".")[0] if "." in self.id else None
