"""One error shape for every app (docs/errors.md): a bad request to each app's API, and a bad socket frame,
answer the same keys with the same types."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from config.asgi import application
from strategic.models import Battle
from tactical.services import play as services
from tests.factories import build_world, client_for
from tests.tactical.conftest import deploy_both

C = "/api/campaigns/limes"
KEYS = {"status", "code", "detail", "rule", "errors", "refusal", "id", "version", "state"}


def assert_one_shape(body: Any, status: int) -> None:
    """The keys and types of docs/errors.md; ``status`` is the HTTP status (or the frame's own)."""
    assert isinstance(body, dict) and set(body) <= KEYS and {"status", "code", "detail"} <= set(body), body
    assert body["status"] == status, body
    assert isinstance(body["code"], str) and re.fullmatch(r"[a-z][a-z0-9_]*", body["code"]), body
    assert isinstance(body["detail"], str) and body["detail"], body
    assert isinstance(body.get("rule", ""), str), body
    errors = body.get("errors", {})
    assert isinstance(errors, dict) and all(
        isinstance(field, str) and isinstance(texts, list) and all(isinstance(t, str) for t in texts)
        for field, texts in errors.items()), body
    if "refusal" in body:
        assert {"code", "params"} <= set(body["refusal"]) <= {"code", "params", "field"}, body
        assert isinstance(body["refusal"]["code"], str) and isinstance(body["refusal"]["params"], dict), body


@pytest.fixture(autouse=True)
def _no_timers(settings: Any) -> None:
    settings.TACTICAL_CLOCK_TASKS = False  # no timer task reaches a broker


def _world() -> Any:
    """``build_world`` with its battle on the tactical map, round 1, the attacker to act."""
    w = build_world()
    record = Battle.objects.create(
        campaign=w.campaign, turn=1, province=w.dalmatia, origin=w.dacia, terrain="field",
        attacker_army=w.east_army, attacker_faction=w.east, defender_faction=w.west,
    )
    battle = services.battle_setup(actor=w.moderator, record=record, map_seed=7)
    cells = [{"x": x, "y": y, "feature": None} for x, y, _ in battle.state["cells"]]
    if cells:
        services.battle_map_edit(actor=w.moderator, battle_id=battle.pk, cells=cells)
    battle.refresh_from_db()
    w.live = deploy_both(battle, w)
    return w


@pytest.fixture
def world(db: Any) -> Any:
    """``_world`` in a test's transaction."""
    return _world()


@pytest.fixture
def committed_world(transactional_db: Any, settings: Any) -> Any:
    """``_world`` committed, for the socket (its database calls run in another thread)."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    return _world()


def _requests(w: Any) -> list[tuple[str, Any, str, str, Any, int, str]]:
    """(comment, user, method, path, body, status, code) — one bad request each."""
    b = f"/api/tactical/battles/{w.live.pk}"
    m = "/api/moderation/campaigns/limes"
    return [
        # campaign: the service's refusals, then DRF's own errors through the same handler
        ("no such campaign", w.east_general, "get", "/api/campaigns/atlantis/", None, 404, "campaign_not_found"),
        ("not a moderator", w.east_general, "post", f"{C}/factions/", {"name": "Huns"}, 403, "needs_moderator"),
        ("economic phase only for the moderator", w.moderator, "post", f"{C}/turn/pass/", {"faction": w.east.pk},
         409, "not_strategic"),
        ("a serializer's validation", w.moderator, "post", f"{C}/relations/", {"kind": "war"}, 400, "invalid"),
        ("no login (session first: 403)", None, "post", f"{C}/factions/", {"name": "Huns"}, 403,
         "not_authenticated"),
        ("a method the view has not", w.moderator, "delete", f"{C}/turn/", None, 405, "method_not_allowed"),
        ("a body that is not JSON", w.moderator, "post", f"{C}/factions/", "{not json", 400, "parse_error"),
        # strategic: a move out of turn, and into a province that is not adjacent
        ("out of turn (S4)", w.east_general, "post", f"{C}/armies/{w.east_army.pk}/move/",
         {"destination": w.moesia.pk}, 409, "not_your_turn"),
        ("no such army", w.east_general, "post", f"{C}/armies/999999/move/", {"destination": w.moesia.pk}, 404,
         "object_not_found"),
        # strategic, after a battle: an army that owes no retreat
        ("no retreat owed (S10)", w.east_general, "post", f"{C}/armies/{w.east_army.pk}/retreat/", {}, 409,
         "not_retreating"),
        # tactical over HTTP: a malformed action, another's unit, no such battle
        ("malformed action", w.east_general, "post", f"{b}/actions/", {"action": {"do": "fly"}}, 400, "invalid"),
        ("not his unit (T2)", w.west_leader, "post", f"{b}/actions/",
         {"action": {"do": "turn", "unit": w.live.state["units"][0]["id"], "facing": "E"}}, 403, "forbidden"),
        ("no such battle", w.east_general, "get", "/api/tactical/battles/999999/", None, 404, "not_found"),
        # moderation: a log filter that is not a number, a dispute of no entry, dice of no battle
        ("a filter by a number", w.east_general, "get", f"{m}/log/?unit=x1", None, 400, "bad_filter"),
        ("no such log entry", w.east_general, "post", f"{m}/disputes/", {"entry": "Z9", "text": "Wrong"}, 404,
         "bad_ref"),
        ("dice of no battle (Django's Http404)", w.moderator, "get", f"{m}/battles/999999/dice/", None, 404,
         "not_found"),
    ]


def test_every_app_answers_a_bad_request_in_the_one_shape(world: Any) -> None:
    seen = []
    for comment, user, method, path, body, status, code in _requests(world):
        client = client_for(user) if user is not None else APIClient()
        if isinstance(body, str):
            response = getattr(client, method)(path, body, content_type="application/json")
        else:
            response = getattr(client, method)(path, body, format="json")
        assert response.status_code == status, (comment, response.content)
        assert_one_shape(response.json(), status)
        seen.append((comment, response.json()["code"]))
    assert seen == [(comment, code) for comment, *_, code in _requests(world)]


async def test_a_socket_error_frame_has_the_one_shape(committed_world: Any) -> None:
    socket = WebsocketCommunicator(application, f"/ws/battles/{committed_world.live.pk}/",
                                   headers=[(b"origin", b"http://testserver")])
    connected, _ = await socket.connect(timeout=10)
    assert connected
    await socket.receive_from(timeout=5)  # the welcome
    frames = []
    for text in ("{not json", json.dumps({"type": "action", "id": "a-1", "action": {"do": "end_turn"}}),
                 json.dumps({"type": "sync", "since": -1})):
        await socket.send_to(text_data=text)
        frames.append(json.loads(await socket.receive_from(timeout=5)))
    await socket.disconnect()
    for frame in frames:
        assert frame.pop("type") == "error"
        assert_one_shape(frame, frame["status"])
    assert [(f["status"], f["code"]) for f in frames] == [(400, "bad_frame"), (403, "forbidden"), (400, "invalid")]


@pytest.mark.parametrize("path", [
    "/battles/99999999999999999999/",  # past PostgreSQL's bigint: it once reached the database and failed (a 500)
    "/battles/999999999999999999/",  # the longest id a route takes: looked up, and not found
    "/c/limes/battles/99999999999999999999/prepare/",
    "/api/tactical/battles/99999999999999999999/",
    "/api/campaigns/limes/armies/99999999999999999999/",
])
def test_an_id_too_long_for_the_database_is_not_found(world: Any, path: str) -> None:
    response = client_for(world.moderator).get(path)
    assert response.status_code == 404, response.content[:300]


@pytest.mark.parametrize("path", ["/ws/battles/99999999999999999999/", "/ws/nowhere/", "/ws/battles/1/extra/"])
async def test_a_socket_on_no_route_is_closed_as_not_found(committed_world: Any, path: str) -> None:
    socket = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://testserver")])
    connected, _ = await socket.connect(timeout=10)
    assert connected
    assert await socket.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}
