"""M1, M2, T6.1, T7.6: the moderator's controls of a live battle — the clock, corrections, undo, the die.

Every control leaves a battle event and a campaign log entry with its reason; bad input and other people
are refused with nothing changed; the state rebuilt from the log equals the stored one at every version.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone, translation

from campaign.errors import ServiceError
from campaign.models import LogEntry
from combat.battle.serialize import state_to_dict
from combat.dice import seeded_roll
from tactical.models import BattleEvent, LiveBattle
from tactical.protocol.board import board_state
from tactical.selectors.replay import state_rebuild
from tactical.services import moderation as mod
from tactical.services import play as services
from tests.tactical.builders import act, march_into_contact, units_of

REASON = "A player's connection dropped"


def _refused(call: Any, status: int, **kw: Any) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call(**kw)
    assert caught.value.status == status, caught.value.message
    return caught.value


def _unchanged(battle: LiveBattle, version: int) -> None:
    battle.refresh_from_db()
    assert battle.version == version
    assert BattleEvent.objects.filter(battle=battle).count() == version


def _replays_at_every_version(battle: LiveBattle, states: dict[int, dict[str, Any]]) -> None:
    for version, state in states.items():
        assert state_to_dict(state_rebuild(battle, upto=version)) == state, f"version {version}"


def _keep(battle: LiveBattle, states: dict[int, dict[str, Any]]) -> None:
    battle.refresh_from_db()
    states[battle.version] = battle.state


def _event(battle: LiveBattle) -> BattleEvent:
    return BattleEvent.objects.get(battle=battle, version=battle.version)


# -- the clock ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ["east_general", "west_leader", "other_moderator", "outsider"])
@pytest.mark.parametrize("control", ["battle_clock_pause", "battle_clock_resume", "battle_action_undo",
                                     "battle_die_roll"])
def test_only_the_campaign_s_moderator_uses_the_controls(world: Any, live: LiveBattle, role: str,
                                                          control: str) -> None:
    _refused(getattr(mod, control), 403, actor=getattr(world, role), battle_id=live.pk, reason=REASON)
    _unchanged(live, live.version)


@pytest.mark.parametrize("reason", ["", "   ", None, 7, "x" * 4001])
def test_every_control_needs_a_reason(world: Any, live: LiveBattle, reason: Any) -> None:
    for control, extra in ((mod.battle_clock_pause, {}), (mod.battle_clock_add_time, {"seconds": 10}),
                           (mod.battle_correct, {"changes": [{"unit": units_of(live, "attacker")[0], "facing": "E"}]}),
                           (mod.battle_action_undo, {}), (mod.battle_die_roll, {})):
        error = _refused(control, 400, actor=world.moderator, battle_id=live.pk, reason=reason, **extra)
        assert (error.field, error.rule) == ("reason", "M1")
    _unchanged(live, live.version)


def test_pause_stops_the_clock_and_refuses_play_until_resumed(world: Any, live: LiveBattle) -> None:
    states: dict[int, dict[str, Any]] = {}
    live.deadline = timezone.now() + timedelta(seconds=25)
    live.save(update_fields=["deadline"])
    mod.battle_clock_pause(actor=world.moderator, battle_id=live.pk, reason=REASON)
    _keep(live, states)
    row = _event(live)
    assert (live.deadline, row.kind, row.action["do"], row.action["reason"]) == (None, "clock", "pause_clock", REASON)
    assert 24 <= live.paused_left <= 25
    assert (row.events[0]["type"], row.events[0]["by"], row.events[0]["reason"]) == ("clock_paused", "moderator", REASON)
    entry = LogEntry.objects.get(kind="battle_clock_paused")
    assert (entry.reason, entry.rule, entry.actor, entry.data["battle"]) == (REASON, "T6.1", world.moderator, live.pk)
    board = board_state(live)
    assert (board["paused"], board["deadline"], board["awaiting_die"]) == (True, None, False)

    east = units_of(live, "attacker")[0]
    error = _refused(act, 409, battle=live, user=world.east_general,
                     action={"do": "move", "unit": east, "path": [[8, 17]]})
    assert (error.code, error.rule) == ("paused", "T6.1")  # type: ignore[attr-defined]
    assert not services.battle_turn_expire(battle_id=live.pk, now=timezone.now() + timedelta(hours=1))
    assert services.battle_clock_sweep(now=timezone.now() + timedelta(hours=1)) == 0
    _refused(mod.battle_clock_pause, 409, actor=world.moderator, battle_id=live.pk, reason=REASON)

    mod.battle_clock_resume(actor=world.moderator, battle_id=live.pk, reason="Back online")
    _keep(live, states)
    left = (live.deadline - timezone.now()).total_seconds()
    assert (live.paused_left, _event(live).action["do"]) == (None, "resume_clock")
    assert 23 <= left <= 25
    assert LogEntry.objects.get(kind="battle_clock_resumed").reason == "Back online"
    act(live, world.east_general, {"do": "move", "unit": east, "path": [[8, 17]]})
    _keep(live, states)
    _refused(mod.battle_clock_resume, 409, actor=world.moderator, battle_id=live.pk, reason=REASON)
    _replays_at_every_version(live, states)


@pytest.mark.parametrize("seconds", [0, -5, 601, "30", 2.5, True, None])
def test_added_time_is_a_whole_number_of_seconds_from_1_to_600(world: Any, live: LiveBattle, seconds: Any) -> None:
    error = _refused(mod.battle_clock_add_time, 400, actor=world.moderator, battle_id=live.pk, seconds=seconds,
                     reason=REASON)
    assert (error.field, error.rule) == ("seconds", "T6.1")
    _unchanged(live, live.version)


def test_time_is_added_to_a_running_and_to_a_paused_clock(world: Any, live: LiveBattle) -> None:
    before = live.deadline
    mod.battle_clock_add_time(actor=world.moderator, battle_id=live.pk, seconds=30, reason="Lag")
    live.refresh_from_db()
    assert live.deadline == before + timedelta(seconds=30)
    assert (_event(live).events[0]["seconds"], LogEntry.objects.get(kind="battle_time_added").reason) == (30, "Lag")
    mod.battle_clock_pause(actor=world.moderator, battle_id=live.pk, reason=REASON)
    live.refresh_from_db()
    paused = live.paused_left
    mod.battle_clock_add_time(actor=world.moderator, battle_id=live.pk, seconds=15, reason="More lag")
    live.refresh_from_db()
    assert (live.paused_left, live.deadline) == (round(paused + 15, 3), None)


def test_no_clock_runs_in_deployment(world: Any, battle: LiveBattle) -> None:
    error = _refused(mod.battle_clock_pause, 409, actor=world.moderator, battle_id=battle.pk, reason=REASON)
    assert error.rule == "T6.1"


# -- corrections -----------------------------------------------------------------------------------


def test_a_correction_moves_turns_and_heals_a_unit_and_logs_why(world: Any, live: LiveBattle) -> None:
    states: dict[int, dict[str, Any]] = {}
    east = units_of(live, "attacker")[0]
    mod.battle_correct(actor=world.moderator, battle_id=live.pk, reason="Misclick",
                       changes=[{"unit": east, "x": 3, "y": 15, "facing": "E", "health": 2.5}])
    _keep(live, states)
    unit = next(u for u in live.state["units"] if u["id"] == east)
    assert (unit["x"], unit["y"], unit["facing"], unit["health"]) == (3, 15, "E", 5)
    row = _event(live)
    assert (row.kind, row.actor, row.action["reason"]) == ("correction", world.moderator, "Misclick")
    assert row.events[1] == {"type": "unit_corrected", "unit": east,
                             "before": {"x": 8, "y": 18, "facing": "N", "health": 5},
                             "after": {"x": 3, "y": 15, "facing": "E", "health": 2.5}}
    entry = LogEntry.objects.get(kind="battle_corrected")
    assert (entry.reason, entry.rule, entry.data["units"]) == ("Misclick", "M1", east)
    _replays_at_every_version(live, states)


def test_a_unit_moved_next_to_an_enemy_is_in_contact_and_one_set_to_0_is_routed(world: Any, live: LiveBattle) -> None:
    states: dict[int, dict[str, Any]] = {}
    east = units_of(live, "attacker")[0]
    west = units_of(live, "defender")
    mod.battle_correct(actor=world.moderator, battle_id=live.pk, reason="Where it stood",
                       changes=[{"unit": east, "x": 8, "y": 3}])
    _keep(live, states)
    assert [(c["a"], c["b"], c["initiator"]) for c in live.state["contacts"]] == [(*sorted((east, west[0])), east)]
    mod.battle_correct(actor=world.moderator, battle_id=live.pk, reason="It was routed",
                       changes=[{"unit": west[1], "health": 0}])
    _keep(live, states)
    assert next(u for u in live.state["units"] if u["id"] == west[1])["status"] == "routed"
    assert {"type": "unit_routed", "unit": west[1], "cause": "moderator"} in _event(live).events
    _replays_at_every_version(live, states)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ([], "changes"),
        ("u1", "changes"),
        ([{"unit": "nobody", "x": 1, "y": 1}], "changes[0].unit"),
        ([{"unit": "A", "x": 18, "y": 1}], "changes[0].x"),
        ([{"unit": "A", "x": 9, "y": 18}], "changes[0].x"),  # the other East unit stands there
        ([{"unit": "A", "x": 1}], "changes[0].y"),
        ([{"unit": "A", "facing": "NE"}], "changes[0].facing"),
        ([{"unit": "A", "health": 5.5}], "changes[0].health"),
        ([{"unit": "A", "health": 0.3}], "changes[0].health"),
        ([{"unit": "A", "health": -1}], "changes[0].health"),
        ([{"unit": "A", "arrows": 1}], "changes[0].arrows"),  # heavy infantry carries no arrows
        ([{"unit": "A", "speed": 9}], "changes[0].speed"),
        ([{"unit": "A"}], "changes[0]"),
        ([{"unit": "A", "facing": "E"}, {"unit": "A", "x": -1, "y": 0}], "changes[1].x"),
    ],
)
def test_a_bad_correction_is_refused_naming_the_field_and_changes_nothing(
    world: Any, live: LiveBattle, changes: Any, field: str
) -> None:
    east = units_of(live, "attacker")[0]
    if isinstance(changes, list):
        changes = [{**c, "unit": east} if c.get("unit") == "A" else c for c in changes]
    stored = live.state
    error = _refused(mod.battle_correct, 400, actor=world.moderator, battle_id=live.pk, changes=changes,
                     reason=REASON)
    assert error.field == field
    _unchanged(live, live.version)
    assert live.state == stored
    assert not LogEntry.objects.filter(kind="battle_corrected").exists()


WINDOW_OPEN_EN = ("An interception window is open: close it first (T10), by declaring no more interceptions or "
                  "when the side's time runs out; a correction may not change the board under the interceptions "
                  "already declared.")
WINDOW_OPEN_RU = ("Открыто окно перехвата: сначала закройте его (T10) — объявив, что перехватов больше не будет, "
                  "или дождавшись конца времени стороны; исправление не может менять поле под уже объявленными "
                  "перехватами.")


def test_no_correction_while_an_interception_window_is_open_undo_takes_the_interception_back(
    world: Any, live: LiveBattle
) -> None:
    """T10, M1: West's second unit intercepts East's, which entered melee with West's first unit this turn.
    A correction would move units under the declared interception: refused until the window closes. Taking
    the interception back restores the whole board before it, so undo stays allowed; the log replays."""
    states: dict[int, dict[str, Any]] = {}
    east, west = units_of(live, "attacker"), units_of(live, "defender")
    march_into_contact(live, world)
    act(live, world.east_general, {"do": "end_turn"})
    _keep(live, states)
    window = live.version
    assert live.state["phase"] == "interception"
    act(live, world.west_leader, {"do": "intercept", "unit": west[1], "target": east[0], "path": [[9, 3]]})
    _keep(live, states)
    declared = live.version
    assert [(i["unit"], i["target"]) for i in live.state["interceptions"]] == [(west[1], east[0])]

    move_away = [{"unit": east[0], "x": 8, "y": 10}]
    for language, sentence in (("en", WINDOW_OPEN_EN), ("ru", WINDOW_OPEN_RU)):
        with translation.override(language):
            error = _refused(mod.battle_correct, 409, actor=world.moderator, battle_id=live.pk, changes=move_away,
                             reason=REASON)
        assert (error.rule, error.message) == ("T10", sentence)
    _unchanged(live, declared)
    assert live.state == states[declared]
    assert not LogEntry.objects.filter(kind="battle_corrected").exists()
    client = Client()
    client.force_login(world.moderator)
    answer = client.post(f"/api/moderation/campaigns/{world.campaign.slug}/battles/{live.pk}/correct/",
                         {"changes": move_away, "reason": REASON}, content_type="application/json")
    assert (answer.status_code, answer.json()) == (
        409, {"status": 409, "code": "window_open", "detail": WINDOW_OPEN_EN, "rule": "T10"})
    _unchanged(live, declared)

    mod.battle_action_undo(actor=world.moderator, battle_id=live.pk, reason="Declared by mistake")
    _keep(live, states)
    assert live.state == states[window]  # the window is open again, with no interception declared
    assert (live.state["phase"], live.state["interceptions"]) == ("interception", [])

    act(live, world.moderator, {"do": "end_interceptions"})  # the moderator closes it for West
    _keep(live, states)
    assert live.state["phase"] == "move"
    mod.battle_correct(actor=world.moderator, battle_id=live.pk, changes=[{"unit": west[1], "facing": "E"}],
                       reason="Faced the wrong way")
    _keep(live, states)
    assert next(u for u in live.state["units"] if u["id"] == west[1])["facing"] == "E"
    _replays_at_every_version(live, states)


# -- undo ----------------------------------------------------------------------------------------


def test_the_last_action_of_the_turn_is_taken_back_and_both_stay_logged(world: Any, live: LiveBattle) -> None:
    states: dict[int, dict[str, Any]] = {}
    east = units_of(live, "attacker")
    _keep(live, states)
    act(live, world.east_general, {"do": "move", "unit": east[0], "path": [[8, 17], [8, 16]]})
    _keep(live, states)
    act(live, world.east_general, {"do": "turn", "unit": east[1], "facing": "W"})
    _keep(live, states)
    turned = live.version
    mod.battle_action_undo(actor=world.moderator, battle_id=live.pk, reason="Wrong unit")
    _keep(live, states)
    assert live.state == states[turned - 1]
    row = _event(live)
    assert (row.kind, row.action, row.events[0]["version"]) == (
        "undo", {"do": "undo", "undoes": turned, "reason": "Wrong unit"}, turned)
    assert BattleEvent.objects.get(battle=live, version=turned).action["do"] == "turn"  # still in the log
    mod.battle_action_undo(actor=world.moderator, battle_id=live.pk, reason="That one too")
    _keep(live, states)
    assert live.state == states[turned - 2]
    assert LogEntry.objects.filter(kind="battle_action_undone").count() == 2
    error = _refused(mod.battle_action_undo, 409, actor=world.moderator, battle_id=live.pk, reason=REASON)
    assert error.rule == "M1"  # the start of the battle is not a player's action
    _replays_at_every_version(live, states)


def test_an_action_of_an_earlier_turn_is_not_taken_back(world: Any, live: LiveBattle) -> None:
    east = units_of(live, "attacker")[0]
    act(live, world.east_general, {"do": "move", "unit": east, "path": [[8, 17]]})
    version = act(live, world.east_general, {"do": "end_turn"}).version
    _refused(mod.battle_action_undo, 409, actor=world.moderator, battle_id=live.pk, reason=REASON)
    _unchanged(live, version)


# -- the T7.6 die --------------------------------------------------------------------------------


def _to_mutual_destruction(live: LiveBattle, world: Any) -> None:
    """Round 5: East's first unit meets West's at (8, 2); two resolutions of 3 against 3 would destroy both."""
    march_into_contact(live, world)
    act(live, world.east_general, {"do": "end_turn"})
    act(live, world.west_leader, {"do": "end_interceptions"})


def test_the_battle_waits_for_the_moderator_s_die_and_he_rolls_it(world: Any, live: LiveBattle) -> None:
    states: dict[int, dict[str, Any]] = {}
    _to_mutual_destruction(live, world)
    _keep(live, states)
    result = act(live, world.west_leader, {"do": "end_turn"}, action_id="west-ends")
    _keep(live, states)
    waiting = live.version
    assert (result.version, _event(live).kind, live.rolls_used, live.deadline) == (waiting, "await_die", 0, None)
    assert live.pending["action"] == {"do": "end_turn"}
    assert live.state == states[waiting - 1]  # nothing resolved yet
    board = board_state(live)
    assert (board["awaiting_die"], board["paused"]) == (True, True)
    assert act(live, world.west_leader, {"do": "end_turn"}, action_id="west-ends").replayed  # a resend
    error = _refused(act, 409, battle=live, user=world.east_general, action={"do": "end_turn"})
    assert (error.code, error.rule) == ("awaiting_die", "T7.6")  # type: ignore[attr-defined]
    for control in (mod.battle_clock_resume, mod.battle_action_undo):
        assert _refused(control, 409, actor=world.moderator, battle_id=live.pk, reason=REASON).rule == "T7.6"
    _refused(mod.battle_die_roll, 403, actor=world.west_leader, battle_id=live.pk, reason=REASON)

    mod.battle_die_roll(actor=world.moderator, battle_id=live.pk, reason="Both fell at once")
    _keep(live, states)
    row = _event(live)
    die = seeded_roll(bytes(live.seed), 0)
    assert (row.kind, row.actor, row.dice, row.rolls_before, live.rolls_used) == (
        "die_roll", world.moderator, [die], 0, 1)
    assert row.events[0] == {"type": "moderator_rolled", "rule": "T7.6", "dice": [die], "by": "moderator",
                             "reason": "Both fell at once"}
    east, west = units_of(live, "attacker")[0], units_of(live, "defender")[0]
    survivor, fallen = (east, west) if die <= 3 else (west, east)
    units = {u["id"]: u for u in live.state["units"]}
    assert (units[survivor]["health"], units[fallen]["status"]) == (2, "routed")
    assert (live.pending, live.paused_left, live.state["side"]) == (None, None, "attacker")
    assert live.deadline is not None
    entry = LogEntry.objects.get(kind="battle_die_rolled")
    assert (entry.reason, entry.rule, entry.data["dice"], entry.actor) == (
        "Both fell at once", "T7.6", str(die), world.moderator)
    error = _refused(mod.battle_die_roll, 409, actor=world.moderator, battle_id=live.pk, reason="Again")
    assert error.rule == "T7.6"
    _replays_at_every_version(live, states)


def test_a_timeout_that_needs_a_die_waits_for_it_too(world: Any, live: LiveBattle) -> None:
    _to_mutual_destruction(live, world)
    live.refresh_from_db()
    assert services.battle_turn_expire(battle_id=live.pk, now=live.deadline + timedelta(seconds=1))
    live.refresh_from_db()
    row = _event(live)
    assert (row.kind, [e["type"] for e in row.events]) == ("await_die", ["turn_timed_out", "die_awaited"])
    mod.battle_die_roll(actor=world.moderator, battle_id=live.pk, reason="Time ran out on a double rout")
    live.refresh_from_db()
    assert [e["type"] for e in _event(live).events][:2] == ["moderator_rolled", "turn_timed_out"]
    assert live.rolls_used == 1


def test_with_the_setting_off_the_server_rolls_at_once(world: Any, live: LiveBattle) -> None:
    world.campaign.settings = {**world.campaign.settings, "moderator_rolls_die": False}
    world.campaign.save()
    _to_mutual_destruction(live, world)
    act(live, world.west_leader, {"do": "end_turn"})
    live.refresh_from_db()
    assert (_event(live).kind, live.rolls_used, live.pending) == ("action", 1, None)
