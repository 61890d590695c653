"""docker-compose.yml's web command (uvicorn) as a child process on production settings and the test database,
with its log kept in a file for the tests that read it."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import connections

ROOT = Path(__file__).resolve().parent.parent.parent
HOST = "127.0.0.1"


def compose_command(service: str) -> list[str]:
    """The ``command`` of a service in docker-compose.yml (written there as a one-line JSON list)."""
    text = (ROOT / "docker-compose.yml").read_text()
    block = text.split(f"\n  {service}:\n", 1)[1]
    found = re.search(r"^    command: (\[.*\])$", block, re.MULTILINE)
    assert found is not None, f"no one-line command for {service}"
    command: list[str] = json.loads(found.group(1))
    return command


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@dataclass
class WebProcess:
    """A running web server: its port and what it has written so far."""

    port: int
    log_path: Path

    def log(self) -> str:
        """Everything the server has written (stdout and stderr)."""
        return self.log_path.read_text(errors="replace")


@contextmanager
def web_process() -> Iterator[WebProcess]:
    """Start the web command on a free port of 127.0.0.1 (data must be committed: ``transactional_db``)."""
    port = free_port()
    command = [str(Path(sys.executable).parent / program) if n == 0 else program
               for n, program in enumerate(compose_command("web"))]
    command = [HOST if part == "0.0.0.0" else str(port) if part == "8000" else part for part in command]
    db = settings.DATABASES["default"]
    env = {**os.environ, "LIMES_PRODUCTION": "1", "SECRET_KEY": settings.SECRET_KEY, "ALLOWED_HOSTS": HOST,
           "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
           "REDIS_URL": os.environ["REDIS_URL"], "PYTHONUNBUFFERED": "1"}
    env.pop("DATABASE_POOL", None)
    connections.close_all()
    with tempfile.NamedTemporaryFile("wb", prefix="limes-web-", suffix=".log", delete=False) as log:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    server = WebProcess(port, Path(log.name))
    try:
        end = time.monotonic() + 60
        while time.monotonic() < end and process.poll() is None:
            try:
                socket.create_connection((HOST, port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        assert process.poll() is None, server.log()
        yield server
    finally:
        process.terminate()
        process.wait(20)
        server.log_path.unlink(missing_ok=True)
