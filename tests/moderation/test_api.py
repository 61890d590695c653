"""The moderation API: the audit log as JSON, disputes, and its refusals."""

from __future__ import annotations

from typing import Any

from moderation.models import Dispute
from tactical.models import LiveBattle
from tests.factories import client_for


def test_the_log_api_lists_entries_with_their_refs(world: Any, live: LiveBattle) -> None:
    body = client_for().get("/api/moderation/campaigns/limes/log/", {"battle": live.pk}).json()
    battle_rows = [row["ref"] for row in body if row["source"] == "battle"]
    assert battle_rows == [f"B{live.pk}v{v}" for v in range(1, 8)]
    assert {row["battle"] for row in body} == {live.pk}


def test_a_bad_filter_is_a_400_naming_the_field(world: Any) -> None:
    response = client_for().get("/api/moderation/campaigns/limes/log/", {"unit": "x1"})
    assert (response.status_code, response.json()["errors"]) == (400, {"unit": ["Filter by a whole number."]})


def test_a_private_campaign_s_log_is_404_to_outsiders(world: Any) -> None:
    world.campaign.is_public = False
    world.campaign.save(update_fields=["is_public"])
    assert client_for(world.outsider).get("/api/moderation/campaigns/limes/log/").status_code == 404


def test_a_member_disputes_over_the_api(world: Any, live: LiveBattle) -> None:
    response = client_for(world.east_general).post(
        "/api/moderation/campaigns/limes/disputes/",
        {"entry": f"B{live.pk}v2", "text": "Wrong"},
        format="json",
    )
    assert (response.status_code, response.json()) == (
        201,
        {"id": Dispute.objects.get().pk, "entry": f"B{live.pk}v2", "status": "open"},
    )


def test_an_anonymous_dispute_is_refused(world: Any, live: LiveBattle) -> None:
    response = client_for().post(
        "/api/moderation/campaigns/limes/disputes/",
        {"entry": f"B{live.pk}v2", "text": "Wrong"},
        format="json",
    )
    assert response.status_code == 403
    assert not Dispute.objects.exists()
