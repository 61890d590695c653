"""The after-battle API: retreat options and choice (200 / 400 / 403 / 409 with the rule), the quick battle
(201, moderator only) and the support split (R6)."""

from __future__ import annotations

from typing import Any

from django.test import TestCase, override_settings
from django.utils import translation

from campaign.models import Campaign
from strategic.models import Battle, Border, RetreatRecord
from tests.strategic.test_after_battle_scenes import (
    FAST_HASHER,
    Q6_RU,
    R1_1_EN,
    R1_1_RU,
    SLUG,
    army,
    aspar_attacks_dacia,
    fregellae,
    load,
    province,
    user,
)

BASE = f"/api/campaigns/{SLUG}"


@override_settings(PASSWORD_HASHERS=FAST_HASHER)
class RetreatApiTests(TestCase):
    """Aspar's beaten Army of Thrace in Dacia, through the API."""

    campaign: Campaign

    @classmethod
    def setUpTestData(cls) -> None:
        cls.campaign = load()

    def setUp(self) -> None:
        self.scene = fregellae(self.campaign)
        self.url = f"{BASE}/armies/{self.scene.thrace.pk}/retreat/"
        self.addCleanup(translation.deactivate)  # a request in Russian leaves it active in this thread

    def refused(self, route: list[str], **headers: Any) -> tuple[int, str, str]:
        """Aspar's choice of ``route``, refused: the status, the rule and the sentence."""
        self.client.force_login(user("aspar"))
        answer = self.client.post(self.url, {"route": route}, content_type="application/json", **headers)
        self.assertEqual(army(self.campaign, "Army of Thrace").province.code, "dacia")
        return answer.status_code, answer.json()["rule"], answer.json()["detail"]

    def test_the_options_name_the_battle_side_and_routes(self) -> None:
        body = self.client.get(self.url).json()
        self.assertEqual((body["battle"], body["side"], body["options"]["destinations"], body["options"]["destroyed"]),
                         (self.scene.battle.pk, "attacker", ["moesia"], False))

    def test_an_army_of_no_campaign_is_404(self) -> None:
        self.assertEqual(self.client.get(f"{BASE}/armies/999999/retreat/").status_code, 404)

    def test_the_commander_chooses(self) -> None:
        self.client.force_login(user("aspar"))
        response = self.client.post(self.url, {"route": ["moesia"]}, content_type="application/json")
        self.assertEqual((response.status_code, response.json()["destination"], response.json()["support_points"]),
                         (200, "moesia", 3))

    def test_a_refused_choice_is_409_with_the_rule(self) -> None:
        self.client.force_login(user("aspar"))
        response = self.client.post(self.url, {"route": ["dalmatia"]}, content_type="application/json")
        self.assertEqual((response.status_code, response.json()["rule"]), (409, "R1.1"))
        self.assertEqual(army(self.campaign, "Army of Thrace").province.code, "dacia")

    def test_r1_1_is_refused_in_russian_for_a_russian_browser(self) -> None:
        self.assertEqual(self.refused(["dalmatia"], HTTP_ACCEPT_LANGUAGE="ru"), (409, "R1.1", R1_1_RU))

    def test_r1_1_is_refused_in_the_language_chosen_on_the_site(self) -> None:
        self.client.cookies["django_language"] = "ru"  # what the language switch keeps; wins over the browser's
        self.assertEqual(self.refused(["dalmatia"], HTTP_ACCEPT_LANGUAGE="en"), (409, "R1.1", R1_1_RU))

    def test_r1_1_is_refused_in_english(self) -> None:
        self.assertEqual(self.refused(["dalmatia"], HTTP_ACCEPT_LANGUAGE="en"), (409, "R1.1", R1_1_EN))

    def test_r1_3_provinces_without_a_border_are_named_in_russian(self) -> None:
        self.assertEqual(self.refused(["britannia"], HTTP_ACCEPT_LANGUAGE="ru"), (
            409, "R1.3", "Такое отступление невозможно (R1.3): Дакия и Британия не граничат"))

    def test_r1_3_a_rough_border_is_said_in_the_readers_words(self) -> None:
        dacia, moesia = province(self.campaign, "dacia"), province(self.campaign, "moesia")
        Border.objects.filter(a__in=[dacia, moesia], b__in=[dacia, moesia]).update(kind=Border.Kind.ROUGH)
        self.assertEqual(self.refused(["moesia"], HTTP_ACCEPT_LANGUAGE="ru"), (
            409, "R1.3", ("Такое отступление невозможно (R1.3): отступление не может пересечь границу "
                          "(пересеченная местность) из провинции Дакия в провинцию Мёзия")))
        self.assertEqual(self.refused(["moesia"], HTTP_ACCEPT_LANGUAGE="en"), (
            409, "R1.3", ("This retreat is not allowed (R1.3): a retreat may not cross the rough border from "
                          "Dacia to Moesia")))

    def test_a_malformed_choice_is_400(self) -> None:
        self.client.force_login(user("aspar"))
        response = self.client.post(self.url, {"route": "moesia", "lost_units": ["x"]}, content_type="application/json")
        self.assertEqual((response.status_code, sorted(response.json()["errors"])), (400, ["lost_units", "route"]))

    def test_a_stranger_is_403(self) -> None:
        self.client.force_login(user("attila"))
        response = self.client.post(self.url, {"route": ["moesia"]}, content_type="application/json")
        self.assertEqual(response.status_code, 403)
        self.assertFalse(RetreatRecord.objects.exists())

    def test_an_anonymous_visitor_is_403(self) -> None:
        self.assertEqual(self.client.post(self.url, {"route": ["moesia"]}, content_type="application/json")
                         .status_code, 403)

    def test_the_moderator_splits_the_support(self) -> None:
        self.client.force_login(user("aspar"))
        record_id = self.client.post(self.url, {"route": ["moesia"]}, content_type="application/json").json()["id"]
        self.client.force_login(user("moderator"))
        response = self.client.post(f"{BASE}/retreats/{record_id}/support/", {"removed": 3},
                                    content_type="application/json")
        self.assertEqual((response.json()["support_added"], response.json()["support_removed"]), (0, 3))

    def test_more_than_the_points_won_is_refused_with_r6(self) -> None:
        self.client.force_login(user("aspar"))
        record_id = self.client.post(self.url, {"route": ["moesia"]}, content_type="application/json").json()["id"]
        self.client.force_login(user("moderator"))
        response = self.client.post(f"{BASE}/retreats/{record_id}/support/", {"removed": 4},
                                    content_type="application/json")
        self.assertEqual((response.status_code, response.json()["rule"]), (400, "R6"))

    def test_the_list_of_retreats(self) -> None:
        self.client.force_login(user("aspar"))
        self.client.post(self.url, {"route": ["moesia"]}, content_type="application/json")
        body = self.client.get(f"{BASE}/retreats/").json()
        self.assertEqual([(r["army_name"], r["kind"], r["destination"]) for r in body],
                         [("Army of Thrace", "route", "moesia")])


@override_settings(PASSWORD_HASHERS=FAST_HASHER)
class QuickBattleApiTests(TestCase):
    """The moderator resolves the pending battle in Dacia through the API."""

    campaign: Campaign

    @classmethod
    def setUpTestData(cls) -> None:
        cls.campaign = load()

    def setUp(self) -> None:
        self.battle = aspar_attacks_dacia(self.campaign, with_support=False)
        self.url = f"{BASE}/battles/{self.battle.pk}/quick/"

    def test_the_moderator_resolves_and_the_seed_matches_its_hash(self) -> None:
        import hashlib

        self.client.force_login(user("moderator"))
        body = self.client.post(self.url, {"skill": "strategy"}, content_type="application/json").json()
        self.assertEqual(hashlib.sha256(bytes.fromhex(body["seed"])).hexdigest(), body["seed_commitment"])

    def test_a_player_is_403(self) -> None:
        self.client.force_login(user("aspar"))
        self.assertEqual(self.client.post(self.url, {"skill": "strategy"}, content_type="application/json")
                         .status_code, 403)

    def test_a_bad_skill_is_400(self) -> None:
        self.client.force_login(user("moderator"))
        self.assertEqual(self.client.post(self.url, {"skill": "luck"}, content_type="application/json")
                         .status_code, 400)

    def test_q6_a_siege_without_storm_is_refused_in_russian(self) -> None:
        self.addCleanup(translation.deactivate)
        self.client.force_login(user("moderator"))
        answer = self.client.post(self.url, {"skill": "strategy", "siege": True}, content_type="application/json",
                                  HTTP_ACCEPT_LANGUAGE="ru")
        self.assertEqual((answer.status_code, answer.json()["rule"], answer.json()["detail"]), (409, "Q6", Q6_RU))
        self.assertEqual(Battle.objects.get(pk=self.battle.pk).status, "pending")

    def test_before_resolution_there_is_no_quick_battle_to_read(self) -> None:
        self.assertEqual(self.client.get(self.url).status_code, 404)
