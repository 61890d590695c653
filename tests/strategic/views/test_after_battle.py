"""The pages after a battle: the retreat page with its map, the choice through the page (403 / 409 / 400
shown with the rule, nothing changed), the list of retreats, and the moderator's quick battle page."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from combat.retreat.model import Blocked
from strategic.models import Battle, RetreatRecord, Unit
from strategic.views.after_battle import blocked_reason
from tests.strategic.builders import (
    Q6_RU,
    R1_1_EN,
    R1_1_RU,
    SLUG,
    DemoCampaignTestCase,
    army,
    aspar_attacks_dacia,
    fregellae,
    province,
    unit,
    user,
)


def _text(response: Any) -> str:
    return html.unescape(re.sub(r"\s+", " ", response.content.decode()))


def _error_box(response: Any) -> str:
    """The page's error as the reader sees it: its rule id, then its sentence."""
    match = re.search(r'<div class="error-box" role="alert"><p>(.*?)</p>', response.content.decode())
    assert match is not None, "no error on the page"
    return html.unescape(re.sub(r"<[^>]+>", "", match.group(1)))


class RetreatPageTests(DemoCampaignTestCase):
    """Aspar's beaten Army of Thrace in Dacia."""

    def setUp(self) -> None:
        self.scene = fregellae(self.campaign)
        self.url = reverse("retreat", kwargs={"slug": SLUG, "army_id": self.scene.thrace.pk})
        self.choose = reverse("retreat-choose", kwargs={"slug": SLUG, "army_id": self.scene.thrace.pk})

    def test_the_page_lists_the_route_to_moesia(self) -> None:
        self.client.force_login(user("aspar"))
        text = _text(self.client.get(self.url))
        self.assertIn('value="route:moesia"', text)
        self.assertIn("Flavius Aspar lost the battle in Dacia and must retreat.", text)

    def test_the_map_highlights_moesia_and_draws_the_route(self) -> None:
        self.client.force_login(user("aspar"))
        body = self.client.get(self.url).content.decode()
        self.assertRegex(body, r'<g class="province terrain-field dest dest-move"[^>]*id="province-moesia"')
        self.assertRegex(body, r'<g class="province terrain-field origin"[^>]*id="province-dacia"')
        dacia, moesia = province(self.campaign, "dacia"), province(self.campaign, "moesia")
        self.assertIn(f'points="{dacia.x},{dacia.y} {moesia.x},{moesia.y}"', body)

    def test_anyone_may_read_the_options_but_not_choose(self) -> None:
        text = _text(self.client.get(self.url))
        self.assertIn("Only the army's commander, its faction's leader or a moderator may choose.", text)

    def test_choosing_on_the_page_moves_the_army(self) -> None:
        self.client.force_login(user("aspar"))
        response = self.client.post(self.choose, {"option": "route:moesia"})
        self.assertEqual((response.status_code, response["Location"]), (302, f"/c/{SLUG}/after-battle/"))
        self.assertEqual(army(self.campaign, "Army of Thrace").province.code, "moesia")

    def test_a_stranger_gets_403_and_nothing_changes(self) -> None:
        self.client.force_login(user("valentinian"))
        response = self.client.post(self.choose, {"option": "route:moesia"})
        self.assertEqual(response.status_code, 403)
        self.assertIn("Only the retreating army's commander, its faction's leader or a moderator may choose its "
                      "retreat (R1).", _text(response))
        self.assertEqual(army(self.campaign, "Army of Thrace").province.code, "dacia")

    def test_a_refused_route_gets_409_with_the_rule(self) -> None:
        self.client.force_login(user("aspar"))
        response = self.client.post(self.choose, {"option": "route:dalmatia"})
        self.assertEqual(response.status_code, 409)
        self.assertIn(
            f'<a class="rule-id rule-link" href="/c/{self.campaign.slug}/rules/#R1.1" data-rule="R1.1" '
            'title="Rule R1.1: The attacker goes back">R1.1</a>', response.content.decode()
        )
        self.assertFalse(RetreatRecord.objects.exists())

    def test_a_refused_route_is_said_in_russian_for_a_russian_browser(self) -> None:
        self.addCleanup(translation.deactivate)  # a request in Russian leaves it active in this thread
        self.client.force_login(user("aspar"))
        response = self.client.post(self.choose, {"option": "route:dalmatia"}, HTTP_ACCEPT_LANGUAGE="ru")
        self.assertEqual((response.status_code, _error_box(response)), (409, f"R1.1 {R1_1_RU}"))
        self.assertEqual(army(self.campaign, "Army of Thrace").province.code, "dacia")

    def test_a_refused_route_is_said_in_the_language_chosen_on_the_site(self) -> None:
        self.addCleanup(translation.deactivate)
        self.client.force_login(user("aspar"))
        self.client.cookies["django_language"] = "ru"
        response = self.client.post(self.choose, {"option": "route:dalmatia"}, HTTP_ACCEPT_LANGUAGE="en")
        self.assertEqual((response.status_code, _error_box(response)), (409, f"R1.1 {R1_1_RU}"))

    def test_a_refused_route_is_said_in_english(self) -> None:
        self.client.force_login(user("aspar"))
        response = self.client.post(self.choose, {"option": "route:dalmatia"}, HTTP_ACCEPT_LANGUAGE="en")
        self.assertEqual((response.status_code, _error_box(response)), (409, f"R1.1 {R1_1_EN}"))

    def test_an_unknown_province_gets_400(self) -> None:
        self.client.force_login(user("aspar"))
        self.assertEqual(self.client.post(self.choose, {"option": "route:atlantis"}).status_code, 400)

    def test_an_unknown_province_is_said_in_russian(self) -> None:
        self.addCleanup(translation.deactivate)
        self.client.force_login(user("aspar"))
        response = self.client.post(self.choose, {"option": "route:atlantis"}, HTTP_ACCEPT_LANGUAGE="ru")
        self.assertEqual((response.status_code, _error_box(response)),
                         (400, "Выбор не понят: choice.route[0]: неизвестная провинция «atlantis»"))
        self.assertEqual(army(self.campaign, "Army of Thrace").province.code, "dacia")

    def test_the_after_battle_page_lists_the_retreat_owed(self) -> None:
        text = _text(self.client.get(reverse("after-battle", kwargs={"slug": SLUG})))
        self.assertIn("<strong>Army of Thrace</strong> (Eastern Roman Empire, Dacia)", text)

    def test_after_the_choice_the_list_shows_the_retreat_and_the_support_won(self) -> None:
        self.client.force_login(user("aspar"))
        self.client.post(self.choose, {"option": "route:moesia"})
        text = _text(self.client.get(reverse("after-battle", kwargs={"slug": SLUG})))
        self.assertIn("Retreat by land → Moesia", text)
        self.assertIn("The Huns: +3, loser −0", text)

    def test_the_moderator_moves_support_points_to_removal_on_the_page(self) -> None:
        self.client.force_login(user("aspar"))
        self.client.post(self.choose, {"option": "route:moesia"})
        record = RetreatRecord.objects.get()
        self.client.force_login(user("moderator"))
        url = reverse("retreat-support", kwargs={"slug": SLUG, "record_id": record.pk})
        self.assertEqual(self.client.post(url, {"removed": "1"}).status_code, 302)
        record.refresh_from_db()
        self.assertEqual((record.support_added, record.support_removed), (2, 1))

    def test_the_campaign_log_tells_the_retreat_and_the_support(self) -> None:
        self.client.force_login(user("aspar"))
        self.client.post(self.choose, {"option": "route:moesia"})
        text = _text(self.client.get(reverse("campaign", kwargs={"slug": SLUG})))
        self.assertIn("Army of Thrace retreated from Dacia (Retreat by land): Moesia.", text)
        self.assertIn("Support points in Dacia: +3 for The Huns.", text)

    def test_after_the_deadline_the_page_shows_the_default_applied(self) -> None:
        resolved = self.scene.battle.resolved_at
        assert resolved is not None
        Battle.objects.filter(pk=self.scene.battle.pk).update(resolved_at=resolved.replace(year=2000))
        text = _text(self.client.get(self.url))
        self.assertIn("This army owes no retreat.", text)
        self.assertIn("Dacia: Retreat by land → Moesia (by default)", text)

    def _penalties_with_two_hunnic_units_in_moesia(self, language: str) -> str:
        """R4: the first route's penalties as the reader sees them, with two Hunnic units waiting in Moesia,
        where the beaten Army of Thrace must go first."""
        riders = unit(self.campaign, "Alan Riders")
        for name in ("Hunnic raiders", "Hunnic scouts"):
            Unit.objects.create(campaign=self.campaign, faction=riders.faction, unit_type=riders.unit_type,
                                name=name, province=province(self.campaign, "moesia"), health_halves=8)
        self.client.force_login(user("aspar"))
        body = self.client.get(self.url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        match = re.search(r'<tr id="route-1">(?:\s*<td>.*?</td>){3}\s*<td>(.*?)</td>', body, flags=re.DOTALL)
        assert match is not None, "no route on the page"
        return html.unescape(re.sub(r"<[^>]+>", "", match.group(1)))

    def test_the_enemy_units_on_the_route_are_counted_in_english(self) -> None:
        self.assertEqual(self._penalties_with_two_hunnic_units_in_moesia("en"), "Moesia: 2 (2 enemy units) = 2")

    def test_the_enemy_units_on_the_route_are_counted_in_russian_plural_forms(self) -> None:
        self.assertEqual(self._penalties_with_two_hunnic_units_in_moesia("ru"), "Мёзия: 2 (2 вражеских отряда) = 2")

    def test_the_page_in_russian(self) -> None:
        self.client.force_login(user("aspar"))
        text = _text(self.client.get(self.url, HTTP_ACCEPT_LANGUAGE="ru"))
        self.assertIn("Отступление", text)


class QuickBattlePageTests(DemoCampaignTestCase):
    """A pending battle in Dacia and the moderator's page to resolve it quickly."""

    def setUp(self) -> None:
        self.battle = aspar_attacks_dacia(self.campaign, with_support=False)
        self.url = reverse("quick-battle", kwargs={"slug": SLUG, "battle_id": self.battle.pk})
        self.resolve = reverse("quick-battle-resolve", kwargs={"slug": SLUG, "battle_id": self.battle.pk})

    def test_the_moderator_sees_the_form(self) -> None:
        self.client.force_login(user("moderator"))
        self.assertIn('name="skill" value="strategy"', self.client.get(self.url).content.decode())

    def test_a_player_may_not_resolve(self) -> None:
        self.client.force_login(user("aspar"))
        response = self.client.post(self.resolve, {"skill": "strategy"})
        self.assertEqual((response.status_code, Battle.objects.get(pk=self.battle.pk).status), (403, "pending"))

    def test_the_moderator_resolves_and_sees_every_roll_and_the_seed(self) -> None:
        self.client.force_login(user("moderator"))
        response = self.client.post(self.resolve, {"skill": "strategy", "table": "open_field"})
        self.assertEqual(response.status_code, 302)
        page = self.client.get(self.url).content.decode()
        record = Battle.objects.get(pk=self.battle.pk).quick
        self.assertIn(record.seed, page)
        self.assertEqual(page.count("<td>Flavius Aspar</td>"), 1)

    def test_q6_a_siege_without_storm_is_refused_on_the_page(self) -> None:
        self.client.force_login(user("moderator"))
        response = self.client.post(self.resolve, {"skill": "strategy", "siege": "1"})
        self.assertEqual(response.status_code, 409)
        self.assertIn(
            f'<a class="rule-id rule-link" href="/c/{self.campaign.slug}/rules/#Q6" data-rule="Q6" '
            'title="Rule Q6: Sieges">Q6</a>', response.content.decode()
        )

    def test_q6_is_said_in_russian_on_the_page(self) -> None:
        self.addCleanup(translation.deactivate)
        self.client.force_login(user("moderator"))
        self.client.cookies["django_language"] = "ru"
        response = self.client.post(self.resolve, {"skill": "strategy", "siege": "1"})
        self.assertEqual((response.status_code, _error_box(response)), (409, f"Q6 {Q6_RU}"))

    def test_a_visitor_sees_no_form(self) -> None:
        text = _text(self.client.get(self.url))
        self.assertIn("This battle was not resolved as a quick battle.", text)


@pytest.mark.parametrize(("blocked", "english", "russian"), [
    (Blocked("R1.4", "retreat_nearest_too_far", {"province": "dacia", "count": 5}),
     "No retreat by land (R1.4): the nearest eligible province (Dacia) is 5 provinces away.",
     "Отступить по суше нельзя (R1.4): ближайшая подходящая провинция (Дакия) удалена на 5 провинций."),
    (Blocked("R1.4", "retreat_unreachable"),
     "No retreat by land (R1.4): no eligible province can be reached.",
     "Отступить по суше нельзя (R1.4): ни одной подходящей провинции не достичь."),
    (Blocked("R3", "retreat_sallied"),
     "No retreat by land (R3): an army that sallied from the city must retreat back into it.",
     "Отступить по суше нельзя (R3): армия, сделавшая вылазку из города, должна отступить обратно в него."),
])
def test_why_no_land_retreat_is_open_is_said_from_the_engines_code(blocked: Blocked, english: str,
                                                                   russian: str) -> None:
    with translation.override("en"):
        assert blocked_reason(blocked, {"dacia": "Dacia"}) == english
    with translation.override("ru"):
        assert blocked_reason(blocked, {"dacia": "Дакия"}) == russian
    assert blocked_reason(None, {}) == ""
