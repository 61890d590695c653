"""Text the site writes for other programs, escaped in one place: BBCode for forums, CSV for spreadsheets.

Every BBCode writer (the rosters, the audit log, the battle report) passes each piece of free text (a name,
a reason, a province) through ``bbcode_text``; every CSV writer writes its rows with ``csv_text``, which
passes each cell through ``csv_cell``. The campaign app is the bottom of the apps: every app may import this.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

# Square brackets open and close BBCode tags; their full-width look-alikes read the same and open nothing.
BBCODE_LOOKALIKES = str.maketrans({"[": "\uff3b", "]": "\uff3d"})

# A spreadsheet reads a cell starting with one of these as a formula (OWASP, "CSV Injection").
CSV_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def bbcode_text(value: object) -> str:
    """``value`` as plain text in BBCode: each ``[`` and ``]`` a look-alike, so no tag opens or closes."""
    return str(value).translate(BBCODE_LOOKALIKES)


def csv_cell(value: object) -> object:
    """``value`` as one CSV cell: text a spreadsheet would take for a formula gets a leading single quote.

    Numbers stay numbers (a negative turn is no formula); ``None`` is an empty cell.
    """
    if value is None:
        return ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    text = str(value)
    return "'" + text if text.startswith(CSV_FORMULA_STARTS) else text


def csv_text(rows: Iterable[Iterable[object]]) -> str:
    """The rows as CSV text (the header is a row like any other), every cell through ``csv_cell``."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in rows:
        writer.writerow([csv_cell(value) for value in row])
    return out.getvalue()
