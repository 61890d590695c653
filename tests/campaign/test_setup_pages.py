"""The Setup pages of campaign-level things (M1): the campaign, factions, relations, commanders, invitations.

Each form names the field at fault in the reader's language; non-moderators get 403; a stale form gets 409."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from campaign import services as campaign_services
from campaign.models import Campaign, Commander, Faction, Invitation, LogEntry, Relation
from campaign.versions import row_version


def _text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", response.content.decode()))


def _errors(response: Any) -> list[str]:
    return [html.unescape(e) for e in re.findall(r'<p class="field-error" role="alert"[^>]*>([^<]*)</p>',
                                                  response.content.decode())]


@pytest.mark.parametrize(
    "path",
    ["/c/limes/setup/", "/c/limes/setup/factions/", "/c/limes/setup/map/", "/c/limes/setup/units/",
     "/c/limes/setup/armies/", "/c/limes/setup/map.json"],
)
def test_setup_pages_are_403_for_a_player(world: Any, client: Any, path: str) -> None:
    client.force_login(world.west_leader)
    assert client.get(path).status_code == 403


@pytest.mark.parametrize(
    "path",
    ["/c/limes/setup/", "/c/limes/setup/factions/", "/c/limes/setup/map/", "/c/limes/setup/units/",
     "/c/limes/setup/armies/"],
)
def test_setup_pages_open_for_the_moderator(world: Any, client: Any, path: str) -> None:
    client.force_login(world.moderator)
    assert client.get(path).status_code == 200


def test_a_player_posting_a_faction_is_refused_and_nothing_is_made(world: Any, client: Any) -> None:
    client.force_login(world.west_leader)
    response = client.post("/c/limes/setup/factions/faction/", {
        "faction-slug": "huns", "faction-name_en": "Huns", "faction-name_ru": "Гунны",
        "faction-color": "#aa0000", "faction-turn_order": 5, "faction-naval_capacity": 0,
    })
    assert (response.status_code, Faction.objects.filter(slug="huns").exists()) == (403, False)


def test_campaign_edit_saves_and_logs(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/", {
        "campaign-name_en": "Limes II", "campaign-name_ru": "Лимес II", "campaign-description": "Again",
        "campaign-is_public": "on", "campaign-version": row_version(world.campaign),
    })
    assert response.status_code == 302
    assert Campaign.objects.get(pk=world.campaign.pk).name_en == "Limes II"
    assert LogEntry.objects.filter(campaign=world.campaign, kind="campaign_changed").count() == 1


def test_campaign_edit_names_the_empty_field(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/", {
        "campaign-name_en": "", "campaign-name_ru": "Лимес", "campaign-version": row_version(world.campaign),
    })
    assert (response.status_code, _errors(response)) == (400, ["Name (English): This field is required."])


def test_campaign_edit_in_russian_names_the_field_in_russian(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/", {"campaign-name_en": "Limes", "campaign-name_ru": ""},
                           HTTP_ACCEPT_LANGUAGE="ru")
    assert _errors(response) == ["Название (по-русски): Обязательное поле."]


def test_a_second_moderator_with_a_stale_form_gets_a_conflict(world: Any, client: Any) -> None:
    stale = row_version(world.campaign)
    campaign_services.campaign_update(actor=world.moderator, campaign=world.campaign, name_en="Limes (first)")
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/", {
        "campaign-name_en": "Limes (second)", "campaign-name_ru": "Лимес", "campaign-version": stale,
    })
    assert response.status_code == 409
    assert "Someone else changed this after you opened it: reload the page and make your change again." in _text(
        response
    )
    assert Campaign.objects.get(pk=world.campaign.pk).name_en == "Limes (first)"


def _faction_post(**extra: Any) -> dict[str, Any]:
    return {
        "faction-slug": "huns", "faction-name_en": "Huns", "faction-name_ru": "Гунны",
        "faction-color": "#aa0000", "faction-turn_order": 5, "faction-naval_capacity": 0, **extra,
    }


def test_faction_create_through_the_page_logs_it(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/factions/faction/", _faction_post())
    assert response.status_code == 302
    huns = Faction.objects.get(campaign=world.campaign, slug="huns")
    assert (huns.name_ru, huns.color) == ("Гунны", "#aa0000")
    assert LogEntry.objects.filter(kind="faction_created", data__slug="huns").count() == 1


def test_faction_create_names_a_taken_short_name(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/factions/faction/", _faction_post(**{"faction-slug": "east"}))
    assert (response.status_code, _errors(response)) == (400, ["Short name: This short name is already taken."])


def test_faction_create_names_a_bad_colour(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/factions/faction/", _faction_post(**{"faction-color": "red"}))
    assert (response.status_code, _errors(response)) == (400, ["Colour: Give a colour as #rrggbb."])


def test_faction_edit_with_a_stale_version_is_a_conflict(world: Any, client: Any) -> None:
    stale = row_version(world.east)
    campaign_services.faction_update(actor=world.moderator, faction=world.east, color="#123456")
    client.force_login(world.moderator)
    response = client.post(f"/c/limes/setup/factions/{world.east.pk}/", {
        "faction-name_en": "East", "faction-name_ru": "Восток", "faction-color": "#654321",
        "faction-turn_order": 1, "faction-naval_capacity": 0, "faction-version": stale,
    })
    assert (response.status_code, Faction.objects.get(pk=world.east.pk).color) == (409, "#123456")


def test_faction_edit_sets_the_leader(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post(f"/c/limes/setup/factions/{world.east.pk}/", {
        "faction-name_en": "Eastern Rome", "faction-name_ru": "Восточный Рим", "faction-color": "#888888",
        "faction-turn_order": 1, "faction-naval_capacity": 2, "faction-leader": world.belisarius.pk,
        "faction-version": row_version(Faction.objects.get(pk=world.east.pk)),
    })
    assert response.status_code == 302
    east = Faction.objects.get(pk=world.east.pk)
    assert (east.leader_id, east.naval_capacity) == (world.belisarius.pk, 2)


def test_relation_set_through_the_page(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/factions/relation/", {
        "relation-a": world.goths.pk, "relation-b": world.west.pk, "relation-kind": "war",
    })
    assert response.status_code == 302
    low, high = sorted((world.goths, world.west), key=lambda f: f.pk)
    assert Relation.objects.get(a=low, b=high).kind == "war"


def test_relation_of_a_faction_with_itself_names_the_field(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/factions/relation/", {
        "relation-a": world.goths.pk, "relation-b": world.goths.pk, "relation-kind": "war",
    })
    assert (response.status_code, _errors(response)) == (
        400, ["Other faction: A relation needs two different factions."]
    )


def test_commander_create_through_the_page(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/factions/commander/", {
        "commander-faction": world.goths.pk, "commander-name": "Fritigern", "commander-rank": "general",
        "commander-strategy": 12, "commander-tactics": 11,
    })
    assert response.status_code == 302
    fritigern = Commander.objects.get(name="Fritigern")
    assert (fritigern.faction_id, fritigern.strategy, fritigern.has_luck) == (world.goths.pk, 12, False)


def test_commander_create_names_a_skill_out_of_range(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/factions/commander/", {
        "commander-faction": world.goths.pk, "commander-name": "Fritigern", "commander-rank": "general",
        "commander-strategy": 99, "commander-tactics": 11,
    })
    assert _errors(response) == ["Strategy (Q1): Ensure this value is less than or equal to 30."]
    assert not Commander.objects.filter(name="Fritigern").exists()


def test_invitation_shows_its_link_to_copy(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/factions/invite/", {
        "invite-role": "leader", "invite-faction": world.goths.pk, "invite-commander": world.alaric.pk,
    }, follow=True)
    invitation = Invitation.objects.get(campaign=world.campaign, faction=world.goths)
    link = f"http://testserver/invite/{invitation.token}/"
    assert f'id="invitation-link-{invitation.pk}" readonly value="{link}"' in response.content.decode()
    assert f"Invitation link: {link}" in _text(response)


def test_invitation_of_a_leader_without_faction_names_the_faction(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    response = client.post("/c/limes/setup/factions/invite/", {"invite-role": "leader"})
    assert (response.status_code, _errors(response)) == (400, ["Faction: A leader or commander needs a faction."])
    assert not Invitation.objects.filter(campaign=world.campaign).exists()


def test_the_console_links_every_setup_page(world: Any, client: Any) -> None:
    client.force_login(world.moderator)
    content = client.get("/c/limes/console/").content.decode()
    links = re.findall(r'<a id="console-setup-(\w+)" href="([^"]+)"', content)
    assert links == [
        ("campaign", "/c/limes/setup/"), ("map", "/c/limes/setup/map/"), ("units", "/c/limes/setup/units/"),
        ("factions", "/c/limes/setup/factions/"), ("armies", "/c/limes/setup/armies/"),
        ("webhooks", "/c/limes/console/webhooks/"),
    ]
    assert '<a id="console-battles" href="/c/limes/battles/">' in content


def test_a_private_campaign_setup_is_404_for_a_stranger(world: Any, client: Any) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(is_public=False)
    client.force_login(world.outsider)
    assert client.get("/c/limes/setup/").status_code == 404
