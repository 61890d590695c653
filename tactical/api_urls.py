"""API routes of live battles, under /api/tactical/ (docs/tactical-protocol.md §5)."""

from django.urls import URLPattern, URLResolver, path

from tactical import api

urlpatterns: list[URLPattern | URLResolver] = [
    path("battles/<int:battle_id>/actions/", api.ActionsView.as_view(), name="tactical-actions"),  # the busiest
    path("battles/<int:battle_id>/setup/", api.SetupView.as_view(), name="tactical-setup"),
    path("battles/<int:battle_id>/", api.BattleView.as_view(), name="tactical-battle"),
    path("battles/<int:battle_id>/events/", api.EventsView.as_view(), name="tactical-events"),
    path("battles/<int:battle_id>/units/<str:unit>/options/", api.OptionsView.as_view(), name="tactical-options"),
    path("battles/<int:battle_id>/preview/", api.PreviewView.as_view(), name="tactical-preview"),
    path("battles/<int:battle_id>/map/regenerate/", api.MapRegenerateView.as_view(), name="tactical-map-regenerate"),
    path("battles/<int:battle_id>/map/", api.MapEditView.as_view(), name="tactical-map"),
    path("battles/<int:battle_id>/open/", api.OpenView.as_view(), name="tactical-open"),
    path("battles/<int:battle_id>/start/", api.StartView.as_view(), name="tactical-start"),
    path("battles/<int:battle_id>/orders/", api.OrdersView.as_view(), name="tactical-orders"),
    path("battles/<int:battle_id>/dice/", api.DiceView.as_view(), name="tactical-dice"),
]
