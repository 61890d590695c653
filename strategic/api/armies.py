"""The strategic API: the map, unit types, units, armies and their orders, battles and support."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign import permissions
from campaign.api import READ_ERRORS, CampaignView, errors
from campaign.serializers import MAX_ID
from strategic.api.serializers import (
    ArmyCommanderIn,
    ArmyIn,
    ArmyMergeIn,
    ArmyMoveIn,
    ArmyOut,
    ArmySplitIn,
    DestinationsOut,
    MoveOut,
    UnitAssignIn,
    UnitCorrectIn,
    UnitIn,
    UnitOut,
    move_out_data,
)
from strategic.messages import NEEDS_COMMANDER, NEEDS_LEADER
from strategic.models import Army, Unit
from strategic.selectors import map as selectors
from strategic.services import armies as services
from strategic.services import corrections, moves


def _armies(campaign: Any) -> Any:
    return (
        Army.objects.filter(campaign=campaign)
        .select_related("faction", "commander")
        .prefetch_related("units")
    )


class UnitListView(CampaignView):
    """Every unit (S3: the roster is public); the moderator creates new ones in the economic phase."""

    @extend_schema(responses={200: UnitOut(many=True), **READ_ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        """Every unit of the campaign."""
        units = (
            Unit.objects.filter(campaign=self.campaign).select_related("army").order_by("faction_id", "id")
        )
        return Response(UnitOut(units, many=True).data)

    @extend_schema(request=UnitIn, responses=errors({201: UnitOut}))
    def post(self, request: Request, slug: str) -> Response:
        """Create a unit (moderator, economic phase, S4)."""
        self.require_moderator()
        unit = services.unit_create(actor=request.user, campaign=self.campaign, **self.valid(UnitIn))
        return Response(UnitOut(unit).data, status=201)


class UnitDetailView(CampaignView):
    """One unit; the moderator corrects its health or place (M1)."""

    @extend_schema(responses={200: UnitOut, **READ_ERRORS})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        """The unit."""
        return Response(UnitOut(self.get_object_or_404(Unit, pk)).data)

    @extend_schema(request=UnitCorrectIn, responses=errors({200: UnitOut}))
    def patch(self, request: Request, slug: str, pk: int) -> Response:
        """Correct the unit's health or place (moderator; with a reason once the campaign has begun, M1)."""
        unit = self.get_object_or_404(Unit, pk)
        self.require_moderator()
        data = self.valid(UnitCorrectIn)
        version = data.pop("version", None)
        unit = corrections.unit_correct(actor=request.user, unit=unit, expected_version=version, **data)
        return Response(UnitOut(unit).data)


class UnitAssignView(CampaignView):
    """Put a unit into an army or take it out (S2)."""

    @extend_schema(request=UnitAssignIn, responses=errors({200: UnitOut}))
    def post(self, request: Request, slug: str, pk: int) -> Response:
        """The faction's leader or a moderator assigns the unit."""
        unit = self.get_object_or_404(Unit, pk)
        self.require(permissions.can_lead_faction(request.user, unit.faction), NEEDS_LEADER)
        unit = services.unit_assign(actor=request.user, unit=unit, **self.valid(UnitAssignIn))
        return Response(UnitOut(unit).data)


class ArmyListView(CampaignView):
    """The armies (S2); a faction's leader or a moderator forms a new one."""

    @extend_schema(responses={200: ArmyOut(many=True), **READ_ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        """Every army of the campaign."""
        return Response(ArmyOut(_armies(self.campaign), many=True).data)

    @extend_schema(request=ArmyIn, responses=errors({201: ArmyOut}))
    def post(self, request: Request, slug: str) -> Response:
        """Form an army from units standing in one province."""
        data = self.valid(ArmyIn)
        self.require(permissions.can_lead_faction(request.user, data["faction"]), NEEDS_LEADER)
        army = services.army_create(actor=request.user, **data)
        return Response(ArmyOut(army).data, status=201)


class ArmyView(CampaignView):
    """A view of one army of the campaign."""

    def army(self, pk: int) -> Army:
        """The army, or 404."""
        return self.get_object_or_404(Army, pk)

    def require_leader(self, army: Army) -> None:
        """403 unless the user leads the army's faction or moderates."""
        self.require(permissions.can_lead_faction(self.request.user, army.faction), NEEDS_LEADER)


class ArmyDetailView(ArmyView):
    """One army."""

    @extend_schema(responses={200: ArmyOut, **READ_ERRORS})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        """The army with its units and version."""
        return Response(ArmyOut(self.army(pk)).data)


class ArmySplitView(ArmyView):
    """Split an army (S2)."""

    @extend_schema(request=ArmySplitIn, responses=errors({201: ArmyOut}))
    def post(self, request: Request, slug: str, pk: int) -> Response:
        """Move the given units into a new army; answers the new army."""
        army = self.army(pk)
        self.require_leader(army)
        new = services.army_split(actor=request.user, army=army, **self.valid(ArmySplitIn))
        return Response(ArmyOut(new).data, status=201)


class ArmyMergeView(ArmyView):
    """Merge an army into another (S2)."""

    @extend_schema(request=ArmyMergeIn, responses=errors({200: ArmyOut}))
    def post(self, request: Request, slug: str, pk: int) -> Response:
        """Answers the army that took the units."""
        army = self.army(pk)
        self.require_leader(army)
        into = services.army_merge(actor=request.user, army=army, **self.valid(ArmyMergeIn))
        return Response(ArmyOut(into).data)


class ArmyCommanderView(ArmyView):
    """Give an army another commander (S2)."""

    @extend_schema(request=ArmyCommanderIn, responses=errors({200: ArmyOut}))
    def post(self, request: Request, slug: str, pk: int) -> Response:
        """Answers the army."""
        army = self.army(pk)
        self.require_leader(army)
        army = services.army_commander_set(actor=request.user, army=army, **self.valid(ArmyCommanderIn))
        return Response(ArmyOut(army).data)


class ArmyMoveView(ArmyView):
    """Move an army (S5–S7)."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        if request.method != "POST":
            super().initial(request, *args, **kwargs)
            return
        # A move order finds its campaign under the service's lock (``army_move_order``): one query fewer on
        # the hot path. Whatever that path does not take is answered by ``load_campaign`` and the rest below.
        APIView.initial(self, request, *args, **kwargs)

    @extend_schema(request=ArmyMoveIn, responses=errors({200: MoveOut}))
    def post(self, request: Request, slug: str, pk: int) -> Response:
        """Its commander, its faction's leader or a moderator moves it; answers what the move did."""
        body_error: APIException | None = None
        try:
            order = _plain_move_order(request.data, pk)
        except APIException as error:  # a body that does not parse: answered after the 404s, as ever
            order, body_error = None, error
        if order is not None:
            # The hot path: a well-formed order goes straight to the service. An unknown or unreadable campaign,
            # army or destination falls through to the answers below (404, then 403 before 400).
            try:
                outcome = moves.army_move_order(
                    actor=request.user, campaign_slug=slug, army_id=pk, **order
                )
            except moves.UnknownInOrder:
                pass
            else:
                return Response(move_out_data(outcome))
        self.load_campaign(slug)
        army = self.army(pk)
        if body_error is not None:
            raise body_error
        serializer = ArmyMoveIn(data=request.data, context=self.get_serializer_context())
        if not serializer.is_valid():
            # The service checks who may order the army; bad input must still answer 403 before 400.
            self.require(permissions.can_command_army(request.user, army), NEEDS_COMMANDER)
            raise ValidationError(serializer.errors)
        outcome = moves.army_move(actor=request.user, army=army, **serializer.validated_data)
        return Response(move_out_data(outcome))


def _plain_id(value: Any) -> bool:
    return type(value) is int and 1 <= value <= MAX_ID


def _plain_move_order(data: Any, army_id: int) -> dict[str, Any] | None:
    """The ids of a move order whose body ``ArmyMoveIn`` would accept as it stands (integer ids in range),
    else None: such a body is validated by the serializer, which names the bad field."""
    if not isinstance(data, dict) or not _plain_id(army_id):
        return None
    destination, version = data.get("destination"), data.get("expected_version")
    if not _plain_id(destination) or not (version is None or _plain_id(version)):
        return None
    return {"destination_id": destination, "expected_version": version}


class ArmyDestinationsView(ArmyView):
    """Where an army may go (S5) and whether it may move now."""

    @extend_schema(responses={200: DestinationsOut, **READ_ERRORS})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        """Adjacent provinces it could enter, each with what entering would do and the battlefield terrain."""
        army = self.army(pk)
        army.campaign = self.campaign
        blocker = selectors.army_move_blocker(army=army)
        body = {
            "may_move": blocker is None,
            "reason": blocker[0] if blocker else None,
            "rule": blocker[1] if blocker else None,
            "destinations": selectors.legal_destinations(army=army),
        }
        return Response(DestinationsOut(body).data)






