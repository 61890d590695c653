"""The Setup pages (M1): provinces on the map picture, borders and terrain transitions; a stale form or API
change is a conflict (409), a player gets 403, and once the campaign has begun a new controller needs a reason
in the page and in the API (M1)."""

from __future__ import annotations

from typing import Any

from campaign.models import LogEntry
from campaign.versions import row_version
from strategic.models import Border, Province, TerrainTransition
from strategic.services import map as map_services
from tests.strategic.builders import small_map
from tests.strategic.views.setup_pages import CORRECTION, begin, field_errors, page_text, upload_map

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
    assert (response.status_code, field_errors(response)) == (
        400, ["Room in the fortress city (R3): Ensure this value is greater than or equal to 1."]
    )


def test_a_stale_province_form_is_a_conflict(world: Any, client: Any) -> None:
    post = _province_post(world.dalmatia, **{"province-terrain": "desert"})
    map_services.province_update(actor=world.moderator, province=world.dalmatia, terrain="forest")
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/map/province/", post)
    assert response.status_code == 409
    assert "Someone else changed this after you opened it" in page_text(response)
    assert Province.objects.get(pk=world.dalmatia.pk).terrain == "forest"


def test_before_the_campaign_begins_a_new_controller_needs_no_reason(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/map/province/", _province_post(
        world.dalmatia, **{"province-controller": world.east.pk}))
    assert (response.status_code, Province.objects.get(pk=world.dalmatia.pk).controller_id) == (302, world.east.pk)




def test_m1_once_begun_a_new_controller_without_reason_is_refused_in_the_page(world: Any, client: Any) -> None:
    begin(world)
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/map/province/", _province_post(
        world.dalmatia, **{"province-controller": world.east.pk}))
    assert response.status_code == 400
    assert field_errors(response) == [
        f"Reason (for the log; needed for a correction once the campaign has begun, M1): {CORRECTION}"
    ]
    assert Province.objects.get(pk=world.dalmatia.pk).controller_id == world.west.pk


def test_m1_once_begun_a_new_controller_with_a_reason_is_a_logged_correction(world: Any, client: Any) -> None:
    begin(world)
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/map/province/", _province_post(
        world.dalmatia, **{"province-controller": world.east.pk, "province-reason": "Lost the dice roll"}))
    assert response.status_code == 302
    entry = LogEntry.objects.filter(campaign=world.campaign, kind="province_changed").last()
    assert (entry.reason, entry.data) == ("Lost the dice roll", {"province": "dalmatia", "controller": world.east.pk})


def test_m1_once_begun_other_fields_need_no_reason(world: Any, client: Any) -> None:
    begin(world)
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/map/province/", _province_post(world.dalmatia, **{"province-is_port": "on"}))
    assert response.status_code == 302


def test_m1_once_begun_the_api_refuses_a_new_controller_without_reason(world: Any, client: Any) -> None:
    begin(world)
    client.force_login(world.moderator)
    response = client.patch(f"/api/campaigns/limes/provinces/{world.dalmatia.pk}/",
                            {"controller": world.east.pk}, content_type="application/json")
    body = response.json()
    assert (response.status_code, body["code"], body["rule"], body["errors"]) == (
        400, "correction_needs_reason", "M1", {"reason": [CORRECTION]}
    )
    assert Province.objects.get(pk=world.dalmatia.pk).controller_id == world.west.pk


def test_m1_once_begun_the_api_takes_a_new_controller_with_a_reason(world: Any, client: Any) -> None:
    begin(world)
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
    assert field_errors(response) == ["Position down (0–700): Ensure this value is less than or equal to 700."]
    response = client.post("/c/limes/setup/map/province_new/", {
        "new-code": "dacia", "new-name_en": "Dacia", "new-name_ru": "Дакия", "new-terrain": "field",
        "new-x": 420, "new-y": 200,
    })
    assert (response.status_code, field_errors(response)) == (400, ["Code: This short name is already taken."])


def test_an_empty_province_is_taken_off_the_map_but_one_with_armies_is_not(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    assert client.post("/c/limes/setup/map/province_delete/", {"province_code": "italia"}).status_code == 302
    response = client.post("/c/limes/setup/map/province_delete/", {"province_code": "dacia"})
    assert response.status_code == 409
    assert "Armies, units or battles are in dacia: it cannot be taken off the map." in page_text(response)
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
    assert (response.status_code, field_errors(response)) == (400, ["Other province: A border joins two different provinces."])


def test_a_terrain_transition_is_set(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/map/transition/", {
        "transition-source": world.dacia.pk, "transition-target": world.moesia.pk, "transition-terrain": "forest"})
    assert response.status_code == 302
    assert TerrainTransition.objects.get(source=world.dacia, target=world.moesia).terrain == "forest"


def test_a_player_cannot_post_a_map_file(world: Any, client: Any) -> None:
    client.force_login(world.west_leader)
    assert upload_map(client, "limes", small_map(), replace=True).status_code == 403


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
