"""R2 on the demo map: a retreat sweeps up the friendly units it meets, allied ones included unless the
campaign's ``retreat_sweeps_allies`` is off; a swept allied unit never becomes the retreating faction's.

The scene (``tests.strategic.builders.fregellae``): the Army of Thrace (East), beaten in Dacia, must retreat
through Moesia, where a Hunnic unit stands, to Macedonia. The West, the East's ally, has a one-unit army
under Eparchius Avitus in Moesia.
"""

from __future__ import annotations

from campaign.models import Campaign, Commander, LogEntry
from strategic.models import Army, Unit
from strategic.selectors.retreats import pending_retreat
from strategic.services.retreats import retreat_choose
from tests.strategic.builders import (
    DemoCampaignTestCase,
    army,
    faction,
    fregellae,
    province,
    unit,
    user,
)


class AlliedSweepTests(DemoCampaignTestCase):
    def setUp(self) -> None:
        self.scene = fregellae(self.campaign)
        moesia = province(self.campaign, "moesia")
        huns = faction(self.campaign, "huns")
        Unit.objects.create(campaign=self.campaign, faction=huns, unit_type=unit(self.campaign, "Alan Riders").unit_type,
                            name="Hunnic raiders", province=moesia, health_halves=8)
        self.west = faction(self.campaign, "west")
        self.avitus = Commander.objects.get(campaign=self.campaign, name="Eparchius Avitus")
        self.dalmatia = Army.objects.create(campaign=self.campaign, faction=self.west, commander=self.avitus,
                                            province=moesia, name="Army of Dalmatia")
        self.legion = Unit.objects.create(
            campaign=self.campaign, faction=self.west, army=self.dalmatia, name="Legio Dalmatica",
            unit_type=unit(self.campaign, "Herculiani Seniores").unit_type, health_halves=10)

    def _sweeps_allies(self, on: bool) -> None:
        Campaign.objects.filter(pk=self.campaign.pk).update(
            settings={**self.campaign.settings, "retreat_sweeps_allies": on})
        self.scene.thrace.campaign.refresh_from_db()

    def test_the_route_shows_the_allied_unit_swept_up(self) -> None:
        pending = pending_retreat(army=self.scene.thrace)
        assert pending is not None
        route = pending.options.to_dict()["routes"][0]
        self.assertEqual((route["path"], route["swept"], route["army_size_after_sweep"], route["penalty"]),
                         (["moesia", "macedonia"], [{"province": "moesia", "count": 1, "allied": 1}], 3, 1))

    def test_the_allied_army_goes_to_the_destination_under_its_own_commander(self) -> None:
        retreat_choose(actor=user("aspar"), army=self.scene.thrace, route=["moesia", "macedonia"])
        dalmatia = Army.objects.select_related("province", "faction", "commander").get(pk=self.dalmatia.pk)
        self.assertEqual((dalmatia.province.code, dalmatia.faction.slug, dalmatia.commander.name),
                         ("macedonia", "west", "Eparchius Avitus"))
        self.assertEqual([u.name for u in dalmatia.units.all()], ["Legio Dalmatica"])
        # The penalty (the Hunnic unit in Moesia) took the least healthy unit of the three: a Thracian one.
        thrace = army(self.campaign, "Army of Thrace")
        self.assertEqual((thrace.province.code, [u.name for u in thrace.units.order_by("pk")]),
                         ("macedonia", ["Scholae Palatinae"]))

    def test_the_allied_unit_stays_the_allys(self) -> None:
        record = retreat_choose(actor=user("aspar"), army=self.scene.thrace, route=["moesia", "macedonia"])
        self.legion.refresh_from_db()
        self.assertEqual((self.legion.faction_id, self.legion.army_id), (self.west.pk, self.dalmatia.pk))
        self.assertEqual(record.result["swept_units"], [{"id": self.legion.pk, "health": 5, "faction": "west"}])

    def test_the_log_says_where_the_allied_army_went(self) -> None:
        retreat_choose(actor=user("aspar"), army=self.scene.thrace, route=["moesia", "macedonia"])
        entry = LogEntry.objects.get(campaign=self.campaign, kind="retreat_swept_allied")
        self.assertEqual((entry.rule, entry.data["units"], entry.data["to"]), ("R2", [self.legion.pk], "macedonia"))
        self.assertContains(self.client.get(f"/c/{self.campaign.slug}/", HTTP_ACCEPT_LANGUAGE="en"),
                            "Army of Dalmatia of Western Roman Empire, swept up by Army of Thrace, went with it to "
                            "Macedonia under its own commander: Legio Dalmatica.")

    def test_an_allied_army_that_loses_its_last_unit_is_gone_its_commander_not_displaced(self) -> None:
        retreat_choose(actor=user("aspar"), army=self.scene.thrace, route=["moesia", "macedonia"],
                       lost_units=[self.legion.pk])
        self.assertFalse(Army.objects.filter(pk=self.dalmatia.pk).exists())
        self.avitus.refresh_from_db()
        self.assertFalse(self.avitus.displaced)
        self.assertContains(self.client.get(f"/c/{self.campaign.slug}/", HTTP_ACCEPT_LANGUAGE="en"),
                            "Army of Dalmatia of Western Roman Empire, swept up by Army of Thrace, lost every unit on "
                            "the way.")

    def test_a_loose_allied_unit_stands_loose_at_the_destination(self) -> None:
        Unit.objects.filter(pk=self.legion.pk).update(army=None, province=province(self.campaign, "moesia"))
        retreat_choose(actor=user("aspar"), army=self.scene.thrace, route=["moesia", "macedonia"])
        self.legion.refresh_from_db()
        self.assertEqual((self.legion.army_id, self.legion.province.code, self.legion.faction_id),
                         (None, "macedonia", self.west.pk))

    def test_with_the_setting_off_only_own_units_are_swept_and_the_ally_stays(self) -> None:
        self._sweeps_allies(False)
        pending = pending_retreat(army=self.scene.thrace)
        assert pending is not None
        self.assertEqual(pending.options.to_dict()["routes"][0]["swept"], [])
        retreat_choose(actor=user("aspar"), army=self.scene.thrace, route=["moesia", "macedonia"])
        self.assertEqual(Army.objects.get(pk=self.dalmatia.pk).province.code, "moesia")
        self.assertFalse(LogEntry.objects.filter(campaign=self.campaign, kind="retreat_swept_allied").exists())


    def test_the_rules_page_shows_the_setting_under_r2(self) -> None:
        text = self.client.get(f"/c/{self.campaign.slug}/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
        row = text.split('<tr id="setting-retreat_sweeps_allies"')[1].split("</tr>")[0]
        self.assertIn(
            f'<a class="rule-id rule-link" href="/c/{self.campaign.slug}/rules/#R2" data-rule="R2" '
            'title="Rule R2: Rout sweeping">R2</a><br><small>Rout sweeping</small>', row
        )
        self.assertIn("A retreat sweeps up allied units met on its route, not only the faction&#x27;s own", row)
        self.assertIn('<td class="value">yes</td>', row)

    def test_the_retreat_page_shows_the_allied_units_a_route_sweeps(self) -> None:
        page = self.client.get(f"/c/{self.campaign.slug}/retreat/{self.scene.thrace.pk}/", HTTP_ACCEPT_LANGUAGE="en")
        self.assertContains(page, "Moesia: 1 (1 allied, staying under their own command)")


class ShelteredInAnAlliedCityTests(DemoCampaignTestCase):
    """An East unit that took shelter in the West's fortress city of Moesia (R3) is in the city, not in the
    field: the Army of Thrace's retreat through Moesia neither sweeps it (R2) nor counts it as room."""

    def setUp(self) -> None:
        self.scene = fregellae(self.campaign)
        moesia = province(self.campaign, "moesia")
        west = faction(self.campaign, "west")
        type(moesia).objects.filter(pk=moesia.pk).update(controller=west, has_fortress=True, fortress_capacity=3)
        Unit.objects.create(campaign=self.campaign, faction=faction(self.campaign, "huns"), province=moesia,
                            unit_type=unit(self.campaign, "Alan Riders").unit_type, name="Hunnic raiders",
                            health_halves=8)
        self.sheltered = Unit.objects.create(
            campaign=self.campaign, faction=self.scene.thrace.faction, province=moesia, in_fortress=True,
            unit_type=unit(self.campaign, "Herculiani Seniores").unit_type, name="Sheltered cohort",
            health_halves=10)

    def test_the_route_through_the_city_sweeps_nothing(self) -> None:
        pending = pending_retreat(army=self.scene.thrace)
        assert pending is not None
        route = pending.options.to_dict()["routes"][0]
        self.assertEqual((route["path"], route["swept"], route["army_size_after_sweep"], route["penalty"]),
                         (["moesia", "macedonia"], [], 2, 1))

    def test_the_sheltered_unit_stays_in_the_city(self) -> None:
        record = retreat_choose(actor=user("aspar"), army=self.scene.thrace, route=["moesia", "macedonia"])
        self.sheltered.refresh_from_db()
        self.assertEqual((self.sheltered.province.code, self.sheltered.in_fortress, self.sheltered.army_id),
                         ("moesia", True, None))
        self.assertEqual(record.result["swept_units"], [])
