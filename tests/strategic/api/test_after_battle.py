"""The after-battle API: retreat options and choice (200 / 400 / 403 / 409 with the rule), the quick battle
(201, moderator only) and the support split (R6)."""

from __future__ import annotations

from typing import Any

from django.utils import translation

from strategic.models import Battle, Border, QuickBattleRecord, RetreatRecord, Unit
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

BASE = f"/api/campaigns/{SLUG}"


class RetreatApiTests(DemoCampaignTestCase):
    """Aspar's beaten Army of Thrace in Dacia, through the API."""

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

    def answer(self, choice: dict[str, Any], language: str) -> tuple[int, dict[str, Any]]:
        """Aspar's ``choice`` in ``language``: the status and the whole body; nothing changes."""
        self.client.force_login(user("aspar"))
        answer = self.client.post(self.url, choice, content_type="application/json", HTTP_ACCEPT_LANGUAGE=language)
        self.assertEqual(army(self.campaign, "Army of Thrace").province.code, "dacia")
        self.assertFalse(RetreatRecord.objects.exists())
        return answer.status_code, answer.json()

    def test_a_refusal_carries_the_engines_code_and_params(self) -> None:
        self.assertEqual(self.answer({"route": ["dalmatia"]}, "en"), (409, {
            "status": 409, "code": "retreat_refused", "detail": R1_1_EN, "rule": "R1.1",
            "refusal": {"code": "retreat_attacker_origin", "params": {"province": "moesia"}}}))
        self.assertEqual(self.answer({"route": ["britannia"]}, "ru"), (409, {
            "status": 409, "code": "retreat_refused", "detail": "Такое отступление невозможно (R1.3): Дакия и Британия не граничат", "rule": "R1.3",
            "refusal": {"code": "retreat_no_border", "params": {"from": "dacia", "to": "britannia"}}}))

    def test_r4_the_count_is_in_the_refusal(self) -> None:
        legio = unit(self.campaign, "Legio I Italica").pk
        self.assertEqual(self.answer({"route": ["moesia"], "lost_units": [legio]}, "en"), (409, {
            "status": 409, "code": "retreat_refused", "detail": "This retreat is not allowed (R4): the retreat costs 0 units, 1 were chosen", "rule": "R4",
            "refusal": {"code": "retreat_losses", "params": {"count": 0, "chosen": 1}}}))

    def test_an_unknown_province_is_400_in_russian_with_the_engines_field(self) -> None:
        detail = "Выбор не понят: choice.route[0]: неизвестная провинция «atlantis»"
        self.assertEqual(self.answer({"route": ["atlantis"]}, "ru"), (400, {
            "status": 400, "code": "retreat_malformed", "detail": detail, "errors": {"choice": [detail]},
            "refusal": {"code": "unknown_province", "params": {"province": "atlantis"}, "field": "choice.route[0]"}}))

    def test_an_unknown_province_is_400_in_english(self) -> None:
        detail = "The choice is not understood: choice.route[0]: unknown province “atlantis”"
        self.assertEqual(self.answer({"route": ["atlantis"]}, "en")[1]["detail"], detail)

    def test_a_unit_of_another_army_is_named_and_given_by_its_plain_id(self) -> None:
        riders = unit(self.campaign, "Alan Riders").pk
        for language, detail in (
                ("ru", "Выбор не понят: choice.fortress_units[0]: отряда «Alan Riders» нет в отступающей армии"),
                ("en", ("The choice is not understood: choice.fortress_units[0]: Alan Riders is not in the "
                        "retreating army"))):
            self.assertEqual(self.answer({"fortress_units": [riders]}, language), (400, {
                "status": 400, "code": "retreat_malformed", "detail": detail, "errors": {"choice": [detail]},
                "refusal": {"code": "unit_not_in_army", "params": {"unit": riders},
                            "field": "choice.fortress_units[0]"}}))

    def test_a_unit_of_no_army_of_the_campaign_is_said_by_its_id(self) -> None:
        detail = "Выбор не понят: choice.fortress_units[0]: отряда «999999» нет в отступающей армии"
        status, body = self.answer({"fortress_units": [999999]}, "ru")
        self.assertEqual((status, body["detail"], body["refusal"]), (400, detail, {
            "code": "unit_not_in_army", "params": {"unit": 999999}, "field": "choice.fortress_units[0]"}))

    def test_a_unit_listed_twice_is_named(self) -> None:
        legio = unit(self.campaign, "Legio I Italica").pk
        detail = "Выбор не понят: choice.fortress_units[1]: отряд «Legio I Italica» указан дважды"
        status, body = self.answer({"fortress_units": [legio, legio]}, "ru")
        self.assertEqual((status, body["detail"], body["refusal"]), (400, detail, {
            "code": "unit_listed_twice", "params": {"unit": legio}, "field": "choice.fortress_units[1]"}))

    def test_a_malformed_choice_is_400(self) -> None:
        self.client.force_login(user("aspar"))
        response = self.client.post(self.url, {"route": "moesia", "lost_units": ["x"]}, content_type="application/json")
        self.assertEqual((response.status_code, sorted(response.json()["errors"])), (400, ["lost_units[0]", "route"]))

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


class QuickBattleApiTests(DemoCampaignTestCase):
    """The moderator resolves the pending battle in Dacia through the API."""

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

    def test_q6_the_refusal_carries_the_engines_code(self) -> None:
        self.client.force_login(user("moderator"))
        answer = self.client.post(self.url, {"skill": "strategy", "siege": True}, content_type="application/json",
                                  HTTP_ACCEPT_LANGUAGE="en")
        self.assertEqual((answer.status_code, answer.json()), (409, {
            "status": 409, "code": "quick_refused", "detail": ("The quick battle is not allowed (Q6): in a siege the quick battle applies only when the "
                       "attacker storms the city"),
            "rule": "Q6", "refusal": {"code": "quick_siege_without_storm", "params": {}}}))

    def test_a_defender_without_units_is_400_in_russian_with_the_engines_field(self) -> None:
        self.addCleanup(translation.deactivate)
        Unit.objects.filter(campaign=self.campaign, army__province=self.battle.province,
                            faction=self.battle.defender_faction).delete()
        self.client.force_login(user("moderator"))
        answer = self.client.post(self.url, {"skill": "strategy"}, content_type="application/json",
                                  HTTP_ACCEPT_LANGUAGE="ru")
        detail = "Быстрый бой нельзя подготовить: defender.units: у обороняющегося должен быть хотя бы один отряд"
        self.assertEqual((answer.status_code, answer.json()), (400, {
            "status": 400, "code": "quick_malformed", "detail": detail,
            "refusal": {"code": "side_without_units", "params": {"side": "defender"}, "field": "defender.units"}}))
        self.assertEqual((Battle.objects.get(pk=self.battle.pk).status, QuickBattleRecord.objects.count()),
                         ("pending", 0))

    def test_before_resolution_there_is_no_quick_battle_to_read(self) -> None:
        self.assertEqual(self.client.get(self.url).status_code, 404)
