"""M1, S1: a page that asks many permissions reads the user's membership once, and only inside its block."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign import permissions
from campaign.models import Membership


def _membership_reads(queries: CaptureQueriesContext) -> int:
    return sum('FROM "campaign_membership"' in q["sql"] for q in queries.captured_queries)


def test_inside_the_block_every_check_shares_one_read(world: Any) -> None:
    with CaptureQueriesContext(connection) as queries, permissions.memberships_read_once():
        answers = (
            permissions.can_moderate(world.east_leader, world.campaign),
            permissions.can_lead_faction(world.east_leader, world.east),
            permissions.can_lead_faction(world.east_leader, world.west),
            permissions.is_member(world.east_leader, world.campaign),
            permissions.can_moderate(world.moderator, world.campaign),
        )
    assert answers == (False, True, False, True, True)
    assert _membership_reads(queries) == 2  # the leader's, the moderator's


def test_outside_the_block_each_check_reads_again(world: Any) -> None:
    with CaptureQueriesContext(connection) as queries:
        permissions.can_moderate(world.east_leader, world.campaign)
        permissions.can_lead_faction(world.east_leader, world.east)
    assert _membership_reads(queries) == 2


def test_a_role_changed_after_the_block_is_seen(world: Any) -> None:
    with permissions.memberships_read_once():
        assert permissions.can_moderate(world.east_leader, world.campaign) is False
        with permissions.memberships_read_once():  # a nested block shares the outer one's reads
            Membership.objects.filter(campaign=world.campaign, user=world.east_leader).update(
                role=Membership.Role.MODERATOR, faction=None)
            assert permissions.can_moderate(world.east_leader, world.campaign) is False
    assert permissions.can_moderate(world.east_leader, world.campaign) is True


def test_the_anonymous_user_reads_nothing(world: Any) -> None:
    from django.contrib.auth.models import AnonymousUser

    with CaptureQueriesContext(connection) as queries, permissions.memberships_read_once():
        assert permissions.membership_in(AnonymousUser(), world.campaign.pk) is None
    assert _membership_reads(queries) == 0
