"""WebSocket routes of live battles."""

from django.urls import URLPattern, path

from tactical.consumers import BattleConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/battles/<id:battle_id>/", BattleConsumer.as_asgi()),
]
