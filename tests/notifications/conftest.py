"""Real parts for the notifications tests: an SMTP server (aiosmtpd) and Celery tasks run in the process."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from celery import current_app

from tests.factories import build_world


class Inbox:
    """What the SMTP server received: each message parsed, with its envelope's recipients."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], EmailMessage]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd's name)
        parsed = message_from_bytes(envelope.original_content, policy=policy.default)
        self.messages.append((list(envelope.rcpt_tos), parsed))  # type: ignore[arg-type]
        return "250 OK"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def smtp(settings: Any) -> Iterator[Inbox]:
    """A real SMTP server on a free port, and the site's mail sent to it."""
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = controller.port
    settings.EMAIL_TIMEOUT = 5
    settings.SITE_URL = "https://limes.example"
    try:
        yield inbox
    finally:
        controller.stop()


@pytest.fixture
def smtp_down(settings: Any) -> int:
    """No server listens where the site sends its mail."""
    port = free_port()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_TIMEOUT = 2
    return port


@pytest.fixture
def eager() -> Iterator[None]:
    """Celery tasks queued by the services run at once in the test's process (as the embedded tests do)."""
    conf = current_app.conf
    before = conf.task_always_eager
    conf.task_always_eager = True
    try:
        yield
    finally:
        conf.task_always_eager = before


@pytest.fixture
def world(db: Any) -> Any:
    return build_world()
