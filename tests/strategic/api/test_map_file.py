"""``/api/campaigns/<slug>/map/``: export for readers, import for the campaign's moderators."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from campaign.models import Campaign
from campaign.services import campaign_create
from strategic.models import Province
from strategic.services import map_file as map_io
from tests.strategic.builders import small_map

pytestmark = pytest.mark.django_db

URL = "/api/campaigns/c1/map/"


@pytest.fixture
def moderator() -> Any:
    return get_user_model().objects.create_user("mod")


@pytest.fixture
def campaign(moderator: Any) -> Campaign:
    return campaign_create(actor=moderator, slug="c1", name_en="C1", name_ru="К1")


def _client(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_anyone_reads_the_map_of_a_public_campaign(moderator: Any, campaign: Campaign) -> None:
    map_io.map_import(actor=moderator, campaign=campaign, data=small_map())
    response = _client().get(URL)
    assert response.status_code == 200
    assert response.json() == map_io.map_export(campaign=campaign)


def test_the_map_of_a_private_campaign_is_hidden_from_strangers(moderator: Any, campaign: Campaign) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(is_public=False)
    assert _client().get(URL).status_code == 404


def test_download_names_the_file(campaign: Campaign) -> None:
    response = _client().get(URL + "?download=1")
    assert response["Content-Disposition"] == 'attachment; filename="c1-map.json"'


def test_moderator_imports_a_map(moderator: Any, campaign: Campaign) -> None:
    response = _client(moderator).post(URL, small_map(), format="json")
    assert response.status_code == 201
    assert response.json() == {
        "created": 3,
        "updated": 0,
        "deleted": 0,
        "borders": 2,
        "transitions": 1,
        "outlines_computed": 3,
    }


def test_a_player_may_not_import(campaign: Campaign) -> None:
    player = get_user_model().objects.create_user("player")
    response = _client(player).post(URL, small_map(), format="json")
    assert (response.status_code, response.json()["detail"]) == (
        403,
        "Only a moderator of this campaign may do this.",
    )
    assert not Province.objects.exists()


def test_anonymous_import_is_refused(campaign: Campaign) -> None:
    assert _client().post(URL, small_map(), format="json").status_code == 403


def test_a_bad_file_answers_400_naming_entry_and_field(moderator: Any, campaign: Campaign) -> None:
    data = small_map()
    data["provinces"][1]["terrain"] = "swamp"
    response = _client(moderator).post(URL, data, format="json")
    assert response.status_code == 400
    assert response.json()["errors"] == {
        "provinces[1].terrain": [
            "provinces[1] (dalmatia): terrain must be one of field, forest, mountains, desert."
        ]
    }


def test_a_second_import_needs_replace(moderator: Any, campaign: Campaign) -> None:
    client = _client(moderator)
    client.post(URL, small_map(), format="json")
    assert client.post(URL, small_map(), format="json").status_code == 409
    response = client.post(URL + "?replace=true", small_map(), format="json")
    assert (response.status_code, response.json()["updated"]) == (201, 3)


def test_a_map_file_can_be_uploaded(moderator: Any, campaign: Campaign) -> None:
    upload = SimpleUploadedFile("map.json", json.dumps(small_map()).encode(), content_type="application/json")
    response = _client(moderator).post(URL, {"file": upload}, format="multipart")
    assert (response.status_code, response.json()["created"]) == (201, 3)


def test_an_upload_that_is_not_json_is_refused(moderator: Any, campaign: Campaign) -> None:
    upload = SimpleUploadedFile("map.json", b"{oops", content_type="application/json")
    response = _client(moderator).post(URL, {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert response.json()["errors"]["file"][0].startswith("The uploaded file is not JSON: ")
