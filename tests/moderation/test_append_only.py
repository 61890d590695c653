"""M3: entries of the campaign log and of a battle's log can never be changed or deleted (PostgreSQL)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction
from django.test import Client

from campaign.errors import Forbidden
from campaign.models import Campaign, LogEntry
from campaign.services import log_append
from moderation.services.purge import battle_purge, campaign_purge
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
            cursor.execute("SELECT set_config('limes.purge', %s, true)", [f"battle:{live.pk}"])
        raise DatabaseError("stop")
    message = _refused("DELETE FROM tactical_battleevent WHERE battle_id = %s", [live.pk])
    assert "M3: tactical_battleevent is append-only: an entry cannot be deleted" in message


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


# Hardening: TRUNCATE, and the purge setting beyond a whole campaign or battle (migration 0004). Tests that
# commit are transactions of their own: in autocommit, as a real session (a TRUNCATE inside the test's
# transaction would meet its pending foreign-key checks first), and a deferred check runs at a real COMMIT.

committing = pytest.mark.django_db(transaction=True)

TRUNCATES = [
    # Without CASCADE the tables that reference a log must be named too, else their foreign keys refuse first.
    ("TRUNCATE campaign_logentry, moderation_dispute, moderation_interceptionruling", "campaign_logentry"),
    ("TRUNCATE campaign_logentry CASCADE", "campaign_logentry"),
    ("TRUNCATE tactical_battleevent, moderation_dispute", "tactical_battleevent"),
    ("TRUNCATE tactical_battleevent CASCADE", "tactical_battleevent"),
    ("TRUNCATE tactical_livebattle CASCADE", "tactical_battleevent"),  # cascades to the battle's log
]


def _counts() -> tuple[int, int]:
    return LogEntry.objects.count(), BattleEvent.objects.count()


@committing
@pytest.mark.parametrize(("sql", "table"), TRUNCATES)
def test_a_log_cannot_be_truncated(world: Any, live: LiveBattle, sql: str, table: str) -> None:
    log_append(campaign=world.campaign, kind="settings_changed", actor=world.moderator)
    before = _counts()
    assert _refused(sql, []).startswith(f"M3: {table} is append-only: it cannot be truncated")
    assert _counts() == before


@committing
def test_truncating_the_campaigns_cannot_take_the_logs_along(world: Any, live: LiveBattle) -> None:
    before = _counts()
    message = _refused("TRUNCATE campaign_campaign CASCADE", [])
    assert message.startswith("M3: ") and "is append-only: it cannot be truncated" in message
    assert _counts() == before


def _purge_scope(cursor: Any, scope: str) -> None:
    cursor.execute("SELECT set_config('limes.purge', %s, true)", [scope])


def _refused_in_purge(scope: str, sql: str, params: list[Any]) -> str:
    with pytest.raises(DatabaseError) as raised, transaction.atomic(), connection.cursor() as cursor:
        _purge_scope(cursor, scope)
        cursor.execute(sql, params)
    return str(raised.value)


@pytest.mark.parametrize(
    "scope", ["on", "campaign:{other}", "battle:{other}", "campaign:", "battle:{campaign}"]
)
def test_a_purge_of_anything_else_cannot_delete_a_campaign_log_entry(world: Any, scope: str) -> None:
    entry = log_append(campaign=world.campaign, kind="settings_changed", actor=world.moderator)
    scope = scope.format(other=world.campaign.pk + 1, campaign=world.campaign.pk)
    message = _refused_in_purge(scope, "DELETE FROM campaign_logentry WHERE id = %s", [entry.pk])
    assert message.startswith(
        "M3: campaign_logentry is append-only: an entry cannot be deleted"
        f" (limes.purge = '{scope}' is not its campaign or battle)"
    )
    assert LogEntry.objects.filter(pk=entry.pk).exists()


@pytest.mark.parametrize("scope", ["on", "campaign:{other}", "battle:{other}", "battle:"])
def test_a_purge_of_anything_else_cannot_delete_a_battle_event(
    world: Any, live: LiveBattle, scope: str
) -> None:
    scope = scope.format(other=live.pk + 1)
    message = _refused_in_purge(scope, "DELETE FROM tactical_battleevent WHERE battle_id = %s", [live.pk])
    assert message.startswith(
        "M3: tactical_battleevent is append-only: an entry cannot be deleted"
        f" (limes.purge = '{scope}' is not its campaign or battle)"
    )
    assert BattleEvent.objects.filter(battle=live).count() == 7


def test_a_purge_cannot_change_a_campaign_log_entry(world: Any) -> None:
    entry = log_append(campaign=world.campaign, kind="settings_changed", actor=world.moderator, reason="typo")
    message = _refused_in_purge(
        f"campaign:{world.campaign.pk}",
        "UPDATE campaign_logentry SET reason = 'none' WHERE id = %s",
        [entry.pk],
    )
    assert message.startswith("M3: campaign_logentry is append-only: an entry cannot be changed")
    assert LogEntry.objects.get(pk=entry.pk).reason == "typo"


def test_a_purge_cannot_change_a_battle_event(world: Any, live: LiveBattle) -> None:
    message = _refused_in_purge(
        f"battle:{live.pk}", "UPDATE tactical_battleevent SET dice = '[6]' WHERE battle_id = %s", [live.pk]
    )
    assert message.startswith("M3: tactical_battleevent is append-only: an entry cannot be changed")
    assert not BattleEvent.objects.filter(battle=live).exclude(dice=[]).exists()


# At commit: a purge that names the entry's own campaign or battle, which it leaves standing.

def _refused_at_commit(scope: str, sql: str, params: list[Any]) -> str:
    with pytest.raises(DatabaseError) as raised, transaction.atomic():
        with connection.cursor() as cursor:
            _purge_scope(cursor, scope)
            cursor.execute(sql, params)  # let through here: the entry is the purged campaign's or battle's
    return str(raised.value)


@committing
def test_a_purge_of_its_campaign_cannot_delete_a_single_entry(world: Any) -> None:
    entry = log_append(campaign=world.campaign, kind="settings_changed", actor=world.moderator)
    message = _refused_at_commit(
        f"campaign:{world.campaign.pk}", "DELETE FROM campaign_logentry WHERE id = %s", [entry.pk]
    )
    assert message.startswith(
        "M3: campaign_logentry is append-only: an entry cannot be deleted unless its whole campaign is purged"
        " with it"
    )
    assert LogEntry.objects.filter(pk=entry.pk).exists()


@committing
@pytest.mark.parametrize("scope", ["battle", "campaign"])
def test_a_purge_of_its_battle_cannot_delete_a_single_event(world: Any, live: LiveBattle, scope: str) -> None:
    scope_id = live.pk if scope == "battle" else world.campaign.pk
    message = _refused_at_commit(
        f"{scope}:{scope_id}",
        "DELETE FROM tactical_battleevent WHERE battle_id = %s AND version = 7",
        [live.pk],
    )
    assert message.startswith(
        "M3: tactical_battleevent is append-only: an entry cannot be deleted unless its whole battle is"
        " purged with it"
    )
    assert BattleEvent.objects.filter(battle=live).count() == 7


@committing
def test_a_purge_cannot_empty_a_battle_log_and_keep_the_battle(world: Any, live: LiveBattle) -> None:
    sql = "DELETE FROM tactical_battleevent WHERE battle_id = %s"
    message = _refused_at_commit(f"battle:{live.pk}", sql, [live.pk])
    assert "an entry cannot be deleted unless its whole battle is purged with it" in message
    assert BattleEvent.objects.filter(battle=live).count() == 7


@committing
def test_the_purge_of_a_whole_campaign_commits(world: Any, live: LiveBattle) -> None:
    admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    log_append(campaign=world.campaign, kind="settings_changed", actor=world.moderator)
    campaign_purge(actor=admin, campaign=world.campaign)
    assert not Campaign.objects.filter(slug="limes").exists()
    assert (LogEntry.objects.count(), BattleEvent.objects.count()) == (0, 0)


@committing
def test_the_purge_of_a_whole_battle_commits_and_keeps_the_campaign_log(world: Any, live: LiveBattle) -> None:
    admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    entries = LogEntry.objects.filter(campaign=world.campaign).count()
    battle_purge(actor=admin, battle=live.record)
    assert (BattleEvent.objects.count(), LiveBattle.objects.count()) == (0, 0)
    assert LogEntry.objects.filter(campaign=world.campaign).count() == entries


@committing
def test_after_a_purge_the_rest_of_the_transaction_deletes_nothing(world: Any, live: LiveBattle) -> None:
    admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    entry = log_append(campaign=world.campaign, kind="settings_changed", actor=world.moderator)
    with pytest.raises(DatabaseError) as raised, transaction.atomic():
        battle_purge(actor=admin, battle=live.record)
        LogEntry.objects.filter(pk=entry.pk).delete()
    assert "M3: campaign_logentry is append-only: an entry cannot be deleted" in str(raised.value)
    assert LogEntry.objects.filter(pk=entry.pk).exists()
    assert BattleEvent.objects.filter(battle=live).count() == 7
