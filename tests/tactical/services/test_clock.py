"""The turn clock (T6.1): the timer task, the sweep, requests after the deadline, the race with a move."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.db import connection
from django.utils import timezone

from campaign.errors import Conflict
from tactical import tasks
from tactical.models import BattleEvent, LiveBattle
from tactical.services import clock
from tactical.services import play as services
from tests.tactical.builders import act, march_into_contact, units_of


def _overdue(battle: LiveBattle, seconds: float = 1) -> None:
    LiveBattle.objects.filter(pk=battle.pk).update(deadline=timezone.now() - timedelta(seconds=seconds))


def _timeouts(battle: LiveBattle) -> list[BattleEvent]:
    return list(BattleEvent.objects.filter(battle=battle, kind="timeout"))


def test_the_timer_task_ends_an_overdue_turn_with_the_engines_end_turn(live: LiveBattle) -> None:
    _overdue(live)
    assert tasks.battle_turn_timeout(live.pk, "1:attacker") is True
    live.refresh_from_db()
    (row,) = _timeouts(live)
    assert (row.action, [e["type"] for e in row.events], live.state["side"], live.turn_key) == (
        {"do": "end_turn", "side": "attacker"}, ["turn_timed_out", "turn_ended", "turn_started"], "defender",
        "1:defender")


def test_the_timer_task_run_twice_ends_the_turn_once(live: LiveBattle) -> None:
    _overdue(live)
    assert [tasks.battle_turn_timeout(live.pk, "1:attacker") for _ in range(2)] == [True, False]
    assert len(_timeouts(live)) == 1


def test_the_timer_task_of_a_turn_already_ended_does_nothing(world: Any, live: LiveBattle) -> None:
    act(live, world.east_general, {"do": "end_turn"})
    _overdue(live)  # the defender's turn is overdue too, but it is not the timer's turn
    assert tasks.battle_turn_timeout(live.pk, "1:attacker") is False
    live.refresh_from_db()
    assert (live.turn_key, _timeouts(live)) == ("1:defender", [])


def test_the_timer_task_before_the_deadline_does_nothing(live: LiveBattle) -> None:
    assert tasks.battle_turn_timeout(live.pk, "1:attacker") is False


def test_the_sweep_ends_every_overdue_turn_and_only_those(world: Any, live: LiveBattle) -> None:
    assert tasks.battle_clock_sweep() == 0
    _overdue(live)
    assert tasks.battle_clock_sweep() == 1
    assert tasks.battle_clock_sweep() == 0


def test_an_action_after_the_deadline_first_ends_the_turn(world: Any, live: LiveBattle) -> None:
    _overdue(live)
    with pytest.raises(Conflict) as refused:
        act(live, world.east_general, {"do": "move", "unit": units_of(live, "attacker")[0], "path": [[8, 17]]})
    live.refresh_from_db()
    assert (refused.value.rule, live.state["side"], len(_timeouts(live))) == ("T6", "defender", 1)


def test_reading_the_battle_after_the_deadline_ends_the_turn(client: Any, live: LiveBattle) -> None:
    _overdue(live)
    body = client.get(f"/api/tactical/battles/{live.pk}/").json()
    assert (body["state"]["side"], body["state"]["version"]) == ("defender", live.version + 1)


def test_a_new_turn_gets_a_full_deadline_from_the_moment_it_began(live: LiveBattle) -> None:
    _overdue(live, 5)
    services.battle_turn_expire(battle_id=live.pk)
    live.refresh_from_db()
    began = _timeouts(live)[0].created_at
    assert live.deadline - began == timedelta(seconds=40)


def test_a_timeout_in_an_open_window_closes_it_without_more_interceptions(world: Any, live: LiveBattle) -> None:
    world.campaign.settings = {**world.campaign.settings, "moderator_rolls_die": False}  # the server rolls T7.6
    world.campaign.save()
    march_into_contact(live, world)
    act(live, world.east_general, {"do": "end_turn"})
    live.refresh_from_db()
    assert live.state["phase"] == "interception"
    _overdue(live)
    services.battle_turn_expire(battle_id=live.pk)
    live.refresh_from_db()
    types = [e["type"] for e in _timeouts(live)[-1].events]
    assert types[:3] == ["turn_timed_out", "window_closed", "melee_resolved"]
    assert (live.state["phase"], live.state["side"], live.state["round"]) == ("move", "attacker", 6)


def test_the_timer_is_queued_for_the_deadline_after_commit(settings: Any, world: Any, battle: LiveBattle,
                                                           django_capture_on_commit_callbacks: Any) -> None:
    settings.TACTICAL_CLOCK_TASKS = True
    with mock.patch("tactical.tasks.battle_turn_timeout.apply_async") as queued:
        with django_capture_on_commit_callbacks(execute=True):
            services.battle_start(actor=world.moderator, battle_id=battle.pk)
        clock._executor().submit(lambda: None).result()  # the broker is written from one background thread
    battle.refresh_from_db()
    queued.assert_called_once_with((battle.pk, "1:attacker"), eta=battle.deadline)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_move_racing_the_deadline_is_applied_before_it_or_refused_after_it(world: Any, live: LiveBattle) -> None:
    """Both orders are possible; either way the turn ends exactly once and the log replays (M3)."""
    assert connection.vendor == "postgresql"
    unit = units_of(live, "attacker")[0]
    outcomes: dict[str, Any] = {}
    barrier = threading.Barrier(2)
    LiveBattle.objects.filter(pk=live.pk).update(deadline=timezone.now() + timedelta(milliseconds=150))

    def move() -> None:
        barrier.wait()
        try:
            outcomes["move"] = act(live, world.east_general, {"do": "move", "unit": unit, "path": [[8, 17]]}).version
        except Conflict as error:
            outcomes["move"] = error.rule
        finally:
            connection.close()

    def clock() -> None:
        barrier.wait()
        import time

        time.sleep(0.15)
        outcomes["clock"] = services.battle_turn_expire(battle_id=live.pk)
        connection.close()

    threads = [threading.Thread(target=move), threading.Thread(target=clock)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    live.refresh_from_db()
    moved = BattleEvent.objects.filter(battle=live, kind="action", action__do="move").count()
    assert len(_timeouts(live)) == 1
    assert (outcomes["move"], moved) in ((live.version - 1, 1), ("T6", 0))
    assert live.state["side"] == "defender"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_timer_skips_a_battle_held_by_another_transaction_and_the_sweep_ends_it_after(live: LiveBattle) -> None:
    from django.db import transaction

    _overdue(live)
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with transaction.atomic():
            LiveBattle.objects.select_for_update().get(pk=live.pk)
            held.set()
            release.wait(5)
        connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(5)
    skipped = tasks.battle_turn_timeout(live.pk, "1:attacker")
    release.set()
    holder.join()
    assert (skipped, tasks.battle_clock_sweep(), len(_timeouts(live))) == (False, 1, 1)
