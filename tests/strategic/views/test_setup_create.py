"""The page that creates a campaign: who may, what the form names, campaigns from a template."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from campaign.models import Campaign, Membership
from strategic.models import Province
from tests.strategic.views.setup_pages import field_errors

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
    assert field_errors(response) == [
        "Seconds in each side's tactical turn (T6.1): Ensure this value is greater than or equal to 10."
    ]
    response = client.post("/campaigns/new/", _create_post(**{"new-slug": "limes"}))
    assert field_errors(response) == ["Short name (in the address): This short name is already taken."]


def test_the_create_form_names_survivor_health_not_in_half_lines(world: Any, client: Any) -> None:
    client.force_login(world.outsider)
    response = client.post("/campaigns/new/", _create_post(**{"new-setting_mutual_destruction_survivor_health": 1.3}))
    assert field_errors(response) == [
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
    assert field_errors(response) == [
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
