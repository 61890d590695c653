"""M3 in the admin: battle events and campaign log entries are shown, never added, changed or deleted."""

from __future__ import annotations

from typing import Any

from django.test import Client

from tactical.models import BattleEvent, LiveBattle
from tests.factories import UserFactory


def _admin() -> Client:
    client = Client()
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


def test_a_battle_event_is_shown_read_only(live: LiveBattle) -> None:
    row = BattleEvent.objects.get(battle=live, version=1)
    page = _admin().get(f"/admin/tactical/battleevent/{row.pk}/change/")
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()


def test_a_battle_event_cannot_be_deleted_in_the_admin(live: LiveBattle) -> None:
    row = BattleEvent.objects.get(battle=live, version=1)
    assert _admin().post(f"/admin/tactical/battleevent/{row.pk}/delete/", {"post": "yes"}).status_code == 403
    assert BattleEvent.objects.filter(pk=row.pk).exists()


def test_no_battle_event_is_added_in_the_admin(world: Any) -> None:
    assert _admin().get("/admin/tactical/battleevent/add/").status_code == 403
