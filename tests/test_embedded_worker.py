"""The embedded mode's Celery worker and its beat (scripts/run): killed, they leave no beat behind; started
twice, the second refuses. The worker is started with scripts/run's own command line, in a scratch folder."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MARK = "LIMES_EMBEDDED_WORKER_TEST"  # every process of a run inherits it: how its survivors are found
START_SECONDS = 60  # two shared cores: a worker may take this long to start beside a test run
GONE_SECONDS = 10


def _worker_command() -> list[str]:
    """scripts/run's ``celery ... worker ... &`` line (with its continuation lines), run by this Python."""
    script = (ROOT / "scripts" / "run").read_text().replace("\\\n", " ")
    line = next(line for line in script.splitlines() if re.match(r"\s*celery .* worker ", line))
    words = shlex.split(line.rstrip().removesuffix("&"))
    return [sys.executable, "-m", "celery", *words[1:]]


def _processes_of(run: str) -> list[int]:
    """The live (not zombie) processes whose environment carries this run's mark."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            marked = f"{MARK}={run}".encode() in (entry / "environ").read_bytes().split(b"\0")
            zombie = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
        except OSError:  # gone meanwhile, or not ours
            continue
        if marked and not zombie:
            found.append(int(entry.name))
    return found


def _until(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


@pytest.fixture
def run() -> str:
    """This test's mark, in the environment of every process it starts."""
    return uuid.uuid4().hex


@pytest.fixture
def start(tmp_path: Path, run: str) -> Iterator[Callable[[], subprocess.Popen[bytes]]]:
    """Starts workers as scripts/run does, in ``tmp_path`` (SQLite, the file-system broker), each one's output
    in ``worker-<n>.log``; kills whatever of this run is left at the end."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "LIMES_PRODUCTION")}
    env.update({MARK: run, "LIMES_VAR_DIR": str(tmp_path / "var"), "PYTHONPATH": str(ROOT)})
    started: list[subprocess.Popen[bytes]] = []

    def starting() -> subprocess.Popen[bytes]:
        with open(tmp_path / f"worker-{len(started)}.log", "wb") as log:
            started.append(subprocess.Popen(_worker_command(), cwd=tmp_path, env=env, stdout=log, stderr=log))
        return started[-1]

    yield starting
    for pid in _processes_of(run):
        os.kill(pid, signal.SIGKILL)
    for process in started:
        process.kill()
        process.wait()


def _beat_ran(tmp_path: Path) -> bool:
    """Beat opened its schedule (var/celerybeat-schedule.*, a shelve file)."""
    return any((tmp_path / "var").glob("celerybeat-schedule*"))


def _log(tmp_path: Path, n: int) -> str:
    return (tmp_path / f"worker-{n}.log").read_text()


def test_a_killed_worker_leaves_no_beat_running(
    start: Callable[[], subprocess.Popen[bytes]], tmp_path: Path, run: str
) -> None:
    worker = start()
    assert _until(lambda: _beat_ran(tmp_path), START_SECONDS), _log(tmp_path, 0)
    worker.send_signal(signal.SIGKILL)
    worker.wait(timeout=GONE_SECONDS)
    # Celery's own --beat forked beat as a child, which went on running (and sending the periodic tasks).
    assert _until(lambda: not _processes_of(run), GONE_SECONDS), f"still running: {_processes_of(run)}"


def test_a_second_worker_refuses_while_the_first_runs_and_starts_after_it_was_killed(
    start: Callable[[], subprocess.Popen[bytes]], tmp_path: Path
) -> None:
    first = start()
    pidfile = tmp_path / "var" / "celery-worker.pid"
    assert _until(lambda: _beat_ran(tmp_path) and pidfile.exists(), START_SECONDS), _log(tmp_path, 0)
    second = start()
    assert second.wait(timeout=START_SECONDS) == 73, _log(tmp_path, 1)  # EX_CANTCREAT: the pid file is held
    assert f"Seems we're already running? (pid: {first.pid})" in _log(tmp_path, 1)
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=GONE_SECONDS)
    third = start()  # the killed worker's pid file is stale: removed, and this one runs

    def third_holds_the_pidfile() -> bool:
        return pidfile.exists() and pidfile.read_text().strip() == str(third.pid)

    assert _until(third_holds_the_pidfile, START_SECONDS), _log(tmp_path, 2)
    assert third.poll() is None
