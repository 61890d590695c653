"""The API after a battle: a beaten army's retreat options and choice (R1–R5), the moderator's quick battle
(Q1–Q7, M2), the split of the winner's support points (R6) and the captured commanders and their release
(Q5)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from campaign import permissions
from campaign.api import READ_ERRORS, CampaignView, errors
from campaign.models import Commander
from strategic.messages import NEEDS_RETREAT_COMMANDER
from strategic.models import Army, Battle, QuickBattleRecord, RetreatRecord
from strategic.selectors.retreats import captive_commanders, pending_retreat
from strategic.services import captives as captive_services
from strategic.services import quick_battles as quick_services
from strategic.services import retreats as retreat_services


class RetreatChoiceIn(serializers.Serializer):
    """The commander's choice: a land route (province codes), a port, and units by id."""

    route = serializers.ListField(child=serializers.SlugField(), required=False, default=list, max_length=4)
    sea_port = serializers.SlugField(required=False, allow_null=True, default=None)
    fortress_units = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)
    sea_units = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)
    lost_units = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)


class RetreatOptionsOut(serializers.Serializer):
    """What the beaten army owes: the battle, its side, the deadline and the engine's options."""

    army = serializers.IntegerField()
    must_retreat = serializers.BooleanField()
    battle = serializers.IntegerField(allow_null=True)
    side = serializers.CharField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    options = serializers.DictField(allow_null=True)


class RetreatRecordOut(serializers.ModelSerializer):
    """An applied retreat."""

    destination = serializers.SlugRelatedField(slug_field="code", read_only=True)

    class Meta:
        model = RetreatRecord
        fields = ("id", "battle", "army", "army_name", "faction", "side", "kind", "destination", "choice", "result",
                  "defaulted", "units_lost", "lost_in_battle", "winner", "support_points", "support_added",
                  "support_removed", "created_at")


class QuickBattleIn(serializers.Serializer):
    """The moderator's settings of a quick battle."""

    skill = serializers.ChoiceField(choices=QuickBattleRecord.Skill.choices)
    open_field = serializers.BooleanField(required=False, default=False)
    siege = serializers.BooleanField(required=False, default=False)
    storm = serializers.BooleanField(required=False, default=False)


class QuickBattleOut(serializers.ModelSerializer):
    """A resolved quick battle with every roll; the seed is revealed, its hash was logged before."""

    class Meta:
        model = QuickBattleRecord
        fields = ("id", "battle", "skill", "open_field", "siege", "storm", "seed_commitment", "seed", "result",
                  "created_at")


class SupportSplitIn(serializers.Serializer):
    """How many of the points won are removed from the loser instead of added for the winner."""

    removed = serializers.IntegerField(min_value=0)


class ArmyRetreatView(CampaignView):
    """A beaten army's retreat."""

    def army(self, pk: int) -> Army:
        """The army of this campaign, else 404."""
        army: Army = self.get_object_or_404(Army, pk)
        return army

    @extend_schema(responses={200: RetreatOptionsOut, **READ_ERRORS})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        """The legal retreats (R1–R5) or the reason the army is destroyed (R1.4)."""
        army = self.army(pk)
        pending = pending_retreat(army=army)
        body: dict[str, Any] = {"army": army.pk, "must_retreat": army.must_retreat, "battle": None, "side": None,
                                "deadline": None, "options": None}
        if pending is not None:
            body.update({"battle": pending.battle.pk, "side": pending.side, "deadline": pending.deadline,
                         "options": pending.options.to_dict()})
        return Response(RetreatOptionsOut(body).data)

    @extend_schema(request=RetreatChoiceIn, responses=errors({200: RetreatRecordOut}))
    def post(self, request: Request, slug: str, pk: int) -> Response:
        """The commander, his leader or a moderator chooses; refused with the rule (409) or as malformed (400)."""
        army = self.army(pk)
        self.require(permissions.can_command_army(request.user, army), NEEDS_RETREAT_COMMANDER)
        data = self.valid(RetreatChoiceIn)
        retreat_services.retreat_expire(army_id=army.pk)
        record = retreat_services.retreat_choose(actor=request.user, army=army, **data)
        return Response(RetreatRecordOut(record).data)


class QuickBattleView(CampaignView):
    """The quick battle of a battle record."""

    def battle(self, pk: int) -> Battle:
        """The battle of this campaign, else 404."""
        battle: Battle = self.get_object_or_404(Battle, pk)
        return battle

    @extend_schema(responses={200: QuickBattleOut, **READ_ERRORS})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        """The resolved quick battle of this battle."""
        record = QuickBattleRecord.objects.filter(battle=self.battle(pk)).first()
        if record is None:
            raise NotFound()
        return Response(QuickBattleOut(record).data)

    @extend_schema(request=QuickBattleIn, responses=errors({201: QuickBattleOut}))
    def post(self, request: Request, slug: str, pk: int) -> Response:
        """Resolve the pending battle by the commanders' contest (moderator)."""
        battle = self.battle(pk)
        self.require_moderator()
        record = quick_services.quick_battle_resolve(actor=request.user, battle=battle, **self.valid(QuickBattleIn))
        return Response(QuickBattleOut(record).data, status=201)


class RetreatListView(CampaignView):
    """Retreats applied in the campaign, newest first."""

    @extend_schema(responses={200: RetreatRecordOut(many=True), **READ_ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        """The latest hundred retreats."""
        records = RetreatRecord.objects.filter(campaign=self.campaign).select_related("destination")[:100]
        return Response(RetreatRecordOut(records, many=True).data)


class RetreatSupportView(CampaignView):
    """R6: the moderator's split of the points won."""

    @extend_schema(request=SupportSplitIn, responses=errors({200: RetreatRecordOut}))
    def post(self, request: Request, slug: str, pk: int) -> Response:
        """Remove ``removed`` of the points from the loser and add the rest for the winner."""
        record = self.get_object_or_404(RetreatRecord, pk)
        self.require_moderator()
        record = retreat_services.retreat_support_set(actor=request.user, record=record,
                                                      **self.valid(SupportSplitIn))
        return Response(RetreatRecordOut(record).data)


class CaptiveOut(serializers.ModelSerializer):
    """A commander and who holds him captive (Q5); ``captured_by`` is null once released."""

    class Meta:
        model = Commander
        fields = ("id", "name", "faction", "rank", "captured_by", "displaced")


class CommanderReleaseIn(serializers.Serializer):
    """Why the moderator releases the commander (M1: it goes into the log)."""

    reason = serializers.CharField(max_length=500)


class CaptiveListView(CampaignView):
    """The campaign's captured commanders."""

    @extend_schema(responses={200: CaptiveOut(many=True), **READ_ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        """Every commander held captive (Q5), by faction and name."""
        return Response(CaptiveOut(captive_commanders(campaign=self.campaign), many=True).data)


class CommanderReleaseView(CampaignView):
    """Q5, M1: the moderator releases a captured commander."""

    @extend_schema(request=CommanderReleaseIn, responses=errors({200: CaptiveOut}))
    def post(self, request: Request, slug: str, pk: int) -> Response:
        """Release him with a reason; 409 when he is not held."""
        commander = self.get_object_or_404(Commander, pk)
        self.require_moderator()
        commander = captive_services.commander_release(actor=request.user, commander=commander,
                                                       **self.valid(CommanderReleaseIn))
        return Response(CaptiveOut(commander).data)
