"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import os

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)


class OneHopASGIHandler(ASGIHandler):
    """Django's ASGI handler with the whole middleware chain and the view run in one go in the request's thread.

    Every middleware and view of the project is synchronous. Under ASGI Django builds an asynchronous chain
    instead, and then each middleware's ``process_request``/``process_response`` and the view went from the
    event loop to the request's thread and back one by one: some twenty hops per request. One hop for the
    whole chain (what a synchronous chain under WSGI does in its thread) served 35-45 % more requests per
    second on the live battle bench (bench/RESULTS.md). The thread is the request's own, as for Django's
    synchronous views, so database connections are used and released in one thread.
    """

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        self._middleware_chain = sync_to_async(self._middleware_chain)


django_asgi_app = OneHopASGIHandler()

from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator

from campaign.sockets import SocketAuthMiddlewareStack
from config import gc_tuning
from config.websocket_urls import websocket_urlpatterns

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(SocketAuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

gc_tuning.tune()
