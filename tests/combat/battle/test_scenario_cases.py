"""Run every rule case file of ``tests/combat/cases/`` through the scenario runner (DESIGN.md).

A case file: ``comment`` (one line), ``rules`` (rule ids), ``scenario``, ``expect`` with the keys
``exit``, ``units``, ``turn``, ``winner``, ``rejected``, ``error_contains``; only listed fields
are compared.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from combat.battle.scenario import run
from combat.errors import DiceExhausted, InvalidAction

CASES = Path(__file__).parents[1] / "cases"  # tests/combat/cases/, where DESIGN.md keeps them
ROOT = Path(__file__).resolve().parents[3]
EXPECT_KEYS = {"exit", "units", "turn", "winner", "rejected", "error_contains"}
CASE_KEYS = {"comment", "rules", "scenario", "expect"}
RULE_ID = re.compile(r"^T\d+(\.\d+)?$")


def case_files() -> list[Path]:
    return sorted(CASES.glob("*.json"))


def load_case(path: Path) -> dict[str, Any]:
    """A case file, checked for the fields every case must have."""
    case = json.loads(path.read_text(encoding="utf-8"))
    problems = []
    if not isinstance(case.get("comment"), str) or not case["comment"].strip() or "\n" in case["comment"]:
        problems.append("a one-line 'comment' is required")
    rules = case.get("rules")
    if (
        not isinstance(rules, list)
        or not rules
        or not all(isinstance(r, str) and RULE_ID.match(r) for r in rules)
    ):
        problems.append("'rules' must be a non-empty list of rule ids like 'T7.3'")
    unknown_top = set(case) - CASE_KEYS
    if unknown_top:
        problems.append(f"unknown case keys {sorted(unknown_top)}")
    expect = case.get("expect")
    if not isinstance(expect, dict) or "exit" not in expect:
        problems.append("'expect' must be an object with 'exit'")
    else:
        unknown = set(expect) - EXPECT_KEYS
        if unknown:
            problems.append(f"unknown expect keys {sorted(unknown)}")
        if expect["exit"] not in (0, 2, 3):
            problems.append("'expect.exit' must be 0, 2 or 3")
    if "scenario" not in case:
        problems.append("'scenario' is required")
    if problems:
        raise AssertionError(f"{path.name}: " + "; ".join(problems))
    return case


def run_case(scenario: Any) -> tuple[int, dict[str, Any] | None, str]:
    """Run a scenario in-process as the CLI would: (exit, result, error line)."""
    try:
        code, result = run(scenario)
    except InvalidAction as error:
        return 2, None, f"error: {error.field}: {error.message}"
    except DiceExhausted as error:
        return 2, None, f"error: dice: {error}"
    return code, result, ""


def compare(case: dict[str, Any], code: int, result: dict[str, Any] | None, error: str) -> list[str]:
    """Every difference between a case's expectation and what the runner gave."""
    expect = case["expect"]
    diffs = []
    if code != expect["exit"]:
        detail = error or (result or {}).get("rejected")
        diffs.append(f"exit {code} (expected {expect['exit']}): {detail}")
        return diffs
    if "error_contains" in expect and expect["error_contains"] not in error:
        diffs.append(f"error {error!r} does not contain {expect['error_contains']!r}")
    if result is None:
        return diffs
    units = {unit["id"]: unit for unit in result["units"]}
    for unit_id, fields in expect.get("units", {}).items():
        if unit_id not in units:
            diffs.append(f"no unit {unit_id} in the result")
            continue
        for name, value in fields.items():
            got = units[unit_id].get(name, "<missing>")
            if got != value or isinstance(got, bool) != isinstance(value, bool):
                diffs.append(f"{unit_id}.{name} = {got!r}, expected {value!r}")
    for name, value in expect.get("turn", {}).items():
        if result["turn"].get(name) != value:
            diffs.append(f"turn.{name} = {result['turn'].get(name)!r}, expected {value!r}")
    if "winner" in expect and result["winner"] != expect["winner"]:
        diffs.append(f"winner = {result['winner']!r}, expected {expect['winner']!r}")
    if "rejected" in expect:
        rejected = result.get("rejected") or {}
        for name, value in expect["rejected"].items():
            if rejected.get(name) != value:
                diffs.append(f"rejected.{name} = {rejected.get(name)!r}, expected {value!r}")
    return diffs


@pytest.mark.parametrize("path", case_files(), ids=lambda p: p.stem)
def test_case(path: Path) -> None:
    case = load_case(path)
    code, result, error = run_case(case["scenario"])
    diffs = compare(case, code, result, error)
    assert not diffs, f"{path.name} — {case['comment']}\n  " + "\n  ".join(diffs)


def _cli(scenario_text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "combat", "run", "-"],
        input=scenario_text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=False,
    )


CLI_SAMPLE = [
    name
    for name in ("t12_worked_example.json", "t6_contact_ends_move.json", "exit2_off_grid_unit.json")
    if (CASES / name).exists()
]


@pytest.mark.parametrize("name", CLI_SAMPLE)
def test_case_through_the_cli(name: str) -> None:
    case = load_case(CASES / name)
    completed = _cli(json.dumps(case["scenario"]))
    result = json.loads(completed.stdout) if completed.stdout.strip() else None
    diffs = compare(case, completed.returncode, result, completed.stderr.strip())
    assert not diffs, "\n".join(diffs)


def test_cli_bad_json_exits_2_with_one_line() -> None:
    completed = _cli('{"terrain": "field",')
    assert completed.returncode == 2
    assert completed.stdout == ""
    lines = completed.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: scenario is not valid JSON")


def test_cli_malformed_scenario_names_the_field_without_traceback() -> None:
    completed = _cli(json.dumps({"terrain": "swamp", "unit_types": {}, "units": [], "actions": []}))
    assert completed.returncode == 2
    assert completed.stderr.strip().splitlines() == [
        "error: terrain: 'swamp' is not one of field, forest, mountains, desert"
    ]


def test_harness_refuses_a_case_without_comment(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"rules": ["T6"], "scenario": {}, "expect": {"exit": 0}}))
    with pytest.raises(AssertionError, match="comment"):
        load_case(path)


def test_harness_refuses_a_case_without_rules(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"comment": "x", "scenario": {}, "expect": {"exit": 0}}))
    with pytest.raises(AssertionError, match="rules"):
        load_case(path)


def test_harness_refuses_an_unknown_expect_key(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps({"comment": "x", "rules": ["T6"], "scenario": {}, "expect": {"exit": 0, "units_": {}}})
    )
    with pytest.raises(AssertionError, match="unknown expect keys"):
        load_case(path)


RULES_TO_COVER = [
    "T4",
    "T5",
    "T6",
    "T7.1",
    "T7.2",
    "T7.3",
    "T7.4",
    "T7.5",
    "T7.6",
    "T7.7",
    "T8",
    "T8.1",
    "T8.2",
    "T9",
    "T9.1",
    "T9.2",
    "T9.3",
    "T9.4",
    "T9.5",
    "T9.6",
    "T10",
    "T10.1",
    "T10.2",
    "T10.3",
    "T11",
    "T12",
    "T13",
]  # T10.4 (the written record of interceptions) is an event, checked in tests/combat/battle/test_engine.py
SETTINGS_TO_COVER = [
    "deployment_rows",
    "turn_seconds",
    "mutual_destruction_survivor_health",
    "range_template",
    "reinforcement_round",
]


def test_every_rule_t4_to_t13_has_a_case_file() -> None:
    files: dict[str, list[str]] = {}
    for path in case_files():
        for rule in load_case(path)["rules"]:
            files.setdefault(rule, []).append(path.stem)
    for rule in RULES_TO_COVER:  # the coverage list, shown with `pytest -s`
        print(f"{rule:<6} {len(files.get(rule, [])):>3} case files")
    missing = [rule for rule in RULES_TO_COVER if rule not in files]
    assert not missing, f"rules without a case file: {missing}"


def test_every_setting_has_a_case_file() -> None:
    covered = set()
    for path in case_files():
        scenario = load_case(path)["scenario"]
        if isinstance(scenario, dict) and isinstance(scenario.get("settings"), dict):
            covered.update(scenario["settings"])
    missing = [name for name in SETTINGS_TO_COVER if name not in covered]
    assert not missing, f"settings without a case file: {missing}"


def test_an_engine_error_inside_a_scenario_keeps_its_code_and_params() -> None:
    scenario = load_case(CASES / "exit2_unknown_unit_in_action.json")["scenario"]
    with pytest.raises(InvalidAction) as raised:
        run(scenario)
    assert (raised.value.field, raised.value.code, raised.value.params) == (
        "actions[1].unit", "no_such_unit", {"unit": "ghost"})
