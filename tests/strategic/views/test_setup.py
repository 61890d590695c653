"""The Setup pages of the strategic map (M1): the map file, provinces on the map picture, borders, transitions,
unit cards, starting units and armies, and the page that creates a campaign. Each refusal names its field in
the reader's language, a player gets 403, nothing is half-saved, a stale form is a conflict (409), and once
the campaign has begun a new controller needs a reason in the page and in the API (M1)."""

from __future__ import annotations

import html
import io
import json
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from campaign.models import Campaign, LogEntry, Membership
from campaign.versions import row_version
from strategic.models import Army, Border, Province, TerrainTransition, Unit, UnitType
from strategic.services import map as map_services
from tests.factories import CampaignFactory, member
from tests.strategic.builders import small_map

CORRECTION = (
    "The campaign has begun: this changes the state of the game and is a correction. Give a reason: it is "
    "written into the log every participant reads (M1)."
)


def _text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", response.content.decode()))


def _errors(response: Any) -> list[str]:
    return [html.unescape(e) for e in re.findall(r'<p class="field-error" role="alert"[^>]*>([^<]*)</p>',
                                                  response.content.decode())]


def _upload(client: Any, slug: str, data: Any, replace: bool = False) -> Any:
    body = io.BytesIO(json.dumps(data).encode())
    body.name = "map.json"
    post: dict[str, Any] = {"map-file": body}
    if replace:
        post["map-replace"] = "on"
    return client.post(f"/c/{slug}/setup/map/upload/", post)


@pytest.fixture
def empty(db: Any) -> Any:
    campaign = CampaignFactory(slug="empty", name_en="Empty", name_ru="Пустая")
    moderator = member(campaign, Membership.Role.MODERATOR)
    return campaign, moderator


# The map file


def test_a_map_file_with_errors_imports_nothing_and_lists_each_error(empty: Any, client: Any) -> None:
    campaign, moderator = empty
    bad = small_map()
    bad["provinces"][1]["terrain"] = "swamp"
    bad["borders"][0]["kind"] = "wall"
    client.force_login(moderator)
    response = _upload(client, "empty", bad)
    assert response.status_code == 400
    listed = re.findall(r"<li><code>([^<]+)</code>: ([^<]+)</li>", html.unescape(response.content.decode()))
    assert listed == [
        ("borders[0].kind", "borders[0]: kind must be one of normal, rough, strait, impassable."),
        ("provinces[1].terrain", "provinces[1] (dalmatia): terrain must be one of field, forest, mountains, desert."),
    ]
    assert Province.objects.filter(campaign=campaign).count() == 0


def test_a_good_map_file_imports_and_is_logged(empty: Any, client: Any) -> None:
    campaign, moderator = empty
    client.force_login(moderator)
    response = _upload(client, "empty", small_map())
    assert response.status_code == 302
    assert sorted(Province.objects.filter(campaign=campaign).values_list("code", flat=True)) == [
        "dacia", "dalmatia", "gallia"
    ]
    assert LogEntry.objects.filter(campaign=campaign, kind="map_imported").count() == 1


def test_a_file_that_is_not_json_names_the_file_field(empty: Any, client: Any) -> None:
    _campaign, moderator = empty
    client.force_login(moderator)
    body = io.BytesIO(b"{not json")
    body.name = "map.json"
    response = client.post("/c/empty/setup/map/upload/", {"map-file": body})
    assert response.status_code == 400
    assert _errors(response) == ["Map file (JSON): The uploaded file is not JSON (line 1, column 2)."]
    assert Province.objects.filter(campaign=_campaign).count() == 0


@pytest.mark.parametrize("language, content, expected", [
    ("en", b"\xff\xfe{}", "Map file (JSON): The uploaded file is not UTF-8 text."),
    ("ru", b"\xff\xfe{}", "Файл карты (JSON): Загруженный файл — не текст в UTF-8."),
    ("ru", b'{"provinces": [}', "Файл карты (JSON): Загруженный файл — не JSON (строка 1, столбец 16)."),
])
def test_a_file_that_cannot_be_read_is_refused_in_the_page_language(
        empty: Any, client: Any, language: str, content: bytes, expected: str) -> None:
    campaign, moderator = empty
    client.force_login(moderator)
    body = io.BytesIO(content)
    body.name = "map.json"
    response = client.post("/c/empty/setup/map/upload/", {"map-file": body}, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    assert _errors(response) == [expected]
    assert Province.objects.filter(campaign=campaign).count() == 0


def test_a_second_import_without_replace_names_the_replace_field(empty: Any, client: Any) -> None:
    _campaign, moderator = empty
    client.force_login(moderator)
    _upload(client, "empty", small_map())
    response = _upload(client, "empty", small_map())
    assert response.status_code == 409
    assert _errors(response)[0].startswith("Replace the campaign's map (provinces are matched by code): ")


def test_the_map_file_downloads_as_it_was_uploaded(empty: Any, client: Any) -> None:
    _campaign, moderator = empty
    client.force_login(moderator)
    _upload(client, "empty", small_map())
    response = client.get("/c/empty/setup/map.json")
    assert response["Content-Disposition"] == 'attachment; filename="empty-map.json"'
    assert [p["code"] for p in json.loads(response.content)["provinces"]] == ["dacia", "dalmatia", "gallia"]


# Provinces on the map picture


def test_the_setup_map_opens_a_province_form_for_its_code(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.get("/c/limes/setup/map/?province=dalmatia")
    content = response.content.decode()
    assert 'data-setup-map id="setup-map"' in content and 'id="province-dalmatia"' in content
    assert 'id="province-edit-form"' in content
    assert f'name="province-version" value="{row_version(world.dalmatia)}"' in content


def test_an_unknown_province_code_is_404(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    assert client.get("/c/limes/setup/map/?province=atlantis").status_code == 404


def _province_post(province: Province, **extra: Any) -> dict[str, Any]:
    post = {
        "province_code": province.code, "province-name_en": province.name_en, "province-name_ru": province.name_ru,
        "province-terrain": province.terrain, "province-fortress_capacity": 3,
        "province-controller": province.controller_id or "", "province-version": row_version(province),
    }
    post.update(extra)
    return post


def test_a_province_is_edited_through_its_form(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/map/province/", _province_post(
        world.dalmatia, **{"province-terrain": "mountains", "province-has_fortress": "on", "province-name_ru": "Далмация",
                           "province-fortress_capacity": 5, "province-has_tribe": "on"}))
    assert response.status_code == 302
    p = Province.objects.get(pk=world.dalmatia.pk)
    assert (p.terrain, p.has_fortress, p.fortress_capacity, p.has_tribe, p.name_ru) == (
        "mountains", True, 5, True, "Далмация"
    )


def test_a_province_form_names_a_bad_fortress_room(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/map/province/", _province_post(
        world.dalmatia, **{"province-fortress_capacity": 0}))
    assert (response.status_code, _errors(response)) == (
        400, ["Room in the fortress city (R3): Ensure this value is greater than or equal to 1."]
    )


def test_a_stale_province_form_is_a_conflict(world: Any, client: Any) -> None:
    post = _province_post(world.dalmatia, **{"province-terrain": "desert"})
    map_services.province_update(actor=world.moderator, province=world.dalmatia, terrain="forest")
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/map/province/", post)
    assert response.status_code == 409
    assert "Someone else changed this after you opened it" in _text(response)
    assert Province.objects.get(pk=world.dalmatia.pk).terrain == "forest"


def test_before_the_campaign_begins_a_new_controller_needs_no_reason(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/map/province/", _province_post(
        world.dalmatia, **{"province-controller": world.east.pk}))
    assert (response.status_code, Province.objects.get(pk=world.dalmatia.pk).controller_id) == (302, world.east.pk)


def _begin(world: Any) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(phase=Campaign.Phase.STRATEGIC)
    world.campaign.refresh_from_db()


def test_m1_once_begun_a_new_controller_without_reason_is_refused_in_the_page(world: Any, client: Any) -> None:
    _begin(world)
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/map/province/", _province_post(
        world.dalmatia, **{"province-controller": world.east.pk}))
    assert response.status_code == 400
    assert _errors(response) == [
        f"Reason (for the log; needed for a correction once the campaign has begun, M1): {CORRECTION}"
    ]
    assert Province.objects.get(pk=world.dalmatia.pk).controller_id == world.west.pk


def test_m1_once_begun_a_new_controller_with_a_reason_is_a_logged_correction(world: Any, client: Any) -> None:
    _begin(world)
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/map/province/", _province_post(
        world.dalmatia, **{"province-controller": world.east.pk, "province-reason": "Lost the dice roll"}))
    assert response.status_code == 302
    entry = LogEntry.objects.filter(campaign=world.campaign, kind="province_changed").last()
    assert (entry.reason, entry.data) == ("Lost the dice roll", {"province": "dalmatia", "controller": world.east.pk})


def test_m1_once_begun_other_fields_need_no_reason(world: Any, client: Any) -> None:
    _begin(world)
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/map/province/", _province_post(world.dalmatia, **{"province-is_port": "on"}))
    assert response.status_code == 302


def test_m1_once_begun_the_api_refuses_a_new_controller_without_reason(world: Any, client: Any) -> None:
    _begin(world)
    client.force_login(world.moderator)
    response = client.patch(f"/api/campaigns/limes/provinces/{world.dalmatia.pk}/",
                            {"controller": world.east.pk}, content_type="application/json")
    body = response.json()
    assert (response.status_code, body["code"], body["rule"], body["errors"]) == (
        400, "correction_needs_reason", "M1", {"reason": [CORRECTION]}
    )
    assert Province.objects.get(pk=world.dalmatia.pk).controller_id == world.west.pk


def test_m1_once_begun_the_api_takes_a_new_controller_with_a_reason(world: Any, client: Any) -> None:
    _begin(world)
    client.force_login(world.moderator)
    response = client.patch(f"/api/campaigns/limes/provinces/{world.dalmatia.pk}/",
                            {"controller": world.east.pk, "reason": "Ruling 4"}, content_type="application/json")
    assert (response.status_code, Province.objects.get(pk=world.dalmatia.pk).controller_id) == (200, world.east.pk)


def test_a_province_is_added_at_a_point(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/map/province_new/", {
        "new-code": "noricum", "new-name_en": "Noricum", "new-name_ru": "Норик", "new-terrain": "mountains",
        "new-x": 420, "new-y": 210,
    })
    assert response.status_code == 302
    assert Province.objects.filter(campaign=world.campaign, code="noricum", x=420, y=210).exists()


def test_a_new_province_names_a_taken_code_and_an_off_map_point(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/map/province_new/", {
        "new-code": "dacia", "new-name_en": "Dacia", "new-name_ru": "Дакия", "new-terrain": "field",
        "new-x": 420, "new-y": 900,
    })
    assert _errors(response) == ["Position down (0–700): Ensure this value is less than or equal to 700."]
    response = client.post("/c/limes/setup/map/province_new/", {
        "new-code": "dacia", "new-name_en": "Dacia", "new-name_ru": "Дакия", "new-terrain": "field",
        "new-x": 420, "new-y": 200,
    })
    assert (response.status_code, _errors(response)) == (400, ["Code: This short name is already taken."])


def test_an_empty_province_is_taken_off_the_map_but_one_with_armies_is_not(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    assert client.post("/c/limes/setup/map/province_delete/", {"province_code": "italia"}).status_code == 302
    response = client.post("/c/limes/setup/map/province_delete/", {"province_code": "dacia"})
    assert response.status_code == 409
    assert "Armies, units or battles are in dacia: it cannot be taken off the map." in _text(response)
    assert sorted(Province.objects.filter(campaign=world.campaign, code__in=["italia", "dacia"])
                  .values_list("code", flat=True)) == ["dacia"]
    assert LogEntry.objects.filter(kind="province_deleted", data__code="italia").count() == 1


def test_a_border_is_set_and_removed(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    client.post("/c/limes/setup/map/border/", {"border-a": world.italia.pk, "border-b": world.pannonia.pk,
                                               "border-kind": "rough"})
    low, high = sorted((world.italia, world.pannonia), key=lambda p: p.pk)
    assert Border.objects.get(a=low, b=high).kind == "rough"
    client.post("/c/limes/setup/map/border/", {"border-a": world.italia.pk, "border-b": world.pannonia.pk,
                                               "border-kind": "none"})
    assert not Border.objects.filter(a=low, b=high).exists()


def test_a_border_of_a_province_with_itself_names_the_field(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/map/border/", {"border-a": world.italia.pk, "border-b": world.italia.pk,
                                                          "border-kind": "normal"})
    assert (response.status_code, _errors(response)) == (400, ["Other province: A border joins two different provinces."])


def test_a_terrain_transition_is_set(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/map/transition/", {
        "transition-source": world.dacia.pk, "transition-target": world.moesia.pk, "transition-terrain": "forest"})
    assert response.status_code == 302
    assert TerrainTransition.objects.get(source=world.dacia, target=world.moesia).terrain == "forest"


def test_a_player_cannot_post_a_map_file(world: Any, client: Any) -> None:
    client.force_login(world.west_leader)
    assert _upload(client, "limes", small_map(), replace=True).status_code == 403


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
    assert _errors(response) == ["Health in lines (T3.1): Health is counted in half lines, more than 0 (T3.1)."]
    assert not UnitType.objects.filter(code="bowmen").exists()


def test_a_unit_card_with_part_of_its_volley_damage_names_the_missing_classes(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/units/", _card_post(**{"card-volley_LI1": 3, "card-volley_LI2": 3}))
    assert _errors(response) == [
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
    assert (response.status_code, _errors(response)) == (400, [
        "Units (of one faction, in one province): Every unit must belong to this faction and stand in this "
        "province (S2)."
    ])
    assert not Army.objects.filter(name="Odd").exists()


def test_units_are_not_half_placed_when_the_phase_refuses(world: Any, client: Any) -> None:
    _begin(world)
    client.force_login(world.moderator)
    card = Unit.objects.filter(campaign=world.campaign).first().unit_type
    before = Unit.objects.count()
    response = client.post("/c/limes/setup/armies/unit/", {
        "unit-faction": world.goths.pk, "unit-unit_type": card.pk, "unit-province": world.thracia.pk,
        "unit-count": 3})
    assert (response.status_code, Unit.objects.count()) == (409, before)
    assert "New units appear only in the economic phase (S4)." in _text(response)


# A new campaign


def _create_post(**extra: Any) -> dict[str, Any]:
    from campaign.rules_settings import SETTINGS

    post: dict[str, Any] = {"new-name_en": "Danube", "new-name_ru": "Дунай", "new-slug": "danube",
                            "new-description": "A war on the river", "new-is_public": "on"}
    for spec in SETTINGS:
        if spec.kind is bool:
            if spec.default:
                post[f"new-setting_{spec.name}"] = "on"
        else:
            post[f"new-setting_{spec.name}"] = spec.default
    post.update(extra)
    return post


def test_any_signed_in_user_creates_a_campaign_and_moderates_it(world: Any, client: Any) -> None:
    client.force_login(world.outsider)
    response = client.post("/campaigns/new/", _create_post(**{"new-setting_turn_seconds": 60}))
    assert response.status_code == 302 and response["Location"] == "/c/danube/setup/"
    campaign = Campaign.objects.get(slug="danube")
    assert (campaign.name_ru, campaign.setting("turn_seconds"), campaign.setting("deployment_rows")) == ("Дунай", 60, 3)
    assert Membership.objects.get(campaign=campaign, user=world.outsider).role == "moderator"


def test_the_create_page_is_linked_from_home_for_a_signed_in_user(world: Any, client: Any) -> None:
    assert 'id="campaign-create-link"' not in client.get("/").content.decode()
    client.force_login(world.outsider)
    assert 'id="campaign-create-link" href="/campaigns/new/"' in client.get("/").content.decode()


def test_the_create_page_sends_a_guest_to_log_in(db: Any, client: Any) -> None:
    response = client.get("/campaigns/new/")
    assert (response.status_code, response["Location"]) == (302, "/accounts/login/?next=/campaigns/new/")


def test_a_staff_only_site_refuses_others(world: Any, client: Any, settings: Any) -> None:
    settings.LIMES_CAMPAIGN_CREATORS = "staff"
    client.force_login(world.outsider)
    assert client.get("/campaigns/new/").status_code == 403
    assert client.post("/campaigns/new/", _create_post()).status_code == 403
    staff = get_user_model().objects.create_user("staffer", is_staff=True)
    client.force_login(staff)
    assert client.post("/campaigns/new/", _create_post()).status_code == 302


def test_the_create_form_names_a_taken_slug_and_a_setting_out_of_range(world: Any, client: Any) -> None:
    client.force_login(world.outsider)
    response = client.post("/campaigns/new/", _create_post(**{"new-slug": "limes", "new-setting_turn_seconds": 5}))
    assert response.status_code == 400
    assert _errors(response) == [
        "Seconds in each side's tactical turn (T6.1): Ensure this value is greater than or equal to 10."
    ]
    response = client.post("/campaigns/new/", _create_post(**{"new-slug": "limes"}))
    assert _errors(response) == ["Short name (in the address): This short name is already taken."]


def test_the_create_form_names_survivor_health_not_in_half_lines(world: Any, client: Any) -> None:
    client.force_login(world.outsider)
    response = client.post("/campaigns/new/", _create_post(**{"new-setting_mutual_destruction_survivor_health": 1.3}))
    assert _errors(response) == [
        "Lines left to the survivor of a mutual destruction (T7.6): Health is counted in half lines."
    ]
    assert not Campaign.objects.filter(slug="danube").exists()


def test_a_campaign_from_a_template_has_its_map(world: Any, client: Any) -> None:
    client.force_login(world.outsider)
    response = client.post("/campaigns/new/", _create_post(**{"new-template": "limes"}))
    assert response.status_code == 302
    danube = Campaign.objects.get(slug="danube")
    assert sorted(Province.objects.filter(campaign=danube).values_list("code", flat=True)) == sorted(
        Province.objects.filter(campaign=world.campaign).values_list("code", flat=True)
    )


def test_a_private_campaign_of_others_is_not_offered_as_template(world: Any, client: Any) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(is_public=False)
    client.force_login(world.outsider)
    response = client.post("/campaigns/new/", _create_post(**{"new-template": "limes"}))
    assert response.status_code == 400
    assert _errors(response) == [
        "Start from a template: Select a valid choice. limes is not one of the available choices."
    ]
    assert not Campaign.objects.filter(slug="danube").exists()


def test_a_refused_copy_leaves_no_campaign_behind(world: Any, client: Any, monkeypatch: Any) -> None:
    # The copy is refused after the campaign row was written: the one transaction takes both back.
    from campaign.errors import Conflict
    from strategic.views import setup_campaign

    def refuse(**_kwargs: Any) -> None:
        raise Conflict("copy refused", field="template")

    monkeypatch.setattr(setup_campaign, "campaign_copy_from", refuse)
    client.force_login(world.outsider)
    response = client.post("/campaigns/new/", _create_post(**{"new-template": "limes"}))
    assert (response.status_code, Campaign.objects.filter(slug="danube").exists()) == (409, False)


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
    _begin(world)
    unit = world.east_army.units.first()
    before = unit.health_halves
    client.force_login(world.moderator)
    response = client.post(f"/c/limes/setup/armies/units/{unit.pk}/", _unit_post(unit, **{"fix-health": "1.5"}))
    assert response.status_code == 400
    assert _errors(response) == [
        f"Reason (for the log; needed for a correction once the campaign has begun, M1): {CORRECTION}"
    ]
    assert Unit.objects.get(pk=unit.pk).health_halves == before


def test_m1_once_begun_a_unit_moved_out_of_its_army_with_a_reason_is_logged(world: Any, client: Any) -> None:
    _begin(world)
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
    _begin(world)
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
    assert (response.status_code, _errors(response)) == (400, [
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


def test_the_api_refuses_a_province_change_of_a_stale_version(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    read = client.get(f"/api/campaigns/limes/provinces/{world.dalmatia.pk}/").json()
    assert read["version"] == row_version(world.dalmatia)
    map_services.province_update(actor=world.moderator, province=world.dalmatia, terrain="forest")
    response = client.patch(f"/api/campaigns/limes/provinces/{world.dalmatia.pk}/",
                            {"terrain": "desert", "version": read["version"]}, content_type="application/json")
    assert (response.status_code, response.json()["code"], response.json()["errors"]) == (
        409, "edited_meanwhile",
        {"version": ["Someone else changed this after you opened it: reload the page and make your change again."]},
    )
    assert Province.objects.get(pk=world.dalmatia.pk).terrain == "forest"
