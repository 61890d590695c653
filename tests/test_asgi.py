"""The ASGI app's HTTP side: the whole middleware chain and the view in one hop (config/asgi.py)."""

from __future__ import annotations

import gc
import json
from typing import Any

import pytest
from asgiref.sync import SyncToAsync
from channels.testing import HttpCommunicator

from config import gc_tuning
from config.asgi import application, django_asgi_app


async def _get(path: str, headers: list[tuple[bytes, bytes]] | None = None) -> dict[str, Any]:
    headers = [(b"host", b"localhost"), *(headers or [])]
    return await HttpCommunicator(application, "GET", path, headers=headers).get_response(timeout=10)


def test_the_middleware_chain_and_the_view_are_one_call_to_the_requests_thread() -> None:
    assert isinstance(django_asgi_app._middleware_chain, SyncToAsync)


def test_the_server_process_keeps_the_loaded_app_out_of_the_collectors_walks() -> None:
    assert (gc.get_threshold()[0], gc.get_freeze_count() > 10_000) == (gc_tuning.FIRST_THRESHOLD, True)


@pytest.mark.django_db(transaction=True)
async def test_pages_and_api_errors_come_through_the_one_hop_chain() -> None:
    page = await _get("/", [(b"accept-language", b"ru")])
    assert (page["status"], dict(page["headers"])[b"Content-Language"]) == (200, b"ru")
    missing = await _get("/api/tactical/battles/999999/", [(b"accept-language", b"en")])
    assert (missing["status"], json.loads(missing["body"])) == (
        404, {"status": 404, "code": "not_found", "detail": "There is no such battle."})
