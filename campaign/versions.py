"""Optimistic versions of what a moderator edits in a form: a second moderator's stale form is refused (409).

A row's version is a short digest of every stored value of the row, so no column is needed: the form carries
the version of the row as it was drawn, and the service, holding the row under ``select_for_update``,
refuses the change when the row's version is no longer that one. A change and its undoing in between give
back the same version, and then nothing was overwritten that the form did not show.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.db import models

from campaign.errors import Conflict
from campaign.messages import EDITED_MEANWHILE


def row_version(row: models.Model) -> str:
    """The version of a row as stored: 16 hex digits of a digest of all its column values."""
    values = {f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields}
    text = json.dumps(values, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def require_version(row: models.Model, expected: Any) -> None:
    """409 when ``expected`` (the version a form was drawn from) is given and the locked row has changed."""
    if expected in (None, ""):
        return
    if str(expected) != row_version(row):
        raise Conflict(EDITED_MEANWHILE, field="version")
