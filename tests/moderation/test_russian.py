"""The moderation pages speak Russian when asked to."""

from __future__ import annotations

from typing import Any

from django.test import Client

from tactical.models import LiveBattle
from tests.moderation.builders import end


def test_the_audit_log_in_russian(live: LiveBattle) -> None:
    page = Client().get("/c/limes/log/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "<h1>Журнал событий</h1>" in page
    assert "Сторона «нападающая» готова." in page


def test_the_dice_page_in_russian(world: Any, fought: LiveBattle) -> None:
    end(fought, world)
    page = Client().get(f"/c/limes/battles/{fought.pk}/dice/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "все броски проверены" in page
    assert "совпадает" in page


def test_a_refusal_in_russian(world: Any, live: LiveBattle) -> None:
    client = Client()
    client.force_login(world.moderator)
    response = client.post(
        f"/c/limes/battles/{live.pk}/console/end/",
        {"winner": "defender", "reason": ""},
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    assert "Укажите причину: она записывается в журнал, который читает каждый участник (M1)." in (
        response.content.decode()
    )
