"""Campaigns, settings, factions, relations (S1), commanders, invitations, memberships and the log (M3)."""

from __future__ import annotations

from typing import Any

import pytest

from campaign import services
from campaign.errors import Conflict, Forbidden, NotFound, ServiceError
from campaign.messages import INVITATION_USED, LAST_MODERATOR, ROLE_NEEDS_FACTION, SLUG_TAKEN
from campaign.models import Campaign, Commander, Faction, LogEntry, Membership, Relation
from campaign.selectors import campaign_visible_to, relation_kind, relations_map
from tests.factories import CampaignFactory, UserFactory


def test_campaign_create_makes_its_creator_moderator(db: Any) -> None:
    user = UserFactory()
    campaign = services.campaign_create(
        actor=user, slug="gothic-war", name_en="Gothic War", name_ru="Готская война"
    )
    assert Membership.objects.get(campaign=campaign).role == "moderator"
    assert campaign.setting("faction_turn_hours") == 48


def test_campaign_create_refuses_a_taken_slug(db: Any) -> None:
    CampaignFactory(slug="gothic-war")
    with pytest.raises(ServiceError) as refused:
        services.campaign_create(actor=UserFactory(), slug="gothic-war", name_en="x", name_ru="x")
    assert (refused.value.field, refused.value.message) == ("slug", str(SLUG_TAKEN))


def test_settings_update_names_each_bad_setting(world: Any) -> None:
    with pytest.raises(ServiceError) as refused:
        services.campaign_settings_update(
            actor=world.moderator,
            campaign=world.campaign,
            settings={"turn_seconds": 5, "colour": 1, "faction_turn_hours": 12},
        )
    assert refused.value.errors == {
        "turn_seconds": ["Seconds in each side's tactical turn (T6.1) must be between 10 and 600."],
        "colour": ["Unknown setting."],
    }
    assert Campaign.objects.get(pk=world.campaign.pk).setting("faction_turn_hours") == 48


def test_settings_update_keeps_the_other_settings(world: Any) -> None:
    campaign = services.campaign_settings_update(
        actor=world.moderator, campaign=world.campaign, settings={"turn_seconds": 30}
    )
    assert (campaign.setting("turn_seconds"), campaign.setting("reinforcement_round")) == (30, 6)


def test_settings_update_is_logged_with_before_and_after(world: Any) -> None:
    services.campaign_settings_update(
        actor=world.moderator, campaign=world.campaign, settings={"turn_seconds": 30}
    )
    entry = LogEntry.objects.filter(campaign=world.campaign).last()
    assert (entry.kind, entry.data) == (
        "settings_changed",
        {"before": {"turn_seconds": 40}, "after": {"turn_seconds": 30}},
    )


def test_only_a_moderator_changes_settings(world: Any) -> None:
    with pytest.raises(Forbidden):
        services.campaign_settings_update(actor=world.other_moderator, campaign=world.campaign, settings={})


def test_s1_relation_set_stores_the_pair_once(world: Any) -> None:
    services.relation_set(
        actor=world.moderator, campaign=world.campaign, a=world.goths, b=world.east, kind="war"
    )
    services.relation_set(
        actor=world.moderator, campaign=world.campaign, a=world.east, b=world.goths, kind="allied"
    )
    low, high = sorted((world.east.pk, world.goths.pk))
    assert list(Relation.objects.filter(a_id=low, b_id=high).values_list("kind", flat=True)) == ["allied"]


@pytest.mark.parametrize(
    ("a", "b", "kind"),
    [
        ("east", "east", "allied"),  # a faction is friendly to itself
        ("east", "armenia", "allied"),
        ("west", "east", "war"),  # both orders of a stored pair
        ("east", "goths", "neutral"),  # no row: neutral (a third power)
    ],
)
def test_s1_relation_kind(world: Any, a: str, b: str, kind: str) -> None:
    assert relation_kind(campaign=world.campaign, a=getattr(world, a), b=getattr(world, b)) == kind


def test_s1_relations_map_has_both_orders(world: Any) -> None:
    relations = relations_map(campaign=world.campaign)
    assert (
        relations[(world.east.pk, world.west.pk)],
        relations[(world.west.pk, world.east.pk)],
        relations[(world.goths.pk, world.goths.pk)],
    ) == ("war", "war", "allied")


def test_s1_a_faction_has_no_relation_with_itself(world: Any) -> None:
    with pytest.raises(ServiceError) as refused:
        services.relation_set(
            actor=world.moderator, campaign=world.campaign, a=world.east, b=world.east, kind="war"
        )
    assert refused.value.rule == "S1"


def test_faction_create_refuses_a_bad_colour(world: Any) -> None:
    with pytest.raises(ServiceError) as refused:
        services.faction_create(
            actor=world.moderator,
            campaign=world.campaign,
            slug="huns",
            name_en="Huns",
            name_ru="Гунны",
            color="red",
        )
    assert refused.value.field == "color"


def test_commander_of_rank_leader_leads_the_faction(world: Any) -> None:
    commander = services.commander_create(
        actor=world.moderator, faction=world.goths, name="Athaulf", rank="leader"
    )
    assert Faction.objects.get(pk=world.goths.pk).leader == commander


def test_invitation_accept_gives_the_role_and_the_commander(world: Any) -> None:
    invitation = services.invitation_create(
        actor=world.moderator,
        campaign=world.campaign,
        role="commander",
        faction=world.east,
        commander=world.narses,
    )
    player = UserFactory()
    membership = services.invitation_accept(user=player, token=invitation.token)
    assert (membership.role, membership.faction, Commander.objects.get(pk=world.narses.pk).user) == (
        "commander",
        world.east,
        player,
    )


def test_invitation_is_used_once(world: Any) -> None:
    invitation = services.invitation_create(actor=world.moderator, campaign=world.campaign, role="observer")
    services.invitation_accept(user=UserFactory(), token=invitation.token)
    with pytest.raises(Conflict) as refused:
        services.invitation_accept(user=UserFactory(), token=invitation.token)
    assert refused.value.message == str(INVITATION_USED)


def test_unknown_invitation_is_404(world: Any) -> None:
    with pytest.raises(NotFound):
        services.invitation_accept(user=UserFactory(), token="nope")


def test_invitation_for_a_leader_needs_a_faction(world: Any) -> None:
    with pytest.raises(ServiceError) as refused:
        services.invitation_create(actor=world.moderator, campaign=world.campaign, role="leader")
    assert (refused.value.field, refused.value.message) == ("faction", str(ROLE_NEEDS_FACTION))


def test_the_last_moderator_stays(world: Any) -> None:
    with pytest.raises(Conflict) as refused:
        services.membership_set(
            actor=world.moderator, campaign=world.campaign, user=world.moderator, role="observer"
        )
    assert refused.value.message == str(LAST_MODERATOR)


def test_membership_set_changes_a_role(world: Any) -> None:
    membership = services.membership_set(
        actor=world.moderator,
        campaign=world.campaign,
        user=world.outsider,
        role="leader",
        faction=world.goths,
    )
    assert (membership.role, membership.faction) == ("leader", world.goths)


def test_private_campaign_is_visible_to_members_only(world: Any) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(is_public=False)
    assert (
        list(campaign_visible_to(user=world.outsider).values_list("slug", flat=True)),
        sorted(campaign_visible_to(user=world.east_leader).values_list("slug", flat=True)),
    ) == (["other"], ["limes", "other"])


def test_m3_the_log_grows_with_every_change(world: Any) -> None:
    before = list(LogEntry.objects.filter(campaign=world.campaign).values_list("pk", "kind"))
    services.relation_set(
        actor=world.moderator, campaign=world.campaign, a=world.east, b=world.goths, kind="war"
    )
    after = list(LogEntry.objects.filter(campaign=world.campaign).values_list("pk", "kind"))
    assert after[:-1] == before and after[-1][1] == "relation_set"
