"""Records of what happens after a battle: retreats applied (R1–R6) and quick battles rolled (Q1–Q7, M2).

The state itself (armies, units, support points) lives in the models of ``strategic.models``; these rows
keep what was chosen, by whom, with which dice, so that the result can be shown and checked later.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaign.models import Campaign, Faction


class RetreatRecord(models.Model):
    """One beaten army's retreat after one battle, as applied (R1–R5) with the support it cost (R6)."""

    class Kind(models.TextChoices):
        ROUTE = "route", _("Retreat by land")
        SEA = "sea", _("Retreat by sea")
        FORTRESS = "fortress", _("Into the fortress city")
        DESTROYED = "destroyed", _("Destroyed")
        FORTRESS_ROUTE = "fortress+route", _("Partly into the fortress city, the rest by land")
        FORTRESS_SEA = "fortress+sea", _("Partly into the fortress city, the rest by sea")
        FORTRESS_DESTROYED = "fortress+destroyed", _("Partly into the fortress city, the rest destroyed")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="retreats")
    battle = models.ForeignKey("strategic.Battle", on_delete=models.CASCADE, related_name="retreats")
    # SET_NULL: a destroyed army is deleted, its record stays with the name it had.
    army = models.ForeignKey("strategic.Army", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="retreats")
    army_name = models.CharField(_("army"), max_length=120)
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="+")
    side = models.CharField(_("side"), max_length=8)
    kind = models.CharField(_("retreat"), max_length=20, choices=Kind.choices)
    destination = models.ForeignKey("strategic.Province", null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    choice = models.JSONField(_("choice"), default=dict)
    result = models.JSONField(_("result"), default=dict)
    defaulted = models.BooleanField(_("chosen by default"), default=False, help_text=_("R1: the deadline passed"))
    chosen_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    units_lost = models.PositiveIntegerField(_("units lost in the retreat"), default=0)
    lost_in_battle = models.PositiveIntegerField(_("units lost in the battle"), default=0)
    support_points = models.PositiveIntegerField(_("support points"), default=0, help_text=_("R6"))
    support_added = models.PositiveIntegerField(_("support added for the winner"), default=0)
    support_removed = models.PositiveIntegerField(_("support removed from the loser"), default=0)
    winner = models.ForeignKey(Faction, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("retreat")
        verbose_name_plural = _("retreats")
        ordering = ["-id"]
        constraints = [models.UniqueConstraint(fields=["battle", "army"], name="retreat_once_per_battle")]

    def __str__(self) -> str:
        return f"{self.army_name}: {self.get_kind_display()}"


class QuickBattleRecord(models.Model):
    """A battle resolved by the quick contest (Q1–Q7) with verifiable dice (M2).

    ``seed_commitment`` (SHA-256 of the seed) is stored and logged before any die is rolled; ``seed`` is
    filled in (hex) once the battle is resolved, so anyone can recompute every roll.
    """

    class Skill(models.TextChoices):
        STRATEGY = "strategy", _("Strategy")
        TACTICS = "tactics", _("Tactics (battles under 200 men)")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="quick_battles")
    battle = models.OneToOneField("strategic.Battle", on_delete=models.CASCADE, related_name="quick")
    skill = models.CharField(_("contest skill"), max_length=8, choices=Skill.choices)
    open_field = models.BooleanField(_("open field (table A)"), default=False)
    siege = models.BooleanField(_("siege"), default=False, help_text=_("Q6"))
    storm = models.BooleanField(_("storm"), default=False, help_text=_("Q6"))
    seed_commitment = models.CharField(_("seed hash (SHA-256)"), max_length=64)
    seed = models.CharField(_("seed (revealed)"), max_length=64, blank=True)
    result = models.JSONField(_("result"), default=dict)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("quick battle")
        verbose_name_plural = _("quick battles")
        ordering = ["-id"]
