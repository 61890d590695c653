"""Filters of the server log (``LOGGING`` in settings)."""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied
from django.http import Http404

from campaign.errors import ServiceError

ORDINARY = (PermissionDenied, Http404, ServiceError)
"""Refusals the app means to give (403, 404, a refusal of a service): answers, not faults."""


class QuietRefusals(logging.Filter):
    """Log an ordinary refusal as its one line ("Forbidden (Permission denied): /c/limes/console/"), not with a
    traceback: a full stack for every 403 buried the real faults of the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep the record; drop its traceback when the exception is an ordinary refusal."""
        if record.exc_info and isinstance(record.exc_info[1], ORDINARY):
            record.exc_info = None
            record.exc_text = None
        return True
