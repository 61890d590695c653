"""Command line: ``python -m combat COMMAND FILE`` (``-`` reads standard input).

Commands: ``run`` (a tactical scenario), ``retreat`` (R1–R5), ``quick`` (Q1–Q7).
Exit codes: 0 every action applied; 2 a malformed scenario (one line on stderr naming the field);
3 an illegal action (the result of everything before it, plus ``"rejected"``).
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable
from typing import Any

# Each command names a function ``run(data: dict) -> tuple[int, dict]`` that raises
# ``combat.errors.InvalidAction`` for a malformed scenario.
COMMANDS: dict[str, str] = {
    "run": "combat.battle.scenario",
    "retreat": "combat.retreat.scenario",
    "quick": "combat.quick.scenario",
}

USAGE = "usage: python -m combat {run,retreat,quick} FILE  (FILE may be - for standard input)"


def _load(command: str) -> Callable[[dict[str, Any]], tuple[int, dict[str, Any]]]:
    module = importlib.import_module(COMMANDS[command])
    runner: Callable[[dict[str, Any]], tuple[int, dict[str, Any]]] = module.run
    return runner


def main(argv: list[str]) -> int:
    """Run one command and return the process exit code."""
    from combat.errors import DiceExhausted, InvalidAction

    if len(argv) != 2 or argv[0] not in COMMANDS:
        print(USAGE, file=sys.stderr)
        return 2
    command, path = argv
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except OSError as error:
        print(f"error: cannot read {path}: {error.strerror}", file=sys.stderr)
        return 2
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        print(f"error: scenario is not valid JSON: {error}", file=sys.stderr)
        return 2
    if not isinstance(data, dict):
        print("error: scenario: must be a JSON object", file=sys.stderr)
        return 2
    try:
        code, result = _load(command)(data)
    except InvalidAction as error:
        print(f"error: {error.field}: {error.message}", file=sys.stderr)
        return 2
    except DiceExhausted as error:
        print(f"error: dice: {error}", file=sys.stderr)
        return 2
    json.dump(result, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
