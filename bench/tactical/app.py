"""The ASGI application the bench's server serves: the project plus the bench-only baseline endpoint."""

from __future__ import annotations

import os
import sys
from typing import Any

from bench.tactical.common import use_layer

_app: Any = None


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The project's ASGI app with ``/bench/baseline/<battle>/`` added (bench processes only)."""
    global _app
    if _app is None:
        _app = _build_app()
    await _app(scope, receive, send)


def _build_app() -> Any:
    import types

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings

    from config.asgi import application as project

    use_layer(settings)
    from django.db import transaction
    from django.urls import include, path
    from rest_framework.permissions import IsAuthenticated
    from rest_framework.response import Response
    from rest_framework.views import APIView

    from tactical.models import LiveBattle

    class Baseline(APIView):
        """Lock one row and update it: the floor under any write that locks a battle."""

        permission_classes = (IsAuthenticated,)

        def post(self, request: Any, pk: int) -> Response:
            with transaction.atomic():
                row = LiveBattle.objects.select_for_update(of=("self",)).only("pk", "turn_key").get(pk=pk)
                LiveBattle.objects.filter(pk=row.pk).update(turn_key=row.turn_key)
            return Response({"ok": True})

    module = types.ModuleType("tactical_bench_urls")
    module.urlpatterns = [  # type: ignore[attr-defined]
        path("bench/baseline/<int:pk>/", Baseline.as_view()),
        path("", include("config.urls")),
    ]
    sys.modules["tactical_bench_urls"] = module
    settings.ROOT_URLCONF = "tactical_bench_urls"
    return project
