"""The campaign API: thin views that find the campaign, check who asks, validate the form, call a service."""

from __future__ import annotations

from typing import Any

from django.conf import settings as django_settings
from django.db.models import Model
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from campaign import permissions, selectors, services
from campaign.errors import Forbidden, LockedOut, NotFound
from campaign.messages import CAMPAIGN_NOT_FOUND, NEEDS_MEMBER, OBJECT_NOT_FOUND
from campaign.models import Campaign, Faction
from campaign.serializers import (
    CampaignCreateIn,
    CampaignOut,
    CampaignUpdateIn,
    CommanderIn,
    CommanderListOut,
    CommanderOut,
    CommanderPublicOut,
    ErrorOut,
    FactionCreateIn,
    FactionOut,
    FactionUpdateIn,
    InvitationAcceptIn,
    InvitationIn,
    InvitationOut,
    LogEntryOut,
    LogQueryIn,
    MembershipIn,
    MembershipOut,
    RelationIn,
    RelationOut,
    TokenIn,
    TokenOut,
    TurnOut,
    TurnPassIn,
)

READ_ERRORS = {404: ErrorOut}
WRITE_ERRORS = {400: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut}


def errors(success: dict[int, Any]) -> dict[int, Any]:
    """The error answers a write may give, plus its success answers."""
    return {**WRITE_ERRORS, **success}


class CampaignView(APIView):
    """A view under ``campaigns/<slug>/``: the campaign, hidden (404) from whoever may not read it."""

    campaign: Campaign

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.load_campaign(kwargs.get("slug", ""))

    def load_campaign(self, slug: str) -> None:
        """``self.campaign``, or 404 if there is none by that slug or the user may not read it."""
        campaign = selectors.campaign_for_reader(slug=slug, user=self.request.user)
        if campaign is None or not permissions.can_read_campaign(
            self.request.user, campaign, member=campaign.reader_is_member
        ):
            raise NotFound(CAMPAIGN_NOT_FOUND)
        self.campaign = campaign

    def get_serializer_context(self) -> dict[str, Any]:
        """Serializers see the campaign (ids of other campaigns are unknown to them)."""
        return {"request": self.request, "campaign": self.campaign, "view": self}

    def valid(
        self, serializer_class: type[serializers.Serializer], data: Any = None, partial: bool = False
    ) -> dict[str, Any]:
        """The validated input, or a 400 naming each bad field."""
        serializer = serializer_class(
            data=self.request.data if data is None else data,
            partial=partial,
            context=self.get_serializer_context(),
        )
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def get_object_or_404(self, model: type[Model], pk: Any, **filters: Any) -> Any:
        """An object of this campaign by id, else 404 naming its kind in the reader's language."""
        obj = model.objects.filter(campaign=self.campaign, pk=pk, **filters).first()  # type: ignore[attr-defined]
        if obj is None:
            raise NotFound(OBJECT_NOT_FOUND, params={"what": model._meta.verbose_name})
        return obj

    def reader_sees_players(self) -> bool:
        """Whether the user may see who plays whom here (members, superusers)."""
        user, campaign = self.request.user, self.campaign
        return permissions.can_see_players(user, campaign, member=campaign.reader_is_member)

    def require_moderator(self) -> None:
        """403 unless the user moderates this campaign."""
        services.require_moderator(self.request.user, self.campaign)

    def require(self, allowed: bool, message: Any) -> None:
        """403 with the sentence saying what is needed."""
        if not allowed:
            raise Forbidden(message)


# ObtainAuthToken's own serializer would document ``token`` as a required input.
class TokenView(ObtainAuthToken):
    """Exchange a username and password for an API token (``Authorization: Token <key>``).

    Failures count towards the login throttle as on the login page (django-axes: DRF's serializer passes the
    request to ``authenticate``); once it locks the account or the address, even the right password is
    answered 429 until the lock ends."""

    @extend_schema(request=TokenIn, responses={200: TokenOut, 400: ErrorOut, 429: ErrorOut})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The user's token."""
        try:
            return super().post(request, *args, **kwargs)
        except ValidationError:
            # axes flags the request it was given: DRF's, not the Django request its middleware sees.
            if not getattr(request, "axes_locked_out", False):
                raise
        seconds = int(django_settings.AXES_COOLOFF_TIME.total_seconds())
        locked = LockedOut(selectors.locked_out_detail())
        return Response(locked.as_dict(), status=locked.status, headers={"Retry-After": str(seconds)})

    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # ObtainAuthToken names DRF's own JSON parser


class CampaignListView(APIView):
    """Campaigns the user may read; create one (its creator moderates it)."""

    @extend_schema(responses={200: CampaignOut(many=True)})
    def get(self, request: Request) -> Response:
        """List the campaigns visible to the user."""
        return Response(CampaignOut(selectors.campaign_visible_to(user=request.user), many=True).data)

    @extend_schema(request=CampaignCreateIn, responses=errors({201: CampaignOut}))
    def post(self, request: Request) -> Response:
        """Create a campaign."""
        serializer = CampaignCreateIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        campaign = services.campaign_create(actor=request.user, **serializer.validated_data)
        return Response(CampaignOut(campaign).data, status=201)


class CampaignDetailView(CampaignView):
    """One campaign; its moderator changes names, visibility and settings."""

    @extend_schema(responses={200: CampaignOut, **READ_ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        """The campaign."""
        return Response(CampaignOut(self.campaign).data)

    @extend_schema(request=CampaignUpdateIn, responses=errors({200: CampaignOut}))
    def patch(self, request: Request, slug: str) -> Response:
        """Change the campaign (moderator); settings are checked one by one."""
        self.require_moderator()
        data = self.valid(CampaignUpdateIn, partial=True)
        settings = data.pop("settings", None)
        campaign = self.campaign
        if settings is not None:
            campaign = services.campaign_settings_update(
                actor=request.user, campaign=campaign, settings=settings
            )
        if data:
            campaign = services.campaign_update(actor=request.user, campaign=campaign, **data)
        return Response(CampaignOut(campaign).data)


class FactionListView(CampaignView):
    """The campaign's factions; the moderator adds one."""

    @extend_schema(responses={200: FactionOut(many=True), **READ_ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        """The factions in turn order."""
        return Response(FactionOut(selectors.factions_in_turn_order(campaign=self.campaign), many=True).data)

    @extend_schema(request=FactionCreateIn, responses=errors({201: FactionOut}))
    def post(self, request: Request, slug: str) -> Response:
        """Add a faction (moderator)."""
        self.require_moderator()
        faction = services.faction_create(
            actor=request.user, campaign=self.campaign, **self.valid(FactionCreateIn)
        )
        return Response(FactionOut(faction).data, status=201)


class FactionDetailView(CampaignView):
    """One faction; the moderator changes it (``roster_locked``, S2)."""

    @extend_schema(responses={200: FactionOut, **READ_ERRORS})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        """The faction."""
        return Response(FactionOut(self.get_object_or_404(Faction, pk)).data)

    @extend_schema(request=FactionUpdateIn, responses=errors({200: FactionOut}))
    def patch(self, request: Request, slug: str, pk: int) -> Response:
        """Change the faction (moderator)."""
        faction = self.get_object_or_404(Faction, pk)
        self.require_moderator()
        faction = services.faction_update(
            actor=request.user, faction=faction, **self.valid(FactionUpdateIn, partial=True)
        )
        return Response(FactionOut(faction).data)


class RelationListView(CampaignView):
    """How the factions stand (S1); the moderator sets a pair."""

    @extend_schema(responses={200: RelationOut(many=True), **READ_ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        """The stored relations (a pair without one is neutral)."""
        return Response(RelationOut(self.campaign.relations.order_by("a_id", "b_id"), many=True).data)

    @extend_schema(request=RelationIn, responses=errors({200: RelationOut}))
    def post(self, request: Request, slug: str) -> Response:
        """Set a pair's relation (moderator)."""
        self.require_moderator()
        relation = services.relation_set(actor=request.user, campaign=self.campaign, **self.valid(RelationIn))
        return Response(RelationOut(relation).data)


class CommanderListView(CampaignView):
    """The commanders (S1); the moderator adds one."""

    @extend_schema(
        responses={200: CommanderListOut(many=True), **READ_ERRORS},
        description="Members see every field; anyone else what the public rosters show (`id`, `faction`, `name`).",
    )
    def get(self, request: Request, slug: str) -> Response:
        """Every commander of the campaign."""
        commanders = self.campaign.commanders.select_related("user").order_by("faction__turn_order", "name")
        shape = CommanderOut if self.reader_sees_players() else CommanderPublicOut
        return Response(shape(commanders, many=True).data)

    @extend_schema(request=CommanderIn, responses=errors({201: CommanderOut}))
    def post(self, request: Request, slug: str) -> Response:
        """Add a commander (moderator)."""
        self.require_moderator()
        commander = services.commander_create(actor=request.user, **self.valid(CommanderIn))
        return Response(CommanderOut(commander).data, status=201)


class MembershipListView(CampaignView):
    """Who plays what; the moderator gives roles."""

    @extend_schema(responses={200: MembershipOut(many=True), 403: ErrorOut, 404: ErrorOut})
    def get(self, request: Request, slug: str) -> Response:
        """The members and their roles (members only: the public pages name no player)."""
        self.require(self.reader_sees_players(), NEEDS_MEMBER)
        members = self.campaign.memberships.select_related("user", "campaign").order_by(
            "role", "user__username"
        )
        return Response(MembershipOut(members, many=True).data)

    @extend_schema(request=MembershipIn, responses=errors({200: MembershipOut}))
    def post(self, request: Request, slug: str) -> Response:
        """Give a user a role, or change it (moderator)."""
        self.require_moderator()
        membership = services.membership_set(
            actor=request.user, campaign=self.campaign, **self.valid(MembershipIn)
        )
        return Response(MembershipOut(membership).data)


class InvitationListView(CampaignView):
    """Invitations (their tokens are secrets: moderators only)."""

    @extend_schema(responses={200: InvitationOut(many=True), 403: ErrorOut, 404: ErrorOut})
    def get(self, request: Request, slug: str) -> Response:
        """The campaign's invitations (moderator)."""
        self.require_moderator()
        invitations = self.campaign.invitations.select_related("used_by").order_by("-id")
        return Response(InvitationOut(invitations, many=True).data)

    @extend_schema(request=InvitationIn, responses=errors({201: InvitationOut}))
    def post(self, request: Request, slug: str) -> Response:
        """Create an invitation (moderator)."""
        self.require_moderator()
        invitation = services.invitation_create(
            actor=request.user, campaign=self.campaign, **self.valid(InvitationIn)
        )
        return Response(InvitationOut(invitation).data, status=201)


class InvitationAcceptView(APIView):
    """Join a campaign by an invitation's token."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=InvitationAcceptIn, responses=errors({201: MembershipOut}))
    def post(self, request: Request) -> Response:
        """Accept the invitation: the logged-in user joins with its role."""
        serializer = InvitationAcceptIn(data=request.data)
        serializer.is_valid(raise_exception=True)
        membership = services.invitation_accept(user=request.user, token=serializer.validated_data["token"])
        return Response(MembershipOut(membership).data, status=201)


def _turn(campaign: Campaign) -> dict[str, Any]:
    campaign.refresh_from_db()
    return TurnOut(selectors.turn_state(campaign=campaign)).data


class TurnView(CampaignView):
    """The turn, the phase, the faction to act and its deadline (S4)."""

    @extend_schema(responses={200: TurnOut, **READ_ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        """The current state of the turn."""
        return Response(_turn(self.campaign))


class EconomicPhaseEndView(CampaignView):
    """End the economic phase (S4, moderator)."""

    @extend_schema(request=None, responses=errors({200: TurnOut}))
    def post(self, request: Request, slug: str) -> Response:
        """The strategic phase begins with the first faction in turn order."""
        self.require_moderator()
        services.economic_phase_end(actor=request.user, campaign=self.campaign)
        return Response(_turn(self.campaign))


class FactionPassView(CampaignView):
    """End the acting faction's turn (S4)."""

    @extend_schema(request=TurnPassIn, responses=errors({200: TurnOut}))
    def post(self, request: Request, slug: str) -> Response:
        """Its leader, a commander of it, or a moderator ends the faction's turn."""
        faction = self.valid(TurnPassIn)["faction"]
        services.faction_turn_pass(actor=request.user, faction=faction)
        return Response(_turn(self.campaign))


class FactionExpireView(CampaignView):
    """End the acting faction's turn once its deadline has passed (S4); anyone logged in may ask."""

    @extend_schema(request=None, responses=errors({200: TurnOut}))
    def post(self, request: Request, slug: str) -> Response:
        """409 while the deadline has not passed."""
        services.faction_turn_expire(campaign=self.campaign)
        return Response(_turn(self.campaign))


class LogView(CampaignView):
    """The campaign's append-only log (M3)."""

    @extend_schema(
        parameters=[LogQueryIn],
        responses={200: LogEntryOut(many=True), 400: ErrorOut, 404: ErrorOut},
    )
    def get(self, request: Request, slug: str) -> Response:
        """Every entry in order."""
        after = self.valid(LogQueryIn, data=request.query_params).get("after")
        return Response(
            LogEntryOut(selectors.log_entries(campaign=self.campaign, after_id=after), many=True).data
        )
