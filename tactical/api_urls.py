"""API routes of live battles, under /api/tactical/ (docs/tactical-protocol.md §5)."""

from django.urls import URLPattern, URLResolver, path

from tactical import api

urlpatterns: list[URLPattern | URLResolver] = [
    path("battles/<id:battle_id>/actions/", api.ActionsView.as_view(), name="tactical-actions"),  # the busiest
    path("battles/<id:battle_id>/setup/", api.SetupView.as_view(), name="tactical-setup"),
    path("battles/<id:battle_id>/", api.BattleView.as_view(), name="tactical-battle"),
    path("battles/<id:battle_id>/events/", api.EventsView.as_view(), name="tactical-events"),
    path("battles/<id:battle_id>/units/<str:unit>/options/", api.OptionsView.as_view(), name="tactical-options"),
    path("battles/<id:battle_id>/preview/", api.PreviewView.as_view(), name="tactical-preview"),
    path("battles/<id:battle_id>/map/regenerate/", api.MapRegenerateView.as_view(), name="tactical-map-regenerate"),
    path("battles/<id:battle_id>/map/", api.MapEditView.as_view(), name="tactical-map"),
    path("battles/<id:battle_id>/open/", api.OpenView.as_view(), name="tactical-open"),
    path("battles/<id:battle_id>/start/", api.StartView.as_view(), name="tactical-start"),
    path("battles/<id:battle_id>/orders/", api.OrdersView.as_view(), name="tactical-orders"),
    path("battles/<id:battle_id>/dice/", api.DiceView.as_view(), name="tactical-dice"),
]
