"""``python -m combat retreat|quick FILE`` through the real command line, with the documented examples."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "docs" / "examples"


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "combat", *args],
        check=False,
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_retreat_example_runs() -> None:
    done = cli("retreat", str(EXAMPLES / "retreat_example.json"))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert (out["result"]["destination"], out["support"]["support_points"]) == ("Capua", 3)


def test_quick_example_runs() -> None:
    done = cli("quick", str(EXAMPLES / "quick_example.json"))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)["result"]
    assert (out["winner"], out["margin"], out["table"], out["band"]) == ("attacker", 8, "C", "8-12")
    assert [u["outcome"] for u in out["units"] if u["side"] == "defender"] == ["retreat in good order"] * 3


def test_illegal_choice_exits_3_naming_the_rule() -> None:
    scenario = json.loads((EXAMPLES / "retreat_example.json").read_text())
    scenario["choice"] = {"route": ["Velitrae"]}
    done = cli("retreat", "-", stdin=json.dumps(scenario))
    assert done.returncode == 3
    assert json.loads(done.stdout)["rejected"] == {
        "rule": "R1.1",
        "reason": "the attacker must first retreat into Capua",
    }


def test_malformed_file_exits_2_with_one_line_naming_the_field() -> None:
    scenario = json.loads((EXAMPLES / "quick_example.json").read_text())
    scenario["attacker"]["units"][1]["health"] = "full"
    done = cli("quick", "-", stdin=json.dumps(scenario))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "error: attacker.units[1].health: must be a number\n"


def test_the_formats_shown_in_the_docs_run() -> None:
    text = (ROOT / "docs" / "combat-after-battle.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, flags=re.DOTALL)
    assert len(blocks) == 2
    for command, block in zip(["retreat", "quick"], blocks):
        done = cli(command, "-", stdin=block)
        assert done.returncode == 0, done.stderr


def test_penalty_reasons_come_as_code_params_and_english_as_documented() -> None:
    """R4: Sora, Samnite-held with 2 Samnite units (the case file r4_each_enemy_unit_costs_one_more)."""
    case = json.loads((ROOT / "tests" / "combat" / "after_battle" / "cases" /
                       "r4_each_enemy_unit_costs_one_more.json").read_text(encoding="utf-8"))
    done = cli("retreat", "-", stdin=json.dumps(case["scenario"]))
    assert done.returncode == 0, done.stderr
    [route] = json.loads(done.stdout)["options"]["routes"]
    reasons = [{"code": "enemy_control", "params": {}, "text": "enemy control"},
               {"code": "enemy_units", "params": {"count": 2}, "text": "2 enemy units"}]
    assert route["penalties"] == [{"province": "Sora", "reasons": reasons, "units": 3}]
    documented = re.sub(r"\s+", " ", (ROOT / "docs" / "combat-after-battle.md").read_text(encoding="utf-8"))
    assert json.dumps(reasons).replace("[", "`[").replace("]", "]`") in documented

