"""The Setup pages (M1): unit cards, starting units and armies, and the corrections of a unit's health and
place, which need a reason once the campaign has begun (M1); nothing is half-saved."""

from __future__ import annotations

import html
import re
from typing import Any

from campaign.models import LogEntry
from campaign.versions import row_version
from strategic.models import Army, Unit, UnitType
from strategic.services import map as map_services
from tests.strategic.views.setup_pages import CORRECTION, begin, field_errors, page_text

# Unit cards


def _card_post(**extra: Any) -> dict[str, Any]:
    post = {"card-code": "bowmen", "card-name_en": "Archers", "card-name_ru": "Лучники", "card-unit_class": "LI1",
            "card-health": "3.5", "card-missile": "on", "card-arrows": 4, "card-morale": 10}
    for cls, n in zip(("LI1", "LI2", "HI", "LC", "HC"), (2, 2, 1, 1, 1), strict=True):
        post[f"card-damage_{cls}"] = n
    post.update(extra)
    return post


def test_a_unit_card_is_created_and_shown_as_a_card(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/units/", _card_post(), follow=True)
    card = UnitType.objects.get(campaign=world.campaign, code="bowmen")
    assert (str(card.health), card.damage, card.missile_damage, card.arrows) == (
        "3.5", {"LI1": 2, "LI2": 2, "HI": 1, "LC": 1, "HC": 1}, None, 4
    )
    assert 'id="card-bowmen"' in response.content.decode()
    card_html = response.content.decode().split('id="card-bowmen"')[1].split("</article>")[0]
    plain = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", card_html)).split())
    # The card a player sees on the rosters and the turn page (strategic/_unit_card.html).
    assert plain.startswith('data-unit-card-type="bowmen"> Archers Light infantry, level 1 (LI1) Health, lines T3.1 3½ '
                            "Arrows T9 4 Range T9.1")
    assert "Melee 2 2 1 1 1" in plain
    assert "Speed 3 3 2 3" in plain
    assert 'href="/c/limes/setup/units/%d/" id="card-edit-bowmen"' % card.pk in response.content.decode()


def test_a_unit_card_names_health_not_in_half_lines(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/units/", _card_post(**{"card-health": "3.3"}))
    assert response.status_code == 400
    assert field_errors(response) == ["Health in lines (T3.1): Health is counted in half lines, more than 0 (T3.1)."]
    assert not UnitType.objects.filter(code="bowmen").exists()


def test_a_unit_card_with_part_of_its_volley_damage_names_the_missing_classes(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/units/", _card_post(**{"card-volley_LI1": 3, "card-volley_LI2": 3}))
    assert field_errors(response) == [
        f"Volley damage against {cls} (T9.4; empty: as in melee): Give the volley damage against every class, or none."
        for cls in ("HI", "LC", "HC")
    ]


def test_a_stale_unit_card_form_is_a_conflict(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    client.post("/c/limes/setup/units/", _card_post())
    card = UnitType.objects.get(campaign=world.campaign, code="bowmen")
    stale = row_version(card)
    map_services.unit_type_update(actor=world.moderator, unit_type=card, morale=12)
    post = _card_post(**{"card-version": stale, "card-morale": 8})
    response = client.post(f"/c/limes/setup/units/{card.pk}/", post)
    assert (response.status_code, UnitType.objects.get(pk=card.pk).morale) == (409, 12)


# Starting units and armies


def test_units_are_placed_in_a_province_and_formed_into_an_army(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    card = Unit.objects.filter(campaign=world.campaign).first().unit_type
    response = client.post("/c/limes/setup/armies/unit/", {
        "unit-faction": world.goths.pk, "unit-unit_type": card.pk, "unit-province": world.thracia.pk,
        "unit-count": 2, "unit-name": ""})
    assert response.status_code == 302
    loose = list(Unit.objects.filter(faction=world.goths, army__isnull=True, province=world.thracia))
    assert len(loose) == 2
    response = client.post("/c/limes/setup/armies/army/", {
        "army-name": "Second band", "army-commander": world.alaric.pk, "army-units": [u.pk for u in loose]})
    assert response.status_code == 302
    army = Army.objects.get(name="Second band")
    assert (army.province_id, sorted(army.units.values_list("pk", flat=True))) == (
        world.thracia.pk, sorted(u.pk for u in loose)
    )


def test_an_army_of_another_factions_units_names_the_units_field(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    card = Unit.objects.filter(campaign=world.campaign).first().unit_type
    client.post("/c/limes/setup/armies/unit/", {
        "unit-faction": world.goths.pk, "unit-unit_type": card.pk, "unit-province": world.thracia.pk,
        "unit-count": 1})
    unit = Unit.objects.get(faction=world.goths, army__isnull=True)
    response = client.post("/c/limes/setup/armies/army/", {
        "army-name": "Odd", "army-commander": world.aetius.pk, "army-units": [unit.pk]})
    assert (response.status_code, field_errors(response)) == (400, [
        "Units (of one faction, in one province): Every unit must belong to this faction and stand in this "
        "province (S2)."
    ])
    assert not Army.objects.filter(name="Odd").exists()


def test_units_are_not_half_placed_when_the_phase_refuses(world: Any, client: Any) -> None:
    begin(world)
    client.force_login(world.moderator)
    card = Unit.objects.filter(campaign=world.campaign).first().unit_type
    before = Unit.objects.count()
    response = client.post("/c/limes/setup/armies/unit/", {
        "unit-faction": world.goths.pk, "unit-unit_type": card.pk, "unit-province": world.thracia.pk,
        "unit-count": 3})
    assert (response.status_code, Unit.objects.count()) == (409, before)
    assert "New units appear only in the economic phase (S4)." in page_text(response)


# Corrections of a unit's health and place (M1)


def _unit_post(unit: Unit, **extra: Any) -> dict[str, Any]:
    post = {"fix-health": unit.health_halves / 2, "fix-army": unit.army_id or "",
            "fix-province": "" if unit.army_id else unit.province_id, "fix-version": row_version(unit)}
    post.update(extra)
    return post


def test_before_the_campaign_begins_a_units_health_is_set_without_reason(world: Any, client: Any) -> None:
    unit = world.east_army.units.first()
    client.force_login(world.moderator)
    response = client.post(f"/c/limes/setup/armies/units/{unit.pk}/", _unit_post(unit, **{"fix-health": "1.5"}))
    assert (response.status_code, Unit.objects.get(pk=unit.pk).health_halves) == (302, 3)


def test_m1_once_begun_a_units_health_without_reason_is_refused_in_the_page(world: Any, client: Any) -> None:
    begin(world)
    unit = world.east_army.units.first()
    before = unit.health_halves
    client.force_login(world.moderator)
    response = client.post(f"/c/limes/setup/armies/units/{unit.pk}/", _unit_post(unit, **{"fix-health": "1.5"}))
    assert response.status_code == 400
    assert field_errors(response) == [
        f"Reason (for the log; needed for a correction once the campaign has begun, M1): {CORRECTION}"
    ]
    assert Unit.objects.get(pk=unit.pk).health_halves == before


def test_m1_once_begun_a_unit_moved_out_of_its_army_with_a_reason_is_logged(world: Any, client: Any) -> None:
    begin(world)
    unit = world.east_army.units.first()
    client.force_login(world.moderator)
    response = client.post(f"/c/limes/setup/armies/units/{unit.pk}/", _unit_post(
        unit, **{"fix-army": "", "fix-province": world.moesia.pk, "fix-reason": "Deserted (ruling 7)"}))
    assert response.status_code == 302
    moved = Unit.objects.get(pk=unit.pk)
    assert (moved.army_id, moved.province_id) == (None, world.moesia.pk)
    entry = LogEntry.objects.get(campaign=world.campaign, kind="unit_corrected")
    assert (entry.reason, entry.data["after"]["province"], entry.data["before"]["army"]) == (
        "Deserted (ruling 7)", "moesia", world.east_army.pk
    )


def test_m1_once_begun_the_api_refuses_a_units_health_without_reason(world: Any, client: Any) -> None:
    begin(world)
    unit = world.east_army.units.first()
    client.force_login(world.moderator)
    response = client.patch(f"/api/campaigns/limes/units/{unit.pk}/", {"health": 1}, content_type="application/json")
    body = response.json()
    assert (response.status_code, body["code"], body["errors"]) == (400, "correction_needs_reason", {"reason": [CORRECTION]})
    response = client.patch(f"/api/campaigns/limes/units/{unit.pk}/", {"health": 1, "reason": "Plague"},
                            content_type="application/json")
    assert (response.status_code, response.json()["health"]) == (200, 1.0)


def test_the_api_refuses_a_unit_correction_from_a_player(world: Any, client: Any) -> None:
    unit = world.east_army.units.first()
    client.force_login(world.east_leader)
    response = client.patch(f"/api/campaigns/limes/units/{unit.pk}/", {"health": 1}, content_type="application/json")
    assert response.status_code == 403


def test_a_units_health_above_its_card_names_the_field(world: Any, client: Any) -> None:
    unit = world.east_army.units.first()
    client.force_login(world.moderator)
    response = client.post(f"/c/limes/setup/armies/units/{unit.pk}/", _unit_post(unit, **{"fix-health": "9"}))
    most = unit.unit_type.health.normalize()
    assert (response.status_code, field_errors(response)) == (400, [
        f"Health in lines (T3.1): Give the health in lines, half lines allowed, more than 0 and at most {most}, "
        "the card's (T3.1)."
    ])


def test_a_stale_unit_correction_is_a_conflict(world: Any, client: Any) -> None:
    unit = world.east_army.units.first()
    post = _unit_post(unit, **{"fix-health": "1"})
    Unit.objects.filter(pk=unit.pk).update(health_halves=1)
    client.force_login(world.moderator)
    response = client.post(f"/c/limes/setup/armies/units/{unit.pk}/", post)
    assert (response.status_code, Unit.objects.get(pk=unit.pk).health_halves) == (409, 1)
