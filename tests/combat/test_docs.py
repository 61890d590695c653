"""The worked example of ``docs/combat.md`` runs through the command line with the T12 outcome."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "t12_worked_example.json"


def test_t12_doc_example_runs_through_the_cli_with_the_t12_outcome() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "combat", "run", str(EXAMPLE)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    result = json.loads(completed.stdout)
    units = {u["id"]: u for u in result["units"]}
    assert {name: units[name]["health"] for name in units} == {"hi": 2, "left": 2, "right": 1, "hc": 1}
    assert units["left"]["may_move"] is False
    assert result["turn"] == {"round": 1, "side": "defender", "phase": "move"}
    assert result["winner"] is None


def test_the_doc_embeds_the_same_example() -> None:
    doc = (ROOT / "docs" / "combat.md").read_text(encoding="utf-8")
    block = doc.split("<!-- t12 -->")[1].split("```json")[1].split("```")[0]
    assert json.loads(block) == json.loads(EXAMPLE.read_text(encoding="utf-8"))
