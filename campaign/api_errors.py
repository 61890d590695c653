"""The API's exception handler: service errors and DRF errors in one JSON shape."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from campaign.errors import ServiceError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Answer ``ServiceError`` with its status and body; field errors of DRF as ``{"detail", "errors"}``."""
    if isinstance(exc, ServiceError):
        return Response(exc.as_dict(), status=exc.status)
    if isinstance(exc, DjangoValidationError):
        errors = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        return Response({"detail": "; ".join(exc.messages), "errors": errors}, status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(exc, exceptions.ValidationError):
        errors = response.data if isinstance(response.data, dict) else {"non_field_errors": response.data}
        first = next(iter(errors.values()), [""])
        detail = first[0] if isinstance(first, list) and first else str(first)
        response.data = {"detail": str(detail), "errors": errors}
    return response
