"""WebSocket routes of every app, gathered in one list."""

from django.urls import URLPattern, URLResolver

from notifications.routing import websocket_urlpatterns as notification_routes
from tactical.routing import websocket_urlpatterns as tactical_routes

websocket_urlpatterns: list[URLPattern | URLResolver] = [*tactical_routes, *notification_routes]
