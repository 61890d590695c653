"""The notifications socket (/ws/notifications/): the bell's unread count, pushed when it changes."""

from __future__ import annotations

import json
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from campaign.sockets import socket_db, user_of
from notifications.selectors.inbox import unread_count
from notifications.services.inbox import user_group

CLOSE_FORBIDDEN = 4403


class NotificationConsumer(AsyncWebsocketConsumer):
    """One signed-in user's socket: ``{"type": "unread", "count": n}`` on connect and on every change."""

    async def connect(self) -> None:
        user = await socket_db(user_of)(self.scope)
        if not user.is_authenticated:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.group = user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        count = await socket_db(unread_count)(user_id=user.pk)
        await self.send(text_data=json.dumps({"type": "unread", "count": count}))

    async def disconnect(self, code: int) -> None:
        group = getattr(self, "group", None)
        if group is not None:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return None  # the socket only listens

    async def notify_count(self, event: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"type": "unread", "count": int(event["unread"])}))
