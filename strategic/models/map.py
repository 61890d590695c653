"""The strategic map: provinces, borders, terrain transitions, unit types, armies, units, battle records."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaign.models import BilingualName, Campaign, Commander, Faction


class Terrain(models.TextChoices):
    """Battlefield terrain types (T5)."""

    FIELD = "field", _("Field")
    FOREST = "forest", _("Forest")
    MOUNTAINS = "mountains", _("Mountains")
    DESERT = "desert", _("Desert")


class UnitClass(models.TextChoices):
    """The five classes of T3."""

    LI1 = "LI1", _("Light infantry, level 1")
    LI2 = "LI2", _("Light infantry, level 2")
    HI = "HI", _("Heavy infantry")
    LC = "LC", _("Light cavalry")
    HC = "HC", _("Heavy cavalry")


class Province(BilingualName):
    """A province of the strategic map. ``x``, ``y`` place it on the map picture (0..1000 × 0..700)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="provinces")
    code = models.SlugField(_("code"), max_length=40)
    terrain = models.CharField(_("terrain"), max_length=10, choices=Terrain.choices, default=Terrain.FIELD)
    is_port = models.BooleanField(_("port"), default=False)
    has_fortress = models.BooleanField(_("fortress city"), default=False)
    fortress_capacity = models.PositiveSmallIntegerField(_("fortress capacity"), default=3, help_text=_("R3"))
    has_tribe = models.BooleanField(_("tribe"), default=False, help_text=_("R4"))
    controller = models.ForeignKey(
        Faction, verbose_name=_("controller"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="provinces",
    )
    capital_of = models.OneToOneField(
        Faction, verbose_name=_("capital of"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="capital",
    )
    x = models.PositiveIntegerField(_("map x"), default=0)
    y = models.PositiveIntegerField(_("map y"), default=0)
    shape = models.JSONField(_("outline"), default=list, blank=True, help_text=_("[[x, y], ...] on the map picture"))

    class Meta:
        verbose_name = _("province")
        verbose_name_plural = _("provinces")
        ordering = ["campaign", "code"]
        constraints = [models.UniqueConstraint(fields=["campaign", "code"], name="province_code_unique")]


class Border(models.Model):
    """Adjacency of two provinces (S5, R1.3), stored once with ``a.id < b.id``."""

    class Kind(models.TextChoices):
        NORMAL = "normal", _("Normal")
        ROUGH = "rough", _("Rough terrain")
        STRAIT = "strait", _("Strait")
        IMPASSABLE = "impassable", _("Impassable")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="borders")
    a = models.ForeignKey(Province, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Province, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.NORMAL)

    class Meta:
        verbose_name = _("border")
        verbose_name_plural = _("borders")
        constraints = [
            models.UniqueConstraint(fields=["a", "b"], name="border_pair_unique"),
            models.CheckConstraint(condition=models.Q(a__lt=models.F("b")), name="border_pair_ordered"),
        ]


class TerrainTransition(models.Model):
    """An exception of the province relief table (S9): moving from ``source`` into ``target``."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="transitions")
    source = models.ForeignKey(Province, on_delete=models.CASCADE, related_name="+")
    target = models.ForeignKey(Province, on_delete=models.CASCADE, related_name="+")
    terrain = models.CharField(_("terrain"), max_length=10, choices=Terrain.choices)

    class Meta:
        verbose_name = _("terrain transition")
        verbose_name_plural = _("terrain transitions")
        constraints = [models.UniqueConstraint(fields=["source", "target"], name="transition_pair_unique")]


class UnitType(BilingualName):
    """A unit card (T3) plus Morale for quick battles (Q2)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="unit_types")
    code = models.SlugField(_("code"), max_length=40)
    unit_class = models.CharField(_("class"), max_length=3, choices=UnitClass.choices)
    mounted = models.BooleanField(_("mounted"), default=False)
    health = models.DecimalField(_("health (lines)"), max_digits=4, decimal_places=1)
    damage = models.JSONField(_("damage by class"), help_text=_('{"LI1": n, "LI2": n, "HI": n, "LC": n, "HC": n}'))
    missile = models.BooleanField(_("shoots"), default=False)
    arrows = models.PositiveSmallIntegerField(_("arrows"), default=0)
    missile_damage = models.JSONField(_("volley damage by class"), null=True, blank=True)
    morale = models.PositiveSmallIntegerField(_("Morale"), default=10, help_text=_("Q2"))

    class Meta:
        verbose_name = _("unit type")
        verbose_name_plural = _("unit types")
        ordering = ["campaign", "code"]
        constraints = [models.UniqueConstraint(fields=["campaign", "code"], name="unit_type_code_unique")]


class Army(models.Model):
    """A group of units under one commander, standing in one province (S2)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="armies")
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="armies")
    commander = models.ForeignKey(Commander, on_delete=models.PROTECT, related_name="armies")
    province = models.ForeignKey(Province, on_delete=models.PROTECT, related_name="armies")
    name = models.CharField(_("name"), max_length=120)
    moved_turn = models.PositiveIntegerField(_("moved in turn"), null=True, blank=True, help_text=_("S5"))
    must_retreat = models.BooleanField(_("must retreat"), default=False, help_text=_("S10"))
    morale_penalty = models.SmallIntegerField(_("Morale modifier next day"), default=0, help_text=_("Q7"))
    version = models.PositiveIntegerField(default=1)

    class Meta:
        verbose_name = _("army")
        verbose_name_plural = _("armies")
        ordering = ["campaign", "faction", "name"]

    def __str__(self) -> str:
        return self.name


class Unit(models.Model):
    """A unit (S2): in an army, or (new or garrisoned) directly in a province."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="units")
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="units")
    unit_type = models.ForeignKey(UnitType, on_delete=models.PROTECT, related_name="units")
    name = models.CharField(_("name"), max_length=120, blank=True)
    army = models.ForeignKey(Army, null=True, blank=True, on_delete=models.SET_NULL, related_name="units")
    province = models.ForeignKey(
        Province, null=True, blank=True, on_delete=models.PROTECT, related_name="loose_units",
        help_text=_("Where a unit outside any army stands."),
    )
    in_fortress = models.BooleanField(_("in the fortress city"), default=False, help_text=_("R3"))
    health_halves = models.PositiveSmallIntegerField(_("health (half lines)"))
    arrows = models.PositiveSmallIntegerField(_("arrows"), default=0)
    created_turn = models.PositiveIntegerField(_("created in turn"), default=1)

    class Meta:
        verbose_name = _("unit")
        verbose_name_plural = _("units")
        ordering = ["campaign", "faction", "id"]
        indexes = [
            # Every map counts the campaign's units by army, province and faction: this index answers that from
            # the index alone, already grouped, where the table's rows had to be read and hashed.
            models.Index(fields=["campaign", "army", "province", "faction"], name="unit_map_counts"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(army__isnull=True, province__isnull=False)
                | models.Q(army__isnull=False, province__isnull=True),
                name="unit_in_army_or_province",
            ),
        ]

    def __str__(self) -> str:
        return self.name or f"{self.unit_type} #{self.pk}"

    @property
    def health(self) -> float:
        """Health in lines (T3.1: kept in half lines)."""
        return self.health_halves / 2


class Battle(models.Model):
    """The strategic record of a battle (S7): who fights where, from where, on what terrain, the outcome."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Awaiting resolution")
        TACTICAL = "tactical", _("Being fought on the tactical map")
        RESOLVED = "resolved", _("Resolved")

    class Side(models.TextChoices):
        ATTACKER = "attacker", _("Attacker")
        DEFENDER = "defender", _("Defender")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="battles")
    turn = models.PositiveIntegerField(_("turn"))
    province = models.ForeignKey(Province, on_delete=models.PROTECT, related_name="battles")
    origin = models.ForeignKey(Province, on_delete=models.PROTECT, related_name="+", verbose_name=_("attacked from"))
    terrain = models.CharField(_("battlefield terrain"), max_length=10, choices=Terrain.choices)
    # SET_NULL: merging an army away after its battle must not be blocked; the log keeps who attacked.
    attacker_army = models.ForeignKey(Army, null=True, blank=True, on_delete=models.SET_NULL, related_name="attacks")
    attacker_faction = models.ForeignKey(Faction, on_delete=models.PROTECT, related_name="+")
    defender_faction = models.ForeignKey(Faction, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    winner = models.CharField(_("winner"), max_length=8, choices=Side.choices, blank=True)
    result = models.JSONField(_("result"), default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)
    # When both sides accepted one time (strategic/services/schedule.py); empty until then.
    scheduled_at = models.DateTimeField(_("scheduled for"), null=True, blank=True)

    class Meta:
        verbose_name = _("battle")
        verbose_name_plural = _("battles")
        ordering = ["-id"]


class BattleSupport(models.Model):
    """An army declared in support of a side before the battle (S8)."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="supports")
    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="supports")
    side = models.CharField(_("side"), max_length=8, choices=Battle.Side.choices)
    from_adjacent = models.BooleanField(
        _("from an adjacent province"), default=False, help_text=_("Arrives as reinforcements (T9.6).")
    )

    class Meta:
        verbose_name = _("support")
        verbose_name_plural = _("supports")
        constraints = [models.UniqueConstraint(fields=["battle", "army"], name="support_once_per_battle")]


class SupportPoints(models.Model):
    """Political support of a faction in a province (R6)."""

    province = models.ForeignKey(Province, on_delete=models.CASCADE, related_name="support_points")
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="support_points")
    points = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("support points")
        verbose_name_plural = _("support points")
        constraints = [models.UniqueConstraint(fields=["province", "faction"], name="support_points_unique")]
