"""The one reader of the JSON that clients send: the API's request bodies (``JSONParser``, DRF's parser for
``application/json``) and the battle socket's frames (``tactical.consumers``).

Besides malformed text it refuses what the rest of the site cannot take:

- nesting deeper than ``MAX_DEPTH``: Python's json module recurses once per level, and 5,000 brackets (10 KB)
  raised RecursionError, a 500 over HTTP and a dropped socket;
- ``NaN`` and ``Infinity``, which are not JSON.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 64

TOO_DEEP = _("JSON may be nested at most %(depth)s levels deep.")
NOT_A_NUMBER = _("NaN and Infinity are not JSON numbers")


class JSONRefused(Exception):
    """Well-formed JSON that the site does not take; ``path`` names the field ("" when none is to blame)."""

    def __init__(self, message: str, *, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.path = path


def read_json(text: str) -> Any:
    """The value of ``text``; ``ValueError`` when it is not JSON, ``JSONRefused`` beyond the limits above."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:  # deeper than the interpreter goes, far beyond MAX_DEPTH
        raise JSONRefused(str(TOO_DEEP % {"depth": MAX_DEPTH})) from None
    # Fewer brackets than the limit: nothing to refuse, without a walk (C-speed scans of the move path's
    # small frames).
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return value
    _check(value)
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(str(NOT_A_NUMBER))


def _check(value: Any) -> None:
    """Walk the value (without recursion) for its depth."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                raise JSONRefused(str(TOO_DEEP % {"depth": MAX_DEPTH}))
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser reading through ``read_json``: 400 instead of a 500 for what it refuses.

    The depth answers 400 naming the limit, malformed text 400 as DRF says it.
    """

    def parse(self, stream: IO[bytes], media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            return read_json(stream.read().decode(encoding))
        except JSONRefused as refused:
            raise ParseError(refused.message) from None
        except ValueError as error:  # UnicodeDecodeError among them
            raise ParseError(f"JSON parse error - {error}") from None
