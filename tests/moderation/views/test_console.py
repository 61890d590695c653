"""M1: the campaign console is for the campaign's moderators only; each change is logged with its reason."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from campaign.models import Campaign, Faction, Invitation, LogEntry, Membership
from campaign.rules_settings import SETTINGS
from moderation.models import Dispute
from moderation.services.disputes import dispute_open
from tactical.models import LiveBattle

ROLES = ("anonymous", "observer", "east_general", "west_leader", "other_moderator", "moderator")


def _client(world: Any, role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(getattr(world, role))
    return client


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("anonymous", 403),
        ("observer", 403),
        ("east_general", 403),  # a player
        ("west_leader", 403),
        ("other_moderator", 403),
        ("moderator", 200),
    ],
)
def test_who_opens_the_campaign_console(world: Any, role: str, status: int) -> None:
    assert _client(world, role).get("/c/limes/console/").status_code == status


@pytest.mark.parametrize("role", ROLES[:-1])
def test_nobody_but_the_moderator_changes_a_setting(world: Any, role: str) -> None:
    response = _client(world, role).post("/c/limes/console/settings/", {"turn_seconds": "60"})
    assert response.status_code == 403
    assert Campaign.objects.get(pk=world.campaign.pk).setting("turn_seconds") == 40


def _strategic(world: Any) -> Campaign:
    deadline = timezone.now() + timedelta(hours=2)
    Campaign.objects.filter(pk=world.campaign.pk).update(
        phase="strategic", current_faction=world.east, faction_deadline=deadline
    )
    return Campaign.objects.get(pk=world.campaign.pk)


def test_extending_a_deadline_logs_the_reason(world: Any) -> None:
    campaign = _strategic(world)
    response = _client(world, "moderator").post(
        "/c/limes/console/deadline/", {"hours": "12", "reason": "The leader is travelling"}
    )
    assert response.status_code == 302
    entry = LogEntry.objects.filter(kind="faction_deadline_extended").get()
    after = Campaign.objects.get(pk=campaign.pk).faction_deadline
    assert (after - campaign.faction_deadline, entry.reason, entry.data["faction"]) == (
        timedelta(hours=12),
        "The leader is travelling",
        world.east.pk,
    )


def test_a_deadline_extension_without_a_reason_is_refused_and_changes_nothing(world: Any) -> None:
    campaign = _strategic(world)
    response = _client(world, "moderator").post("/c/limes/console/deadline/", {"hours": "12", "reason": " "})
    assert response.status_code == 400
    assert (
        "Give a reason: it is written into the log every participant reads (M1)." in response.content.decode()
    )
    assert Campaign.objects.get(pk=campaign.pk).faction_deadline == campaign.faction_deadline
    assert not LogEntry.objects.filter(kind="faction_deadline_extended").exists()


def test_no_deadline_to_extend_in_the_economic_phase(world: Any) -> None:
    response = _client(world, "moderator").post(
        "/c/limes/console/deadline/", {"hours": "12", "reason": "late"}
    )
    assert response.status_code == 409
    assert "No faction is acting against a deadline now (S4)." in response.content.decode()


def test_settings_are_changed_through_the_campaign_service_and_shown_on_the_rules_page(world: Any) -> None:
    checked = {spec.name: "on" for spec in SETTINGS if spec.kind is bool and spec.default}  # left as they are
    values = {"turn_seconds": "60", "deployment_rows": "3", **checked}
    assert _client(world, "moderator").post("/c/limes/console/settings/", values).status_code == 302
    entry = LogEntry.objects.filter(kind="settings_changed").get()
    assert (entry.data, entry.actor) == (
        {"before": {"turn_seconds": 40}, "after": {"turn_seconds": 60}},
        world.moderator,
    )
    assert '<td class="value">60</td>' in Client().get("/c/limes/rules/").content.decode()


def test_a_bad_setting_is_refused_with_its_message(world: Any) -> None:
    response = _client(world, "moderator").post(
        "/c/limes/console/settings/", {"turn_seconds": "5", "spectators_allowed": "on"}
    )
    assert response.status_code == 400
    assert "Seconds in each side&#x27;s tactical turn (T6.1) must be between 10 and 600." in response.content.decode()


def test_the_settings_inputs_carry_their_bounds_in_either_language(world: Any) -> None:
    """The browser refuses 5 seconds before the form is sent (T6.1: 10 to 600); a Russian "6,5" would be
    no number at all to the input."""
    html = _client(world, "moderator").get("/c/limes/console/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert ('<input id="s-turn_seconds" name="turn_seconds" value="40" size="6" type="number" inputmode="decimal"'
            ' min="10" max="600" step="1">') in html
    assert ('<input id="s-range_forward" name="range_forward" value="6.5" size="6" type="number"'
            ' inputmode="decimal" min="1" max="17" step="any">') in html


def test_the_moderator_changes_a_role(world: Any) -> None:
    response = _client(world, "moderator").post(
        "/c/limes/console/role/", {"user": world.observer.pk, "role": "commander", "faction": world.west.pk}
    )
    assert response.status_code == 302
    membership = Membership.objects.get(campaign=world.campaign, user=world.observer)
    assert (membership.role, membership.faction) == ("commander", world.west)


def test_the_moderator_creates_an_invitation(world: Any) -> None:
    response = _client(world, "moderator").post("/c/limes/console/invite/", {"role": "observer"}, follow=True)
    invitation = Invitation.objects.get(campaign=world.campaign)
    assert f"http://testserver/invite/{invitation.token}/" in response.content.decode()


def test_the_moderator_sets_the_faction_order(world: Any) -> None:
    order = {
        f"order_{f.pk}": str(n)
        for f, n in ((world.east, 4), (world.west, 1), (world.goths, 2), (world.armenia, 3))
    }
    assert _client(world, "moderator").post("/c/limes/console/order/", order).status_code == 302
    assert list(
        Faction.objects.filter(campaign=world.campaign).order_by("turn_order").values_list("slug", flat=True)
    ) == ["west", "goths", "armenia", "east"]


def test_the_console_lists_open_disputes_and_answers_one(world: Any, live: LiveBattle) -> None:
    dispute = dispute_open(actor=world.observer, campaign=world.campaign, ref=f"B{live.pk}v2", text="Too far")
    client = _client(world, "moderator")
    assert "Too far" in client.get("/c/limes/console/").content.decode()
    assert (
        client.post(
            "/c/limes/console/answer/", {"dispute": dispute.pk, "answer": "Three cells: legal"}
        ).status_code
        == 302
    )
    assert Dispute.objects.get(pk=dispute.pk).status == "answered"
    assert LogEntry.objects.get(kind="dispute_answered").reason == "Three cells: legal"


def test_a_dispute_is_answered_once(world: Any, live: LiveBattle) -> None:
    dispute = dispute_open(actor=world.observer, campaign=world.campaign, ref=f"B{live.pk}v2", text="Too far")
    client = _client(world, "moderator")
    client.post("/c/limes/console/answer/", {"dispute": dispute.pk, "answer": "Legal"})
    response = client.post("/c/limes/console/answer/", {"dispute": dispute.pk, "answer": "Again"})
    assert response.status_code == 409
    assert LogEntry.objects.filter(kind="dispute_answered").count() == 1


@pytest.mark.parametrize(("action", "form", "sentence"), [
    ("role", {"user": "x", "role": "observer"}, "Give a whole number."),  # parsed before anything is looked up
    ("role", {"user": "999999", "role": "observer"}, "No such person."),  # checked before the service is called
    ("order", {"order_1": "first"}, "Give a whole number."),
    ("answer", {"dispute": "999999", "answer": "Legal"}, "No such dispute."),
])
def test_a_console_form_naming_nothing_usable_is_refused_with_400_and_changes_nothing(
        world: Any, action: str, form: dict[str, str], sentence: str) -> None:
    before = LogEntry.objects.count()
    response = _client(world, "moderator").post(f"/c/limes/console/{action}/", form)
    assert (response.status_code, sentence in response.content.decode()) == (400, True)
    assert LogEntry.objects.count() == before



def test_the_moderator_begins_the_strategic_phase_from_the_console(world: Any) -> None:
    client = _client(world, "moderator")
    assert "Begin the strategic phase" in client.get("/c/limes/console/").content.decode()
    response = client.post("/c/limes/console/begin/", follow=True)
    assert "The strategic phase of turn 1 began: Eastern Rome acts first (S4)." in response.content.decode()
    campaign = Campaign.objects.get(pk=world.campaign.pk)
    assert (campaign.phase, campaign.current_faction_id) == ("strategic", world.east.pk)
    assert LogEntry.objects.filter(campaign=campaign, kind="economic_phase_ended").count() == 1
    assert "Begin the strategic phase" not in client.get("/c/limes/console/").content.decode()


def test_beginning_twice_is_refused_with_the_rule_and_changes_nothing(world: Any) -> None:
    _strategic(world)
    response = _client(world, "moderator").post("/c/limes/console/begin/")
    assert response.status_code == 409
    assert "This can be done only in the economic phase (S4)." in response.content.decode()
    assert LogEntry.objects.filter(campaign=world.campaign, kind="economic_phase_ended").count() == 0


@pytest.mark.parametrize("role", ROLES[:-1])
def test_nobody_but_the_moderator_begins_the_strategic_phase(world: Any, role: str) -> None:
    assert _client(world, role).post("/c/limes/console/begin/").status_code == 403
    assert Campaign.objects.get(pk=world.campaign.pk).phase == "economic"
