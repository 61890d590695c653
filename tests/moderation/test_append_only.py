"""M3: entries of the campaign log and of a battle's log can never be changed or deleted (PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction

from campaign.models import LogEntry
from campaign.services import log_append
from tactical.models import BattleEvent, LiveBattle

pytestmark = pytest.mark.postgres


def _refused(sql: str, params: list[Any]) -> str:
    with pytest.raises(DatabaseError) as raised, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)
    return str(raised.value)


def test_a_campaign_log_entry_cannot_be_updated(world: Any) -> None:
    entry = log_append(campaign=world.campaign, kind="settings_changed", actor=world.moderator, reason="typo")
    message = _refused("UPDATE campaign_logentry SET reason = 'nothing happened' WHERE id = %s", [entry.pk])
    assert "M3: campaign_logentry is append-only: an entry cannot be changed" in message
    assert LogEntry.objects.get(pk=entry.pk).reason == "typo"


def test_a_campaign_log_entry_cannot_be_deleted(world: Any) -> None:
    entry = log_append(campaign=world.campaign, kind="settings_changed", actor=world.moderator)
    message = _refused("DELETE FROM campaign_logentry WHERE id = %s", [entry.pk])
    assert "M3: campaign_logentry is append-only: an entry cannot be deleted" in message
    assert LogEntry.objects.filter(pk=entry.pk).exists()


def test_the_orm_cannot_change_an_entry_either(world: Any) -> None:
    entry = log_append(campaign=world.campaign, kind="settings_changed", actor=world.moderator)
    with pytest.raises(DatabaseError), transaction.atomic():
        LogEntry.objects.filter(pk=entry.pk).update(kind="campaign_created")
    assert LogEntry.objects.get(pk=entry.pk).kind == "settings_changed"


def test_a_battle_event_cannot_be_updated(live: LiveBattle) -> None:
    row = BattleEvent.objects.get(battle=live, version=1)
    message = _refused("UPDATE tactical_battleevent SET dice = '[6]' WHERE id = %s", [row.pk])
    assert "M3: tactical_battleevent is append-only: an entry cannot be changed" in message
    assert BattleEvent.objects.get(pk=row.pk).dice == []


def test_a_battle_event_cannot_be_deleted(live: LiveBattle) -> None:
    count = BattleEvent.objects.filter(battle=live).count()
    message = _refused("DELETE FROM tactical_battleevent WHERE battle_id = %s", [live.pk])
    assert "M3: tactical_battleevent is append-only: an entry cannot be deleted" in message
    assert BattleEvent.objects.filter(battle=live).count() == count


def test_a_deleted_user_leaves_his_entries_with_no_name(world: Any) -> None:
    entry = log_append(campaign=world.campaign, kind="settings_changed", actor=world.observer, reason="kept")
    world.observer.delete()  # ON DELETE SET NULL is the one change the trigger lets through
    assert LogEntry.objects.filter(pk=entry.pk).values_list("actor_id", "reason").get() == (None, "kept")


def test_the_actor_of_an_entry_cannot_be_replaced(world: Any) -> None:
    entry = log_append(campaign=world.campaign, kind="settings_changed", actor=world.observer)
    _refused("UPDATE campaign_logentry SET actor_id = %s WHERE id = %s", [world.moderator.pk, entry.pk])
    assert LogEntry.objects.get(pk=entry.pk).actor_id == world.observer.pk
