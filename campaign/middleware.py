"""Text a client sends that the database cannot store, or that would read otherwise than it is stored, is
refused before any view sees it.

PostgreSQL stores no NUL character in text, and a direction override (U+202A–U+202E, U+2066–U+2069) makes a
name show as another on the page and on the forum; a form field or query parameter holding one is answered 400
naming the field (in the API's one error shape under ``/api/``, as a page elsewhere), so that no view or
service that reads a value by hand can meet it. JSON bodies are checked by the one JSON reader
(``campaign.parsers``)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from campaign.errors import Invalid
from campaign.messages import BIDI_TEXT, UNSTORABLE_TEXT
from campaign.parsers import BIDI_CONTROLS

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _refused(request: HttpRequest) -> Invalid | None:
    """The refusal of the first query parameter or form field whose name or value holds a NUL or a direction
    override, or ``None``."""
    sources = [request.GET]
    if request.method == "POST" and request.content_type in FORM_TYPES:
        sources.append(request.POST)
    for values in sources:
        for name, items in values.lists():
            texts = [name, *items]
            if any("\x00" in text for text in texts):
                message = UNSTORABLE_TEXT
            elif any(not text.isascii() and BIDI_CONTROLS.search(text) for text in texts):
                message = BIDI_TEXT
            else:
                continue
            field = BIDI_CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", name.replace("\x00", "\\u0000"))
            return Invalid(message, params={"field": field}, field=field)
    return None


class RefuseUnstorableText:
    """400 for a NUL or a direction override in a query parameter or a form field, naming the field."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        error = _refused(request)
        if error is None:
            return self.get_response(request)
        if request.path.startswith("/api/"):
            return JsonResponse(error.as_dict(), status=error.status)
        return render(request, "400.html", {"error": error}, status=error.status)
