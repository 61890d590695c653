"""The moderator's quick battle (Q1–Q7) on the demo map with a fixed seed: exact outcomes on the map, every
die in the log, the seed's hash before the first die and the seed revealed after (M2)."""

from __future__ import annotations

import hashlib

from campaign.errors import Conflict, Forbidden, ServiceError
from campaign.models import LogEntry
from strategic.models import Army, Battle, QuickBattleRecord
from strategic.services.quick_battles import quick_battle_resolve
from strategic.services.retreats import retreat_choose
from tests.strategic.builders import DemoCampaignTestCase, army, aspar_attacks_dacia, user


def _units(a: Army) -> list[tuple[str, float]]:
    return [(u.name, u.health) for u in a.units.order_by("pk")]


class QuickBattleTests(DemoCampaignTestCase):
    """Aspar (Strategy 13) attacks Attila (Strategy 15, Luck) in Dacia; the moderator resolves it quickly."""

    def setUp(self) -> None:
        self.battle = aspar_attacks_dacia(self.campaign, with_support=False)

    def resolve(self, seed: bytes, **kw: object) -> QuickBattleRecord:
        options = {"skill": "strategy", "open_field": True, **kw}
        return quick_battle_resolve(actor=user("moderator"), battle=self.battle, seed=seed, **options)  # type: ignore[arg-type]

    def test_q3_minor_victory_of_the_defender_in_the_open_field(self) -> None:
        result = self.resolve(b"fregellae-1").result
        self.assertEqual(
            (result["winner"], result["table"], result["band"], result["result"], result["attacker_margin"],
             result["defender_margin"]),
            ("defender", "A", "4-7", "minor victory", 2, 7),
        )

    def test_q7_routed_units_lose_half_their_health_and_the_army_must_retreat(self) -> None:
        self.resolve(b"fregellae-1")
        thrace = army(self.campaign, "Army of Thrace")
        self.assertEqual((thrace.province.code, thrace.must_retreat), ("dacia", True))
        self.assertEqual(_units(thrace), [("Legio I Italica", 5.0), ("Equites Promoti", 2.5),
                                          ("Lanciarii Iuniores", 5.0), ("Sagittarii Orientales", 1.5),
                                          ("Scholae Palatinae", 3.0)])

    def test_q7_the_winners_units_hold(self) -> None:
        self.resolve(b"fregellae-1")
        host = army(self.campaign, "Host of Attila")
        self.assertEqual((host.must_retreat, [h for _n, h in _units(host)]), (False, [6.0, 4.0, 4.0, 4.0, 4.0]))

    def test_the_winner_is_recorded_on_the_battle(self) -> None:
        self.resolve(b"fregellae-1")
        battle = Battle.objects.get(pk=self.battle.pk)
        self.assertEqual((battle.status, battle.winner, battle.result["table"]), ("resolved", "defender", "A"))

    def test_m2_the_hash_is_logged_before_the_first_die_and_the_seed_after_the_last(self) -> None:
        record = self.resolve(b"fregellae-1")
        entries = list(LogEntry.objects.filter(campaign=self.campaign, kind__startswith="quick_battle")
                       .order_by("id"))
        kinds = [e.kind for e in entries]
        self.assertEqual(kinds, ["quick_battle_begun"] + ["quick_battle_roll"] * 7 + ["quick_battle_resolved"])
        self.assertEqual(entries[0].data["commitment"], hashlib.sha256(b"fregellae-1").hexdigest())
        self.assertNotIn("seed", entries[0].data)
        self.assertEqual((entries[-1].data["seed"], record.seed), (b"fregellae-1".hex(), b"fregellae-1".hex()))

    def test_m2_every_die_is_logged_in_order(self) -> None:
        record = self.resolve(b"fregellae-1")
        logged = [(e.rule, e.data["roller"], e.data["dice"]) for e in LogEntry.objects.filter(
            campaign=self.campaign, kind="quick_battle_roll").order_by("id")]
        rolls = [("Q1" if r["purpose"].startswith("contest") else "Q2", r["roller"], r["dice"])
                 for r in record.result["rolls"]]
        self.assertEqual(logged, rolls)
        self.assertEqual(logged[:2], [("Q1", "Flavius Aspar", logged[0][2]), ("Q1", "Attila", logged[1][2])])

    def test_q3_no_clear_winner_splits_off_the_units_that_fall_back(self) -> None:
        self.resolve(b"fregellae-6")
        retreating = Army.objects.filter(campaign=self.campaign, must_retreat=True).order_by("pk")
        self.assertEqual([(a.name, _units(a)) for a in retreating], [
            ("Army of Thrace (retreating)", [("Equites Promoti", 5.0), ("Lanciarii Iuniores", 5.0)]),
            ("Host of Attila (retreating)", [("Horse Archers of the Akatziri", 4.0),
                                             ("Horse Archers of the Danube", 2.0)]),
        ])

    def test_q3_a_win_by_two_is_no_clear_winner_but_the_better_margin_is_recorded(self) -> None:
        record = self.resolve(b"fregellae-6")
        self.assertEqual((record.result["result"], record.result["margin"], Battle.objects.get(pk=self.battle.pk).winner),
                         ("no clear winner", 2, "defender"))

    def test_q4_no_clear_winner_throws_the_attacker_back_with_morale_minus_two(self) -> None:
        record = self.resolve(b"fregellae", open_field=False)
        thrace = army(self.campaign, "Army of Thrace")
        self.assertEqual((record.result["table"], record.result["band"]), ("B", "0-3"))
        self.assertEqual((thrace.province.code, thrace.must_retreat, thrace.morale_penalty), ("moesia", False, -2))

    def test_the_beaten_army_then_retreats_as_after_a_tactical_battle(self) -> None:
        self.resolve(b"fregellae-1")
        record = retreat_choose(actor=user("aspar"), army=army(self.campaign, "Army of Thrace"), route=["moesia"])
        self.assertEqual((record.kind, army(self.campaign, "Army of Thrace").province.code), ("route", "moesia"))

    def test_q6_a_siege_without_a_storm_is_refused_and_nothing_is_rolled(self) -> None:
        before = LogEntry.objects.filter(campaign=self.campaign).count()
        with self.assertRaises(Conflict) as caught:
            self.resolve(b"fregellae-1", open_field=False, siege=True)
        self.assertEqual(caught.exception.rule, "Q6")
        self.assertEqual((QuickBattleRecord.objects.count(), LogEntry.objects.filter(campaign=self.campaign).count()),
                         (0, before))

    def test_a_storm_without_a_siege_is_malformed(self) -> None:
        with self.assertRaises(ServiceError) as caught:
            self.resolve(b"x", storm=True)
        self.assertEqual((caught.exception.status, caught.exception.field), (400, "storm"))

    def test_only_a_moderator_may_resolve(self) -> None:
        with self.assertRaises(Forbidden):
            quick_battle_resolve(actor=user("aspar"), battle=self.battle, skill="strategy")

    def test_a_resolved_battle_is_not_resolved_again(self) -> None:
        self.resolve(b"fregellae-1")
        with self.assertRaises(Conflict):
            self.resolve(b"fregellae-2")

    def test_without_a_seed_the_server_draws_one_and_reveals_it(self) -> None:
        record = quick_battle_resolve(actor=user("moderator"), battle=self.battle, skill="tactics")
        self.assertEqual((len(record.seed), hashlib.sha256(bytes.fromhex(record.seed)).hexdigest()),
                         (64, record.seed_commitment))
