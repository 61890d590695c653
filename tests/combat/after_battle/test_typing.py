"""The after-the-battle modules pass ``mypy --strict``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
MODULES = [
    "combat/retreat/__init__.py",
    "combat/retreat/routes.py",
    "combat/retreat/apply.py",
    "combat/retreat/model.py",
    "combat/jsonread.py",
    "combat/retreat/scenario.py",
    "combat/politics.py",
    "combat/quick/resolve.py",
    "combat/quick/model.py",
    "combat/quick/scenario.py",
]


def test_after_battle_modules_are_mypy_strict_clean() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", *MODULES],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
