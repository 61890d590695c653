"""The moderators' command line: ``map_export`` and ``map_import``."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from campaign.models import Campaign
from campaign.services import campaign_create
from strategic.models import Province
from strategic.services import map_file as map_io
from tests.strategic.builders import small_map

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator() -> Any:
    return get_user_model().objects.create_user("mod")


@pytest.fixture
def campaign(moderator: Any) -> Campaign:
    return campaign_create(actor=moderator, slug="c1", name_en="C1", name_ru="К1")


def _file(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "map.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_import_then_export_gives_the_map_back(moderator: Any, campaign: Campaign, tmp_path: Path) -> None:
    out = StringIO()
    call_command("map_import", "c1", _file(tmp_path, small_map()), "--user", "mod", stdout=out)
    assert out.getvalue() == (
        "Imported into c1: 3 provinces created, 0 updated, 0 deleted; 2 borders, "
        "1 transitions; 3 outlines drawn.\n"
    )
    exported = StringIO()
    call_command("map_export", "c1", stdout=exported)
    assert json.loads(exported.getvalue()) == map_io.map_export(campaign=campaign)


def test_export_to_a_file(moderator: Any, campaign: Campaign, tmp_path: Path) -> None:
    map_io.map_import(actor=moderator, campaign=campaign, data=small_map())
    target = tmp_path / "out.json"
    call_command("map_export", "c1", "-o", str(target), stderr=StringIO())
    assert json.loads(target.read_text(encoding="utf-8"))["provinces"][1]["name_ru"] == "Далмация"


def test_a_bad_file_prints_every_error_and_changes_nothing(
    moderator: Any, campaign: Campaign, tmp_path: Path
) -> None:
    data = small_map()
    data["provinces"][1]["terrain"] = "swamp"
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("map_import", "c1", _file(tmp_path, data), "--user", "mod", stderr=err)
    assert err.getvalue() == (
        "provinces[1].terrain: provinces[1] (dalmatia): terrain must be one of field, forest, mountains, desert.\n"
    )
    assert not Province.objects.exists()


def test_a_player_cannot_import_from_the_command_line(campaign: Campaign, tmp_path: Path) -> None:
    get_user_model().objects.create_user("player")
    with pytest.raises(CommandError, match="Only a moderator of this campaign may do this."):
        call_command("map_import", "c1", _file(tmp_path, small_map()), "--user", "player")


def test_a_file_that_is_not_json_is_refused(moderator: Any, campaign: Campaign, tmp_path: Path) -> None:
    path = tmp_path / "map.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="is not JSON"):
        call_command("map_import", "c1", str(path), "--user", "mod")
