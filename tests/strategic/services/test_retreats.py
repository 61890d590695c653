"""The retreat after a tactical battle on the demo map (S10, R1–R6): the source's example and its variants.

The scene is described in ``tests.strategic.builders``: Aspar (Camillus) attacked Dacia (Fregellae) from
Moesia (Capua), the Praesental Army (Valerius) supported from Dalmatia (Velitrae), and the Huns won.
"""

from __future__ import annotations

import html
import re
from decimal import Decimal

from django.urls import reverse
from django.utils import translation

from campaign.models import Commander, LogEntry
from combat.retreat.model import Blocked
from strategic.models import Army, Battle, Border, Province, RetreatRecord, SupportPoints, Unit
from strategic.selectors.retreats import pending_retreat
from strategic.services.battles import UnitChange, battle_result_apply
from strategic.services.retreats import retreat_choose, retreat_support_set
from tests.strategic.builders import (
    SLUG,
    DemoCampaignTestCase,
    army,
    aspar_attacks_dacia,
    fregellae,
    province,
    unit,
    user,
)


def _health(a: Army) -> list[tuple[str, float]]:
    return [(u.name, u.health) for u in a.units.order_by("pk")]


class SourceExampleTests(DemoCampaignTestCase):
    """Camillus retreats to Capua; Valerius stays on friendly ground; the Samnites gain 3 support points."""

    def setUp(self) -> None:
        self.scene = fregellae(self.campaign)

    def test_only_the_army_in_the_battle_must_retreat(self) -> None:
        self.assertEqual((self.scene.thrace.must_retreat, self.scene.praesental.must_retreat), (True, False))

    def test_r1_1_the_attacker_is_offered_only_the_province_it_came_from(self) -> None:
        pending = pending_retreat(army=self.scene.thrace)
        assert pending is not None
        self.assertEqual(pending.side, "attacker")
        self.assertEqual(pending.options.to_dict()["routes"], [{
            "path": ["moesia"], "destination": "moesia", "swept": [], "army_size_after_sweep": 2,
            "penalties": [], "penalty": 0, "survivors": 2,
        }])

    def test_the_choice_moves_the_army_with_its_health(self) -> None:
        thrace = self.scene.thrace
        survivors = [unit(self.campaign, "Legio I Italica").pk, unit(self.campaign, "Scholae Palatinae").pk]
        retreat_choose(actor=user("aspar"), army=thrace, route=["moesia"])
        thrace.refresh_from_db()  # the same army row, not one found again by its name
        self.assertEqual((thrace.province.code, thrace.must_retreat), ("moesia", False))
        # The battle's survivors, hurt as the battle left them (3 of 5 and 4.5 of 5 lines), went with it.
        self.assertEqual(list(Unit.objects.filter(army=thrace).order_by("pk").values_list(
            "pk", "name", "health_halves", "province")), [(survivors[0], "Legio I Italica", 6, None),
                                                          (survivors[1], "Scholae Palatinae", 9, None)])
        self.assertEqual(_health(thrace), [("Legio I Italica", 3.0), ("Scholae Palatinae", 4.5)])

    def test_the_supporter_next_door_stays_where_it_is(self) -> None:
        retreat_choose(actor=user("aspar"), army=self.scene.thrace, route=["moesia"])
        praesental = army(self.campaign, "Praesental Army")
        self.assertEqual((praesental.province.code, _health(praesental)),
                         ("dalmatia", [("Equites Cataphractarii", 5.0)]))

    def test_r6_the_winner_adds_half_of_the_five_units_lost_rounded_up(self) -> None:
        record = retreat_choose(actor=user("aspar"), army=self.scene.thrace, route=["moesia"])
        points = list(SupportPoints.objects.filter(province__campaign=self.campaign)
                      .values_list("province__code", "faction__slug", "points"))
        self.assertEqual(points, [("dacia", "huns", 3)])
        self.assertEqual((record.support_points, record.support_added, record.support_removed), (3, 3, 0))

    def test_the_record_says_what_was_done(self) -> None:
        record = retreat_choose(actor=user("aspar"), army=self.scene.thrace, route=["moesia"])
        self.assertEqual(
            (record.kind, record.destination.code if record.destination else None, record.side, record.defaulted,
             record.lost_in_battle, record.units_lost, record.winner.slug if record.winner else None),
            ("route", "moesia", "attacker", False, 3, 0, "huns"),
        )

    def test_every_step_is_logged_with_its_rule(self) -> None:
        before = LogEntry.objects.filter(campaign=self.campaign).count()
        retreat_choose(actor=user("aspar"), army=self.scene.thrace, route=["moesia"])
        entries = LogEntry.objects.filter(campaign=self.campaign).order_by("id")[before:]
        self.assertEqual([(e.kind, e.rule, e.actor.username if e.actor else None) for e in entries],
                         [("retreat_applied", "R1", "aspar"), ("support_points", "R6", "aspar")])

    def test_the_moderator_may_remove_the_losers_support_instead(self) -> None:
        record = retreat_choose(actor=user("aspar"), army=self.scene.thrace, route=["moesia"])
        SupportPoints.objects.create(province=province(self.campaign, "dacia"), faction=record.faction, points=2)
        retreat_support_set(actor=user("moderator"), record=record, removed=2)
        points = dict(SupportPoints.objects.filter(province__code="dacia", province__campaign=self.campaign)
                      .values_list("faction__slug", "points"))
        self.assertEqual(points, {"huns": 1, "east": 0})


class PenaltyAndDestructionTests(DemoCampaignTestCase):
    """Variants on the same map: a Hunnic raider waits in Moesia (R4), then every way out is closed (R1.4)."""

    def setUp(self) -> None:
        self.scene = fregellae(self.campaign)
        # A Hunnic unit loose in Moesia: Moesia is no longer an eligible end, and passing it costs a unit.
        Unit.objects.create(campaign=self.campaign, faction=army(self.campaign, "Host of Attila").faction,
                            unit_type=unit(self.campaign, "Alan Riders").unit_type, name="Hunnic raiders",
                            province=province(self.campaign, "moesia"), health_halves=8)

    def test_r4_the_route_through_moesia_costs_one_unit_per_enemy_unit(self) -> None:
        pending = pending_retreat(army=self.scene.thrace)
        assert pending is not None
        self.assertEqual([(r.path, r.penalty) for r in pending.options.routes], [(("moesia", "macedonia"), 1)])

    def test_r4_by_default_the_least_healthy_unit_is_lost(self) -> None:
        retreat_choose(actor=user("aspar"), army=self.scene.thrace, route=["moesia", "macedonia"])
        thrace = army(self.campaign, "Army of Thrace")
        self.assertEqual((thrace.province.code, _health(thrace)), ("macedonia", [("Scholae Palatinae", 4.5)]))

    def test_r4_the_commander_picks_the_unit_lost(self) -> None:
        retreat_choose(actor=user("aspar"), army=self.scene.thrace, route=["moesia", "macedonia"],
                       lost_units=[unit(self.campaign, "Scholae Palatinae").pk])
        self.assertEqual(_health(army(self.campaign, "Army of Thrace")), [("Legio I Italica", 3.0)])

    def test_r6_the_unit_lost_on_the_way_counts_too(self) -> None:
        record = retreat_choose(actor=user("aspar"), army=self.scene.thrace, route=["moesia", "macedonia"])
        self.assertEqual((record.units_lost, record.support_points), (1, 3))

    def test_r2_own_units_met_on_the_way_are_swept_into_the_army_before_the_penalty(self) -> None:
        # The East's new archers stand in Moesia too: one unit, not more than the army's two.
        Unit.objects.filter(campaign=self.campaign, name="Sagittarii of Constantinople").update(
            province=province(self.campaign, "moesia"))
        record = retreat_choose(actor=user("aspar"), army=self.scene.thrace, route=["moesia", "macedonia"])
        thrace = army(self.campaign, "Army of Thrace")
        # Three after the sweep, one lost: the least healthy (3 lines), the older unit first on a tie.
        self.assertEqual(_health(thrace), [("Scholae Palatinae", 4.5), ("Sagittarii of Constantinople", 3.0)])
        self.assertEqual([u["id"] for u in record.result["swept_units"]],
                         [unit(self.campaign, "Sagittarii of Constantinople").pk])

    def _close_every_way(self) -> None:
        moesia = province(self.campaign, "moesia")
        for code in ("macedonia",):
            other = province(self.campaign, code)
            low, high = sorted((moesia.pk, other.pk))
            Border.objects.filter(a_id=low, b_id=high).update(kind=Border.Kind.ROUGH)

    def test_r1_4_with_no_way_out_the_options_say_destroyed_and_why(self) -> None:
        self._close_every_way()
        pending = pending_retreat(army=self.scene.thrace)
        assert pending is not None
        self.assertEqual((pending.options.is_destroyed, pending.options.land_blocked_reason),
                         (True, "R1.4: no eligible province can be reached"))
        self.assertEqual(pending.options.land_blocked, Blocked("R1.4", "retreat_unreachable"))

    def test_r1_4_the_page_says_why_in_the_readers_language(self) -> None:
        self._close_every_way()
        self.addCleanup(translation.deactivate)
        url = reverse("retreat", kwargs={"slug": SLUG, "army_id": self.scene.thrace.pk})
        for language, heading, why in (
                ("en", "The army cannot retreat and is destroyed",
                 "No retreat by land (R1.4): no eligible province can be reached."),
                ("ru", "Армия не может отступить и уничтожается",
                 "Отступить по суше нельзя (R1.4): ни одной подходящей провинции не достичь.")):
            page = self.client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
            section = re.search(r'<section class="panel destroyed" id="destroyed">(.*?)</section>', page, re.DOTALL)
            assert section is not None
            paragraphs = [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", p)).split())
                          for p in re.findall(r"<(?:h2|p)>(.*?)</(?:h2|p)>", section.group(1), re.DOTALL)]
            self.assertEqual(paragraphs[:2], [f"R1.4 {heading}", why])

    def test_r1_4_the_destroyed_armys_units_are_removed_and_the_army_is_gone(self) -> None:
        self._close_every_way()
        record = retreat_choose(actor=user("aspar"), army=self.scene.thrace)
        self.assertEqual((record.kind, record.army, record.units_lost), ("destroyed", None, 2))
        self.assertFalse(Army.objects.filter(campaign=self.campaign, name="Army of Thrace").exists())
        self.assertFalse(Unit.objects.filter(campaign=self.campaign, name="Legio I Italica").exists())

    def test_r1_4_the_commander_is_displaced_to_the_capital(self) -> None:
        self._close_every_way()
        retreat_choose(actor=user("aspar"), army=self.scene.thrace)
        self.assertTrue(Commander.objects.get(campaign=self.campaign, name="Flavius Aspar").displaced)
        entry = LogEntry.objects.filter(campaign=self.campaign, kind="army_destroyed").get()
        self.assertEqual((entry.rule, entry.data["capital"], entry.data["name"]), ("R1.4", "thracia", "Army of Thrace"))


class DefenderRetreatTests(DemoCampaignTestCase):
    """The Huns lose in Dacia: the defender may not enter Moesia (R1.2); the attacker then takes Dacia (S10)."""

    def setUp(self) -> None:
        battle = aspar_attacks_dacia(self.campaign, with_support=False)
        changes = [UnitChange(unit_id=unit(self.campaign, "Alan Riders").pk, health_halves=0, routed=True)]
        battle_result_apply(battle=battle, winner=Battle.Side.ATTACKER, unit_changes=changes, reason="T11")
        self.host = army(self.campaign, "Host of Attila")

    def test_r1_2_the_defender_is_offered_its_own_provinces_but_not_moesia(self) -> None:
        pending = pending_retreat(army=self.host)
        assert pending is not None
        self.assertEqual(pending.options.destinations, ("pannonia", "sarmatia"))

    def test_r1_2_entering_moesia_is_refused(self) -> None:
        from campaign.errors import Conflict

        with self.assertRaises(Conflict) as caught:
            retreat_choose(actor=user("attila"), army=self.host, route=["moesia"])
        self.assertEqual(caught.exception.rule, "R1.2")

    def test_s10_the_attacker_captures_dacia_once_the_defender_has_left(self) -> None:
        retreat_choose(actor=user("attila"), army=self.host, route=["sarmatia"])
        dacia = Province.objects.get(campaign=self.campaign, code="dacia")
        self.assertEqual(dacia.controller.slug if dacia.controller else None, "east")

    def test_the_record_keeps_the_health_of_the_units_that_arrived(self) -> None:
        record = retreat_choose(actor=user("attila"), army=self.host, route=["sarmatia"])
        retinue = unit(self.campaign, "Attila's Retinue")
        self.assertEqual(record.result["army"][0], {"id": retinue.pk, "health": 6})
        self.assertEqual(retinue.unit_type.health, Decimal("6.0"))

    def test_r6_the_east_gains_one_point_for_the_one_unit_lost(self) -> None:
        record = retreat_choose(actor=user("attila"), army=self.host, route=["sarmatia"])
        self.assertEqual((record.winner.slug if record.winner else None, record.support_points), ("east", 1))

    def test_a_second_choice_is_refused_and_the_retreat_stays_applied_once(self) -> None:
        from campaign.errors import Conflict

        retreat_choose(actor=user("attila"), army=self.host, route=["sarmatia"])
        with self.assertRaises(Conflict) as caught:
            retreat_choose(actor=user("attila"), army=army(self.campaign, "Host of Attila"), route=["pannonia"])
        self.assertEqual((caught.exception.rule, RetreatRecord.objects.filter(campaign=self.campaign).count()),
                         ("S10", 1))


class FortressTests(DemoCampaignTestCase):
    """Bleda's Horde, beaten defending Pannonia (a Hunnic fortress city of capacity 3) against an attack from
    Dacia, may put up to three units into the city and retreat with the rest (R3)."""

    def setUp(self) -> None:
        from django.utils import timezone

        thrace = army(self.campaign, "Army of Thrace")
        # Test setup: the battle record as if the Army of Thrace had attacked Pannonia from Dacia and won.
        Army.objects.filter(pk=thrace.pk).update(province=province(self.campaign, "pannonia"))
        self.horde = army(self.campaign, "Horde of Bleda")
        Battle.objects.create(
            campaign=self.campaign, turn=1, province=province(self.campaign, "pannonia"),
            origin=province(self.campaign, "dacia"), terrain="field", attacker_army=thrace,
            attacker_faction=thrace.faction, defender_faction=self.horde.faction, status=Battle.Status.RESOLVED,
            winner=Battle.Side.ATTACKER, resolved_at=timezone.now(),
        )
        Army.objects.filter(pk=self.horde.pk).update(must_retreat=True)
        self.horde.refresh_from_db()

    def test_r3_the_city_has_room_for_three(self) -> None:
        pending = pending_retreat(army=self.horde)
        assert pending is not None and pending.options.fortress is not None
        self.assertEqual((pending.options.fortress.room, pending.options.destinations), (3, ("sarmatia",)))

    def test_r3_three_units_go_into_the_city_and_the_rest_retreat(self) -> None:
        inside = [unit(self.campaign, n).pk for n in ("Horse Archers of Bleda", "Horse Archers of the Puszta",
                                                       "Gepid Levy")]
        record = retreat_choose(actor=user("bleda"), army=self.horde, fortress_units=inside, route=["sarmatia"])
        garrison = Unit.objects.filter(campaign=self.campaign, in_fortress=True, province__code="pannonia")
        self.assertEqual((record.kind, sorted(u.name for u in garrison)),
                         ("fortress+route", ["Gepid Levy", "Horse Archers of Bleda", "Horse Archers of the Puszta"]))
        horde = army(self.campaign, "Horde of Bleda")
        self.assertEqual((horde.province.code, [u.name for u in horde.units.all()]), ("sarmatia", ["Sarmatian Riders"]))

    def test_r3_a_fourth_unit_does_not_fit(self) -> None:
        from campaign.errors import Conflict

        with self.assertRaises(Conflict) as caught:
            retreat_choose(actor=user("bleda"), army=self.horde, fortress_units=[u.pk for u in self.horde.units.all()])
        self.assertEqual(caught.exception.rule, "R3")


class SeaTests(DemoCampaignTestCase):
    """The Praesental Army, beaten defending Thracia (a port) against the Huns coming from Moesia, may sail
    to any friendly port within the East's naval capacity of 10 (R5)."""

    def setUp(self) -> None:
        from django.utils import timezone

        host = army(self.campaign, "Host of Attila")
        # Test setup: the battle record as if Attila had attacked Thracia from Moesia and won.
        Army.objects.filter(pk=host.pk).update(province=province(self.campaign, "thracia"))
        self.praesental = army(self.campaign, "Praesental Army")
        Battle.objects.create(
            campaign=self.campaign, turn=1, province=province(self.campaign, "thracia"),
            origin=province(self.campaign, "moesia"), terrain="field", attacker_army=host,
            attacker_faction=host.faction, defender_faction=self.praesental.faction,
            status=Battle.Status.RESOLVED, winner=Battle.Side.ATTACKER, resolved_at=timezone.now(),
        )
        Army.objects.filter(pk=self.praesental.pk).update(must_retreat=True)
        self.praesental.refresh_from_db()

    def test_r5_the_friendly_ports_are_offered_with_the_capacity(self) -> None:
        pending = pending_retreat(army=self.praesental)
        assert pending is not None and pending.options.sea is not None
        self.assertEqual((pending.options.sea.capacity, "achaea" in pending.options.sea.ports,
                          "thracia" in pending.options.sea.ports), (10, True, False))

    def test_r5_the_army_sails_to_achaea(self) -> None:
        record = retreat_choose(actor=user("theodosius"), army=self.praesental, sea_port="achaea")
        praesental = army(self.campaign, "Praesental Army")
        self.assertEqual((record.kind, praesental.province.code, praesental.units.count()), ("sea", "achaea", 3))

    def test_r5_an_enemy_port_is_refused(self) -> None:
        from campaign.errors import Conflict

        with self.assertRaises(Conflict) as caught:
            retreat_choose(actor=user("theodosius"), army=self.praesental, sea_port="africa")
        self.assertEqual(caught.exception.rule, "R5")
