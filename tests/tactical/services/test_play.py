"""One service applies every action (T2, T6, T11): permissions, refusals, resends, versions, the log."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.errors import Conflict, Forbidden, ServiceError
from tactical.models import BattleEvent, LiveBattle
from tactical.services import play as services
from tests.tactical.builders import act, units_of

MOVE = {"do": "move", "path": [[8, 17]]}


def _move(battle: LiveBattle) -> dict[str, Any]:
    return {**MOVE, "unit": units_of(battle, "attacker")[0]}


def test_deployment_ends_when_both_sides_are_ready_and_the_clock_starts(live: LiveBattle) -> None:
    assert (live.status, live.state["phase"], live.state["round"], live.state["side"], live.turn_key) == (
        "live", "move", 1, "attacker", "1:attacker")
    assert (live.deadline - live.events.get(version=live.version).created_at).total_seconds() == 40


def test_the_commander_moves_his_unit_and_the_version_grows_by_one(world: Any, live: LiveBattle) -> None:
    result = act(live, world.east_general, _move(live), action_id="a-1")
    assert (result.version, result.replayed, result.events) == (
        live.version + 1, False, [{"type": "moved", "unit": units_of(live, "attacker")[0], "path": [[8, 17]],
                                   "cost": 1, "points_left": 2}])


def test_a_move_is_logged_with_actor_action_and_events(world: Any, live: LiveBattle) -> None:
    act(live, world.east_general, _move(live), action_id="a-1")
    row = BattleEvent.objects.get(battle=live, action_id="a-1")
    assert (row.kind, row.actor, row.commander, row.action) == ("action", world.east_general, world.belisarius,
                                                                _move(live))


@pytest.mark.parametrize(
    ("who", "allowed"),
    [
        ("east_general", True),  # the unit's own commander (T2)
        ("moderator", True),  # a moderator of the campaign (M1)
        ("east_leader", False),  # his faction leader gives orders, he does not move the unit (T2)
        ("west_leader", False),  # the enemy
        ("other_moderator", False),  # a moderator of another campaign
        ("outsider", False),
    ],
)
def test_only_the_units_commander_or_a_moderator_may_act_with_it(world: Any, live: LiveBattle, who: str,
                                                                  allowed: bool) -> None:
    if allowed:
        assert act(live, getattr(world, who), _move(live)).version == live.version + 1
    else:
        with pytest.raises(Forbidden) as refused:
            act(live, getattr(world, who), _move(live))
        assert (refused.value.status, refused.value.code, refused.value.rule) == (403, "forbidden", "T2")


def test_a_moderator_acting_for_a_commander_is_logged_as_moderator(world: Any, live: LiveBattle) -> None:
    act(live, world.moderator, _move(live), action_id="m-1")
    assert BattleEvent.objects.get(battle=live, action_id="m-1").kind == "moderator"


def test_anonymous_users_may_not_act(live: LiveBattle) -> None:
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(Forbidden):
        act(live, AnonymousUser(), _move(live))


def test_a_malformed_action_is_400_naming_the_field(world: Any, live: LiveBattle) -> None:
    with pytest.raises(ServiceError) as refused:
        act(live, world.east_general, {"do": "move", "unit": units_of(live, "attacker")[0], "path": [[8]]})
    assert (refused.value.status, refused.value.as_dict()["code"], refused.value.field) == (
        400, "invalid", "action.path[0]")


def test_an_illegal_move_is_409_with_the_rule(world: Any, live: LiveBattle) -> None:
    with pytest.raises(Conflict) as refused:
        act(live, world.east_general, {"do": "move", "unit": units_of(live, "attacker")[0],
                                       "path": [[8, 17], [8, 16], [8, 15], [8, 14]]})
    body = refused.value.as_dict()
    assert (body["status"], body["code"], body["rule"]) == (409, "illegal", "T4")


def test_acting_out_of_turn_is_409_t6(world: Any, live: LiveBattle) -> None:
    with pytest.raises(Conflict) as refused:
        act(live, world.west_leader, {"do": "move", "unit": units_of(live, "defender")[0], "path": [[8, 3]]})
    assert (refused.value.as_dict()["code"], refused.value.rule) == ("illegal", "T6")


def test_a_refused_action_changes_nothing(world: Any, live: LiveBattle) -> None:
    before = (live.version, live.state)
    with pytest.raises(Conflict):
        act(live, world.west_leader, {"do": "move", "unit": units_of(live, "defender")[0], "path": [[8, 3]]})
    live.refresh_from_db()
    assert (live.version, live.state) == before


def test_a_stale_expected_version_is_409_with_the_current_state(world: Any, live: LiveBattle) -> None:
    with pytest.raises(Conflict) as refused:
        act(live, world.east_general, _move(live), expected_version=live.version - 1)
    body = refused.value.as_dict()
    assert (body["code"], body["version"], body["state"]["version"]) == ("stale", live.version, live.version)


def test_a_resend_with_the_same_id_gets_the_stored_result_and_is_not_applied_twice(world: Any, live: LiveBattle) -> None:
    first = act(live, world.east_general, _move(live), action_id="same")
    again = act(live, world.east_general, _move(live), action_id="same")
    live.refresh_from_db()
    assert (again.version, again.events, again.replayed, live.version) == (first.version, first.events, True,
                                                                          first.version)


def test_an_id_reused_for_another_action_is_409(world: Any, live: LiveBattle) -> None:
    act(live, world.east_general, _move(live), action_id="same")
    with pytest.raises(Conflict) as refused:
        act(live, world.east_general, {"do": "turn", "unit": units_of(live, "attacker")[0], "facing": "E"},
            action_id="same")
    assert refused.value.as_dict()["code"] == "duplicate_id"


def test_a_bad_action_id_is_400(world: Any, live: LiveBattle) -> None:
    with pytest.raises(ServiceError) as refused:
        act(live, world.east_general, _move(live), action_id="no spaces")
    assert (refused.value.status, refused.value.field) == (400, "id")


def test_end_turn_by_the_only_commander_passes_the_turn(world: Any, live: LiveBattle) -> None:
    act(live, world.east_general, {"do": "end_turn"})
    live.refresh_from_db()
    assert (live.state["side"], live.turn_key) == ("defender", "1:defender")


def test_with_two_commanders_on_a_side_the_turn_ends_when_both_are_done(world: Any, live: LiveBattle) -> None:
    from tactical.models import BattleUnit

    second = BattleUnit.objects.filter(battle=live, side="attacker").order_by("id").last()
    world.narses.user = world.outsider
    world.narses.save()
    second.commander = world.narses
    second.save()
    first = act(live, world.east_general, {"do": "end_turn"})
    live.refresh_from_db()
    assert (first.events, live.done, live.state["side"]) == (
        [{"type": "commander_done", "commander": world.belisarius.pk, "side": "attacker"}], [world.belisarius.pk],
        "attacker")
    act(live, world.outsider, {"do": "end_turn"})
    live.refresh_from_db()
    assert (live.state["side"], live.done) == ("defender", [])


def test_only_the_sides_chief_or_a_moderator_may_concede(world: Any, live: LiveBattle) -> None:
    with pytest.raises(Forbidden) as refused:
        act(live, world.west_leader, {"do": "concede", "side": "attacker"})
    assert refused.value.rule == "T11"


def test_end_battle_is_for_moderators(world: Any, live: LiveBattle) -> None:
    with pytest.raises(Forbidden):
        act(live, world.east_general, {"do": "end_battle", "winner": "attacker"})


def test_after_the_end_every_action_is_409_ended(world: Any, live: LiveBattle) -> None:
    act(live, world.east_general, {"do": "concede", "side": "attacker"})
    with pytest.raises(Conflict) as refused:
        act(live, world.west_leader, {"do": "end_turn"})
    assert (refused.value.as_dict()["code"], refused.value.rule) == ("ended", "T11")


def test_the_battle_id_must_exist(world: Any, live: LiveBattle) -> None:
    with pytest.raises(ServiceError) as refused:
        services.battle_action_apply(actor=world.moderator, battle_id=live.pk + 100, action=_move(live))
    assert refused.value.status == 404
