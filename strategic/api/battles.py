"""Battles over the API: the campaign's battle records and the support armies declare for a side (S7, S8)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from campaign import permissions
from campaign.api import READ_ERRORS, CampaignView, errors
from strategic.api.serializers import (
    BattleOut,
    BattleSupportIn,
    BattleSupportOut,
)
from strategic.messages import NEEDS_COMMANDER
from strategic.models import Battle
from strategic.selectors import map as selectors
from strategic.services.battles import battle_support_declare


class BattleListView(CampaignView):
    """The campaign's battles (S7)."""

    @extend_schema(responses={200: BattleOut(many=True), **READ_ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        """Every battle, newest first."""
        return Response(BattleOut(selectors.battles_of(campaign=self.campaign), many=True).data)


class BattleDetailView(CampaignView):
    """One battle."""

    @extend_schema(responses={200: BattleOut, **READ_ERRORS})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        """The battle and its supporters."""
        return Response(BattleOut(self.get_object_or_404(Battle, pk)).data)


class BattleSupportView(CampaignView):
    """Declare support in a battle (S8)."""

    @extend_schema(request=BattleSupportIn, responses=errors({201: BattleSupportOut}))
    def post(self, request: Request, slug: str, pk: int) -> Response:
        """The supporting army's commander, its faction's leader or a moderator declares it."""
        battle = self.get_object_or_404(Battle, pk)
        data = self.valid(BattleSupportIn)
        self.require(permissions.can_command_army(request.user, data["army"]), NEEDS_COMMANDER)
        support = battle_support_declare(actor=request.user, battle=battle, **data)
        return Response(BattleSupportOut(support).data, status=201)
