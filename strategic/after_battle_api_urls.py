"""API routes after a battle (included under ``api/``): retreats, quick battles, support points, captives."""

from django.urls import URLPattern, URLResolver, path

from strategic.api import after_battle as api

app_name = "after-battle-api"

C = "campaigns/<slug:slug>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path(C + "armies/<int:pk>/retreat/", api.ArmyRetreatView.as_view(), name="army-retreat"),
    path(C + "battles/<int:pk>/quick/", api.QuickBattleView.as_view(), name="battle-quick"),
    path(C + "retreats/", api.RetreatListView.as_view(), name="retreats"),
    path(C + "retreats/<int:pk>/support/", api.RetreatSupportView.as_view(), name="retreat-support"),
    path(C + "captives/", api.CaptiveListView.as_view(), name="captives"),
    path(C + "commanders/<int:pk>/release/", api.CommanderReleaseView.as_view(), name="commander-release"),
]
