"""M1: the battle console's controls check who asks before they read what he sent: a stranger gets 403
whatever the body, a moderator 400 naming what is wrong (an outside probe had a non-object body answered 500)."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.messages import NEEDS_LOGIN, NEEDS_MODERATOR
from tactical.models import LiveBattle
from tests.factories import client_for

CONTROLS = ["clock/pause/", "clock/resume/", "clock/add/", "correct/", "undo/", "dice/roll/", "end/"]
BODIES = [[None, None], "a text", 7, None]


def _url(battle: LiveBattle, control: str) -> str:
    return f"/api/moderation/campaigns/limes/battles/{battle.pk}/{control}"


@pytest.mark.parametrize("control", CONTROLS)
@pytest.mark.parametrize("body", BODIES)
def test_m1_a_stranger_is_refused_before_the_body_is_read(world: Any, live: LiveBattle, control: str,
                                                          body: Any) -> None:
    anonymous = client_for().post(_url(live, control), body, format="json")
    player = client_for(world.east_general).post(_url(live, control), body, format="json")
    assert (anonymous.status_code, anonymous.json()) == (
        403, {"status": 403, "code": "needs_login", "detail": str(NEEDS_LOGIN)})
    assert (player.status_code, player.json()) == (
        403, {"status": 403, "code": "needs_moderator", "detail": str(NEEDS_MODERATOR), "rule": "M1"})


@pytest.mark.parametrize("control", CONTROLS)
def test_m1_a_moderator_s_non_object_body_is_a_400(world: Any, live: LiveBattle, control: str) -> None:
    version = LiveBattle.objects.get(pk=live.pk).version
    answer = client_for(world.moderator).post(_url(live, control), [None, None], format="json")
    body = answer.json()
    assert (answer.status_code, body["status"], body["code"], list(body["errors"])) == (
        400, 400, "invalid", ["non_field_errors"])
    assert LiveBattle.objects.get(pk=live.pk).version == version


def test_m1_a_moderator_s_nul_in_the_reason_is_a_400_naming_it(world: Any, live: LiveBattle) -> None:
    answer = client_for(world.moderator).post(_url(live, "clock/pause/"), {"reason": "a\x00b"}, format="json")
    assert (answer.status_code, list(answer.json()["errors"])) == (400, ["reason"])
