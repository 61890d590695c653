"""Bad retreat choices are refused with the rule (409), malformed ones with 400, strangers with 403 — and
nothing changes (R1–R5, S10)."""

from __future__ import annotations

from typing import Any

from campaign.errors import Conflict, Forbidden, ServiceError
from campaign.models import LogEntry
from strategic.messages import RETREAT_TIME_UP
from strategic.models import Battle, RetreatRecord
from strategic.services.retreats import retreat_choose
from tests.strategic.builders import DemoCampaignTestCase, army, fregellae, unit, user


class RefusalTests(DemoCampaignTestCase):
    """Aspar, beaten in Dacia, must retreat into Moesia (R1.1)."""

    def setUp(self) -> None:
        self.scene = fregellae(self.campaign)
        self.log_before = LogEntry.objects.filter(campaign=self.campaign).count()

    def refused(self, error: type[ServiceError], actor: str = "aspar", **choice: Any) -> ServiceError:
        with self.assertRaises(error) as caught:
            retreat_choose(actor=user(actor), army=self.scene.thrace, **choice)
        return caught.exception

    def assert_nothing_changed(self) -> None:
        thrace = army(self.campaign, "Army of Thrace")
        self.assertEqual((thrace.province.code, thrace.must_retreat, thrace.units.count()), ("dacia", True, 2))
        self.assertEqual(RetreatRecord.objects.count(), 0)
        self.assertEqual(LogEntry.objects.filter(campaign=self.campaign).count(), self.log_before)

    def test_r1_1_the_attacker_may_not_go_first_into_dalmatia(self) -> None:
        exc = self.refused(Conflict, route=["dalmatia"])
        self.assertEqual((exc.rule, exc.message), (
            "R1.1", "This retreat is not allowed (R1.1): the attacker must first retreat into Moesia"))
        self.assert_nothing_changed()

    def test_r1_3_ending_farther_than_the_nearest_is_refused(self) -> None:
        exc = self.refused(Conflict, route=["moesia", "macedonia"])
        self.assertEqual(exc.rule, "R1.3")
        self.assert_nothing_changed()

    def test_r1_no_choice_while_a_retreat_is_possible(self) -> None:
        exc = self.refused(Conflict)
        self.assertEqual(exc.rule, "R1")
        self.assert_nothing_changed()

    def test_r4_naming_more_lost_units_than_the_penalty_is_refused(self) -> None:
        exc = self.refused(Conflict, route=["moesia"], lost_units=[unit(self.campaign, "Legio I Italica").pk])
        self.assertEqual(exc.rule, "R4")
        self.assert_nothing_changed()

    def test_r5_no_sea_retreat_from_a_province_without_a_port(self) -> None:
        exc = self.refused(Conflict, sea_port="italia")
        self.assertEqual(exc.rule, "R5")
        self.assert_nothing_changed()

    def test_r3_an_attacker_may_not_go_into_a_fortress_city(self) -> None:
        exc = self.refused(Conflict, route=["moesia"], fortress_units=[unit(self.campaign, "Legio I Italica").pk])
        self.assertEqual(exc.rule, "R3")
        self.assert_nothing_changed()

    def test_an_unknown_province_is_malformed(self) -> None:
        exc = self.refused(ServiceError, route=["atlantis"])
        self.assertEqual((exc.status, exc.field), (400, "choice"))
        self.assert_nothing_changed()

    def test_the_allied_leader_may_not_choose(self) -> None:
        exc = self.refused(Forbidden, actor="valentinian", route=["moesia"])
        self.assertEqual(exc.status, 403)
        self.assert_nothing_changed()

    def test_the_enemy_may_not_choose(self) -> None:
        self.refused(Forbidden, actor="attila", route=["moesia"])
        self.assert_nothing_changed()

    def test_an_observer_may_not_choose(self) -> None:
        self.refused(Forbidden, actor="observer", route=["moesia"])
        self.assert_nothing_changed()

    def test_the_faction_leader_may_choose(self) -> None:
        record = retreat_choose(actor=user("theodosius"), army=self.scene.thrace, route=["moesia"])
        self.assertEqual(record.chosen_by.username if record.chosen_by else None, "theodosius")

    def test_a_moderator_may_choose(self) -> None:
        record = retreat_choose(actor=user("moderator"), army=self.scene.thrace, route=["moesia"])
        self.assertEqual(record.destination.code if record.destination else None, "moesia")

    def test_an_army_that_owes_no_retreat_is_refused_with_s10(self) -> None:
        with self.assertRaises(Conflict) as caught:
            retreat_choose(actor=user("theodosius"), army=army(self.campaign, "Praesental Army"), route=["moesia"])
        self.assertEqual(caught.exception.rule, "S10")

    def test_r1_after_the_deadline_the_choice_is_refused(self) -> None:
        resolved = self.scene.battle.resolved_at
        assert resolved is not None
        Battle.objects.filter(pk=self.scene.battle.pk).update(resolved_at=resolved.replace(year=2000))
        exc = self.refused(Conflict, route=["moesia"])
        self.assertEqual((exc.rule, exc.message), ("R1", str(RETREAT_TIME_UP)))
        self.assert_nothing_changed()
