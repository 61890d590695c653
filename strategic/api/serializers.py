"""Input and output shapes of the strategic API."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaign.models import Commander, Faction
from campaign.serializers import MAX_ID, InCampaign, inline_choice
from campaign.versions import row_version
from strategic.models import (
    Army,
    Battle,
    BattleSupport,
    Border,
    Province,
    Terrain,
    TerrainTransition,
    Unit,
    UnitClass,
    UnitType,
)


class DamageIn(serializers.Serializer):
    """Damage against each of the five classes (T3)."""

    LI1 = serializers.IntegerField(min_value=0, max_value=100)
    LI2 = serializers.IntegerField(min_value=0, max_value=100)
    HI = serializers.IntegerField(min_value=0, max_value=100)
    LC = serializers.IntegerField(min_value=0, max_value=100)
    HC = serializers.IntegerField(min_value=0, max_value=100)


class DamageOut(serializers.Serializer):
    """Damage against each class, as stored (a class missing from an imported card is left out)."""

    LI1 = serializers.IntegerField(required=False)
    LI2 = serializers.IntegerField(required=False)
    HI = serializers.IntegerField(required=False)
    LC = serializers.IntegerField(required=False)
    HC = serializers.IntegerField(required=False)


class UnitTypeOut(serializers.ModelSerializer):
    """A unit card (T3)."""

    name = serializers.CharField(read_only=True)
    health = serializers.FloatField()
    damage = DamageOut()
    missile_damage = DamageOut(allow_null=True)

    class Meta:
        model = UnitType
        fields = [
            "id",
            "code",
            "name",
            "name_en",
            "name_ru",
            "unit_class",
            "mounted",
            "health",
            "damage",
            "missile",
            "arrows",
            "missile_damage",
            "morale",
        ]


class UnitTypeIn(serializers.Serializer):
    """A new unit card, or (``partial``) changes to one."""

    code = serializers.SlugField(max_length=40)
    name_en = serializers.CharField(max_length=120)
    name_ru = serializers.CharField(max_length=120)
    unit_class = serializers.ChoiceField(choices=UnitClass.choices)
    mounted = serializers.BooleanField(required=False)
    health = serializers.DecimalField(max_digits=4, decimal_places=1, min_value=Decimal("0.5"))
    damage = DamageIn()
    missile = serializers.BooleanField(required=False)
    arrows = serializers.IntegerField(min_value=0, max_value=100, required=False)
    missile_damage = DamageIn(required=False, allow_null=True)
    morale = serializers.IntegerField(min_value=3, max_value=18, required=False)


class UnitTypeUpdateIn(UnitTypeIn):
    """Changes to a unit card (its code stays)."""

    code = None  # type: ignore[assignment]


@extend_schema_field(
    {"type": "array", "items": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}}
)
class OutlineField(serializers.JSONField):
    """A province outline ``[[x, y], ...]``, rendered as stored: a malformed import must not break reads."""


class ProvinceOut(serializers.ModelSerializer):
    """A province of the strategic map; ``version``: send it back with a change to be refused (409) if
    someone changed the province meanwhile."""

    name = serializers.CharField(read_only=True)
    shape = OutlineField(read_only=True)
    version = serializers.SerializerMethodField()

    class Meta:
        model = Province
        fields = [
            "id",
            "code",
            "name",
            "name_en",
            "name_ru",
            "terrain",
            "is_port",
            "has_fortress",
            "fortress_capacity",
            "has_tribe",
            "controller",
            "capital_of",
            "x",
            "y",
            "shape",
            "version",
        ]

    def get_version(self, province: Province) -> str:
        """The province's optimistic version (``campaign.versions``)."""
        return row_version(province)


class ProvinceIn(serializers.Serializer):
    """A new province, or (``partial``) changes to one; ``reason`` goes into the log."""

    code = serializers.SlugField(max_length=40)
    name_en = serializers.CharField(max_length=120)
    name_ru = serializers.CharField(max_length=120)
    terrain = serializers.ChoiceField(choices=Terrain.choices, required=False)
    is_port = serializers.BooleanField(required=False)
    has_fortress = serializers.BooleanField(required=False)
    fortress_capacity = serializers.IntegerField(min_value=0, max_value=50, required=False)
    has_tribe = serializers.BooleanField(required=False)
    controller = InCampaign(queryset=Faction.objects.all(), required=False, allow_null=True)
    capital_of = InCampaign(queryset=Faction.objects.all(), required=False, allow_null=True)
    x = serializers.IntegerField(min_value=0, max_value=1000, required=False)
    y = serializers.IntegerField(min_value=0, max_value=700, required=False)
    shape = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField(), min_length=2, max_length=2),
        required=False,
    )


class ProvinceUpdateIn(ProvinceIn):
    """Changes to a province (its code stays), with a reason for the log."""

    code = None  # type: ignore[assignment]
    reason = serializers.CharField(required=False, allow_blank=True, default="")
    version = serializers.CharField(
        required=False, allow_blank=True, max_length=32,
        help_text="The province's version as read: refused (409) when it changed since.",
    )


class BorderOut(serializers.ModelSerializer):
    """Adjacency of two provinces (S5, R1.3)."""

    kind = inline_choice(Border.Kind.choices)

    class Meta:
        model = Border
        fields = ["id", "a", "b", "kind"]


class BorderIn(serializers.Serializer):
    """Set the border of two provinces; ``kind: null`` removes it."""

    a = InCampaign(queryset=Province.objects.all())
    b = InCampaign(queryset=Province.objects.all())
    kind = inline_choice(Border.Kind.choices, allow_null=True)


class TransitionOut(serializers.ModelSerializer):
    """An exception of the province relief table (S9)."""

    class Meta:
        model = TerrainTransition
        fields = ["id", "source", "target", "terrain"]


class TransitionIn(serializers.Serializer):
    """Set the battlefield terrain for moving from source into target; ``terrain: null`` removes it."""

    source = InCampaign(queryset=Province.objects.all())
    target = InCampaign(queryset=Province.objects.all())
    terrain = serializers.ChoiceField(choices=Terrain.choices, allow_null=True)


class UnitOut(serializers.ModelSerializer):
    """A unit (S2): its army, or the province where it stands outside any army."""

    health = serializers.FloatField(read_only=True)
    location = serializers.SerializerMethodField()
    version = serializers.SerializerMethodField()

    class Meta:
        model = Unit
        fields = [
            "id",
            "faction",
            "unit_type",
            "name",
            "army",
            "province",
            "location",
            "in_fortress",
            "health_halves",
            "health",
            "arrows",
            "created_turn",
            "version",
        ]

    def get_version(self, unit: Unit) -> str:
        """The unit's optimistic version (``campaign.versions``)."""
        return row_version(unit)

    def get_location(self, unit: Unit) -> int:
        """The province where the unit stands."""
        return unit.army.province_id if unit.army_id is not None else unit.province_id  # type: ignore[union-attr,return-value]


class UnitIn(serializers.Serializer):
    """A new unit (economic phase, S4); without a province it appears in the faction's capital."""

    faction = InCampaign(queryset=Faction.objects.all())
    unit_type = InCampaign(queryset=UnitType.objects.all())
    province = InCampaign(queryset=Province.objects.all(), required=False, allow_null=True, default=None)
    name = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")


class UnitCorrectIn(serializers.Serializer):
    """The moderator's correction of a unit (M1): its health in lines, its place (an army of its faction, or a
    province outside any army); once the campaign has begun a reason is required."""

    health = serializers.DecimalField(max_digits=4, decimal_places=1, required=False)
    army = InCampaign(queryset=Army.objects.all(), required=False, allow_null=True, default=None)
    province = InCampaign(queryset=Province.objects.all(), required=False, allow_null=True, default=None)
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)
    version = serializers.CharField(
        required=False, allow_blank=True, max_length=32,
        help_text="The unit's version as read: refused (409) when it changed since.",
    )


class UnitAssignIn(serializers.Serializer):
    """The army to put the unit into, or null to take it out of its army (S2)."""

    army = InCampaign(queryset=Army.objects.all(), allow_null=True)


class ArmyOut(serializers.ModelSerializer):
    """An army (S2) with its units' ids and its version (for ``expected_version``)."""

    units = serializers.PrimaryKeyRelatedField(many=True, read_only=True)

    class Meta:
        model = Army
        fields = [
            "id",
            "faction",
            "commander",
            "province",
            "name",
            "moved_turn",
            "must_retreat",
            "morale_penalty",
            "version",
            "units",
        ]


class ArmyIn(serializers.Serializer):
    """A new army of units standing in one province (S2)."""

    faction = InCampaign(queryset=Faction.objects.all())
    commander = InCampaign(queryset=Commander.objects.all())
    province = InCampaign(queryset=Province.objects.all())
    name = serializers.CharField(max_length=120)
    unit_ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), min_length=1
    )


class ArmySplitIn(serializers.Serializer):
    """Units that leave for a new army (S2)."""

    unit_ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), min_length=1
    )
    name = serializers.CharField(max_length=120)
    commander = InCampaign(queryset=Commander.objects.all(), required=False, allow_null=True, default=None)


class ArmyMergeIn(serializers.Serializer):
    """The army that takes this army's units (S2)."""

    into = InCampaign(queryset=Army.objects.all())


class ArmyCommanderIn(serializers.Serializer):
    """The army's new commander (S2)."""

    commander = InCampaign(queryset=Commander.objects.all())


class ArmyMoveIn(serializers.Serializer):
    """An adjacent province to enter (S5); ``expected_version`` refuses a stale order with 409."""

    destination = InCampaign(queryset=Province.objects.all())
    expected_version = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, allow_null=True, default=None
    )


class BattleSupportOut(serializers.ModelSerializer):
    """A declared support (S8)."""

    class Meta:
        model = BattleSupport
        fields = ["id", "battle", "army", "side", "from_adjacent"]


class BattleOut(serializers.ModelSerializer):
    """The strategic record of a battle (S7) with its supporters (S8)."""

    supports = BattleSupportOut(many=True, read_only=True)
    winner = inline_choice(
        [("", "")] + list(Battle.Side.choices), help_text="Empty until the battle is resolved."
    )

    class Meta:
        model = Battle
        fields = [
            "id",
            "turn",
            "province",
            "origin",
            "terrain",
            "attacker_army",
            "attacker_faction",
            "defender_faction",
            "status",
            "winner",
            "result",
            "created_at",
            "resolved_at",
            "supports",
        ]


class MoveOut(serializers.Serializer):
    """What a move did (S5–S7)."""

    kind = inline_choice(["moved", "captured", "battle"])
    army = ArmyOut()
    province = serializers.IntegerField(source="province.pk")
    battle = BattleOut(allow_null=True)


def move_out_data(outcome: Any) -> dict[str, Any]:
    """``MoveOut(outcome).data`` built without DRF's field machinery: the move is a hot request."""
    army = outcome.army
    return {
        "kind": outcome.kind,
        "army": {
            "id": army.pk,
            "faction": army.faction_id,
            "commander": army.commander_id,
            "province": army.province_id,
            "name": army.name,
            "moved_turn": army.moved_turn,
            "must_retreat": army.must_retreat,
            "morale_penalty": army.morale_penalty,
            "version": army.version,
            "units": (
                list(outcome.unit_ids)
                if getattr(outcome, "unit_ids", None) is not None
                else [unit.pk for unit in army.units.all()]
            ),
        },
        "province": outcome.province.pk,
        "battle": BattleOut(outcome.battle).data if outcome.battle is not None else None,
    }


class BattleSupportIn(serializers.Serializer):
    """An army and the side it supports (S8)."""

    army = InCampaign(queryset=Army.objects.all())
    side = serializers.ChoiceField(choices=Battle.Side.choices)


class DestinationOut(serializers.Serializer):
    """A province the army may enter and what entering would do (S5–S7, S9)."""

    province = serializers.IntegerField(source="province.pk")
    code = serializers.CharField(source="province.code")
    kind = inline_choice(["move", "capture", "battle"])
    terrain = serializers.ChoiceField(choices=Terrain.choices)
    border = inline_choice(Border.Kind.choices)


class DestinationsOut(serializers.Serializer):
    """Whether the army may move now (and why not), and where it could go."""

    may_move = serializers.BooleanField()
    reason = serializers.CharField(allow_null=True)
    rule = serializers.CharField(allow_null=True)
    destinations = DestinationOut(many=True)
