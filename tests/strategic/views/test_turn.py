"""The players' turn page (S2–S7): what the acting players see, and each form ending in a service call."""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from campaign import services as campaign_services
from campaign.models import Campaign
from strategic.messages import NOT_YOUR_TURN
from strategic.models import Army, Province, Unit
from strategic.services import armies as services
from strategic.services import moves
from tests.factories import UnitFactory

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def east_turn(world: Any) -> Any:
    """The strategic phase has begun: Eastern Rome (first in turn order) acts."""
    campaign_services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    return world


def _text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", response.content.decode()))


def _highlighted(response: Any) -> dict[str, str]:
    svg = re.search(r"<svg [^>]*class=\"limes-map\".*?</svg>", response.content.decode(), re.DOTALL)
    assert svg is not None
    root = ET.fromstring(svg.group(0))
    found = {}
    for g in root.iter(f"{SVG}g"):
        classes = (g.get("class") or "").split()
        if "dest" in classes:
            found[g.get("data-code") or ""] = next(c[5:] for c in classes if c.startswith("dest-"))
    return found


def _move(client: Any, army: Army, province: Province, follow: bool = False, **extra: Any) -> Any:
    return client.post(
        "/c/limes/turn/move/", {"army": army.pk, "destination": province.pk, **extra}, follow=follow
    )


def test_turn_page_asks_an_anonymous_visitor_to_log_in(east_turn: Any, client: Any) -> None:
    response = client.get("/c/limes/turn/")
    assert (response.status_code, response["Location"]) == (302, "/accounts/login/?next=/c/limes/turn/")


def test_turn_page_is_403_for_a_user_without_a_faction(east_turn: Any, client: Any) -> None:
    client.force_login(east_turn.outsider)
    response = client.get("/c/limes/turn/")
    assert response.status_code == 403
    assert "You lead or command no faction in this campaign." in _text(response)


def test_s5_legal_destinations_are_highlighted_on_the_map(east_turn: Any, client: Any) -> None:
    client.force_login(east_turn.east_general)
    response = client.get("/c/limes/turn/")
    assert response.status_code == 200
    assert _highlighted(response) == {"dalmatia": "battle", "moesia": "move", "pannonia": "capture"}


def test_s5_legal_destinations_are_listed_as_buttons(east_turn: Any, client: Any) -> None:
    client.force_login(east_turn.east_general)
    text = _text(client.get("/c/limes/turn/"))
    buttons = re.findall(r'class="button small dest-button">([^<]+)</button>', text)
    assert buttons == ["Dalmatia", "Moesia", "Pannonia"]
    assert "It is your faction's turn." in text


def test_s6_moving_into_an_empty_enemy_province_captures_it(east_turn: Any, client: Any) -> None:
    w = east_turn
    client.force_login(w.east_general)
    response = _move(client, w.east_army, w.pannonia)
    assert (response.status_code, response["Location"]) == (302, f"/c/limes/turn/?army={w.east_army.pk}")
    w.pannonia.refresh_from_db()
    assert w.pannonia.controller_id == w.east.pk
    assert "Danube army captured Pannonia." in _text(client.get(response["Location"]))


def test_s7_moving_into_enemy_units_reports_a_battle(east_turn: Any, client: Any) -> None:
    client.force_login(east_turn.east_general)
    response = _move(client, east_turn.east_army, east_turn.dalmatia, follow=True)
    assert "Danube army entered Dalmatia: a battle begins." in _text(response)


def test_s5_a_second_move_is_refused_with_409_and_the_rule(east_turn: Any, client: Any) -> None:
    client.force_login(east_turn.east_general)
    _move(client, east_turn.east_army, east_turn.moesia)
    response = _move(client, east_turn.east_army, east_turn.dacia)
    assert response.status_code == 409
    assert (
        '<a class="rule-id rule-link" href="/c/limes/rules/#S5" data-rule="S5" title="Rule S5: Movement">S5</a> This army has already moved this turn (S5).'
        in _text(response)
    )


def test_s4_moving_out_of_turn_is_refused_with_409(east_turn: Any, client: Any) -> None:
    client.force_login(east_turn.west_leader)
    response = _move(client, east_turn.west_army, east_turn.dacia)
    assert response.status_code == 409
    assert str(NOT_YOUR_TURN) in _text(response)


def test_a_stale_army_version_is_refused_with_409(east_turn: Any, client: Any) -> None:
    client.force_login(east_turn.east_general)
    response = _move(client, east_turn.east_army, east_turn.moesia, expected_version=0)
    assert response.status_code == 409
    assert "The army has changed since you loaded it; reload and try again." in _text(response)


def test_an_army_of_another_faction_is_a_400_form_error(east_turn: Any, client: Any) -> None:
    client.force_login(east_turn.east_general)
    response = _move(client, east_turn.west_army, east_turn.dacia)
    assert response.status_code == 400
    assert "Select a valid choice. That choice is not one of the available choices." in _text(response)
    assert Army.objects.get(pk=east_turn.west_army.pk).province_id == east_turn.dalmatia.pk


def test_s2_a_general_may_not_split_the_army_403(east_turn: Any, client: Any) -> None:
    w = east_turn
    client.force_login(w.east_general)
    unit = w.east_army.units.first()
    response = client.post(
        "/c/limes/turn/split/", {"army": w.east_army.pk, "units": [unit.pk], "name": "Vexillatio"}
    )
    assert response.status_code == 403
    assert "Only the faction's leader or a moderator may change its armies (S2)." in _text(response)


def test_s2_the_leader_splits_an_army(east_turn: Any, client: Any) -> None:
    w = east_turn
    client.force_login(w.east_leader)
    unit = w.east_army.units.order_by("id").first()
    response = client.post(
        "/c/limes/turn/split/", {"army": w.east_army.pk, "units": [unit.pk], "name": "Vexillatio"}
    )
    new = Army.objects.get(name="Vexillatio")
    assert (response.status_code, response["Location"]) == (302, f"/c/limes/turn/?army={new.pk}")
    assert list(new.units.values_list("pk", flat=True)) == [unit.pk]


def test_s2_the_leader_merges_two_armies(east_turn: Any, client: Any) -> None:
    w = east_turn
    new = services.army_split(
        actor=w.east_leader, army=w.east_army, unit_ids=[w.east_army.units.first().pk], name="Vexillatio"
    )
    client.force_login(w.east_leader)
    response = client.post("/c/limes/turn/merge/", {"army": new.pk, "into": w.east_army.pk}, follow=True)
    assert "Vexillatio was merged into Danube army." in _text(response)
    assert w.east_army.units.count() == 2


def test_s4_the_leader_places_a_new_unit_into_an_army(east_turn: Any, client: Any) -> None:
    w = east_turn
    unit = UnitFactory(faction=w.east, unit_type=w.infantry, province=w.dacia, name="Legio Nova")
    client.force_login(w.east_leader)
    page = _text(client.get("/c/limes/turn/"))
    assert "New units to place" in page
    response = client.post("/c/limes/turn/assign/", {"unit": unit.pk, "army": w.east_army.pk}, follow=True)
    assert "Legio Nova joined Danube army." in _text(response)
    assert Unit.objects.get(pk=unit.pk).army_id == w.east_army.pk


def test_s2_the_leader_forms_a_new_army_from_new_units(east_turn: Any, client: Any) -> None:
    w = east_turn
    unit = UnitFactory(faction=w.east, unit_type=w.infantry, province=w.moesia)
    client.force_login(w.east_leader)
    response = client.post(
        "/c/limes/turn/army/", {"units": [unit.pk], "name": "Moesian army", "commander": w.narses.pk}
    )
    army = Army.objects.get(name="Moesian army")
    assert (response.status_code, army.province_id, army.commander_id) == (302, w.moesia.pk, w.narses.pk)


def test_s4_passing_the_turn_hands_it_to_the_next_faction(east_turn: Any, client: Any) -> None:
    client.force_login(east_turn.east_leader)
    response = client.post("/c/limes/turn/pass/", follow=True)
    assert "Eastern Rome ended its turn." in _text(response)
    assert Campaign.objects.get(pk=east_turn.campaign.pk).current_faction_id == east_turn.west.pk


def test_s4_passing_out_of_turn_is_409(east_turn: Any, client: Any) -> None:
    client.force_login(east_turn.west_leader)
    response = client.post("/c/limes/turn/pass/")
    assert response.status_code == 409
    assert "It is not this faction's turn (S4)." in _text(response)


def test_a_moderator_picks_the_faction_to_see(east_turn: Any, client: Any) -> None:
    client.force_login(east_turn.moderator)
    text = _text(client.get("/c/limes/turn/?faction=west"))
    assert "Not your turn: Eastern Rome acts now." in text
    assert "Field army" in text


def test_s2_units_of_two_provinces_cannot_form_one_army_400(east_turn: Any, client: Any) -> None:
    w = east_turn
    here = UnitFactory(faction=w.east, unit_type=w.infantry, province=w.moesia)
    client.force_login(w.east_leader)
    response = client.post(
        "/c/limes/turn/army/",
        {"units": [here.pk, w.east_army.units.first().pk], "name": "Mixed", "commander": w.narses.pk},
    )
    assert response.status_code == 400
    assert "Every unit must belong to this faction and stand in this province (S2)." in _text(response)


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("move", {"army": "x", "destination": "1"}),  # not a number
        ("move", {"army": "999999", "destination": "999999"}),  # no such rows
        ("move", {"army": "1", "destination": "1", "expected_version": "-"}),
        ("split", {"army": "1", "units": ["a"], "name": ""}),
        ("merge", {"army": "1"}),
        ("assign", {}),
        ("army", {"units": [], "name": "x" * 500, "commander": "0"}),
    ],
)
def test_odd_form_input_is_a_400_never_a_server_error(
    east_turn: Any, client: Any, path: str, data: dict[str, Any]
) -> None:
    client.force_login(east_turn.east_leader)
    assert client.post(f"/c/limes/turn/{path}/", data).status_code == 400


def test_form_errors_are_under_the_fields_labels_in_the_players_language(east_turn: Any, client: Any) -> None:
    client.force_login(east_turn.east_leader)
    data = {"army": "x", "destination": "999999"}
    english = _text(client.post("/c/limes/turn/move/", data, HTTP_ACCEPT_LANGUAGE="en"))
    assert "<p>Army: Select a valid choice. That choice is not one of the available choices.</p>" in english
    assert "<p>Destination: Select a valid choice." in english
    russian = _text(client.post("/c/limes/turn/move/", data, HTTP_ACCEPT_LANGUAGE="ru"))
    assert "<p>Армия: Выберите корректный вариант. Вашего варианта нет среди допустимых значений.</p>" in russian
    assert "<p>Куда: Выберите корректный вариант." in russian
    assert "army:" not in russian and "destination:" not in russian


def test_turn_actions_need_post(east_turn: Any, client: Any) -> None:
    client.force_login(east_turn.east_leader)
    assert client.get("/c/limes/turn/pass/").status_code == 405


@pytest.fixture
def battle_in_dalmatia(east_turn: Any) -> Any:
    """The Danube army has attacked Dalmatia; East has a second army in Dacia and one in Moesia."""
    from tests.factories import ArmyFactory

    w = east_turn
    moves.army_move(actor=w.east_general, army=w.east_army, destination=w.dalmatia)
    w.reserve = ArmyFactory(faction=w.east, commander=w.narses, province=w.dacia, name="Reserve")
    w.far = ArmyFactory(faction=w.east, commander=w.narses, province=w.moesia, name="Far army")
    for army in (w.reserve, w.far):
        UnitFactory(faction=w.east, unit_type=w.infantry, army=army)
    return w


def test_s8_pending_battles_are_shown_for_support(battle_in_dalmatia: Any, client: Any) -> None:
    client.force_login(battle_in_dalmatia.east_leader)
    text = _text(client.get("/c/limes/turn/"))
    assert "Battles awaiting resolution" in text
    assert f'<option value="{battle_in_dalmatia.reserve.pk}">Reserve (Dacia)</option>' in text


def test_s8_an_army_next_to_the_battle_declares_support(battle_in_dalmatia: Any, client: Any) -> None:
    from strategic.models import Battle, BattleSupport

    w = battle_in_dalmatia
    battle = Battle.objects.get(province=w.dalmatia)
    client.force_login(w.east_leader)
    response = client.post(
        "/c/limes/turn/support/", {"battle": battle.pk, "army": w.reserve.pk, "side": "attacker"}, follow=True
    )
    assert "Reserve declared support in Dalmatia; side: Attacker." in _text(response)
    support = BattleSupport.objects.get(battle=battle)
    assert (support.army_id, support.side, support.from_adjacent) == (w.reserve.pk, "attacker", True)


def test_s8_an_army_too_far_is_refused_with_the_rule(battle_in_dalmatia: Any, client: Any) -> None:
    from strategic.models import Battle

    w = battle_in_dalmatia
    client.force_login(w.east_leader)
    response = client.post(
        "/c/limes/turn/support/",
        {"battle": Battle.objects.get(province=w.dalmatia).pk, "army": w.far.pk, "side": "attacker"},
    )
    assert response.status_code == 400
    assert (
        '<a class="rule-id rule-link" href="/c/limes/rules/#S8" data-rule="S8" title="Rule S8: Support">S8</a> A supporting army must stand in the battle\'s province '
        "or next to it (S8)."
    ) in _text(response)


def test_s8_the_support_form_offers_only_armies_that_may_support_and_says_why_not_the_rest(
    battle_in_dalmatia: Any, client: Any
) -> None:
    w = battle_in_dalmatia
    client.force_login(w.east_leader)
    text = _text(client.get("/c/limes/turn/"))
    options = re.findall(r'<select id="support-army-\d+" name="army">(.*?)</select>', text)
    assert options == [f'<option value="{w.reserve.pk}">Reserve (Dacia)</option>']
    assert '<p class="muted support-excluded">Danube army: The attacking army already fights in this battle.</p>' in text
    assert ('<p class="muted support-excluded">Far army: A supporting army must stand in the battle\'s province '
            "or next to it (S8).</p>") in text


def test_s2_a_general_is_not_offered_to_place_units_he_may_not_place(east_turn: Any, client: Any) -> None:
    w = east_turn
    UnitFactory(faction=w.east, unit_type=w.infantry, army=None, province=w.dacia)
    client.force_login(w.east_general)
    text = _text(client.get("/c/limes/turn/"))
    assert "Place into the army" not in text and "Form a new army here" not in text
    assert "Only the faction's leader or a moderator may place units into armies." in text
    client.force_login(w.east_leader)
    assert "Place into the army" in _text(client.get("/c/limes/turn/"))


def test_s5_after_its_move_an_army_gets_a_reason_not_an_empty_list(east_turn: Any, client: Any) -> None:
    w = east_turn
    client.force_login(w.east_general)
    _move(client, w.east_army, w.moesia)
    text = _text(client.get(f"/c/limes/turn/?army={w.east_army.pk}"))
    assert 'id="move-form"' not in text
    assert ('<p class="muted" id="move-unavailable"><span class="rule-id">S5</span> This army has already moved '
            "this turn (S5).</p>") in text


def test_s5_each_province_the_army_may_not_enter_has_its_reason_for_the_map(east_turn: Any, client: Any) -> None:
    w = east_turn
    client.force_login(w.east_general)
    html = client.get(f"/c/limes/turn/?army={w.east_army.pk}").content.decode()
    match = re.search(r'<script id="map-refusals" type="application/json">(.*?)</script>', html, re.DOTALL)
    assert match is not None
    refusals = json.loads(match.group(1))
    assert (refusals[str(w.italia.pk)], refusals[str(w.gaul.pk)], refusals[str(w.dacia.pk)]) == (
        "An army moves only into an adjacent province (S5).",
        "This border is impassable (S5).",
        "The army is already in this province.",
    )
    assert str(w.moesia.pk) not in refusals  # a legal move
