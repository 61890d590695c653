"""Typed readers of JSON scenario fields, shared by the ``retreat`` and ``quick`` commands.

Each reader raises ``InvalidAction`` naming the full path of the offending field
(``army.units[2].health``), so that the command line can print one line a moderator understands.
"""

from __future__ import annotations

from typing import Any

from combat.errors import InvalidAction

_MISSING: Any = object()


def path_of(parent: str, key: str | int) -> str:
    """The path of ``key`` inside the field ``parent``."""
    if isinstance(key, int):
        return f"{parent}[{key}]"
    return f"{parent}.{key}" if parent else key


def obj(data: Any, path: str) -> dict[str, Any]:
    """``data`` as a JSON object."""
    if not isinstance(data, dict):
        raise InvalidAction(path, "must be an object")
    return data


def field(data: dict[str, Any], key: str, parent: str, default: Any = _MISSING) -> Any:
    """The raw value of ``key``; required unless a default is given."""
    if key not in data:
        if default is _MISSING:
            raise InvalidAction(path_of(parent, key), "is required")
        return default
    return data[key]


def string(data: dict[str, Any], key: str, parent: str, default: Any = _MISSING) -> Any:
    """A non-empty string field (or the default)."""
    value = field(data, key, parent, default)
    if value is default and default is not _MISSING:
        return value
    if not isinstance(value, str) or not value:
        raise InvalidAction(path_of(parent, key), "must be a non-empty string")
    return value


def integer(data: dict[str, Any], key: str, parent: str, default: Any = _MISSING) -> int:
    """An integer field (booleans refused)."""
    value = field(data, key, parent, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAction(path_of(parent, key), "must be an integer")
    return value


def number(data: dict[str, Any], key: str, parent: str, default: Any = _MISSING) -> float:
    """A number field (integer or decimal)."""
    value = field(data, key, parent, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidAction(path_of(parent, key), "must be a number")
    return float(value)


def boolean(data: dict[str, Any], key: str, parent: str, default: bool = False) -> bool:
    """A true/false field, false when absent."""
    value = field(data, key, parent, default)
    if not isinstance(value, bool):
        raise InvalidAction(path_of(parent, key), "must be true or false")
    return value


def array(data: dict[str, Any], key: str, parent: str, default: Any = _MISSING) -> list[Any]:
    """A list field."""
    value = field(data, key, parent, default)
    if not isinstance(value, list):
        raise InvalidAction(path_of(parent, key), "must be a list")
    return value


def strings(data: dict[str, Any], key: str, parent: str) -> tuple[str, ...]:
    """A list of non-empty strings, empty when absent."""
    items = array(data, key, parent, [])
    for i, item in enumerate(items):
        if not isinstance(item, str) or not item:
            raise InvalidAction(path_of(path_of(parent, key), i), "must be a non-empty string")
    return tuple(items)
