"""Public campaign pages: home, the campaign page (turn, deadline, factions, log), the rules page; admin."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import services as campaign_services
from campaign.models import Campaign, LogEntry, Membership
from campaign.rules_settings import SETTINGS
from campaign.templatetags.swatches import swatch_svg
from strategic.services import moves
from tests.factories import CampaignFactory, member

SWATCH_888 = swatch_svg("#888888")  # a faction of the default colour


def _text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", response.content.decode()))


def _private(world: Any) -> None:
    Campaign.objects.filter(pk=world.campaign.pk).update(is_public=False)


def test_home_lists_public_campaigns_only(world: Any, client: Any) -> None:
    CampaignFactory(slug="secret", name_en="Secret war", is_public=False)
    text = _text(client.get("/"))
    assert ("Limes" in text, "Secret war" in text) == (True, False)


def test_home_shows_my_campaigns_with_role_and_faction(world: Any, client: Any) -> None:
    other = CampaignFactory(slug="second", name_en="Second war")
    member(other, Membership.Role.OBSERVER, user=world.west_leader)
    client.force_login(world.west_leader)
    text = _text(client.get("/"))
    mine = text.split("My campaigns")[1].split("All campaigns")[0]
    assert re.findall(r'class="card-title" href="/c/([\w-]+)/">', mine) == ["limes", "second"]
    assert f"Faction leader · {SWATCH_888}Western Rome" in mine


@pytest.mark.parametrize(
    "path",
    [
        "/c/limes/",
        "/c/limes/rules/",
        "/c/limes/map/",
        "/c/limes/rosters/",
        "/c/limes/rosters/west/",
        "/c/limes/roster.json",
        "/c/limes/map.png",
    ],
)
def test_public_campaign_pages_open_to_anonymous_visitors(world: Any, client: Any, path: str) -> None:
    assert client.get(path).status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/c/limes/",
        "/c/limes/rules/",
        "/c/limes/map/",
        "/c/limes/rosters/",
        "/c/limes/rosters/west/",
        "/c/limes/roster.json",
        "/c/limes/map.svg",
    ],
)
def test_private_campaign_pages_are_404_for_anonymous_visitors(world: Any, client: Any, path: str) -> None:
    _private(world)
    assert client.get(path).status_code == 404


def test_private_campaign_page_opens_to_its_members(world: Any, client: Any) -> None:
    _private(world)
    client.force_login(world.west_leader)
    assert client.get("/c/limes/").status_code == 200


def test_unknown_campaign_is_404(db: Any, client: Any) -> None:
    assert client.get("/c/nowhere/").status_code == 404


def test_campaign_page_shows_turn_phase_and_acting_faction(world: Any, client: Any) -> None:
    campaign_services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    text = _text(client.get("/c/limes/"))
    assert '<dd class="turn-number">1</dd>' in text
    assert '<dd class="phase">Strategic phase</dd>' in text
    assert f'<dd class="acting">{SWATCH_888}Eastern Rome</dd>' in text


def test_s4_deadline_is_given_in_iso_for_local_time_with_utc_as_fallback(world: Any, client: Any) -> None:
    campaign_services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    Campaign.objects.filter(pk=world.campaign.pk).update(
        faction_deadline=datetime(2030, 1, 2, 15, 30, tzinfo=UTC)
    )
    text = _text(client.get("/c/limes/"))
    assert '<time class="js-local" datetime="2030-01-02T15:30:00+00:00">2030-01-02 15:30 UTC</time>' in text


def test_relations_are_listed_by_pair(world: Any, client: Any) -> None:
    text = _text(client.get("/c/limes/"))
    assert re.sub(r"<[^>]+>", "", text).count("Eastern Rome — Western Rome: At war") == 1
    assert "Eastern Rome — Goths: Neutral" in re.sub(r"<[^>]+>", "", text)


def test_m3_latest_log_entries_read_as_sentences(world: Any, client: Any) -> None:
    campaign_services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    moves.army_move(actor=world.east_general, army=world.east_army, destination=world.moesia)
    sentences = re.findall(r'<span class="sentence">([^<]+)</span>', _text(client.get("/c/limes/")))
    assert sentences[:2] == [
        "Danube army of Eastern Rome moved from Dacia to Moesia.",
        "The economic phase of turn 1 ended; Eastern Rome acts first.",
    ]


def test_rules_page_lists_every_setting_with_value_rule_and_meaning(world: Any, client: Any) -> None:
    campaign_services.campaign_settings_update(
        actor=world.moderator, campaign=world.campaign, settings={"turn_seconds": 60}
    )
    text = _text(client.get("/c/limes/rules/"))
    rows = re.findall(r'<tr id="setting-([a-z_]+)"', text)
    assert rows == [spec.name for spec in SETTINGS]
    row = text.split('<tr id="setting-turn_seconds" class="changed">')[1].split("</tr>")[0]
    assert 'href="/c/limes/rules/#T6.1" data-rule="T6.1"' in row
    assert "Seconds in each side's tactical turn" in row
    assert '<td class="value">60</td> <td class="default">40</td>' in row


def test_rules_page_shows_yes_and_no_for_switches(world: Any, client: Any) -> None:
    row = (
        _text(client.get("/c/limes/rules/")).split('<tr id="setting-spectators_allowed"')[1].split("</tr>")[0]
    )
    assert '<td class="value">yes</td>' in row


def test_every_model_is_in_the_admin(db: Any) -> None:
    from django.apps import apps

    missing = [
        m.__name__
        for app in ("campaign", "strategic")
        for m in apps.get_app_config(app).get_models()
        if not admin.site.is_registered(m)
    ]
    assert missing == []


def test_m3_log_entries_are_read_only_in_the_admin(world: Any, client: Any) -> None:
    superuser = get_user_model().objects.create_superuser("root", "", "pw")
    client.force_login(superuser)
    campaign_services.economic_phase_end(actor=world.moderator, campaign=world.campaign)
    entry = LogEntry.objects.filter(campaign=world.campaign).latest("id")
    model_admin = admin.site._registry[LogEntry]
    request = client.get("/").wsgi_request
    request.user = superuser
    assert (
        model_admin.has_add_permission(request),
        model_admin.has_change_permission(request, entry),
        model_admin.has_delete_permission(request, entry),
    ) == (False, False, False)
    assert client.get(reverse("admin:campaign_logentry_add")).status_code == 403


@pytest.mark.parametrize(
    "name",
    [
        "campaign_campaign",
        "campaign_faction",
        "campaign_commander",
        "campaign_membership",
        "campaign_invitation",
        "campaign_logentry",
        "campaign_relation",
        "strategic_province",
        "strategic_border",
        "strategic_unittype",
        "strategic_army",
        "strategic_unit",
        "strategic_battle",
        "strategic_terraintransition",
        "strategic_supportpoints",
        "strategic_battlesupport",
        "strategic_retreatrecord",
        "strategic_quickbattlerecord",
    ],
)
def test_admin_lists_open(world: Any, client: Any, name: str) -> None:
    client.force_login(get_user_model().objects.create_superuser("root", "", "pw"))
    assert client.get(reverse(f"admin:{name}_changelist")).status_code == 200


def test_m3_log_of_map_changes_names_provinces_and_kinds(world: Any, client: Any) -> None:
    from strategic.services import map as map_services

    map_services.border_set(
        actor=world.moderator, campaign=world.campaign, a=world.italia, b=world.pannonia, kind="rough"
    )
    map_services.transition_set(
        actor=world.moderator,
        campaign=world.campaign,
        source=world.italia,
        target=world.pannonia,
        terrain="mountains",
    )
    sentences = re.findall(r'<span class="sentence">([^<]+)</span>', _text(client.get("/c/limes/")))
    assert sentences[:2] == [
        "Province relief: moving from Italia into Pannonia, battles are fought on: Mountains.",
        "Border Pannonia – Italia: Rough terrain.",  # stored in id order
    ]


def test_m3_log_of_relations_names_factions_and_the_relation(world: Any, client: Any) -> None:
    campaign_services.relation_set(
        actor=world.moderator, campaign=world.campaign, a=world.goths, b=world.west, kind="allied"
    )
    sentences = re.findall(r'<span class="sentence">([^<]+)</span>', _text(client.get("/c/limes/")))
    assert sentences[0] == "Western Rome and Goths: Allied."


def test_the_campaign_page_lists_its_latest_battles_in_the_readers_language(world: Any, client: Any) -> None:
    from strategic.models import Battle, Province
    from tests.factories import BattleFactory

    Province.objects.filter(pk=world.dalmatia.pk).update(name_ru="Далмация")
    world.west.name_ru = "Западная Римская империя"
    world.west.save()
    pending = BattleFactory(attacker_army=world.east_army, province=world.dalmatia, defender_faction=world.west)
    with CaptureQueriesContext(connection) as one_battle:
        client.get("/c/limes/")
    fought = BattleFactory(attacker_army=world.east_army, province=world.dalmatia, defender_faction=world.west,
                           status=Battle.Status.TACTICAL)
    with CaptureQueriesContext(connection) as two_battles:
        page = client.get("/c/limes/").content.decode()
    assert len(two_battles.captured_queries) == len(one_battle.captured_queries)  # the list is read in one query
    rows = re.findall(r'<li class="battle-row" id="campaign-battle-(\d+)"><span>(.*?)</span>\s*<span', page, re.S)
    assert [(int(pk), re.sub(r"<[^>]+>", "", text)) for pk, text in rows] == [
        (fought.pk, "Battle for Dalmatia: Eastern Rome — Western Rome · Being fought on the tactical map"),
        (pending.pk, "Battle for Dalmatia: Eastern Rome — Western Rome · Awaiting resolution"),
    ]
    assert f'href="/battles/{fought.pk}/"' in page and f'href="/battles/{pending.pk}/"' not in page  # a board once fought
    text = _text(client.get("/c/limes/", HTTP_ACCEPT_LANGUAGE="ru"))
    assert "Далмация" in text and "Западная Римская империя" in text
