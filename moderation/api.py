"""The moderation API: the audit log, dice verification, disputes and the battle console's actions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign import permissions
from campaign.api import READ_ERRORS, WRITE_ERRORS
from campaign.errors import Forbidden, NotFound
from campaign.messages import NEEDS_LOGIN, NEEDS_MODERATOR
from campaign.models import Campaign
from campaign.serializers import ErrorOut
from moderation.messages import NO_BATTLE, NO_CAMPAIGN, NO_DICE
from moderation.selectors.audit import AuditFilter, audit_log
from moderation.selectors.dice import dice_report, roll_summary
from moderation.selectors.interceptions import interception_record
from moderation.serializers import (
    BattleControlOut,
    BattleEndOut,
    DiceReportOut,
    DisputeOut,
    InterceptionRecordOut,
    RulingOut,
)
from moderation.services import disputes as services
from strategic.models import Battle
from tactical.models import LiveBattle
from tactical.protocol.board import iso
from tactical.services import moderation as moderator_services


def _readable(request: Request, slug: str) -> Campaign:
    campaign = Campaign.objects.filter(slug=slug).first()
    if campaign is None or not permissions.can_read_campaign(request.user, campaign):
        raise NotFound(NO_CAMPAIGN)
    return campaign


def _moderated(request: Request, slug: str) -> Campaign:
    """The campaign, for one of its moderators only: who asks is checked before what he sent is read (403
    for a stranger whatever the body, then 400 naming the field for a moderator)."""
    campaign = _readable(request, slug)
    if not request.user.is_authenticated:
        raise Forbidden(NEEDS_LOGIN)
    if not permissions.can_moderate(request.user, campaign):
        raise Forbidden(NEEDS_MODERATOR, rule="M1")
    return campaign


class AuditLogView(APIView):
    """The campaign's audit log (M3), filtered by battle, turn, unit and person."""

    permission_classes = [AllowAny]

    class AuditRowSerializer(serializers.Serializer):
        ref = serializers.CharField()
        source = serializers.CharField()
        created_at = serializers.DateTimeField()
        turn = serializers.IntegerField()
        battle = serializers.IntegerField(allow_null=True)
        version = serializers.IntegerField(allow_null=True)
        actor = serializers.CharField()
        kind = serializers.CharField()
        rule = serializers.CharField()
        text = serializers.CharField()
        reason = serializers.CharField()
        units = serializers.ListField(child=serializers.IntegerField())
        disputes = serializers.IntegerField()

    @extend_schema(responses={200: AuditRowSerializer(many=True), 400: ErrorOut, **READ_ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        campaign = _readable(request, slug)
        rows = audit_log(campaign=campaign, filters=AuditFilter.parse(request.query_params))
        return Response(self.AuditRowSerializer(rows, many=True).data)


class DisputeView(APIView):
    """A participant disputes one entry of the audit log."""

    permission_classes = [IsAuthenticated]

    class DisputeInputSerializer(serializers.Serializer):
        entry = serializers.CharField(max_length=40)
        text = serializers.CharField(max_length=4000)

    @extend_schema(request=DisputeInputSerializer, responses={201: DisputeOut, **WRITE_ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        campaign = _readable(request, slug)
        data = self.DisputeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        dispute = services.dispute_open(
            actor=request.user,
            campaign=campaign,
            ref=data.validated_data["entry"],
            text=data.validated_data["text"],
        )
        return Response(
            {"id": dispute.pk, "entry": dispute.entry_ref, "status": dispute.status},
            status=status.HTTP_201_CREATED,
        )


class DiceView(APIView):
    """M2: the commitment, the revealed seed and every logged roll recomputed."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: DiceReportOut, **READ_ERRORS})
    def get(self, request: Request, slug: str, battle_id: int) -> Response:
        campaign = _readable(request, slug)
        battle = get_object_or_404(Battle, pk=battle_id, campaign=campaign)
        report = dice_report(battle=battle)
        if report is None:
            raise NotFound(NO_DICE)
        return Response(roll_summary(report))


class InterceptionsView(APIView):
    """T10.4: the interception record (GET, anyone who reads the campaign) and a ruling (POST, moderators)."""

    permission_classes = [AllowAny]

    class InterceptionRulingInputSerializer(serializers.Serializer):
        version = serializers.IntegerField(min_value=1, max_value=2**31)
        unit = serializers.CharField(max_length=20)
        verdict = serializers.CharField(max_length=10)
        reason = serializers.CharField(max_length=4000)

    @extend_schema(responses={200: InterceptionRecordOut(many=True), **READ_ERRORS})
    def get(self, request: Request, slug: str, battle_id: int) -> Response:
        campaign = _readable(request, slug)
        battle = get_object_or_404(Battle, pk=battle_id, campaign=campaign)
        live = getattr(battle, "live", None)
        entries = interception_record(battle=live) if live is not None else []
        return Response([_interception(e) for e in entries])

    @extend_schema(request=InterceptionRulingInputSerializer, responses={201: RulingOut, **WRITE_ERRORS})
    def post(self, request: Request, slug: str, battle_id: int) -> Response:
        _readable(request, slug)
        data = self.InterceptionRulingInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ruling = services.interception_rule(actor=request.user, battle_id=battle_id, **data.validated_data)
        return Response(
            {
                "version": ruling.version,
                "unit": ruling.unit,
                "target": ruling.target,
                "verdict": ruling.verdict,
                "reason": ruling.reason,
                "log_entry": ruling.log_entry_id,
            },
            status=status.HTTP_201_CREATED,
        )


def _interception(entry: Any) -> dict[str, Any]:
    ruling = entry.ruling
    return {
        "version": entry.version,
        "unit": entry.unit,
        "target": entry.target,
        "volley": entry.volley,
        "turn_ended_at": entry.turn_ended_at.isoformat() if entry.turn_ended_at else None,
        "declared_at": entry.declared_at.isoformat(),
        "declared_by": entry.declared_by,
        "ruling": None
        if ruling is None
        else {
            "verdict": ruling.verdict,
            "reason": ruling.reason,
            "moderator": ruling.moderator.get_username() if ruling.moderator else "",
        },
        "taken_back": None
        if entry.taken_back is None
        else {
            "version": entry.taken_back.version,
            "at": entry.taken_back.at.isoformat(),
            "moderator": entry.taken_back.by,
            "reason": entry.taken_back.reason,
        },
    }


class EndBattleView(APIView):
    """T11: the moderator ends the battle, with a reason."""

    permission_classes = [AllowAny]

    class EndBattleInputSerializer(serializers.Serializer):
        winner = serializers.CharField(max_length=10)
        reason = serializers.CharField(max_length=4000)

    @extend_schema(request=EndBattleInputSerializer, responses={200: BattleEndOut, **WRITE_ERRORS})
    def post(self, request: Request, slug: str, battle_id: int) -> Response:
        _moderated(request, slug)
        data = self.EndBattleInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        battle = services.battle_end(actor=request.user, battle_id=battle_id, **data.validated_data)
        return Response({"battle": battle.pk, "status": battle.status, "version": battle.version})


class BattleControlView(APIView):
    """M1: the battle console's controls — pause, resume and add time (T6.1), corrections, taking back the
    last action, and the T7.6 die — each the moderator's alone, each with a reason for the log."""

    permission_classes = [AllowAny]
    control = ""

    class BattleControlInputSerializer(serializers.Serializer):
        # The body must be an object; its values are checked by the service, which names the field and the
        # rule (a missing reason, seconds out of 1..600, a correction it cannot apply).
        reason = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
        seconds = serializers.JSONField(required=False, help_text="add_time: a whole number, 1 to 600")
        changes = serializers.JSONField(
            required=False, help_text='correct: [{"unit", "x", "y", "facing", "health" (lines), "arrows"}]',
        )

    @extend_schema(request=BattleControlInputSerializer, responses={200: BattleControlOut, **WRITE_ERRORS})
    def post(self, request: Request, slug: str, battle_id: int) -> Response:
        campaign = _moderated(request, slug)
        if not LiveBattle.objects.filter(pk=battle_id, campaign=campaign).exists():
            raise NotFound(NO_BATTLE)
        service, extra = CONTROLS[self.control]
        body = self.BattleControlInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        battle = service(
            actor=request.user, battle_id=battle_id, reason=data.get("reason"),
            **{name: data.get(name) for name in extra},
        )
        return Response(
            {
                "battle": battle.pk,
                "version": battle.version,
                "status": battle.status,
                "deadline": iso(battle.deadline),
                "paused": battle.paused_left is not None,
                "seconds_left": battle.paused_left,
                "awaiting_die": battle.pending is not None,
            }
        )


CONTROLS: dict[str, tuple[Callable[..., LiveBattle], tuple[str, ...]]] = {
    "pause": (moderator_services.battle_clock_pause, ()),
    "resume": (moderator_services.battle_clock_resume, ()),
    "add_time": (moderator_services.battle_clock_add_time, ("seconds",)),
    "correct": (moderator_services.battle_correct, ("changes",)),
    "undo": (moderator_services.battle_action_undo, ()),
    "roll": (moderator_services.battle_die_roll, ()),
}
