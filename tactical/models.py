"""Live tactical battles: the engine snapshot, who commands which unit, the append-only event log, orders."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaign.models import Campaign, Commander, Faction
from strategic.models import Battle, Unit


class LiveBattle(models.Model):
    """A battle being played out on the tactical map; its id is the strategic record's id."""

    class Status(models.TextChoices):
        # The moderator prepares the field (the map, painted cells); the commanders wait (issue 16).
        SETUP = "setup", _("Being prepared")
        DEPLOYMENT = "deployment", _("Deployment")
        LIVE = "live", _("In progress")
        ENDED = "ended", _("Ended")

    record = models.OneToOneField(Battle, primary_key=True, on_delete=models.CASCADE, related_name="live")
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="live_battles")
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.DEPLOYMENT)
    state = models.JSONField(_("engine state"))
    version = models.PositiveIntegerField(default=1)
    # The side's turn the deadline belongs to ("<round>:<side>"); a timer carries it so that it never
    # ends a later turn (T6.1).
    turn_key = models.CharField(max_length=24, blank=True)
    deadline = models.DateTimeField(_("turn deadline"), null=True, blank=True, db_index=True)
    map_seed = models.BigIntegerField(_("map seed"))
    seed = models.BinaryField(_("dice seed"), max_length=32, editable=False)
    seed_commitment = models.CharField(_("dice seed SHA-256"), max_length=64)
    rolls_used = models.PositiveIntegerField(_("dice rolled"), default=0)
    # The moderator's hold on the clock (tactical/services/moderation.py): the seconds left of the turn
    # while it is paused (the deadline is then null, so no timer or sweep ends the turn, T6.1) ...
    paused_left = models.FloatField(_("seconds left while paused"), null=True, blank=True)
    # ... and the action that waits for the moderator's T7.6 die, as it will be applied (M1, M2).
    pending = models.JSONField(_("action awaiting the moderator's die"), null=True, blank=True)
    # Commanders who said "done" (move phase) or "ready" (deployment) in the current side's turn (T6).
    done = models.JSONField(default=list)
    # Static facts of each engine unit for the board: name, faction, commander (see tactical.protocol.board).
    roster = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("live battle")
        verbose_name_plural = _("live battles")
        ordering = ["-record_id"]


class BattleUnit(models.Model):
    """One unit of the battle: its engine id, side, and the commander who acts with it (T2)."""

    battle = models.ForeignKey(LiveBattle, on_delete=models.CASCADE, related_name="units")
    engine_id = models.CharField(max_length=20)
    unit = models.ForeignKey(Unit, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    side = models.CharField(max_length=8, choices=Battle.Side.choices)
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="+")
    commander = models.ForeignKey(Commander, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    reinforcement = models.BooleanField(default=False, help_text=_("T9.6"))

    class Meta:
        verbose_name = _("battle unit")
        verbose_name_plural = _("battle units")
        constraints = [models.UniqueConstraint(fields=["battle", "engine_id"], name="battle_unit_engine_id_unique")]


class BattleEvent(models.Model):
    """One version of a battle (M3): what was done, by whom, the dice rolled and the events it caused."""

    class Kind(models.TextChoices):
        SETUP = "setup", _("Battle set up")
        MAP = "map", _("Map changed")
        OPEN = "open", _("Deployment opened")
        ACTION = "action", _("Action")
        DONE = "done", _("Commander done")
        TIMEOUT = "timeout", _("Time ran out")
        MODERATOR = "moderator", _("Moderator")
        CLOCK = "clock", _("Clock paused, resumed or extended")
        CORRECTION = "correction", _("Correction")
        UNDO = "undo", _("Action taken back")
        AWAIT_DIE = "await_die", _("Waiting for the moderator's die")
        DIE_ROLL = "die_roll", _("Die rolled by the moderator")

    # No index of its own: the (battle, version) unique constraint leads with it and serves its lookups.
    battle = models.ForeignKey(LiveBattle, on_delete=models.CASCADE, related_name="events", db_index=False)
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # Indexed with the time below (the audit log reads a person's rows in its order).
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                              db_index=False)
    commander = models.ForeignKey(Commander, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                                  db_index=False)
    action_id = models.CharField(max_length=64, blank=True)
    action = models.JSONField(null=True, blank=True)
    events = models.JSONField(default=list)
    rolls_before = models.PositiveIntegerField(default=0)
    dice = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("battle event")
        verbose_name_plural = _("battle events")
        ordering = ["battle", "version"]
        # The audit log's pages walk the campaign's battle rows by time from a cursor (M3).
        indexes = [
            models.Index(fields=["created_at", "battle", "version"], name="battle_event_time"),
            models.Index(fields=["actor", "created_at"], name="battle_event_actor_time"),
            models.Index(fields=["commander", "created_at"], name="battle_event_commander_time"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["battle", "version"], name="battle_event_version_unique"),
            models.UniqueConstraint(
                fields=["battle", "action_id"], condition=~models.Q(action_id=""), name="battle_event_action_id_unique"
            ),
        ]


class BattleOrder(models.Model):
    """A faction leader's order to a subordinate on the same side (T2), seen by him and the moderators."""

    battle = models.ForeignKey(LiveBattle, on_delete=models.CASCADE, related_name="orders")
    author = models.ForeignKey(Commander, on_delete=models.CASCADE, related_name="+")
    recipient = models.ForeignKey(Commander, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    text = models.TextField(_("order"), max_length=2000)
    version = models.PositiveIntegerField(help_text=_("The battle's version when the order was given."))
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("order")
        verbose_name_plural = _("orders")
        ordering = ["battle", "id"]
