"""API routes of the campaign app (included under ``api/``)."""

from django.urls import URLPattern, URLResolver, path

from campaign import api

app_name = "campaign-api"

urlpatterns: list[URLPattern | URLResolver] = [
    path("auth/token/", api.TokenView.as_view(), name="token"),
    path("campaigns/", api.CampaignListView.as_view(), name="campaigns"),
    path("campaigns/<slug:slug>/", api.CampaignDetailView.as_view(), name="campaign"),
    path("campaigns/<slug:slug>/factions/", api.FactionListView.as_view(), name="factions"),
    path("campaigns/<slug:slug>/factions/<id:pk>/", api.FactionDetailView.as_view(), name="faction"),
    path("campaigns/<slug:slug>/relations/", api.RelationListView.as_view(), name="relations"),
    path("campaigns/<slug:slug>/commanders/", api.CommanderListView.as_view(), name="commanders"),
    path("campaigns/<slug:slug>/memberships/", api.MembershipListView.as_view(), name="memberships"),
    path("campaigns/<slug:slug>/invitations/", api.InvitationListView.as_view(), name="invitations"),
    path("invitations/accept/", api.InvitationAcceptView.as_view(), name="invitation-accept"),
    path("campaigns/<slug:slug>/turn/", api.TurnView.as_view(), name="turn"),
    path("campaigns/<slug:slug>/turn/economic-end/", api.EconomicPhaseEndView.as_view(), name="economic-end"),
    path("campaigns/<slug:slug>/turn/pass/", api.FactionPassView.as_view(), name="turn-pass"),
    path("campaigns/<slug:slug>/turn/expire/", api.FactionExpireView.as_view(), name="turn-expire"),
    path("campaigns/<slug:slug>/log/", api.LogView.as_view(), name="log"),
]
