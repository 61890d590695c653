"""Campaigns, factions, relations, commanders, memberships and the campaign's append-only log."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from campaign.rules_settings import default_settings


class BilingualName(models.Model):
    """A name stored in English and in Russian; ``name`` picks the active language."""

    name_en = models.CharField(_("name (English)"), max_length=120)
    name_ru = models.CharField(_("name (Russian)"), max_length=120)

    class Meta:
        abstract = True

    @property
    def name(self) -> str:
        """The name in the active language (English when the Russian one is missing)."""
        if (get_language() or "en").startswith("ru") and self.name_ru:
            return self.name_ru
        return self.name_en

    def __str__(self) -> str:
        return self.name


class Campaign(BilingualName):
    """One forum campaign: its settings, its turn and phase (S4)."""

    class Phase(models.TextChoices):
        ECONOMIC = "economic", _("Economic phase")
        STRATEGIC = "strategic", _("Strategic phase")
        FINISHED = "finished", _("Finished")

    slug = models.SlugField(_("short name"), unique=True, max_length=60)
    description = models.TextField(_("description"), blank=True)
    is_public = models.BooleanField(_("public"), default=True, help_text=_("Anyone may read its pages."))
    settings = models.JSONField(_("settings"), default=default_settings)
    turn = models.PositiveIntegerField(_("turn"), default=1)
    phase = models.CharField(_("phase"), max_length=12, choices=Phase.choices, default=Phase.ECONOMIC)
    current_faction = models.ForeignKey(
        "Faction", verbose_name=_("faction to act"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )
    faction_deadline = models.DateTimeField(_("deadline of the faction's turn"), null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")
        ordering = ["slug"]

    def setting(self, name: str) -> object:
        """A campaign setting, falling back to its documented default."""
        return {**default_settings(), **(self.settings or {})}[name]


class Faction(BilingualName):
    """A side of the campaign (S1), acting in ``turn_order`` in the strategic phase (S4)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="factions")
    slug = models.SlugField(_("short name"), max_length=60)
    color = models.CharField(_("colour"), max_length=7, default="#888888", help_text=_("#rrggbb"))
    turn_order = models.PositiveIntegerField(_("turn order"), default=0)
    leader = models.ForeignKey(
        "Commander", verbose_name=_("leader"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+",
    )
    naval_capacity = models.PositiveIntegerField(_("naval capacity"), default=0, help_text=_("R5"))
    roster_locked = models.BooleanField(_("army assignment locked"), default=False, help_text=_("S2"))
    passed_turn = models.PositiveIntegerField(_("last turn passed"), null=True, blank=True)

    class Meta:
        verbose_name = _("faction")
        verbose_name_plural = _("factions")
        ordering = ["campaign", "turn_order", "slug"]
        constraints = [models.UniqueConstraint(fields=["campaign", "slug"], name="faction_slug_unique")]


class Relation(models.Model):
    """How two factions stand (S1); a pair without a row is neutral. Stored with ``a.id < b.id``."""

    class Kind(models.TextChoices):
        ALLIED = "allied", _("Allied")
        WAR = "war", _("At war")
        NEUTRAL = "neutral", _("Neutral")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="relations")
    a = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("relation"), max_length=8, choices=Kind.choices, default=Kind.NEUTRAL)

    class Meta:
        verbose_name = _("relation")
        verbose_name_plural = _("relations")
        constraints = [
            models.UniqueConstraint(fields=["a", "b"], name="relation_pair_unique"),
            models.CheckConstraint(condition=models.Q(a__lt=models.F("b")), name="relation_pair_ordered"),
        ]


class Commander(models.Model):
    """A person of the game who commands armies: a faction leader, a general or a chieftain (S1)."""

    class Rank(models.TextChoices):
        LEADER = "leader", _("Faction leader")
        GENERAL = "general", _("General")
        CHIEFTAIN = "chieftain", _("Chieftain")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="commanders")
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="commanders")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("played by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="commanders",
    )
    name = models.CharField(_("name"), max_length=120)
    rank = models.CharField(_("rank"), max_length=10, choices=Rank.choices, default=Rank.GENERAL)
    strategy = models.PositiveSmallIntegerField(_("Strategy"), default=10, help_text=_("Q1"))
    tactics = models.PositiveSmallIntegerField(_("Tactics"), default=10, help_text=_("Q1"))
    has_luck = models.BooleanField(_("Luck"), default=False, help_text=_("Q1: one reroll"))
    displaced = models.BooleanField(_("displaced"), default=False, help_text=_("R1.4: out of command"))
    # Q5: a captured commander is also ``displaced``, so that whatever refuses a displaced commander
    # (forming an army, taking command) refuses him too; a moderator's release clears both.
    captured_by = models.ForeignKey(
        Faction, verbose_name=_("captured by"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="captives", help_text=_("Q5: held by this faction until a moderator releases him"),
    )

    class Meta:
        verbose_name = _("commander")
        verbose_name_plural = _("commanders")
        ordering = ["faction", "name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A person's part in a campaign: moderator, leader or commander of a faction, or observer."""

    class Role(models.TextChoices):
        MODERATOR = "moderator", _("Moderator")
        LEADER = "leader", _("Faction leader")
        COMMANDER = "commander", _("Commander")
        OBSERVER = "observer", _("Observer")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    faction = models.ForeignKey(Faction, null=True, blank=True, on_delete=models.CASCADE, related_name="members")

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="membership_one_per_campaign"),
            models.CheckConstraint(
                condition=(
                    models.Q(role__in=["leader", "commander"], faction__isnull=False)
                    | models.Q(role__in=["moderator", "observer"], faction__isnull=True)
                ),
                name="membership_faction_matches_role",
            ),
        ]


def _invite_token() -> str:
    return secrets.token_urlsafe(24)


class Invitation(models.Model):
    """A link a moderator sends: whoever opens it joins the campaign with this role and faction."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True, default=_invite_token)
    role = models.CharField(_("role"), max_length=10, choices=Membership.Role.choices)
    faction = models.ForeignKey(Faction, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    commander = models.ForeignKey(
        Commander, verbose_name=_("commander to play"), null=True, blank=True,
        on_delete=models.CASCADE, related_name="+",
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")


class LogEntry(models.Model):
    """One entry of a campaign's append-only log (M3): orders, captures, battles, corrections, dice.

    ``kind`` is a stable machine name (``army_moved``); ``data`` holds what the entry is about; the
    sentence shown to readers is rendered from both in the reader's language.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="log")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    turn = models.PositiveIntegerField()
    # Indexed with the time below, so a person's entries are read in the log's order.
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                              db_index=False)
    kind = models.CharField(max_length=40)
    rule = models.CharField(max_length=12, blank=True)
    # On PostgreSQL a GIN index (migration 0003_audit_log_indexes) serves the audit log's filters by battle and by unit.
    data = models.JSONField(default=dict)
    reason = models.TextField(blank=True)

    class Meta:
        verbose_name = _("log entry")
        verbose_name_plural = _("log entries")
        ordering = ["id"]
        # The audit log's pages walk (campaign, time, id) from a cursor, whole or of one turn (M3).
        indexes = [
            models.Index(fields=["campaign", "id"]),
            models.Index(fields=["campaign", "created_at", "id"], name="logentry_campaign_time"),
            models.Index(fields=["campaign", "turn", "created_at", "id"], name="logentry_campaign_turn_time"),
            models.Index(fields=["actor", "created_at", "id"], name="logentry_actor_time"),
        ]
