"""WebSocket routes of every app, gathered in one list."""

from django.urls import URLPattern, URLResolver

websocket_urlpatterns: list[URLPattern | URLResolver] = []
