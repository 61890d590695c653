"""Input and output shapes of the campaign API (thin: validation of form, not of rules)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Model, QuerySet
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from campaign.models import Campaign, Commander, Faction, Invitation, LogEntry, Membership, Relation

MAX_ID = 2**63 - 1


class RefusalOut(serializers.Serializer):
    """The rules engine's refusal: its stable code and the params its sentence was built from, for a client
    that words it itself (docs/tactical-protocol.md §4)."""

    code = serializers.CharField()
    params = serializers.DictField()
    field = serializers.CharField(required=False, help_text="Malformed input: the field the engine names.")


class ErrorOut(serializers.Serializer):
    """The body of every 4xx answer of the API (and of the live battle's socket errors)."""

    status = serializers.IntegerField(help_text="The HTTP status again.")
    code = serializers.CharField(help_text="A stable code (docs/tactical-protocol.md §4).")
    detail = serializers.CharField(help_text="A sentence for the player, in the request's language.")
    rule = serializers.CharField(required=False, help_text="The rule of RULES.md that refuses it.")
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="The sentences of each bad field.",
    )
    refusal = RefusalOut(required=False)
    id = serializers.CharField(required=False, help_text="Live battles: the client's action id.")
    version = serializers.IntegerField(required=False, help_text="Live battles: the battle's current version.")
    state = serializers.DictField(
        required=False, help_text="Live battles (409 stale): the current board state, as GET of the battle."
    )


class InCampaign(serializers.PrimaryKeyRelatedField):
    """An id of an object of the campaign in the serializer's context; ids of other campaigns are unknown."""

    def get_queryset(self) -> QuerySet[Model]:
        queryset = super().get_queryset()
        return queryset.filter(campaign=self.context["campaign"])


def keyword_fields(serializer: type[serializers.Serializer], **fields: serializers.Field) -> None:
    """Declare fields named by Python keywords (``class``, ``from``), which a class body cannot."""
    serializer._declared_fields.update(fields)


def inline_choice(choices: Any, **kwargs: Any) -> serializers.ChoiceField:
    """A choice field documented by a pattern rather than an enum component, so that several choice sets
    sharing a field name ("kind") do not clash in the schema."""
    values = [str(value) for value in serializers.ChoiceField(choices=choices).choices]
    pattern = "^(" + "|".join(values) + ")$"
    field_class = extend_schema_field({"type": "string", "pattern": pattern})(
        type("InlineChoiceField", (serializers.ChoiceField,), {})
    )
    return field_class(choices=choices, **kwargs)


def username_field(**kwargs: Any) -> serializers.SlugRelatedField:
    """A user named by username."""
    return serializers.SlugRelatedField(
        slug_field="username", queryset=get_user_model().objects.all(), **kwargs
    )


class CampaignOut(serializers.ModelSerializer):
    """A campaign with its turn and phase (S4)."""

    name = serializers.CharField(read_only=True)

    class Meta:
        model = Campaign
        fields = [
            "slug",
            "name",
            "name_en",
            "name_ru",
            "description",
            "is_public",
            "settings",
            "turn",
            "phase",
            "current_faction",
            "faction_deadline",
            "created_at",
        ]


class CampaignCreateIn(serializers.Serializer):
    """A new campaign."""

    slug = serializers.SlugField(max_length=60)
    name_en = serializers.CharField(max_length=120)
    name_ru = serializers.CharField(max_length=120)
    description = serializers.CharField(required=False, allow_blank=True, default="")
    is_public = serializers.BooleanField(required=False, default=True)
    settings = serializers.DictField(required=False, default=dict)


class CampaignUpdateIn(serializers.Serializer):
    """Changes to a campaign: any of its names, description, visibility and settings."""

    name_en = serializers.CharField(max_length=120, required=False)
    name_ru = serializers.CharField(max_length=120, required=False)
    description = serializers.CharField(required=False, allow_blank=True)
    is_public = serializers.BooleanField(required=False)
    settings = serializers.DictField(required=False)


class FactionOut(serializers.ModelSerializer):
    """A faction (S1)."""

    name = serializers.CharField(read_only=True)

    class Meta:
        model = Faction
        fields = [
            "id",
            "slug",
            "name",
            "name_en",
            "name_ru",
            "color",
            "turn_order",
            "leader",
            "naval_capacity",
            "roster_locked",
            "passed_turn",
        ]


class FactionCreateIn(serializers.Serializer):
    """A new faction."""

    slug = serializers.SlugField(max_length=60)
    name_en = serializers.CharField(max_length=120)
    name_ru = serializers.CharField(max_length=120)
    color = serializers.CharField(max_length=7, required=False, default="#888888")
    turn_order = serializers.IntegerField(min_value=0, max_value=1000, required=False, default=0)
    naval_capacity = serializers.IntegerField(min_value=0, max_value=1000, required=False, default=0)


class FactionUpdateIn(serializers.Serializer):
    """Changes to a faction, ``roster_locked`` (S2) included."""

    name_en = serializers.CharField(max_length=120, required=False)
    name_ru = serializers.CharField(max_length=120, required=False)
    color = serializers.CharField(max_length=7, required=False)
    turn_order = serializers.IntegerField(min_value=0, max_value=1000, required=False)
    naval_capacity = serializers.IntegerField(min_value=0, max_value=1000, required=False)
    roster_locked = serializers.BooleanField(required=False)
    leader = InCampaign(queryset=Commander.objects.all(), required=False, allow_null=True)


class RelationOut(serializers.ModelSerializer):
    """How two factions stand (S1)."""

    kind = inline_choice(Relation.Kind.choices)

    class Meta:
        model = Relation
        fields = ["a", "b", "kind"]


class RelationIn(serializers.Serializer):
    """Set how two factions stand."""

    a = InCampaign(queryset=Faction.objects.all())
    b = InCampaign(queryset=Faction.objects.all())
    kind = inline_choice(Relation.Kind.choices)


def username_out(help_text: str, **kwargs: Any) -> serializers.SlugRelatedField:
    """A user shown by username."""
    return serializers.SlugRelatedField(slug_field="username", read_only=True, help_text=help_text, **kwargs)


class CommanderOut(serializers.ModelSerializer):
    """A commander (S1) and the user who plays him."""

    user = username_out("The player's username; null while nobody plays him.", allow_null=True)

    class Meta:
        model = Commander
        fields = ["id", "faction", "name", "rank", "user", "strategy", "tactics", "has_luck", "displaced"]


class CommanderListOut(serializers.Serializer):
    """A commander in the campaign's list (the schema of its answer): ``id``, ``faction`` and ``name`` for
    anyone; the player and the qualities for the campaign's members only."""

    id = serializers.IntegerField()
    faction = serializers.IntegerField()
    name = serializers.CharField()
    rank = serializers.ChoiceField(choices=Commander.Rank.choices, required=False)
    user = serializers.CharField(required=False, allow_null=True, help_text="The player's username (members).")
    strategy = serializers.IntegerField(required=False)
    tactics = serializers.IntegerField(required=False)
    has_luck = serializers.BooleanField(required=False)
    displaced = serializers.BooleanField(required=False)


class CommanderPublicOut(serializers.ModelSerializer):
    """A commander as the public pages show him (rosters, S3): no player, no qualities."""

    class Meta:
        model = Commander
        fields = ["id", "faction", "name"]


class CommanderIn(serializers.Serializer):
    """A new commander."""

    faction = InCampaign(queryset=Faction.objects.all())
    name = serializers.CharField(max_length=120)
    rank = serializers.ChoiceField(
        choices=Commander.Rank.choices, required=False, default=Commander.Rank.GENERAL
    )
    user = username_field(required=False, allow_null=True, default=None)
    strategy = serializers.IntegerField(min_value=3, max_value=30, required=False, default=10)
    tactics = serializers.IntegerField(min_value=3, max_value=30, required=False, default=10)
    has_luck = serializers.BooleanField(required=False, default=False)


class MembershipOut(serializers.ModelSerializer):
    """A user's role in a campaign."""

    user = serializers.SlugRelatedField(slug_field="username", read_only=True)
    campaign = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Membership
        fields = ["campaign", "user", "role", "faction"]


class MembershipIn(serializers.Serializer):
    """Give a user a role."""

    user = username_field()
    role = serializers.ChoiceField(choices=Membership.Role.choices)
    faction = InCampaign(queryset=Faction.objects.all(), required=False, allow_null=True, default=None)


class InvitationOut(serializers.ModelSerializer):
    """An invitation and its token (shown to moderators only)."""

    used_by = username_out("Who accepted it; null while unused.", allow_null=True)

    class Meta:
        model = Invitation
        fields = ["id", "token", "role", "faction", "commander", "created_at", "used_by", "used_at"]


class InvitationIn(serializers.Serializer):
    """A new invitation."""

    role = serializers.ChoiceField(choices=Membership.Role.choices)
    faction = InCampaign(queryset=Faction.objects.all(), required=False, allow_null=True, default=None)
    commander = InCampaign(queryset=Commander.objects.all(), required=False, allow_null=True, default=None)


class TokenIn(serializers.Serializer):
    """A username and password to exchange for an API token."""

    username = serializers.CharField()
    password = serializers.CharField(style={"input_type": "password"})


class TokenOut(serializers.Serializer):
    """An API token: send it as ``Authorization: Token <key>``."""

    token = serializers.CharField()


class InvitationAcceptIn(serializers.Serializer):
    """The token of an invitation."""

    token = serializers.CharField(max_length=64)


class TurnFactionOut(serializers.ModelSerializer):
    """A faction's place in the turn order."""

    class Meta:
        model = Faction
        fields = ["id", "slug", "turn_order", "passed_turn"]


class TurnOut(serializers.Serializer):
    """The turn, the phase, the faction to act and its deadline (S4)."""

    turn = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=Campaign.Phase.choices)
    current_faction = serializers.IntegerField(source="current_faction.pk", allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    seconds_left = serializers.IntegerField(allow_null=True)
    is_overdue = serializers.BooleanField()
    factions = TurnFactionOut(many=True)


class TurnPassIn(serializers.Serializer):
    """The faction whose turn ends: it must be the acting one (so a repeated request passes nobody else)."""

    faction = InCampaign(queryset=Faction.objects.all())


class LogEntryOut(serializers.ModelSerializer):
    """One entry of the campaign log (M3)."""

    actor = username_out("Who did it; null when the system did (a deadline, a default).", allow_null=True)

    class Meta:
        model = LogEntry
        fields = ["id", "created_at", "turn", "actor", "kind", "rule", "data", "reason"]


class LogQueryIn(serializers.Serializer):
    """Only entries after this id."""

    after = serializers.IntegerField(
        min_value=0, max_value=MAX_ID, required=False, help_text="Only entries with a greater id."
    )
