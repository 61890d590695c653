"""M1, T6.1, T7.6: the battle console's controls over HTTP — the permission matrix, reasons, the forms."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from campaign.models import LogEntry
from tactical.models import BattleEvent, LiveBattle
from tests.factories import client_for
from tests.tactical.builders import act, units_of

API = "/api/moderation/campaigns/limes/battles/{id}/"
CONTROLS = [("clock/pause", "pause"), ("clock/resume", "resume"), ("clock/add", "add_time"),
            ("correct", "correct"), ("undo", "undo"), ("dice/roll", "roll")]
BODIES = {"add_time": {"seconds": 30}, "correct": {"changes": [{"unit": "u1", "facing": "E"}]}}


def _client(world: Any, role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(getattr(world, role))
    return client


@pytest.mark.parametrize("role", ["anonymous", "observer", "east_general", "west_leader", "other_moderator"])
@pytest.mark.parametrize(("route", "control"), CONTROLS)
def test_nobody_but_the_moderator_uses_the_controls(world: Any, live: LiveBattle, role: str, route: str,
                                                    control: str) -> None:
    api = client_for(None if role == "anonymous" else getattr(world, role))
    body = {"reason": "Because", **BODIES.get(control, {})}
    assert api.post(API.format(id=live.pk) + route + "/", body, format="json").status_code == 403
    page = _client(world, role).post(f"/c/limes/battles/{live.pk}/console/{control}/", {"reason": "Because"})
    assert page.status_code == 403
    version = live.version
    live.refresh_from_db()
    assert live.version == version


@pytest.mark.parametrize(("route", "control"), CONTROLS)
def test_a_control_without_a_reason_is_refused_naming_it(world: Any, live: LiveBattle, route: str,
                                                         control: str) -> None:
    response = client_for(world.moderator).post(API.format(id=live.pk) + route + "/", BODIES.get(control, {}),
                                                format="json")
    assert (response.status_code, list(response.json()["errors"]), response.json()["rule"]) == (400, ["reason"], "M1")


def test_the_moderator_pauses_resumes_and_adds_time_over_the_api(world: Any, live: LiveBattle) -> None:
    api = client_for(world.moderator)
    body = api.post(API.format(id=live.pk) + "clock/pause/", {"reason": "Tea"}, format="json").json()
    assert (body["paused"], body["deadline"], body["awaiting_die"]) == (True, None, False)
    refused = client_for(world.east_general).post(
        f"/api/tactical/battles/{live.pk}/actions/", {"action": {"do": "end_turn"}}, format="json"
    )
    assert (refused.status_code, refused.json()["code"]) == (409, "paused")
    bad = api.post(API.format(id=live.pk) + "clock/add/", {"seconds": 9999, "reason": "x"}, format="json")
    assert (bad.status_code, bad.json()["errors"]) == (400, {"seconds": ["Add a whole number of seconds from 1 to 600."]})
    body = api.post(API.format(id=live.pk) + "clock/resume/", {"reason": "Back"}, format="json").json()
    assert (body["paused"], body["deadline"] is not None) == (False, True)
    assert [e.reason for e in LogEntry.objects.filter(kind__startswith="battle_clock").order_by("id")] == [
        "Tea", "Back"]


def test_a_console_correction_names_the_bad_field(world: Any, live: LiveBattle) -> None:
    east = units_of(live, "attacker")[0]
    client = _client(world, "moderator")
    response = client.post(f"/c/limes/battles/{live.pk}/console/correct/",
                           {"unit": east, "x": "9", "y": "18", "reason": "Shift"})
    assert response.status_code == 400
    assert "Another unit stands in that cell." in response.content.decode()
    response = client.post(f"/c/limes/battles/{live.pk}/console/correct/",
                           {"unit": east, "x": "4", "y": "16", "health": "1.5", "reason": "Shift"})
    assert response.status_code == 302
    live.refresh_from_db()
    unit = next(u for u in live.state["units"] if u["id"] == east)
    assert (unit["x"], unit["y"], unit["health"]) == (4, 16, 3)
    assert BattleEvent.objects.get(battle=live, version=live.version).action["reason"] == "Shift"


def test_the_console_takes_back_the_last_action(world: Any, live: LiveBattle) -> None:
    east = units_of(live, "attacker")[0]
    before = live.state
    act(live, world.east_general, {"do": "turn", "unit": east, "facing": "E"})
    response = _client(world, "moderator").post(f"/c/limes/battles/{live.pk}/console/undo/", {"reason": "Slip"})
    assert response.status_code == 302
    live.refresh_from_db()
    assert live.state == before


def test_the_console_shows_the_awaited_die_and_rolls_it(world: Any, in_contact: LiveBattle) -> None:
    act(in_contact, world.west_leader, {"do": "end_interceptions"})
    act(in_contact, world.west_leader, {"do": "end_turn"})
    client = _client(world, "moderator")
    page = client.get(f"/c/limes/battles/{in_contact.pk}/console/").content.decode()
    assert "The battle is waiting for your die (T7.6)." in page
    assert 'id="roll-form"' in page
    response = client.post(f"/c/limes/battles/{in_contact.pk}/console/roll/", {"reason": "Double rout"},
                           follow=True)
    in_contact.refresh_from_db()
    die = BattleEvent.objects.get(battle=in_contact, version=in_contact.version).dice
    assert f"The die was rolled: {die[0]} (T7.6)." in response.content.decode()
    assert 'id="roll-form"' not in response.content.decode()
    again = client.post(f"/c/limes/battles/{in_contact.pk}/console/roll/", {"reason": "Again"})
    assert again.status_code == 409
    assert "No die is awaited" in again.content.decode()
