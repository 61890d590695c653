"""The live board page (issue 4): who may open it (as the socket admits watchers, §6), in both languages."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from campaign.models import Membership
from tactical.models import LiveBattle
from tests.factories import UserFactory, member


def _get(user: Any, battle_id: int, language: str = "en") -> Any:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(f"/battles/{battle_id}/", HTTP_ACCEPT_LANGUAGE=language)


def _json_script(html: str, element_id: str) -> Any:
    match = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', html, re.DOTALL)
    assert match is not None, f"no #{element_id} in the page"
    return json.loads(match.group(1))


def _h1(html: str) -> str:
    match = re.search(r"<h1>(.*?)</h1>", html, re.DOTALL)
    assert match is not None
    return match.group(1).strip()


@pytest.mark.parametrize(
    "who",
    [
        "moderator",  # the campaign's moderator (M1)
        "east_general",  # commands the attacking units (Belisarius)
        "west_leader",  # commands the defending units (Aetius)
        "east_leader",  # leads a faction that fights here (T2)
        "outsider",  # anyone may watch: a public campaign with spectators_allowed
    ],
)
def test_the_board_opens_for_participants_moderators_and_spectators(world: Any, battle: LiveBattle, who: str) -> None:
    assert _get(getattr(world, who), battle.pk).status_code == 200


def test_an_anonymous_visitor_watches_a_public_battle(battle: LiveBattle) -> None:
    assert _get(None, battle.pk).status_code == 200


def test_without_spectators_an_outsider_is_refused_with_403(world: Any, battle: LiveBattle) -> None:
    world.campaign.settings = {**world.campaign.settings, "spectators_allowed": False}
    world.campaign.save()
    assert _get(world.outsider, battle.pk).status_code == 403


def test_without_spectators_a_commander_still_opens_the_board(world: Any, battle: LiveBattle) -> None:
    world.campaign.settings = {**world.campaign.settings, "spectators_allowed": False}
    world.campaign.save()
    assert _get(world.west_leader, battle.pk).status_code == 200


def test_a_private_campaigns_battle_is_refused_to_outsiders_with_403_saying_who_may_watch(
        world: Any, battle: LiveBattle) -> None:
    world.campaign.is_public = False
    world.campaign.save()
    answer = _get(world.outsider, battle.pk)
    assert answer.status_code == 403
    assert ("<p>Only the battle&#x27;s commanders, the leaders of its factions and the campaign&#x27;s moderators "
            "may watch this battle.</p>") in answer.content.decode()


def test_the_refusal_page_is_russian_for_a_russian_reader(world: Any, battle: LiveBattle) -> None:
    world.campaign.settings = {**world.campaign.settings, "spectators_allowed": False}
    world.campaign.save()
    answer = _get(world.outsider, battle.pk, "ru")
    assert answer.status_code == 403
    assert ("<p>Смотреть этот бой могут только его командующие, лидеры его фракций и модераторы кампании.</p>"
            in answer.content.decode())


@pytest.mark.parametrize("campaign", ["private", "closed"])
def test_an_anonymous_visitor_who_may_not_watch_is_sent_to_log_in(world: Any, battle: LiveBattle,
                                                                  campaign: str) -> None:
    if campaign == "private":
        world.campaign.is_public = False
    else:
        world.campaign.settings = {**world.campaign.settings, "spectators_allowed": False}
    world.campaign.save()
    answer = _get(None, battle.pk)
    assert (answer.status_code, answer["Location"]) == (302, f"/accounts/login/?next=/battles/{battle.pk}/")


def test_the_melee_forecast_refuses_an_anonymous_visitor_with_403_json(world: Any, battle: LiveBattle) -> None:
    world.campaign.is_public = False
    world.campaign.save()
    answer = Client().get(f"/battles/{battle.pk}/melee.json")
    assert (answer.status_code, answer.json()) == (403, {
        "status": 403, "code": "forbidden",
        "detail": "Log in to watch this battle: only its commanders, the leaders of its factions and the campaign's "
                  "moderators may watch it."})


def test_a_private_campaigns_observer_who_does_not_fight_is_refused(world: Any, battle: LiveBattle) -> None:
    world.campaign.is_public = False
    world.campaign.save()
    observer = member(world.campaign, Membership.Role.OBSERVER, user=UserFactory(username="observer"))
    assert _get(observer, battle.pk).status_code == 403


@pytest.mark.parametrize("who", ["moderator", "outsider", None])
def test_a_battle_that_does_not_exist_is_404(world: Any, battle: LiveBattle, who: str | None) -> None:
    assert _get(getattr(world, who) if who else None, battle.pk + 1000).status_code == 404


def test_the_page_names_the_battle_and_its_sides_in_english(world: Any, battle: LiveBattle) -> None:
    html = _get(world.outsider, battle.pk).content.decode()
    assert _h1(html) == "Battle for Dalmatia"
    assert "Attacker: Eastern Rome" in html and "Defender: Western Rome" in html


def test_the_script_gets_english_strings_from_the_page(world: Any, battle: LiveBattle) -> None:
    strings = _json_script(_get(world.east_general, battle.pk).content.decode(), "board-strings")
    assert (strings["end_turn"], strings["phase_deployment"], strings["ev_moved"]) == (
        "End turn", "Deployment", "{unit} moved to {cell} ({cost} pt, {left} left).")


def test_the_script_gets_russian_strings_from_the_page(world: Any, battle: LiveBattle) -> None:
    strings = _json_script(_get(world.east_general, battle.pk, "ru").content.decode(), "board-strings")
    assert (strings["end_turn"], strings["phase_deployment"], strings["attacker"]) == (
        "Завершить ход", "Расстановка", "Нападающий")


@pytest.mark.parametrize(("language", "expected"), [
    ("en", ("river", "wall", "health", "arrows", "facing")),
    ("ru", ("река", "стена", "здоровье", "запас стрел", "направление")),
])
def test_the_page_gives_the_script_the_features_and_corrected_values_by_name(world: Any, battle: LiveBattle,
                                                                                language: str,
                                                                                expected: tuple[str, ...]) -> None:
    """A special cell's title and the log line of a moderator's correction (log.js) say these words."""
    strings = _json_script(_get(world.east_general, battle.pk, language).content.decode(), "board-strings")
    assert tuple(strings[key] for key in ("feature_river", "feature_wall", "field_health", "field_arrows",
                                          "field_facing")) == expected


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_string_reaches_the_script_in_one_blob_and_no_script_is_inline(world: Any, battle: LiveBattle,
                                                                             language: str) -> None:
    """A Content-Security-Policy without 'unsafe-inline' will forbid inline scripts: data comes by json_script."""
    html = _get(world.moderator, battle.pk, language).content.decode()
    tags = re.findall(r"<script\b([^>]*)>", html)
    blobs = [tag for tag in tags if 'type="application/json"' in tag]
    assert [tag for tag in tags if tag not in blobs and "src=" not in tag] == []
    assert sorted(re.search(r'id="([\w-]+)"', tag).group(1) for tag in blobs) == ["board-config", "board-strings"]


def _pairs_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _value in pairs]
    assert len(keys) == len(set(keys)), f"a key twice: {sorted(k for k in keys if keys.count(k) > 1)}"
    return dict(pairs)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_strings_list_each_key_once_and_mark_values_one_way(world: Any, battle: LiveBattle,
                                                                language: str) -> None:
    html = _get(world.east_general, battle.pk, language).content.decode()
    match = re.search(r'<script id="board-strings" type="application/json">(.*?)</script>', html, re.DOTALL)
    assert match is not None
    strings = json.loads(match.group(1), object_pairs_hook=_pairs_once)
    assert [key for key, text in strings.items() if re.search(r"%\(|%s|%d|\$\{", text)] == []
    assert (strings["halt_paused"], strings["log_timeout"]) == {
        "en": ("The moderator has paused the clock ({seconds} s left): no action is accepted until it runs again.",
               "Time ran out for the {side} (round {round})."),
        "ru": ("Модератор остановил таймер (осталось {seconds} с): пока он снова не пойдёт, действия не принимаются.",
               "Время стороны «{side}» истекло (раунд {round})."),
    }[language]


def test_the_unit_types_are_named_among_the_strings(world: Any, battle: LiveBattle) -> None:
    html = _get(world.east_general, battle.pk, "ru").content.decode()
    strings = _json_script(html, "board-strings")
    assert "type_names" not in _json_script(html, "board-config")
    assert strings["type_heavy-infantry"] == "Тяжелая пехота"


def test_the_page_is_russian_for_a_russian_reader(world: Any, battle: LiveBattle) -> None:
    html = _get(world.outsider, battle.pk, "ru").content.decode()
    assert '<html lang="ru">' in html
    assert '<h2 id="board-log-title">Журнал боя</h2>' in html


@pytest.mark.parametrize("language", ["en", "ru"])
def test_no_template_comment_is_printed_on_the_page(world: Any, battle: LiveBattle, language: str) -> None:
    """A ``{# … #}`` spanning lines is not a comment for Django: it was printed on every board page."""
    html = _get(world.east_general, battle.pk, language).content.decode()
    assert [text for text in ("{#", "#}", "More strings for the board script") if text in html] == []


def test_the_script_is_told_the_socket_and_who_the_viewer_is(world: Any, battle: LiveBattle) -> None:
    config = _json_script(_get(world.east_general, battle.pk).content.decode(), "board-config")
    east = sorted(u["id"] for u in battle.state["units"] if u["side"] == "attacker")
    assert (config["socket"], config["api"], config["viewer"]["sides"], sorted(config["viewer"]["units"])) == (
        f"/ws/battles/{battle.pk}/", f"/api/tactical/battles/{battle.pk}/", ["attacker"], east)


def test_a_spectator_is_told_he_acts_for_no_side(world: Any, battle: LiveBattle) -> None:
    config = _json_script(_get(world.outsider, battle.pk).content.decode(), "board-config")
    assert (config["viewer"]["sides"], config["viewer"]["units"], config["viewer"]["may_act"]) == ([], [], False)


def test_the_melee_forecast_is_empty_before_any_contact(world: Any, live: LiveBattle) -> None:
    answer = Client().get(f"/battles/{live.pk}/melee.json")
    assert (answer.status_code, answer.json()) == (200, {"battle": live.pk, "version": live.version, "units": {}})


def test_the_melee_forecast_follows_the_pages_permissions(world: Any, battle: LiveBattle) -> None:
    world.campaign.settings = {**world.campaign.settings, "spectators_allowed": False}
    world.campaign.save()
    client = Client()
    client.force_login(world.outsider)
    assert client.get(f"/battles/{battle.pk}/melee.json").status_code == 403


def test_the_melee_forecast_of_t12_before_the_interception(db: Any) -> None:
    from tactical.services import play as services
    from tests.browser.builders import example_battle

    ex = example_battle()
    for unit, path in (("hi", [[8, 11], [8, 10], [8, 9]]), ("hc", [[9, 11], [9, 10], [9, 9], [9, 8]])):
        services.battle_action_apply(actor=ex.east_user, battle_id=ex.battle.pk,
                                     action={"do": "move", "unit": ex.units[unit], "path": path})
    units = Client().get(f"/battles/{ex.battle.pk}/melee.json").json()["units"]
    hi, hc, right = ex.units["hi"], ex.units["hc"], ex.units["right"]
    # T12.2: the right spearmen take 3 + 2 + 1 (flank) + 1 (charge) = 7 and are routed; the infantry keeps 3.
    assert units == {
        hi: {"target": right, "deals": 3, "takes": 2, "health": 3, "routed": False, "needs_die": False},
        hc: {"target": right, "deals": 4, "takes": 0, "health": 5, "routed": False, "needs_die": False},
        right: {"target": hi, "deals": 2, "takes": 7, "health": 0, "routed": True, "needs_die": False},
    }
