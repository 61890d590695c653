"""Names in both languages inside a notice's params: the reader's language picks one when it is shown."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language


def both(obj: Any) -> dict[str, str]:
    """A bilingual object's name (``name_en``, ``name_ru``) as a notice's param."""
    return {"en": obj.name_en, "ru": obj.name_ru or obj.name_en}


def pick(value: Any) -> Any:
    """A param in the active language when it holds both names; any other value as it is."""
    if isinstance(value, dict) and "en" in value:
        language = (get_language() or "en").split("-")[0]
        return value.get(language) or value["en"]
    return value
