"""The HTTP side of live battles (docs/tactical-protocol.md §5): thin views over services and selectors."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.api import WRITE_ERRORS
from campaign.serializers import ErrorOut
from combat.battle.serialize import parse_cell
from combat.dice import seeded_roll
from combat.errors import InvalidAction
from strategic.models import Battle
from tactical import errors
from tactical.messages import BAD_PATH, NEEDS_LOGIN, NOT_WATCHER, UNKNOWN_UNIT, WATCH_NEEDS_LOGIN
from tactical.models import BattleEvent, LiveBattle
from tactical.protocol.board import board_state, move_preview, unit_options
from tactical.protocol.messages import event_message, order_message
from tactical.protocol.push import dumps
from tactical.selectors.battles import events_since, live_battle_get, orders_visible, viewer_of, watch_refusal
from tactical.selectors.snapshots import state_of
from tactical.serializers import (
    ActionAnswerOut,
    BoardOut,
    DiceOut,
    EventsOut,
    OrderOut,
    PreviewOut,
    StateOut,
    UnitOptionsOut,
)
from tactical.services import play as services

# Reads answer 403 to whoever may not watch an existing battle and 404 only when there is none (§4).
WATCH_ERRORS = {403: ErrorOut, 404: ErrorOut}
CHECKED_ERRORS = {400: ErrorOut, **WATCH_ERRORS}  # and 400 naming a bad field of the query or body


class LoggedIn(BasePermission):
    """Writes need a user: 403 ``forbidden`` in the protocol's shape (§4), not DRF's own body."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if not request.user or not request.user.is_authenticated:
            raise errors.denied(NEEDS_LOGIN)
        return True


def _watchable(request: Request, battle_id: int) -> LiveBattle:
    """The battle if the user may watch it: 404 only when there is none, 403 when he may not (§4)."""
    battle = live_battle_get(battle_id=battle_id)
    refusal = watch_refusal(user=request.user, battle=battle)
    if refusal is not None:
        raise errors.denied(WATCH_NEEDS_LOGIN if refusal == "login" else NOT_WATCHER)
    return battle


class SetupView(APIView):
    """A moderator takes a pending battle to the tactical map."""

    permission_classes = (LoggedIn,)

    class BattleSetupInputSerializer(serializers.Serializer):
        map_seed = serializers.IntegerField(required=False, min_value=0, max_value=2**62)
        open = serializers.BooleanField(
            required=False, default=True,
            help_text="false: the battle waits in setup until POST .../open/ (the moderator prepares the field).")

    @extend_schema(request=BattleSetupInputSerializer, responses={201: BoardOut, **WRITE_ERRORS})
    def post(self, request: Request, battle_id: int) -> Response:
        data = self.BattleSetupInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        record = get_object_or_404(Battle, pk=battle_id)
        battle = services.battle_setup(actor=request.user, record=record, map_seed=data.validated_data.get("map_seed"),
                                       open_deployment=data.validated_data["open"])
        return Response({"state": board_state(battle), "viewer": viewer_of(user=request.user, battle=battle).as_dict()},
                        status=status.HTTP_201_CREATED)


class BattleView(APIView):
    """The board state and who I am in it."""

    permission_classes = (AllowAny,)

    @extend_schema(responses={200: BoardOut, **WATCH_ERRORS})
    def get(self, request: Request, battle_id: int) -> Response:
        services.battle_turn_expire(battle_id=battle_id)  # a request after the deadline ends the turn (T6.1)
        battle = _watchable(request, battle_id)
        return Response({"state": board_state(battle), "viewer": viewer_of(user=request.user, battle=battle).as_dict()})


class EventsView(APIView):
    """The log after a version."""

    permission_classes = (AllowAny,)

    class BattleEventsInputSerializer(serializers.Serializer):
        since = serializers.IntegerField(required=False, min_value=0, default=0)

    @extend_schema(parameters=[BattleEventsInputSerializer], responses={200: EventsOut, **CHECKED_ERRORS})
    def get(self, request: Request, battle_id: int) -> Response:
        data = self.BattleEventsInputSerializer(data=request.query_params)
        data.is_valid(raise_exception=True)
        battle = _watchable(request, battle_id)
        rows = events_since(battle=battle, since=data.validated_data["since"])
        return Response({"version": battle.version, "items": [event_message(row, None) for row in rows]})


class ActionsView(APIView):
    """Apply one action (the same service as the socket's ``action`` message)."""

    permission_classes = (LoggedIn,)

    class BattleActionsInputSerializer(serializers.Serializer):
        id = serializers.CharField(required=False, allow_blank=True, max_length=64, default="")
        expected_version = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0)
        action = serializers.JSONField()

    @extend_schema(request=BattleActionsInputSerializer, responses={200: ActionAnswerOut, **WRITE_ERRORS})
    def post(self, request: Request, battle_id: int) -> HttpResponse:
        data = self.BattleActionsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result = services.battle_action_apply(
            actor=request.user, battle_id=battle_id, action=data.validated_data["action"],
            action_id=data.validated_data["id"], expected_version=data.validated_data["expected_version"],
        )
        # The board as the push encoded it: written into the answer, not encoded again.
        answer = {"id": result.action_id, "version": result.version, "replayed": result.replayed,
                  "events": result.events}
        return HttpResponse(dumps(answer, result.state_json or dumps(board_state(result.battle))),
                            content_type="application/json")


class OptionsView(APIView):
    """What a unit can do now: reachable cells, withdrawal, range, targets, interceptions."""

    permission_classes = (AllowAny,)

    @extend_schema(responses={200: UnitOptionsOut, **WATCH_ERRORS})
    def get(self, request: Request, battle_id: int, unit: str) -> Response:
        battle = _watchable(request, battle_id)
        state = state_of(battle)
        if unit not in state.units:
            raise errors.missing(UNKNOWN_UNIT)
        return Response(unit_options(battle, unit, state))


class PreviewView(APIView):
    """A dry run of a move."""

    permission_classes = (AllowAny,)

    class BattlePreviewInputSerializer(serializers.Serializer):
        unit = serializers.CharField(max_length=20)
        path = serializers.JSONField()

    @extend_schema(request=BattlePreviewInputSerializer, responses={200: PreviewOut, **CHECKED_ERRORS})
    def post(self, request: Request, battle_id: int) -> Response:
        data = self.BattlePreviewInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        battle = _watchable(request, battle_id)
        return Response(preview(battle, data.validated_data["unit"], data.validated_data["path"]))


def preview(battle: LiveBattle, unit: Any, path: Any) -> dict[str, Any]:
    """Parse and dry-run a move (shared by HTTP and the socket)."""
    state = state_of(battle)
    if not isinstance(unit, str) or unit not in state.units:
        raise errors.missing(UNKNOWN_UNIT)
    if not isinstance(path, list) or not path:
        raise errors.invalid(BAD_PATH, field="path")
    try:
        cells = tuple(parse_cell(cell, f"path[{i}]") for i, cell in enumerate(path))
    except InvalidAction as error:
        raise errors.malformed(error, roster=battle.roster) from None
    return {"unit": unit, "version": battle.version, **move_preview(state, unit, cells, battle.roster)}


class MapRegenerateView(APIView):
    """A moderator draws a new map before deployment."""

    permission_classes = (LoggedIn,)

    class BattleMapRegenerateInputSerializer(serializers.Serializer):
        map_seed = serializers.IntegerField(required=False, min_value=0, max_value=2**62)

    @extend_schema(request=BattleMapRegenerateInputSerializer, responses={200: StateOut, **WRITE_ERRORS})
    def post(self, request: Request, battle_id: int) -> Response:
        data = self.BattleMapRegenerateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        battle = services.battle_map_regenerate(actor=request.user, battle_id=battle_id,
                                                map_seed=data.validated_data.get("map_seed"))
        return Response({"state": board_state(battle)})


class MapEditView(APIView):
    """A moderator sets or clears cells before deployment."""

    permission_classes = (LoggedIn,)

    class BattleMapEditInputSerializer(serializers.Serializer):
        cells = serializers.JSONField()

    @extend_schema(request=BattleMapEditInputSerializer, responses={200: StateOut, **WRITE_ERRORS})
    def patch(self, request: Request, battle_id: int) -> Response:
        data = self.BattleMapEditInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        battle = services.battle_map_edit(actor=request.user, battle_id=battle_id, cells=data.validated_data["cells"])
        return Response({"state": board_state(battle)})


class OpenView(APIView):
    """A moderator ends the setup: the commanders may deploy (T1)."""

    permission_classes = (LoggedIn,)

    @extend_schema(request=None, responses={200: StateOut, **WATCH_ERRORS, 409: ErrorOut})
    def post(self, request: Request, battle_id: int) -> Response:
        battle = services.battle_deployment_open(actor=request.user, battle_id=battle_id)
        return Response({"state": board_state(battle)})


class StartView(APIView):
    """A moderator starts round 1."""

    permission_classes = (LoggedIn,)

    @extend_schema(request=None, responses={200: StateOut, **WATCH_ERRORS, 409: ErrorOut})
    def post(self, request: Request, battle_id: int) -> Response:
        battle = services.battle_start(actor=request.user, battle_id=battle_id)
        return Response({"state": board_state(battle)})


class OrdersView(APIView):
    """Orders of leaders to subordinates (T2)."""

    permission_classes = (LoggedIn,)

    class BattleOrdersInputSerializer(serializers.Serializer):
        to = serializers.IntegerField()
        text = serializers.CharField(max_length=2000, trim_whitespace=True)

    @extend_schema(responses={200: OrderOut(many=True), **WATCH_ERRORS})
    def get(self, request: Request, battle_id: int) -> Response:
        battle = _watchable(request, battle_id)
        viewer = viewer_of(user=request.user, battle=battle)
        return Response([order_message(order) for order in orders_visible(battle=battle, viewer=viewer)])

    @extend_schema(request=BattleOrdersInputSerializer, responses={201: OrderOut, **CHECKED_ERRORS})
    def post(self, request: Request, battle_id: int) -> Response:
        data = self.BattleOrdersInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        _watchable(request, battle_id)
        order = services.battle_order_give(actor=request.user, battle_id=battle_id,
                                           to=data.validated_data["to"], text=data.validated_data["text"])
        return Response(order_message(order), status=status.HTTP_201_CREATED)


class DiceView(APIView):
    """The sealed dice (M2): commitment, rolls so far, the seed once the battle is over."""

    permission_classes = (AllowAny,)

    @extend_schema(responses={200: DiceOut, **WATCH_ERRORS})
    def get(self, request: Request, battle_id: int) -> Response:
        battle = _watchable(request, battle_id)
        rolls = []
        for version, start, values in BattleEvent.objects.filter(battle=battle).exclude(dice=[]) \
                .order_by("version").values_list("version", "rolls_before", "dice"):
            rolls += [{"number": start + i, "value": v, "version": version} for i, v in enumerate(values)]
        ended = battle.status == LiveBattle.Status.ENDED
        return Response({
            "commitment": battle.seed_commitment,
            "rolls_used": battle.rolls_used,
            "seed": bytes(battle.seed).hex() if ended else None,
            "verified": all(seeded_roll(bytes(battle.seed), r["number"]) == r["value"] for r in rolls) if ended else None,
            "rolls": rolls,
        })
