"""When a pending battle is fought: the times proposed, and which one each side accepted."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from strategic.models.map import Battle


class BattleTime(models.Model):
    """A time proposed for a battle by the moderator or one of its commanders."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="times")
    at = models.DateTimeField(_("time"))
    proposed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("proposed battle time")
        verbose_name_plural = _("proposed battle times")
        ordering = ["at", "id"]
        constraints = [models.UniqueConstraint(fields=["battle", "at"], name="battle_time_once")]


class BattleTimeAcceptance(models.Model):
    """The time one side of a battle accepted (one per side: a new choice replaces the old)."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="time_acceptances")
    side = models.CharField(_("side"), max_length=8, choices=Battle.Side.choices)
    time = models.ForeignKey(BattleTime, on_delete=models.CASCADE, related_name="acceptances")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        verbose_name = _("accepted battle time")
        verbose_name_plural = _("accepted battle times")
        constraints = [models.UniqueConstraint(fields=["battle", "side"], name="battle_time_one_per_side")]
