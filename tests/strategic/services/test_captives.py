"""Q5 (table C, 17+): the attacker's overwhelming victory captures the enemy commander; a moderator releases
him with a reason (M1). On the demo map: Aspar attacks Attila in Dacia and the moderator resolves it quickly.

The commanders' skills are set for the test (Aspar Strategy 20, Attila 1 without Luck) so that the seed
``capture-0`` (Aspar rolls 2+2+1, Attila 2+5+6) gives a margin of 27: an overwhelming victory of the attacker.
"""

from __future__ import annotations

from django.test import TestCase, override_settings
from django.utils import translation

from campaign.errors import Conflict, Forbidden, ServiceError
from campaign.models import Campaign, Commander, LogEntry
from strategic.models import Army, Battle, Unit
from strategic.services.captives import commander_release
from strategic.services.quick_battles import quick_battle_resolve
from tests.strategic.builders import (
    FAST_HASHER,
    army,
    aspar_attacks_dacia,
    faction,
    load,
    user,
)


def overwhelming_odds() -> Campaign:
    """The demo campaign with Aspar at Strategy 20 and Attila at 1, without Luck."""
    campaign = load()
    Commander.objects.filter(campaign=campaign, name="Flavius Aspar").update(strategy=20)
    Commander.objects.filter(campaign=campaign, name="Attila").update(strategy=1, has_luck=False)
    return campaign


def commander(campaign: Campaign, name: str) -> Commander:
    """A demo commander by name, fresh from the database."""
    return Commander.objects.select_related("captured_by").get(campaign=campaign, name=name)


@override_settings(PASSWORD_HASHERS=FAST_HASHER)
class CaptureTests(TestCase):
    campaign: Campaign

    @classmethod
    def setUpTestData(cls) -> None:
        cls.campaign = overwhelming_odds()

    def setUp(self) -> None:
        self.battle = aspar_attacks_dacia(self.campaign, with_support=False)

    def resolve(self) -> None:
        record = quick_battle_resolve(actor=user("moderator"), battle=self.battle, skill="strategy",
                                      seed=b"capture-0")
        self.assertEqual((record.result["table"], record.result["band"], record.result["margin"],
                          record.result["commander_captured"]), ("C", "17+", 27, True))

    def test_the_defending_commander_is_captured_by_the_attackers_faction(self) -> None:
        self.resolve()
        attila = commander(self.campaign, "Attila")
        self.assertEqual((attila.captured_by.slug if attila.captured_by else None, attila.displaced), ("east", True))

    def test_his_armies_pass_to_a_free_commander_of_his_faction(self) -> None:
        self.resolve()
        self.assertEqual(army(self.campaign, "Host of Attila").commander.name, "Bleda")
        entry = LogEntry.objects.get(campaign=self.campaign, kind="army_commander_set")
        self.assertEqual((entry.rule, entry.data["before"], entry.data["commander"]),
                         ("Q5", commander(self.campaign, "Attila").pk, commander(self.campaign, "Bleda").pk))

    def test_the_capture_is_in_the_log_in_the_readers_words(self) -> None:
        self.resolve()
        entry = LogEntry.objects.get(campaign=self.campaign, kind="commander_captured")
        self.assertEqual((entry.rule, entry.data["by"], entry.data["province"]),
                         ("Q5", faction(self.campaign, "east").pk, "dacia"))
        page = self.client.get(f"/c/{self.campaign.slug}/", HTTP_ACCEPT_LANGUAGE="en")
        self.assertContains(page, "Attila of The Huns was captured by Eastern Roman Empire in Dacia; Bleda takes "
                                  "command of Host of Attila.")

    def test_with_nobody_free_the_army_keeps_him_and_the_log_asks_for_a_commander(self) -> None:
        Commander.objects.filter(campaign=self.campaign, name="Bleda").update(displaced=True)
        self.resolve()
        self.assertEqual(army(self.campaign, "Host of Attila").commander.name, "Attila")
        page = self.client.get(f"/c/{self.campaign.slug}/", HTTP_ACCEPT_LANGUAGE="en")
        self.assertContains(page, "Attila of The Huns was captured by Eastern Roman Empire in Dacia; no free "
                                  "commander of his faction can take Host of Attila: one must be appointed.")
        # The leader column and the Huns' roster mark him beside his name (Q5).
        mark = ' <span class="captured-mark" title="captured, held by Eastern Roman Empire">(captured)</span>'
        self.assertContains(page, f"<td>Attila{mark}</td>", html=False)
        roster = self.client.get(f"/c/{self.campaign.slug}/rosters/huns/", HTTP_ACCEPT_LANGUAGE="en")
        self.assertContains(roster, f"Commander: <strong>Attila</strong>{mark} · Province: <strong>Dacia</strong>")

    def test_the_quick_battle_page_and_the_after_battle_page_show_the_captive(self) -> None:
        self.resolve()
        page = self.client.get(f"/c/{self.campaign.slug}/battles/{self.battle.pk}/quick/", HTTP_ACCEPT_LANGUAGE="en")
        self.assertContains(page, "The attacker takes the position and captures the enemy commander, Attila.")
        page = self.client.get(f"/c/{self.campaign.slug}/after-battle/", HTTP_ACCEPT_LANGUAGE="en")
        self.assertContains(page, "captured, held by Eastern Roman Empire")
        self.assertNotContains(page, 'name="reason"')  # the release form is the moderator's

    def test_q5_a_captive_offered_command_is_refused_for_his_captivity_not_as_displaced(self) -> None:
        self.resolve()
        self.addCleanup(translation.deactivate)  # the request in Russian leaves it active in this thread
        Campaign.objects.filter(pk=self.campaign.pk).update(current_faction=faction(self.campaign, "huns"))
        client = self.client
        client.force_login(user("moderator"))
        host = army(self.campaign, "Host of Attila")
        answer = client.post(f"/api/campaigns/{self.campaign.slug}/armies/{host.pk}/commander/",
                             {"commander": commander(self.campaign, "Attila").pk}, content_type="application/json",
                             HTTP_ACCEPT_LANGUAGE="en")
        self.assertEqual((answer.status_code, answer.json()["rule"], answer.json()["detail"]), (
            400, "Q5", "This commander is held captive and cannot take command until a moderator releases him (Q5)."))
        answer = client.post(f"/api/campaigns/{self.campaign.slug}/armies/{host.pk}/commander/",
                             {"commander": commander(self.campaign, "Attila").pk}, content_type="application/json",
                             HTTP_ACCEPT_LANGUAGE="ru")
        self.assertEqual(answer.json()["detail"], "Этот командующий в плену и не может принять командование, пока "
                                                  "модератор его не освободит (Q5).")
        self.assertEqual(army(self.campaign, "Host of Attila").commander.name, "Bleda")

    def test_a_leader_who_was_not_in_the_battle_is_not_captured(self) -> None:
        # Only loose Hunnic units defend Dacia: Attila lends his Strategy from afar (Q1) and stays free.
        host = army(self.campaign, "Host of Attila")
        Unit.objects.filter(army=host).update(army=None, province=host.province)
        host.delete()
        self.resolve()
        self.assertIsNone(commander(self.campaign, "Attila").captured_by)
        self.assertFalse(LogEntry.objects.filter(campaign=self.campaign, kind="commander_captured").exists())

    def test_a_lesser_victory_captures_nobody(self) -> None:
        Commander.objects.filter(campaign=self.campaign, name="Attila").update(strategy=12)
        record = quick_battle_resolve(actor=user("moderator"), battle=self.battle, skill="strategy",
                                      seed=b"capture-0")
        self.assertEqual((record.result["band"], record.result["commander_captured"]), ("13-16", False))
        self.assertIsNone(commander(self.campaign, "Attila").captured_by)
        self.assertEqual(Battle.objects.get(pk=self.battle.pk).result["captured_commander"], None)


@override_settings(PASSWORD_HASHERS=FAST_HASHER)
class ReleaseTests(TestCase):
    """A moderator releases the captive, with a reason that goes into the log (M1)."""

    campaign: Campaign

    @classmethod
    def setUpTestData(cls) -> None:
        cls.campaign = overwhelming_odds()
        battle = aspar_attacks_dacia(cls.campaign, with_support=False)
        quick_battle_resolve(actor=user("moderator"), battle=battle, skill="strategy", seed=b"capture-0")

    def test_the_moderator_releases_him_and_he_may_command_again(self) -> None:
        attila = commander_release(actor=user("moderator"), commander=commander(self.campaign, "Attila"),
                                   reason="Ransom paid by the Huns")
        attila.refresh_from_db()
        self.assertEqual((attila.captured_by, attila.displaced), (None, False))
        # His army stays with the commander who took it over.
        self.assertEqual(army(self.campaign, "Host of Attila").commander.name, "Bleda")

    def test_the_release_is_logged_with_its_reason(self) -> None:
        commander_release(actor=user("moderator"), commander=commander(self.campaign, "Attila"),
                          reason="Ransom paid by the Huns")
        entry = LogEntry.objects.get(campaign=self.campaign, kind="commander_released")
        self.assertEqual((entry.rule, entry.reason, entry.actor.username if entry.actor else None),
                         ("Q5", "Ransom paid by the Huns", "moderator"))
        page = self.client.get(f"/c/{self.campaign.slug}/", HTTP_ACCEPT_LANGUAGE="en")
        self.assertContains(page, "Attila of The Huns, held by Eastern Roman Empire, was released.")

    def test_a_release_needs_a_reason(self) -> None:
        with self.assertRaises(ServiceError) as caught:
            commander_release(actor=user("moderator"), commander=commander(self.campaign, "Attila"), reason="  ")
        self.assertEqual((caught.exception.status, caught.exception.field), (400, "reason"))

    def test_only_a_moderator_may_release(self) -> None:
        with self.assertRaises(Forbidden):
            commander_release(actor=user("attila"), commander=commander(self.campaign, "Attila"), reason="Escape")
        self.assertIsNotNone(commander(self.campaign, "Attila").captured_by)

    def test_a_commander_not_held_is_refused(self) -> None:
        with self.assertRaises(Conflict) as caught:
            commander_release(actor=user("moderator"), commander=commander(self.campaign, "Bleda"), reason="Why")
        self.assertEqual(caught.exception.rule, "Q5")

    def test_the_moderator_releases_him_on_the_after_battle_page(self) -> None:
        self.client.force_login(user("moderator"))
        attila = commander(self.campaign, "Attila")
        page = self.client.get(f"/c/{self.campaign.slug}/after-battle/", HTTP_ACCEPT_LANGUAGE="en")
        self.assertContains(page, f'action="/c/{self.campaign.slug}/commanders/{attila.pk}/release/"')
        response = self.client.post(f"/c/{self.campaign.slug}/commanders/{attila.pk}/release/",
                                    {"reason": "Exchanged for Aspar's envoy"})
        self.assertRedirects(response, f"/c/{self.campaign.slug}/after-battle/#captives", fetch_redirect_response=False)
        self.assertIsNone(commander(self.campaign, "Attila").captured_by)

    def test_the_api_lists_the_captives_and_releases_one(self) -> None:
        self.client.force_login(user("moderator"))
        attila = commander(self.campaign, "Attila")
        listed = self.client.get(f"/api/campaigns/{self.campaign.slug}/captives/").json()
        self.assertEqual(listed, [{"id": attila.pk, "name": "Attila", "faction": attila.faction_id, "rank": "leader",
                                   "captured_by": faction(self.campaign, "east").pk, "displaced": True}])
        url = f"/api/campaigns/{self.campaign.slug}/commanders/{attila.pk}/release/"
        refused = self.client.post(url, {"reason": ""}, content_type="application/json")
        self.assertEqual((refused.status_code, list(refused.json()["errors"])), (400, ["reason"]))
        released = self.client.post(url, {"reason": "Treaty of Margus"}, content_type="application/json")
        self.assertEqual((released.status_code, released.json()["captured_by"], released.json()["displaced"]),
                         (200, None, False))
        again = self.client.post(url, {"reason": "Treaty of Margus"}, content_type="application/json")
        self.assertEqual(again.status_code, 409)

    def test_the_api_release_is_the_moderators(self) -> None:
        self.client.force_login(user("aspar"))
        attila = commander(self.campaign, "Attila")
        response = self.client.post(f"/api/campaigns/{self.campaign.slug}/commanders/{attila.pk}/release/",
                                    {"reason": "Escape"}, content_type="application/json")
        self.assertEqual(response.status_code, 403)
        self.assertTrue(Army.objects.filter(campaign=self.campaign, name="Host of Attila").exists())
