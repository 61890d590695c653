"""WebSocket routes of every app, gathered in one list, and the answer to a path that is none of them."""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import URLPattern, URLResolver, re_path

from notifications.routing import websocket_urlpatterns as notification_routes
from tactical.routing import websocket_urlpatterns as tactical_routes

CLOSE_NOT_FOUND = 4404  # as the battle socket closes for a battle that does not exist


class NoSuchSocket(AsyncWebsocketConsumer):
    """Closes a socket opened on no route: Channels' router would raise, and the server answer a 500."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=CLOSE_NOT_FOUND)


websocket_urlpatterns: list[URLPattern | URLResolver] = [
    *tactical_routes, *notification_routes, re_path(r"", NoSuchSocket.as_asgi()),
]
