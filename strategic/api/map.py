"""The moderator's map over the API (M1): provinces, borders, terrain transitions and unit types; anyone who
may read the campaign reads them."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from campaign.api import READ_ERRORS, CampaignView, errors
from strategic.api.serializers import (
    BorderIn,
    BorderOut,
    ProvinceIn,
    ProvinceOut,
    ProvinceUpdateIn,
    TransitionIn,
    TransitionOut,
    UnitTypeIn,
    UnitTypeOut,
    UnitTypeUpdateIn,
)
from strategic.models import Province, UnitType
from strategic.services.map import (
    border_set,
    province_create,
    province_update,
    transition_set,
    unit_type_create,
    unit_type_update,
)


class UnitTypeListView(CampaignView):
    """Unit cards (T3); the moderator adds one."""

    @extend_schema(responses={200: UnitTypeOut(many=True), **READ_ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        """Every unit card of the campaign."""
        return Response(UnitTypeOut(self.campaign.unit_types.order_by("code"), many=True).data)

    @extend_schema(request=UnitTypeIn, responses=errors({201: UnitTypeOut}))
    def post(self, request: Request, slug: str) -> Response:
        """Add a unit card (moderator)."""
        self.require_moderator()
        unit_type = unit_type_create(
            actor=request.user, campaign=self.campaign, **self.valid(UnitTypeIn)
        )
        return Response(UnitTypeOut(unit_type).data, status=201)


class UnitTypeDetailView(CampaignView):
    """One unit card; the moderator changes it."""

    @extend_schema(responses={200: UnitTypeOut, **READ_ERRORS})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        """The unit card."""
        return Response(UnitTypeOut(self.get_object_or_404(UnitType, pk)).data)

    @extend_schema(request=UnitTypeUpdateIn, responses=errors({200: UnitTypeOut}))
    def patch(self, request: Request, slug: str, pk: int) -> Response:
        """Change the unit card (moderator)."""
        unit_type = self.get_object_or_404(UnitType, pk)
        self.require_moderator()
        data = self.valid(UnitTypeUpdateIn, partial=True)
        unit_type = unit_type_update(actor=request.user, unit_type=unit_type, **data)
        return Response(UnitTypeOut(unit_type).data)


class ProvinceListView(CampaignView):
    """The provinces; the moderator adds one."""

    @extend_schema(responses={200: ProvinceOut(many=True), **READ_ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        """Every province of the map."""
        return Response(ProvinceOut(self.campaign.provinces.order_by("code"), many=True).data)

    @extend_schema(request=ProvinceIn, responses=errors({201: ProvinceOut}))
    def post(self, request: Request, slug: str) -> Response:
        """Add a province (moderator)."""
        self.require_moderator()
        province = province_create(
            actor=request.user, campaign=self.campaign, **self.valid(ProvinceIn)
        )
        return Response(ProvinceOut(province).data, status=201)


class ProvinceDetailView(CampaignView):
    """One province; the moderator changes it, with a reason for the log."""

    @extend_schema(responses={200: ProvinceOut, **READ_ERRORS})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        """The province."""
        return Response(ProvinceOut(self.get_object_or_404(Province, pk)).data)

    @extend_schema(request=ProvinceUpdateIn, responses=errors({200: ProvinceOut}))
    def patch(self, request: Request, slug: str, pk: int) -> Response:
        """Change the province (moderator)."""
        province = self.get_object_or_404(Province, pk)
        self.require_moderator()
        data = self.valid(ProvinceUpdateIn, partial=True)
        reason, version = data.pop("reason", ""), data.pop("version", None)
        province = province_update(
            actor=request.user, province=province, reason=reason, expected_version=version, **data
        )
        return Response(ProvinceOut(province).data)


class BorderListView(CampaignView):
    """Adjacency (S5); the moderator sets or removes a border."""

    @extend_schema(responses={200: BorderOut(many=True), **READ_ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        """Every border of the map."""
        return Response(BorderOut(self.campaign.borders.order_by("a_id", "b_id"), many=True).data)

    @extend_schema(request=BorderIn, responses=errors({200: BorderOut, 204: None}))
    def post(self, request: Request, slug: str) -> Response:
        """Set a border's kind; ``kind: null`` removes it (204)."""
        self.require_moderator()
        border = border_set(actor=request.user, campaign=self.campaign, **self.valid(BorderIn))
        return Response(BorderOut(border).data) if border else Response(status=204)


class TransitionListView(CampaignView):
    """The province relief table (S9); the moderator sets or removes an entry."""

    @extend_schema(responses={200: TransitionOut(many=True), **READ_ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        """Every exception of the relief table."""
        return Response(TransitionOut(self.campaign.transitions.order_by("id"), many=True).data)

    @extend_schema(request=TransitionIn, responses=errors({200: TransitionOut, 204: None}))
    def post(self, request: Request, slug: str) -> Response:
        """Set an entry; ``terrain: null`` removes it (204)."""
        self.require_moderator()
        row = transition_set(actor=request.user, campaign=self.campaign, **self.valid(TransitionIn))
        return Response(TransitionOut(row).data) if row else Response(status=204)
