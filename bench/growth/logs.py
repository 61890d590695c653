"""A campaign whose audit log grows: a battle played through the service, then turns bulk-copied from it.

One battle of ``versions`` versions is played through ``battle_action_apply`` (the moves of the tactical
bench: forward and back, so it never ends); it is the replay battle. A turn of the log is then
``ENTRIES_PER_TURN`` campaign log entries and one battle whose log is the first ``EVENTS_PER_TURN`` versions
of that battle, copied in SQL with the turn's timestamps, the two interleaved in time. A log grows by turns,
so what one turn (or one battle) holds is the same in a short log and a long one.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

ENTRIES_PER_TURN = 1000
EVENTS_PER_TURN = 1000
# After the played battle (made now): the copied turns follow it.
START = datetime.now(UTC).replace(microsecond=0) + timedelta(days=1)


def played_battle(versions: int) -> tuple[Any, Any]:
    """The world of the tests (campaign ``limes``) and one live battle played to ``versions`` versions."""
    from bench.tactical.common import world_and_battles
    from bench.tactical.moves import Player
    from tactical.services import play as services

    world, [battle] = world_and_battles(1, turn_seconds=24 * 3600)
    users = {"attacker": world.east_general, "defender": world.west_leader}
    plan = Player(battle, {"attacker": "", "defender": ""}, baseline=False).plan
    battle.refresh_from_db()
    while battle.version < versions:
        side, _url, body = next(plan)
        services.battle_action_apply(actor=users[side], battle_id=battle.pk, action=body["action"],
                                     action_id=body["id"])
        battle.refresh_from_db(fields=["version"])
    battle.refresh_from_db()
    return world, battle


def battle_copy(template: Any, *, turn: int, versions: int, at: datetime) -> Any:
    """A new battle record and live battle whose log is the template's first ``versions`` versions, the
    first at ``at`` and one every 2 s (PostgreSQL: the log is copied with INSERT ... SELECT)."""
    from django.db import connection

    from strategic.models import Battle
    from tactical.models import BattleEvent, LiveBattle

    record = template.record
    copy = Battle.objects.create(
        campaign=record.campaign, turn=turn, province=record.province, origin=record.origin,
        terrain=record.terrain, attacker_army=record.attacker_army, attacker_faction=record.attacker_faction,
        defender_faction=record.defender_faction, status=Battle.Status.TACTICAL, created_at=at,
    )
    fields = {f.attname: getattr(template, f.attname) for f in LiveBattle._meta.concrete_fields
              if f.attname not in ("record_id", "created_at", "version")}
    live = LiveBattle.objects.create(record=copy, created_at=at, version=versions, **fields)
    table = BattleEvent._meta.db_table
    columns = "version, kind, actor_id, commander_id, action_id, action, events, rolls_before, dice"
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (battle_id, created_at, {columns}) "
            f"SELECT %s, %s::timestamptz + version * interval '2 seconds', {columns} FROM {table} "
            "WHERE battle_id = %s AND version <= %s",
            [live.pk, at, template.pk, versions],
        )
    return live


def log_turns(world: Any, template: Any, first: int, last: int) -> list[Any]:
    """Turns ``first``..``last`` of the log: each ENTRIES_PER_TURN entries and one copied battle; the
    battles made, in turn order."""
    from campaign.models import LogEntry

    campaign = world.campaign
    actors = [world.east_general, world.west_leader, world.east_leader, world.moderator]
    armies = [world.east_army, world.west_army, world.goth_army, world.armenian_army]
    provinces = [world.dacia, world.dalmatia, world.moesia, world.thracia]
    units = list(world.east_army.units.values_list("pk", flat=True))
    battles = []
    for turn in range(first, last + 1):
        at = START + timedelta(days=turn)
        live = battle_copy(template, turn=turn, versions=EVENTS_PER_TURN, at=at)
        battles.append(live)
        entries = []
        for n in range(ENTRIES_PER_TURN):
            # Between the battle's versions (every 2 s from +2 s): one entry a second, odd seconds.
            when = at + timedelta(seconds=2 * n + 1)
            if n % 10 == 0:
                entries.append(LogEntry(campaign=campaign, turn=turn, created_at=when, kind="battle_started",
                                        actor=world.moderator, rule="T1", data={"battle": live.pk}))
            elif n % 10 == 5:
                entries.append(LogEntry(campaign=campaign, turn=turn, created_at=when, kind="unit_corrected",
                                        actor=world.moderator, rule="M1", reason="Bench correction",
                                        data={"unit": units[n % len(units)], "before": {}, "after": {}}))
            else:
                army, origin, to = armies[n % 4], provinces[n % 4], provinces[(n + 1) % 4]
                entries.append(LogEntry(
                    campaign=campaign, turn=turn, created_at=when, kind="army_moved", rule="S5",
                    actor=actors[n % len(actors)],
                    data={"army": army.pk, "faction": army.faction_id, "from": origin.code, "to": to.code,
                          "border": "normal"},
                ))
        LogEntry.objects.bulk_create(entries, batch_size=2000)
    return battles


def analyze() -> None:
    """Planner statistics, as autovacuum would give a live database."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def log_size(campaign: Any) -> tuple[int, int]:
    """(campaign log entries, battle events) of the campaign."""
    from campaign.models import LogEntry
    from tactical.models import BattleEvent

    return (LogEntry.objects.filter(campaign=campaign).count(),
            BattleEvent.objects.filter(battle__campaign=campaign).count())
