"""``combat`` stays pure: it runs without Django, and ``mypy --strict combat`` is clean."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

BLOCKER = r"""
import importlib.abc, json, sys

class NoDjango(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "django" or name.startswith("django."):
            raise ImportError("django is blocked in this test")
        return None

sys.meta_path.insert(0, NoDjango())
import combat.battle.actions, combat.battle.engine, combat.battle.queries, combat.battle.scenario, combat.battle.serialize
from combat.battle.scenario import run

scenario = json.load(open(sys.argv[1]))
code, result = run(scenario)
assert code == 0, result.get("rejected")
assert not any(name == "django" or name.startswith("django.") for name in sys.modules)
print("ok", {u["id"]: u["health"] for u in result["units"]})
"""


def test_combat_imports_and_runs_without_django() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", BLOCKER, str(ROOT / "docs" / "t12_worked_example.json")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "ok {'hi': 2, 'hc': 1, 'left': 2, 'right': 1}"


def test_mypy_strict_is_clean_on_combat() -> None:
    if shutil.which("mypy", path=str(Path(sys.executable).parent)) is None:
        pytest.skip("mypy is not installed in this environment; run `mypy --strict combat` by hand")
    completed = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "combat"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
