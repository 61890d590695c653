"""The after-the-battle case files (R1–R7, Q1–Q8, the settled readings R7.x and Q8.x included), one test per
file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .harness import case_paths, check, load

RULE_IDS = (
    {"R1", "R1.1", "R1.2", "R1.3", "R1.4", "R2", "R3", "R4", "R5", "R6"}
    | {f"Q{i}" for i in range(1, 8)}
    # the settled readings: one case file each
    | {f"R7.{i}" for i in range(1, 8)}
    | {f"Q8.{i}" for i in range(1, 6)}
)


@pytest.mark.parametrize("path", case_paths(), ids=lambda p: p.stem)
def test_case(path: Path) -> None:
    assert check(load(path)) == []


@pytest.mark.parametrize("path", case_paths(), ids=lambda p: p.stem)
def test_case_file_is_described(path: Path) -> None:
    case = load(path)
    assert set(case) == {"comment", "rules", "command", "scenario", "expect"}
    assert case["comment"].strip()
    assert case["rules"] and set(case["rules"]) <= RULE_IDS


def test_every_rule_has_a_case_file() -> None:
    covered = {rule for path in case_paths() for rule in load(path)["rules"]}
    assert sorted(RULE_IDS - covered) == []


def test_r1_3_every_clause_has_a_case_file() -> None:
    names = {path.stem for path in case_paths()}
    clauses = [
        "rough",
        "strait",
        "four_provinces",
        "reentry",
        "split",
        "enemy_units",
        "third_power",
        "farther",
    ]
    assert [c for c in clauses if not any(re.search(c, n) for n in names if n.startswith("r1_3"))] == []
