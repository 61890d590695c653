"""The project's ASGI app as the socket benchmarks serve it: each commit of a battle version is marked.

With ``SOCKETS_BENCH_MARKS`` set, every version the journal pushes appends ``battle version time`` to that
file at its commit (before the push is sent), so the bench can measure commit → the last socket.
"""

from __future__ import annotations

import os
import time
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from config.asgi import application as project  # noqa: E402


def _mark_commits(path: str) -> None:
    from django.db import transaction

    from tactical.services import journal

    marks = open(path, "a", buffering=1)  # noqa: SIM115 - open for the process's life
    original = journal.send_on_commit

    def marked(groups: list[str], message: dict[str, Any], state_json: str | None = None, **meta: Any) -> None:
        battle, version = message.get("battle"), meta.get("version")
        transaction.on_commit(lambda: marks.write(f"{battle} {version} {time.time():.6f}\n"))  # runs first
        original(groups, message, state_json, **meta)

    journal.send_on_commit = marked  # type: ignore[assignment]


if os.environ.get("SOCKETS_BENCH_MARKS"):
    _mark_commits(os.environ["SOCKETS_BENCH_MARKS"])

application = project
