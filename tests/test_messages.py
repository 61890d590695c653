"""The message catalogues (*/messages.py): each sentence is declared once, under a name of its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

APPS = ("campaign", "strategic", "tactical", "moderation")
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("app", APPS)
def test_every_constant_of_a_catalogue_is_assigned_once(app: str) -> None:
    # A second assignment silently replaced the first: the army move refused with the map file's
    # "%(entry)s: … share no border" instead of "An army moves only into an adjacent province (S5)."
    tree = ast.parse((ROOT / app / "messages.py").read_text(encoding="utf-8"))
    names = [target.id for node in tree.body if isinstance(node, ast.Assign)
             for target in node.targets if isinstance(target, ast.Name)]
    assert sorted({name for name in names if names.count(name) > 1}) == []
