"""The demo campaign: what it holds (map, S9 examples, factions, unit cards, a login per role) and that a
battle can begin at once."""

from __future__ import annotations

from decimal import Decimal
from io import StringIO

from django.contrib.auth import authenticate
from django.core.management import call_command
from django.http import HttpRequest
from django.test import TestCase, override_settings

from campaign.models import Campaign, Commander, Faction, LogEntry, Membership
from campaign.selectors import relation_kind
from strategic.demo.loader import demo_data, demo_load, demo_logins, demo_map
from strategic.models import Army, Border, Province, Unit, UnitType
from strategic.selectors.map import battlefield_terrain, legal_destinations
from strategic.services import map_file as map_io
from strategic.services.moves import army_move

FAST_HASHER = ["django.contrib.auth.hashers.MD5PasswordHasher"]
SLUG = "fall-of-the-west"


@override_settings(PASSWORD_HASHERS=FAST_HASHER)
class DemoCampaignTests(TestCase):
    """Loaded once for the class; each test runs in its own rolled-back transaction."""

    campaign: Campaign

    @classmethod
    def setUpTestData(cls) -> None:
        loaded = demo_load()
        assert loaded is not None
        cls.campaign = loaded

    def province(self, code: str) -> Province:
        return Province.objects.get(campaign=self.campaign, code=code)

    def faction(self, slug: str) -> Faction:
        return Faction.objects.get(campaign=self.campaign, slug=slug)

    def test_a_second_load_changes_nothing(self) -> None:
        entries = LogEntry.objects.count()
        self.assertIsNone(demo_load())
        self.assertEqual(
            (
                Campaign.objects.count(),
                Province.objects.count(),
                Unit.objects.count(),
                LogEntry.objects.count(),
            ),
            (1, 34, 40, entries),
        )

    def test_second_run_of_the_command_says_it_is_there(self) -> None:
        out = StringIO()
        call_command("load_demo", stdout=out)
        self.assertEqual(
            out.getvalue(),
            "The demo campaign is already there: The Fall of the West, AD 440 (fall-of-the-west).\n",
        )

    def test_the_map_has_at_least_twenty_provinces(self) -> None:
        self.assertGreaterEqual(Province.objects.filter(campaign=self.campaign).count(), 20)

    def test_provinces_are_named_in_both_languages(self) -> None:
        names = dict(Province.objects.filter(campaign=self.campaign).values_list("name_en", "name_ru"))
        expected = {
            "Italia": "Италия",
            "Gallia": "Галлия",
            "Dalmatia": "Далмация",
            "Dacia": "Дакия",
            "Pannonia": "Паннония",
            "Thracia": "Фракия",
            "Moesia": "Мёзия",
            "Hispania": "Испания",
            "Africa": "Африка",
        }
        self.assertEqual({en: names[en] for en in expected}, expected)

    def test_s9_from_dacia_into_dalmatia_the_battle_is_on_a_field(self) -> None:
        self.assertEqual(
            battlefield_terrain(source=self.province("dacia"), target=self.province("dalmatia")), "field"
        )

    def test_s9_from_the_west_over_the_alps_into_dalmatia_it_is_in_the_mountains(self) -> None:
        # Italia Annonaria is the province west of Dalmatia on this map: the Julian Alps lie between them.
        self.assertEqual(
            battlefield_terrain(source=self.province("annonaria"), target=self.province("dalmatia")),
            "mountains",
        )

    def test_borders_carry_straits_rough_and_impassable_kinds(self) -> None:
        kinds = {
            frozenset((b.a.code, b.b.code)): b.kind
            for b in Border.objects.filter(campaign=self.campaign).select_related("a", "b")
        }
        self.assertEqual(
            [
                kinds[frozenset(p)]
                for p in (
                    ("thracia", "asia"),
                    ("italia", "sicilia"),
                    ("hispania", "aquitania"),
                    ("scythia", "armenia"),
                    ("moesia", "dacia"),
                )
            ],
            ["strait", "strait", "rough", "impassable", "normal"],
        )

    def test_fortress_cities_and_their_capacities(self) -> None:
        fortresses = dict(
            Province.objects.filter(campaign=self.campaign, has_fortress=True).values_list(
                "code", "fortress_capacity"
            )
        )
        self.assertEqual((fortresses["thracia"], fortresses["italia"], fortresses["annonaria"]), (5, 5, 4))

    def test_six_factions_act_in_turn_order(self) -> None:
        order = list(
            Faction.objects.filter(campaign=self.campaign)
            .order_by("turn_order")
            .values_list("slug", flat=True)
        )
        self.assertEqual(order, ["east", "west", "huns", "visigoths", "vandals", "persia"])

    def test_east_and_west_are_allied_and_the_huns_at_war_with_both(self) -> None:
        east, west, huns = self.faction("east"), self.faction("west"), self.faction("huns")
        self.assertEqual(
            [
                relation_kind(campaign=self.campaign, a=a, b=b)
                for a, b in ((east, west), (huns, east), (huns, west))
            ],
            ["allied", "war", "war"],
        )

    def test_factions_have_capitals_and_naval_capacities(self) -> None:
        rows = {
            f.slug: (f.capital.code, f.naval_capacity) for f in Faction.objects.filter(campaign=self.campaign)
        }
        self.assertEqual(
            (rows["east"], rows["west"], rows["huns"]), (("thracia", 10), ("annonaria", 6), ("pannonia", 0))
        )

    def test_t12_unit_cards(self) -> None:
        cards = {
            t.code: (t.unit_class, t.health, t.damage["HI"], t.damage["HC"])
            for t in UnitType.objects.filter(campaign=self.campaign)
        }
        self.assertEqual(
            (cards["heavy_infantry"], cards["heavy_cavalry"], cards["heavy_spearmen"]),
            (("HI", Decimal("5.0"), 3, 2), ("HC", Decimal("5.0"), 2, 3), ("HI", Decimal("5.0"), 2, 4)),
        )

    def test_missile_troops_and_light_troops_have_their_classes(self) -> None:
        cards = {
            t.code: (t.unit_class, t.mounted, t.missile, t.arrows > 0)
            for t in UnitType.objects.filter(campaign=self.campaign)
        }
        self.assertEqual(
            [
                cards[c]
                for c in ("archers", "horse_archers", "light_infantry_1", "light_infantry_2", "light_cavalry")
            ],
            [
                ("LI1", False, True, True),
                ("LC", True, True, True),
                ("LI1", False, False, False),
                ("LI2", False, False, False),
                ("LC", True, False, False),
            ],
        )

    def test_elite_troops_are_heavy_infantry_or_heavy_cavalry(self) -> None:
        elite = dict(
            UnitType.objects.filter(
                campaign=self.campaign, code__in=["comitatenses", "cataphracts", "hunnic_nobles"]
            ).values_list("code", "unit_class")
        )
        self.assertEqual(elite, {"comitatenses": "HI", "cataphracts": "HC", "hunnic_nobles": "HC"})

    def test_every_card_has_damage_against_all_five_classes_and_a_morale(self) -> None:
        for card in UnitType.objects.filter(campaign=self.campaign):
            self.assertEqual(sorted(card.damage), ["HC", "HI", "LC", "LI1", "LI2"], card.code)
            self.assertGreaterEqual(card.morale, 8, card.code)

    def test_every_faction_has_an_army(self) -> None:
        with_armies = set(Army.objects.filter(campaign=self.campaign).values_list("faction__slug", flat=True))
        self.assertEqual(with_armies, {f["slug"] for f in demo_data()["factions"]})

    def test_commanders_have_strategy_tactics_and_luck(self) -> None:
        attila = Commander.objects.get(campaign=self.campaign, name="Attila")
        self.assertEqual(
            (attila.rank, attila.strategy, attila.tactics, attila.has_luck), ("leader", 15, 14, True)
        )

    def test_there_is_a_login_for_every_role(self) -> None:
        roles = set(Membership.objects.filter(campaign=self.campaign).values_list("role", flat=True))
        self.assertEqual(roles, {"moderator", "leader", "commander", "observer"})

    def test_every_faction_has_a_leader_played_by_a_demo_user(self) -> None:
        leaders = {f.slug: f.leader.user.username for f in Faction.objects.filter(campaign=self.campaign)}
        self.assertEqual(
            leaders,
            {
                "east": "theodosius",
                "west": "valentinian",
                "huns": "attila",
                "visigoths": "theodoric",
                "vandals": "geiseric",
                "persia": "yazdegerd",
            },
        )

    def test_a_general_serves_under_his_leader(self) -> None:
        aspar = Membership.objects.get(campaign=self.campaign, user__username="aspar")
        self.assertEqual((aspar.role, aspar.faction.slug), ("commander", "east"))

    def test_every_printed_login_works(self) -> None:
        for login in demo_logins():
            self.assertIsNotNone(
                # the login throttle (django-axes) counts every attempt by its request, so one is given
                authenticate(HttpRequest(), username=login.username, password=login.password), login.username
            )

    def test_it_is_the_easts_strategic_turn(self) -> None:
        self.assertEqual((self.campaign.phase, self.campaign.current_faction.slug), ("strategic", "east"))

    def test_the_army_of_thrace_can_attack_the_host_of_attila(self) -> None:
        army = Army.objects.get(campaign=self.campaign, name="Army of Thrace")
        dacia = [d for d in legal_destinations(army=army) if d.province.code == "dacia"]
        self.assertEqual([(d.kind, d.terrain) for d in dacia], [("battle", "field")])

    def test_moving_into_dacia_begins_a_battle_at_once(self) -> None:
        army = Army.objects.get(campaign=self.campaign, name="Army of Thrace")
        aspar = Commander.objects.get(campaign=self.campaign, name="Flavius Aspar").user
        outcome = army_move(actor=aspar, army=army, destination=self.province("dacia"))
        self.assertEqual(
            (outcome.kind, outcome.battle.terrain, outcome.battle.defender_faction.slug),
            ("battle", "field", "huns"),
        )

    def test_aspar_logs_in_with_his_printed_password_and_begins_the_battle(self) -> None:
        army = Army.objects.get(campaign=self.campaign, name="Army of Thrace")
        self.assertTrue(self.client.login(request=HttpRequest(), username="aspar", password="aspar"))
        response = self.client.post(
            f"/api/campaigns/{SLUG}/armies/{army.pk}/move/",
            {"destination": self.province("dacia").pk},
            content_type="application/json",
        )
        self.assertEqual(
            (response.status_code, response.json()["kind"], response.json()["battle"]["terrain"]),
            (200, "battle", "field"),
        )

    def test_the_demo_map_exports_as_it_was_imported(self) -> None:
        exported = map_io.map_export(campaign=self.campaign)
        source = demo_map()
        self.assertEqual(
            sorted((p["code"], p["name_ru"], p["terrain"], p["x"], p["y"]) for p in exported["provinces"]),
            sorted((p["code"], p["name_ru"], p["terrain"], p["x"], p["y"]) for p in source["provinces"]),
        )

    def test_demo_logins_names_the_colours_in_both_languages(self) -> None:
        out = StringIO()
        call_command("demo_logins", stdout=out)
        self.assertIn("  3. The Huns / Гунны: brown / коричневый (#8b4513)", out.getvalue().splitlines())

    def test_demo_logins_says_how_to_begin_a_battle(self) -> None:
        out = StringIO()
        call_command("demo_logins", stdout=out)
        self.assertEqual(
            out.getvalue().splitlines()[-2:],
            [
                "It is the turn of Eastern Roman Empire (Strategic phase, turn 1).",
                (
                    "To begin a battle: log in as aspar (or theodosius) and move the Army of Thrace from Moesia into Dacia, "
                    "where the Host of Attila stands."
                ),
            ],
        )

    def test_demo_logins_prints_every_account(self) -> None:
        out = StringIO()
        call_command("demo_logins", stdout=out)
        lines = out.getvalue().splitlines()
        self.assertEqual(lines[2].split(), ["moderator", "moderator", "moderator"])
        self.assertIn(
            ["aspar", "aspar", "commander", "Eastern", "Roman", "Empire", "Flavius", "Aspar"],
            [line.split() for line in lines],
        )


@override_settings(PASSWORD_HASHERS=FAST_HASHER)
class DemoCommandTests(TestCase):
    def test_first_run_loads_and_says_what(self) -> None:
        out = StringIO()
        call_command("load_demo", stdout=out)
        self.assertEqual(
            out.getvalue(),
            "Loaded the demo campaign The Fall of the West, AD 440 (fall-of-the-west): "
            "34 provinces, 6 factions, 9 armies, 40 units.\n",
        )

    def test_demo_logins_before_loading_says_how(self) -> None:
        out = StringIO()
        call_command("demo_logins", stdout=out)
        self.assertEqual(
            out.getvalue(), "The demo campaign is not loaded: run `manage.py load_demo` first.\n"
        )

    @override_settings(PRODUCTION=True)
    def test_production_refuses_without_the_flag(self) -> None:
        from django.core.management.base import CommandError

        with self.assertRaisesMessage(CommandError, "Refusing to load the demo in production"):
            call_command("load_demo")
        self.assertFalse(Campaign.objects.filter(slug=SLUG).exists())
