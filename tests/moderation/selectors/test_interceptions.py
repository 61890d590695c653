"""T10.4, M1: an interception the moderator took back (undo) is marked as taken back in the record, the
console page, the API and the BBCode report, with the undo's time, moderator and reason; it is not ruled on.

West's second unit intercepts East's first in version 22 (``intercepted``); the moderator takes it back in
version 23 ("Declared by mistake").
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from campaign.models import LogEntry
from moderation.models import InterceptionRuling
from moderation.selectors.interceptions import TakenBack, interception_record
from tactical.models import BattleEvent, LiveBattle
from tactical.services import moderation as moderator_services
from tests.factories import client_for
from tests.tactical.builders import act, units_of

WHY = "Declared by mistake"
REFUSED_EN = ("This interception was taken back by the moderator in version 23 (M1): it no longer stands, so there "
              "is nothing to rule on (T10.4).")
REFUSED_RU = ("Этот перехват модератор отменил в версии 23 (M1): он больше не действует, и решать по нему нечего "
              "(T10.4).")


@pytest.fixture
def taken_back(world: Any, intercepted: LiveBattle) -> LiveBattle:
    moderator_services.battle_action_undo(actor=world.moderator, battle_id=intercepted.pk, reason=WHY)
    intercepted.refresh_from_db()
    return intercepted


def _undone_at(battle: LiveBattle) -> str:
    """The undo's time as the console and the report show it (UTC, to the microsecond)."""
    return BattleEvent.objects.get(battle=battle, version=23).created_at.strftime("%H:%M:%S.%f")


def _moderator(world: Any, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(world.moderator)
    return client


def _rule(world: Any, battle: LiveBattle, language: str = "en", version: int = 22) -> Any:
    data = {"version": version, "unit": units_of(battle, "defender")[1], "verdict": "confirmed",
            "reason": "Declared in time"}
    return _moderator(world, language).post(f"/c/limes/battles/{battle.pk}/console/rule/", data)


def test_the_record_marks_the_interception_taken_back_with_the_undo(taken_back: LiveBattle) -> None:
    [entry] = interception_record(battle=taken_back)
    undo = BattleEvent.objects.get(battle=taken_back, version=23)
    assert (entry.version, entry.unit, entry.ruling) == (22, units_of(taken_back, "defender")[1], None)
    assert entry.taken_back == TakenBack(version=23, at=undo.created_at, by="moderator", reason=WHY)


def test_a_standing_interception_is_not_marked(intercepted: LiveBattle) -> None:
    [entry] = interception_record(battle=intercepted)
    assert entry.taken_back is None


def test_the_api_gives_the_undo_beside_the_interception(world: Any, taken_back: LiveBattle) -> None:
    body = client_for().get(f"/api/moderation/campaigns/limes/battles/{taken_back.pk}/interceptions/").json()
    undo = BattleEvent.objects.get(battle=taken_back, version=23)
    assert [(i["version"], i["ruling"], i["taken_back"]) for i in body] == [
        (22, None, {"version": 23, "at": undo.created_at.isoformat(), "moderator": "moderator", "reason": WHY})]


@pytest.mark.parametrize(("language", "sentence"), [("en", REFUSED_EN), ("ru", REFUSED_RU)])
def test_a_ruling_on_a_taken_back_interception_is_refused_on_the_console(
    world: Any, taken_back: LiveBattle, language: str, sentence: str
) -> None:
    response = _rule(world, taken_back, language)
    assert response.status_code == 409
    assert sentence in response.content.decode()
    assert not InterceptionRuling.objects.exists()
    assert not LogEntry.objects.filter(kind="interception_ruled").exists()


@pytest.mark.parametrize(("language", "sentence"), [("en", REFUSED_EN), ("ru", REFUSED_RU)])
def test_a_ruling_on_a_taken_back_interception_is_refused_over_the_api(
    world: Any, taken_back: LiveBattle, language: str, sentence: str
) -> None:
    response = client_for(world.moderator).post(
        f"/api/moderation/campaigns/limes/battles/{taken_back.pk}/interceptions/",
        {"version": 22, "unit": units_of(taken_back, "defender")[1], "verdict": "overruled", "reason": "Late"},
        format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert (response.status_code, response.json()) == (409, {"status": 409, "code": "taken_back", "detail": sentence, "rule": "T10.4"})
    assert not InterceptionRuling.objects.exists()


@pytest.mark.parametrize(("language", "said"), [
    ("en", "Taken back by moderator in v23 at {at} UTC (M1): Declared by mistake"),
    ("ru", "Отменён модератором moderator в v23 в {at} UTC (M1): Declared by mistake"),
])
def test_the_console_says_the_interception_was_taken_back_and_offers_no_ruling(
    world: Any, taken_back: LiveBattle, language: str, said: str
) -> None:
    page = _moderator(world, language).get(f"/c/limes/battles/{taken_back.pk}/console/").content.decode()
    assert '<tr class="taken-back"><td>v22</td>' in page
    assert f"<strong>{said.format(at=_undone_at(taken_back))}</strong>" in page
    assert 'name="version" value="22"' not in page


@pytest.mark.parametrize(("language", "line"), [
    ("en", ("[*][s]v22: {unit} intercepted {target}[/s] — Taken back by moderator in v23 at {at} UTC (M1): "
            "Declared by mistake")),
    ("ru", ("[*][s]v22: {unit} перехватил {target}[/s] — Отменён модератором moderator в v23 в {at} UTC (M1): "
            "Declared by mistake")),
])
def test_the_battle_report_strikes_the_interception_through(
    world: Any, taken_back: LiveBattle, language: str, line: str
) -> None:
    text = Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/c/limes/battles/{taken_back.pk}/report.txt").content.decode()
    [entry] = interception_record(battle=taken_back)
    expected = line.format(unit=entry.unit_name, target=entry.target_name, at=_undone_at(taken_back))
    assert [x for x in text.splitlines() if x.startswith("[*][s]") or "v22" in x] == [expected]


def test_declared_again_after_the_undo_it_stands_and_is_ruled_on(world: Any, taken_back: LiveBattle) -> None:
    interceptor, target = units_of(taken_back, "defender")[1], units_of(taken_back, "attacker")[0]
    act(taken_back, world.west_leader, {"do": "intercept", "unit": interceptor, "target": target, "path": [[9, 3]]})
    assert [(e.version, e.taken_back is not None) for e in interception_record(battle=taken_back)] == [
        (22, True), (24, False)]
    assert _rule(world, taken_back, version=24).status_code == 302
    assert InterceptionRuling.objects.get().version == 24


def test_a_ruling_given_before_the_undo_stays_beside_the_mark(world: Any, intercepted: LiveBattle) -> None:
    assert _rule(world, intercepted).status_code == 302
    moderator_services.battle_action_undo(actor=world.moderator, battle_id=intercepted.pk, reason=WHY)
    [entry] = interception_record(battle=intercepted)
    assert (entry.ruling.verdict if entry.ruling else None, entry.taken_back.version if entry.taken_back else None) == (
        "confirmed", 23)
    page = _moderator(world).get(f"/c/limes/battles/{intercepted.pk}/console/").content.decode()
    assert "Confirmed — Declared in time (moderator)" in page
