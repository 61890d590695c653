"""WebSocket routes of every app, gathered in one list."""

from django.urls import URLPattern, URLResolver

from tactical.routing import websocket_urlpatterns as tactical_routes

websocket_urlpatterns: list[URLPattern | URLResolver] = [*tactical_routes]
