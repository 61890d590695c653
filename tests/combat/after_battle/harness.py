"""Runs one after-the-battle case file: ``{"comment", "rules", "command", "scenario", "expect"}``.

``expect`` holds the exit code the command line would give (0, 2 or 3) and either ``output``, a
partial picture of the JSON result (every key given must match; lists must match item by item), or,
for exit 2, ``field``: the malformed field the error names.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from combat.errors import DiceExhausted, InvalidAction
from combat.quick import scenario as quick_scenario
from combat.retreat import scenario as retreat_scenario

CASES_DIR = Path(__file__).parent / "cases"

RUNNERS: dict[str, Callable[[dict[str, Any]], tuple[int, dict[str, Any]]]] = {
    "retreat": retreat_scenario.run,
    "quick": quick_scenario.run,
}


def case_paths() -> list[Path]:
    """Every case file, sorted by name."""
    return sorted(CASES_DIR.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    """A case file as data."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def run_case(case: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The exit code and output of the case's scenario, as ``python -m combat`` would give them."""
    try:
        return RUNNERS[case["command"]](case["scenario"])
    except InvalidAction as error:
        return 2, {"field": error.field, "message": error.message}
    except DiceExhausted as error:
        # The command line prints "error: dice: ..." and exits 2.
        return 2, {"field": "dice", "message": str(error)}


def mismatches(actual: Any, expected: Any, where: str = "output") -> list[str]:
    """Where ``actual`` differs from the partial picture ``expected`` (empty when it matches)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where}: expected an object, got {actual!r}"]
        problems: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                problems.append(f"{where}.{key}: missing")
            else:
                problems.extend(mismatches(actual[key], value, f"{where}.{key}"))
        return problems
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{where}: expected {expected!r}, got {actual!r}"]
        return [
            p for i, (a, e) in enumerate(zip(actual, expected)) for p in mismatches(a, e, f"{where}[{i}]")
        ]
    if actual != expected or type(actual) is bool and type(expected) is not bool:
        return [f"{where}: expected {expected!r}, got {actual!r}"]
    return []


def check(case: dict[str, Any]) -> list[str]:
    """Every difference between the case's expectation and what the engine does."""
    code, output = run_case(case)
    expect = case["expect"]
    problems = [] if code == expect["exit"] else [f"exit: expected {expect['exit']}, got {code}: {output}"]
    if "field" in expect:
        problems.extend(mismatches(output.get("field"), expect["field"], "field"))
    if "output" in expect:
        problems.extend(mismatches(output, expect["output"]))
    return problems
