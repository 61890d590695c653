"""The one reader of the JSON that clients send: the API's request bodies (``JSONParser``, DRF's parser for
``application/json``) and the battle socket's frames (``tactical.consumers``).

Besides malformed text it refuses what the rest of the site cannot take:

- nesting deeper than ``MAX_DEPTH``: Python's json module recurses once per level, and 5,000 brackets (10 KB)
  raised RecursionError, a 500 over HTTP and a dropped socket;
- a lone surrogate (an unpaired ``\\ud800``–``\\udfff`` escape) in a string or a key: it cannot be encoded as
  UTF-8, so an answer that echoes it (the socket's ``pong`` of its ``id``) could not be sent;
- the NUL character (``\\u0000``): PostgreSQL's text and jsonb cannot store it;
- the direction overrides and isolates (U+202A–U+202E, U+2066–U+2069): a name holding them reads otherwise on
  the page, in the exports and on the forum than it is stored (one army's name showing as another's);
- ``NaN`` and ``Infinity``, which are not JSON.

A refused string is named by its field's path (``action.unit``, ``action.path[0]``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError, ValidationError

MAX_DEPTH = 64

TOO_DEEP = _("JSON may be nested at most %(depth)s levels deep.")
LONE_SURROGATE = _("must not contain a lone surrogate (an unpaired \\ud800–\\udfff escape)")
NUL_CHARACTER = _("must not contain the NUL character (\\u0000)")
NOT_A_NUMBER = _("NaN and Infinity are not JSON numbers")
BIDI_CONTROL = _("must not contain a text direction override (U+202A–U+202E, U+2066–U+2069)")

_SURROGATE = re.compile("[\ud800-\udfff]")
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


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
    # Fewer brackets than the limit, no escape and nothing but ASCII: nothing to refuse, without a walk
    # (C-speed scans of the move path's small frames).
    if text.count("[") + text.count("{") <= MAX_DEPTH and "\\" not in text and text.isascii():
        return value
    _check(value)
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(str(NOT_A_NUMBER))


def _check(value: Any) -> None:
    """Walk the value in document order (without recursion): its depth, and every key and string."""
    stack: list[tuple[Any, tuple[str | int, ...], int]] = [(value, (), 0)]
    while stack:
        item, path, depth = stack.pop()
        if path and isinstance(path[-1], str):
            _check_text(path[-1], path)  # its key
        if isinstance(item, str):
            _check_text(item, path)
        elif isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                raise JSONRefused(str(TOO_DEEP % {"depth": MAX_DEPTH}))
            children = list(item.items() if isinstance(item, dict) else enumerate(item))
            stack.extend(((child, (*path, key), depth + 1) for key, child in reversed(children)))


def _check_text(text: str, path: tuple[str | int, ...]) -> None:
    if "\x00" in text:
        raise JSONRefused(str(NUL_CHARACTER), path=field_path(path))
    if not text.isascii():
        if _SURROGATE.search(text):
            raise JSONRefused(str(LONE_SURROGATE), path=field_path(path))
        if BIDI_CONTROLS.search(text):
            raise JSONRefused(str(BIDI_CONTROL), path=field_path(path))


def field_path(path: tuple[str | int, ...]) -> str:
    """``("action", "path", 0)`` → ``action.path[0]``; a key's NUL or lone surrogate written as its escape, so
    that the path itself can be sent back."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            label = part.replace("\x00", "\\u0000").encode("utf-8", "backslashreplace").decode("utf-8")
            text += f".{label}" if text else label
    return text


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser reading through ``read_json``: 400 instead of a 500 for what it refuses.

    A refused string answers 400 naming its field (``errors``: ``{"action.unit": ["…"]}``), the depth 400 naming
    the limit, malformed text 400 as DRF says it.
    """

    def parse(self, stream: IO[bytes], media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            return read_json(stream.read().decode(encoding))
        except JSONRefused as refused:
            if refused.path:
                raise ValidationError({refused.path: [refused.message]}) from None
            raise ParseError(refused.message) from None
        except ValueError as error:  # UnicodeDecodeError among them
            raise ParseError(f"JSON parse error - {error}") from None
