"""S4: the economic phase, the strategic phase in turn order, deadlines, and the next campaign turn."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from campaign import services
from campaign.errors import Conflict, Forbidden
from campaign.messages import NEEDS_MODERATOR, NOT_ACTING_FACTION, TURN_NOT_OVERDUE
from campaign.models import Campaign, Faction, LogEntry
from campaign.selectors import turn_state


def _campaign(world: Any) -> Campaign:
    return Campaign.objects.get(pk=world.campaign.pk)


def test_s4_economic_phase_end_gives_the_turn_to_the_first_faction(world: Any) -> None:
    before = timezone.now()
    campaign = services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    hours = (campaign.faction_deadline - before).total_seconds() / 3600
    assert (campaign.phase, campaign.current_faction, round(hours)) == ("strategic", world.east, 48)


def test_s4_the_deadline_follows_the_faction_turn_hours_setting(world: Any) -> None:
    services.campaign_settings_update(
        actor=world.moderator, campaign=world.campaign, settings={"faction_turn_hours": 6}
    )
    before = timezone.now()
    campaign = services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    assert round((campaign.faction_deadline - before).total_seconds() / 3600) == 6


def test_s4_only_a_moderator_ends_the_economic_phase(world: Any) -> None:
    with pytest.raises(Forbidden) as refused:
        services.economic_phase_end(actor=world.east_leader, campaign=world.campaign)
    assert refused.value.message == str(NEEDS_MODERATOR)


def test_s4_the_economic_phase_ends_once(world: Any) -> None:
    services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    with pytest.raises(Conflict) as refused:
        services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    assert refused.value.rule == "S4"


def test_s4_pass_gives_the_turn_to_the_next_faction(world: Any) -> None:
    services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    campaign = services.faction_turn_pass(actor=world.east_general, faction=world.east)
    assert (
        campaign.turn,
        campaign.phase,
        campaign.current_faction,
        Faction.objects.get(pk=world.east.pk).passed_turn,
    ) == (1, "strategic", world.west, 1)


def test_s4_after_the_last_faction_the_next_turn_economic_phase_begins(world: Any) -> None:
    services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    for faction in (world.east, world.west, world.goths, world.armenia):
        services.faction_turn_pass(actor=world.moderator, faction=faction)
    campaign = _campaign(world)
    assert (campaign.turn, campaign.phase, campaign.current_faction, campaign.faction_deadline) == (
        2,
        "economic",
        None,
        None,
    )


def test_s4_the_last_pass_is_logged_in_the_turn_it_ends(world: Any) -> None:
    services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    for faction in (world.east, world.west, world.goths, world.armenia):
        services.faction_turn_pass(actor=world.moderator, faction=faction)
    entry = LogEntry.objects.filter(campaign=world.campaign).last()
    assert (entry.kind, entry.rule, entry.turn, entry.data) == (
        "faction_turn_passed",
        "S4",
        1,
        {"faction": world.armenia.pk, "turn": 1, "next_turn": 2},
    )


def test_s4_passing_another_faction_turn_is_refused(world: Any) -> None:
    services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    with pytest.raises(Conflict) as refused:
        services.faction_turn_pass(actor=world.west_leader, faction=world.west)
    assert (refused.value.message, refused.value.field) == (str(NOT_ACTING_FACTION), "faction")


@pytest.mark.parametrize(
    ("who", "allowed"),
    [
        ("east_leader", True),  # the acting faction's leader
        ("east_general", True),  # a commander of the acting faction
        ("moderator", True),
        ("west_leader", False),  # a player of another faction
        ("other_moderator", False),  # a moderator of another campaign
        ("outsider", False),
    ],
)
def test_s4_who_may_pass(world: Any, who: str, allowed: bool) -> None:
    services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    if allowed:
        assert (
            services.faction_turn_pass(actor=getattr(world, who), faction=world.east).current_faction
            == world.west
        )
    else:
        with pytest.raises(Forbidden):
            services.faction_turn_pass(actor=getattr(world, who), faction=world.east)


def test_s4_an_overdue_turn_expires(world: Any) -> None:
    services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    later = timezone.now() + timedelta(hours=49)
    expired = services.faction_turns_expire_overdue(now=later)
    entry = LogEntry.objects.filter(campaign=world.campaign).last()
    assert ([c.pk for c in expired], _campaign(world).current_faction, entry.kind, entry.actor) == (
        [world.campaign.pk],
        world.west,
        "faction_turn_expired",
        None,
    )


def test_s4_a_turn_in_time_does_not_expire(world: Any) -> None:
    services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    with pytest.raises(Conflict) as refused:
        services.faction_turn_expire(campaign=world.campaign)
    assert refused.value.message == str(TURN_NOT_OVERDUE)


def test_turn_state_shows_the_deadline(world: Any) -> None:
    campaign = services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    state = turn_state(campaign=campaign, now=campaign.faction_deadline - timedelta(hours=1))
    assert (
        state["turn"],
        state["phase"],
        state["current_faction"],
        state["seconds_left"],
        state["is_overdue"],
        [f.slug for f in state["factions"]],
    ) == (1, "strategic", world.east, 3600, False, ["east", "west", "goths", "armenia"])


def test_s4_the_clock_task_expires_overdue_turns(world: Any) -> None:
    from campaign.tasks import faction_turns_expire

    services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    Campaign.objects.filter(pk=world.campaign.pk).update(faction_deadline=timezone.now() - timedelta(seconds=1))
    assert (faction_turns_expire(), _campaign(world).current_faction) == (["limes"], world.west)
