"""R1 deadline: when the commander does not choose within ``retreat_hours``, the default retreat applies —
by the deadline task and by the periodic sweep, each idempotent."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

from django.conf import settings
from django.utils import timezone

from campaign.models import Campaign, LogEntry
from strategic import tasks
from strategic.models import Army, Battle, Border, RetreatRecord, Unit
from strategic.services.battles import battle_result_apply
from strategic.services.retreats import retreat_sweep
from tests.strategic.builders import (
    DemoCampaignTestCase,
    army,
    aspar_attacks_dacia,
    fregellae,
    province,
    unit,
)


def _age(battle: Battle, hours: float) -> None:
    """The battle ended ``hours`` ago."""
    Battle.objects.filter(pk=battle.pk).update(resolved_at=timezone.now() - timedelta(hours=hours))


class DeadlineTaskTests(DemoCampaignTestCase):
    """The Army of Thrace owes its retreat; the campaign gives 24 hours (the default ``retreat_hours``)."""

    def setUp(self) -> None:
        self.scene = fregellae(self.campaign)

    def test_before_the_deadline_the_task_does_nothing(self) -> None:
        _age(self.scene.battle, 23)
        self.assertFalse(tasks.retreat_deadline(self.scene.thrace.pk))
        self.assertEqual(army(self.campaign, "Army of Thrace").province.code, "dacia")

    def test_after_the_deadline_the_task_applies_the_default(self) -> None:
        _age(self.scene.battle, 25)
        self.assertTrue(tasks.retreat_deadline(self.scene.thrace.pk))
        thrace = army(self.campaign, "Army of Thrace")
        self.assertEqual((thrace.province.code, thrace.must_retreat), ("moesia", False))

    def test_the_default_is_recorded_as_such_without_a_chooser(self) -> None:
        _age(self.scene.battle, 25)
        tasks.retreat_deadline(self.scene.thrace.pk)
        record = RetreatRecord.objects.get()
        self.assertEqual((record.defaulted, record.chosen_by, record.choice["route"]), (True, None, ["moesia"]))
        entry = LogEntry.objects.filter(campaign=self.campaign, kind="retreat_applied").get()
        self.assertEqual((entry.rule, entry.reason, entry.actor), ("R1", "R1: deadline passed", None))

    def test_the_task_twice_applies_once(self) -> None:
        _age(self.scene.battle, 25)
        results = [tasks.retreat_deadline(self.scene.thrace.pk), tasks.retreat_deadline(self.scene.thrace.pk)]
        self.assertEqual((results, RetreatRecord.objects.count()), ([True, False], 1))

    def test_the_task_for_a_deleted_army_does_nothing(self) -> None:
        self.assertFalse(tasks.retreat_deadline(999_999))

    def test_the_campaigns_retreat_hours_set_the_deadline(self) -> None:
        Campaign.objects.filter(pk=self.campaign.pk).update(settings={**self.campaign.settings, "retreat_hours": 2})
        _age(self.scene.battle, 3)
        self.assertTrue(tasks.retreat_deadline(self.scene.thrace.pk))

    def test_the_sweep_applies_every_overdue_retreat_once(self) -> None:
        _age(self.scene.battle, 25)
        self.assertEqual((tasks.retreat_sweep(), tasks.retreat_sweep()), (1, 0))
        self.assertEqual(army(self.campaign, "Army of Thrace").province.code, "moesia")

    def test_the_sweep_leaves_retreats_still_in_time(self) -> None:
        _age(self.scene.battle, 1)
        self.assertEqual(retreat_sweep(), 0)
        self.assertTrue(army(self.campaign, "Army of Thrace").must_retreat)

    def test_the_sweep_is_in_the_beat_schedule(self) -> None:
        self.assertEqual(settings.CELERY_BEAT_SCHEDULE["strategic-retreat-sweep"]["task"], "strategic.retreat_sweep")


class DeadlineQueuedAfterTacticalBattleTests(DemoCampaignTestCase):
    """R1: the tactical battle's result queues the deadline task of each beaten army, so the default applies
    at the deadline itself and not at the next sweep."""

    def _apply_queued(self) -> tuple[Battle, mock.MagicMock]:
        battle = aspar_attacks_dacia(self.campaign, with_support=False)
        with mock.patch("strategic.tasks.retreat_deadline.apply_async") as queued, \
                self.captureOnCommitCallbacks(execute=True) as callbacks:
            battle_result_apply(battle=battle, winner=Battle.Side.ATTACKER, unit_changes=[], reason="T11")
            queued.assert_not_called()  # not before the commit: the task would not see the army owing it
        # One callback of the game's own (the deadline task); the others write and push the notices.
        own = [c for c in callbacks if not getattr(c, "func", c).__module__.startswith("notifications.")]
        self.assertEqual(len(own), 1)
        battle.refresh_from_db()
        return battle, queued

    def test_the_deadline_task_of_the_beaten_army_is_queued_on_commit(self) -> None:
        battle, queued = self._apply_queued()
        attila = army(self.campaign, "Host of Attila")
        assert battle.resolved_at is not None
        queued.assert_called_once_with((attila.pk,), eta=battle.resolved_at + timedelta(hours=24))

    def test_the_queued_task_applies_the_default_at_the_deadline(self) -> None:
        battle, queued = self._apply_queued()
        args = queued.call_args.args[0]
        # Run early (a worker whose clock is ahead), the task leaves the retreat to the commander.
        self.assertFalse(tasks.retreat_deadline.apply(args=args).get())
        self.assertTrue(army(self.campaign, "Host of Attila").must_retreat)
        _age(battle, 24)
        self.assertTrue(tasks.retreat_deadline.apply(args=args).get())
        attila = army(self.campaign, "Host of Attila")
        self.assertEqual((attila.province.code, attila.must_retreat), ("pannonia", False))
        self.assertEqual(RetreatRecord.objects.get().defaulted, True)

    def test_a_broker_that_is_down_leaves_the_retreat_to_the_sweep(self) -> None:
        battle = aspar_attacks_dacia(self.campaign, with_support=False)
        with mock.patch("strategic.tasks.retreat_deadline.apply_async", side_effect=OSError("broker down")), \
                self.assertLogs("strategic.services.retreat_deadlines", "ERROR"), self.captureOnCommitCallbacks(execute=True):
            battle_result_apply(battle=battle, winner=Battle.Side.ATTACKER, unit_changes=[], reason="T11")
        battle.refresh_from_db()
        _age(battle, 25)
        self.assertEqual(retreat_sweep(), 1)


class DefaultChoiceTests(DemoCampaignTestCase):
    """The default: the nearest destination with the least penalty, ties by province code (R1), the least
    healthy units lost first (R4)."""

    def test_a_tie_between_pannonia_and_sarmatia_goes_to_pannonia_by_code(self) -> None:
        battle = aspar_attacks_dacia(self.campaign, with_support=False)
        battle_result_apply(battle=battle, winner=Battle.Side.ATTACKER, unit_changes=[], reason="T11")
        battle.refresh_from_db()
        _age(battle, 25)
        tasks.retreat_deadline(army(self.campaign, "Host of Attila").pk)
        self.assertEqual(army(self.campaign, "Host of Attila").province.code, "pannonia")

    def test_by_default_the_least_healthy_unit_pays_the_penalty(self) -> None:
        scene = fregellae(self.campaign)
        Unit.objects.create(campaign=self.campaign, faction=army(self.campaign, "Host of Attila").faction,
                            unit_type=unit(self.campaign, "Alan Riders").unit_type, name="Hunnic raiders",
                            province=province(self.campaign, "moesia"), health_halves=8)
        _age(scene.battle, 25)
        tasks.retreat_deadline(scene.thrace.pk)
        thrace = Army.objects.get(pk=scene.thrace.pk)
        self.assertEqual((thrace.province.code, [u.name for u in thrace.units.all()]),
                         ("macedonia", ["Scholae Palatinae"]))

    def test_a_destroyed_army_is_removed_by_default_too(self) -> None:
        scene = fregellae(self.campaign)
        # Every way out closed: a Hunnic unit in Moesia, and Moesia's only normal border on is made rough.
        Unit.objects.create(campaign=self.campaign, faction=army(self.campaign, "Host of Attila").faction,
                            unit_type=unit(self.campaign, "Alan Riders").unit_type,
                            province=province(self.campaign, "moesia"), health_halves=8)
        low, high = sorted((province(self.campaign, "moesia").pk, province(self.campaign, "macedonia").pk))
        Border.objects.filter(a_id=low, b_id=high).update(kind=Border.Kind.ROUGH)
        _age(scene.battle, 25)
        self.assertTrue(tasks.retreat_deadline(scene.thrace.pk))
        self.assertEqual((RetreatRecord.objects.get().kind, Army.objects.filter(pk=scene.thrace.pk).exists()),
                         ("destroyed", False))
