"""The API's exception handler: every 4xx in the one error shape (docs/errors.md).

Services raise the family of ``campaign.errors``; DRF's own errors (validation, authentication, permission,
404, 405, a body it cannot parse, throttling) are answered in the same shape, with DRF's status and headers
and a code of their own.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from campaign.errors import ServiceError

DRF_CODES = {"permission_denied": "forbidden"}  # DRF's 403 has the service errors' word


def flat_errors(data: Any, path: str = "") -> dict[str, list[str]]:
    """DRF's field errors as ``{path: [sentence]}``: a list field's or a nested serializer's errors, which DRF
    nests (``{"lost_units": {"0": ["…"]}}``), under the path the engine would name (``lost_units[0]``,
    ``action.path[0]``)."""
    if isinstance(data, dict):
        flat: dict[str, list[str]] = {}
        for key, value in data.items():
            key = str(key)
            sub = f"{path}[{key}]" if key.isdigit() and path else (f"{path}.{key}" if path else key)
            flat.update(flat_errors(value, sub))
        return flat
    if isinstance(data, list) and data and all(isinstance(item, str) for item in data):
        return {path or "non_field_errors": [str(item) for item in data]}
    if isinstance(data, list):
        flat = {}
        for index, item in enumerate(data):
            if item:  # DRF puts an empty entry for a list item without errors
                flat.update(flat_errors(item, f"{path}[{index}]" if path else f"[{index}]"))
        return flat
    return {path or "non_field_errors": [str(data)]}


def _drf_body(exc: exceptions.APIException, status_code: int, data: Any) -> dict[str, Any]:
    if isinstance(exc, exceptions.ValidationError):
        errors = flat_errors(data if isinstance(data, dict) else {"non_field_errors": data})
        first = next(iter(errors.values()), [""])
        detail = first[0] if isinstance(first, list) and first else first
        return {"status": status_code, "code": "invalid", "detail": str(detail), "errors": errors}
    code = exc.default_code if isinstance(exc.default_code, str) else "error"
    detail = data.get("detail", exc.detail) if isinstance(data, dict) else exc.detail
    return {"status": status_code, "code": DRF_CODES.get(code, code), "detail": str(detail)}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Answer a service error with its status and body, DRF's errors in the same shape; ``None`` (a 500) else."""
    if isinstance(exc, ServiceError):
        return Response(exc.as_dict(), status=exc.status)
    if isinstance(exc, DjangoValidationError):
        errors = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        return Response({"status": status.HTTP_400_BAD_REQUEST, "code": "invalid", "detail": "; ".join(exc.messages),
                         "errors": errors}, status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is not None:
        drf_exc = exc if isinstance(exc, exceptions.APIException) else _as_api_exception(exc)
        response.data = _drf_body(drf_exc, response.status_code, response.data)
    return response


def _as_api_exception(exc: Exception) -> exceptions.APIException:
    """Django's ``Http404`` and ``PermissionDenied``, which DRF's handler answers as its own."""
    if isinstance(exc, Http404):
        return exceptions.NotFound()
    if isinstance(exc, PermissionDenied):
        return exceptions.PermissionDenied()
    return exceptions.APIException()
