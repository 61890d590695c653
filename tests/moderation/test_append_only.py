"""M3: entries of the campaign log and of a battle's log can never be changed or deleted (PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction
from django.test import Client

from campaign.errors import Forbidden
from campaign.models import Campaign, LogEntry
from campaign.services import log_append
from moderation.services.purge import campaign_purge
from tactical.models import BattleEvent, LiveBattle
from tests.factories import UserFactory

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


def test_a_single_entry_cannot_be_deleted_even_by_the_orm(live: LiveBattle) -> None:
    with pytest.raises(DatabaseError), transaction.atomic():
        BattleEvent.objects.filter(battle=live, version=1).delete()
    assert BattleEvent.objects.filter(battle=live, version=1).exists()


def test_an_administrator_purges_a_whole_campaign_with_its_logs(world: Any, live: LiveBattle) -> None:
    admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    log_append(campaign=world.campaign, kind="settings_changed", actor=world.moderator)
    campaign_purge(actor=admin, campaign=world.campaign)
    assert not Campaign.objects.filter(slug="limes").exists()
    assert (LogEntry.objects.count(), BattleEvent.objects.count(), LiveBattle.objects.count()) == (0, 0, 0)


def test_the_purge_is_only_for_the_transaction_that_asked_for_it(world: Any, live: LiveBattle) -> None:
    with pytest.raises(DatabaseError), transaction.atomic():  # a purge that fails half-way undoes itself
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL limes.purge = 'on'")
        raise DatabaseError("stop")
    message = _refused("DELETE FROM tactical_battleevent WHERE battle_id = %s", [live.pk])
    assert "an entry cannot be deleted" in message


@pytest.mark.parametrize("role", ["moderator", "east_general"])
def test_nobody_but_an_administrator_purges(world: Any, live: LiveBattle, role: str) -> None:
    with pytest.raises(Forbidden):
        campaign_purge(actor=getattr(world, role), campaign=world.campaign)
    assert Campaign.objects.filter(slug="limes").exists()


def test_an_administrator_purges_one_battle_in_the_admin(world: Any, live: LiveBattle) -> None:
    admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    client = Client()
    client.force_login(admin)
    response = client.post(f"/admin/strategic/battle/{live.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not BattleEvent.objects.filter(battle_id=live.pk).exists()
    assert Campaign.objects.filter(slug="limes").exists()


def test_an_administrator_purges_a_campaign_in_the_admin(world: Any, live: LiveBattle) -> None:
    admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    client = Client()
    client.force_login(admin)
    response = client.post(f"/admin/campaign/campaign/{world.campaign.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert (Campaign.objects.filter(slug="limes").exists(), BattleEvent.objects.count()) == (False, 0)
