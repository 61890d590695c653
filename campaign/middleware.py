"""Text a client sends that the database cannot store is refused before any view sees it.

PostgreSQL stores no NUL character in text; a form field or query parameter holding one is answered 400
naming the field (in the API's one error shape under ``/api/``, as a page elsewhere), so that no view or
service that reads a value by hand can meet it. JSON bodies are checked by the one JSON reader
(``campaign.parsers``)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from campaign.errors import Invalid
from campaign.messages import UNSTORABLE_TEXT

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _unstorable(request: HttpRequest) -> str | None:
    """The name of the first query parameter or form field whose name or value holds a NUL, or ``None``."""
    sources = [request.GET]
    if request.method == "POST" and request.content_type in FORM_TYPES:
        sources.append(request.POST)
    for values in sources:
        for name, items in values.lists():
            if "\x00" in name or any("\x00" in item for item in items):
                return name.replace("\x00", "\\u0000")
    return None


class RefuseUnstorableText:
    """400 for a NUL in a query parameter or a form field, naming the field."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        field = _unstorable(request)
        if field is None:
            return self.get_response(request)
        error = Invalid(UNSTORABLE_TEXT, params={"field": field}, field=field)
        if request.path.startswith("/api/"):
            return JsonResponse(error.as_dict(), status=error.status)
        return render(request, "400.html", {"error": error}, status=error.status)
