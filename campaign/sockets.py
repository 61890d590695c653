"""Where the sockets' database work runs: a pool of threads on PostgreSQL, Channels' one thread elsewhere.

Channels runs every ``database_sync_to_async`` call of a process in one shared thread (``thread_sensitive``),
the thread the HTTP requests' synchronous views use as well. A storm of sockets opening then queued one
after another behind each other's queries: 1,000 sockets opened within 10 s waited up to 8.7 s for their
first frame (bench/RESULTS.md, sockets). A socket's work touches no thread-bound state, so on PostgreSQL,
where every thread takes its own connection from the pool, it runs in a pool of ``SOCKET_DB_THREADS``
threads; on SQLite, whose writers lock the whole file, it stays in the one thread.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from channels.auth import AuthMiddleware, UserLazyObject, get_user
from channels.db import DatabaseSyncToAsync, database_sync_to_async
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.utils.functional import empty

P = ParamSpec("P")
R = TypeVar("R")

_pool: ThreadPoolExecutor | None = None


def _executor() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=settings.SOCKET_DB_THREADS, thread_name_prefix="socket-db")
    return _pool


def socket_db(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``func`` made awaitable for a consumer, closing stale connections before and after as Channels does."""
    if connection.vendor != "postgresql" or settings.SOCKET_DB_THREADS < 2:
        return database_sync_to_async(func)  # type: ignore[no-any-return]
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=_executor())  # type: ignore[return-value]


class SocketAuthMiddleware(AuthMiddleware):
    """Channels' ``AuthMiddleware`` leaving the user to the consumer's first database call (``user_of``).

    A socket's handshake then costs one trip to a database thread instead of two: each trip takes a pooled
    connection and pays its health check.
    """

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        return None


def user_of(scope: dict[str, Any]) -> Any:
    """The socket's user (anonymous without a valid session), read once; call it in a database thread."""
    user = scope.get("user")
    if isinstance(user, UserLazyObject):  # put there by SocketAuthMiddleware; a test may put the user itself
        if user._wrapped is empty:
            user._wrapped = get_user.func(scope)  # type: ignore[attr-defined]
        return user._wrapped
    return user if user is not None else AnonymousUser()


def SocketAuthMiddlewareStack(inner: Any) -> Any:  # noqa: N802 - named as Channels' AuthMiddlewareStack
    return CookieMiddleware(SessionMiddleware(SocketAuthMiddleware(inner)))
