"""Disputes of log entries and the moderator's rulings on interceptions (M1, M3, T10.4)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaign.models import Campaign, LogEntry
from tactical.models import BattleEvent, LiveBattle


class Dispute(models.Model):
    """A player's objection to one entry of the campaign log or of a battle's event log (M3)."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ANSWERED = "answered", _("Answered")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="disputes")
    # Exactly one of the two entries: a campaign log entry or a battle event.
    log_entry = models.ForeignKey(
        LogEntry,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("campaign log entry"),
    )
    battle_event = models.ForeignKey(
        BattleEvent,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("battle event"),
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("author"),
    )
    text = models.TextField(_("objection"), max_length=4000)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN)
    answer = models.TextField(_("moderator's answer"), blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("answered by"),
    )
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    # The campaign log entry that carries the answer (M3: the answer itself is logged).
    answer_entry = models.ForeignKey(
        LogEntry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")
        ordering = ["-id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(log_entry__isnull=False, battle_event__isnull=True)
                    | models.Q(log_entry__isnull=True, battle_event__isnull=False)
                ),
                name="dispute_one_entry",
            ),
        ]

    @property
    def entry_ref(self) -> str:
        """The disputed entry as the audit log names it: ``L<id>`` (campaign log) or ``B<battle>v<version>``."""
        if self.log_entry_id is not None:
            return f"L{self.log_entry_id}"
        return f"B{self.battle_event.battle_id}v{self.battle_event.version}"


class InterceptionRuling(models.Model):
    """The moderator's written record of one interception (T10.4): confirmed, or ruled otherwise."""

    class Verdict(models.TextChoices):
        CONFIRMED = "confirmed", _("Confirmed")
        OVERRULED = "overruled", _("Overruled")

    battle = models.ForeignKey(LiveBattle, on_delete=models.CASCADE, related_name="interception_rulings")
    # The version whose events declared the interception, and the interceptor's engine id.
    version = models.PositiveIntegerField(_("version"))
    unit = models.CharField(_("unit"), max_length=20)
    target = models.CharField(_("target"), max_length=20)
    verdict = models.CharField(_("ruling"), max_length=10, choices=Verdict.choices)
    reason = models.TextField(_("reason"))
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    log_entry = models.ForeignKey(LogEntry, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("interception ruling")
        verbose_name_plural = _("interception rulings")
        ordering = ["battle", "version", "unit"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "version", "unit"], name="interception_ruling_once"),
        ]
