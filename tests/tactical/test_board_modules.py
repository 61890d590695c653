"""The board's ES modules: every one its scripts import is preloaded by the page, and collectstatic's production
storage hashes the imports too, so that each module is served as immutable and never mixed across releases."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

TACTICAL = Path(settings.BASE_DIR) / "static" / "tactical"
TEMPLATE = Path(settings.BASE_DIR) / "templates" / "tactical" / "board.html"
IMPORT = re.compile(r"""^\s*import\s[^;]*?from\s*["']\./([\w.-]+)["'];""", re.MULTILINE | re.DOTALL)


def _imports(name: str) -> set[str]:
    return set(IMPORT.findall((TACTICAL / name).read_text()))


def _graph(entries: set[str]) -> set[str]:
    seen: set[str] = set()
    todo = list(entries)
    while todo:
        name = todo.pop()
        for imported in _imports(name) - seen:
            seen.add(imported)
            todo.append(imported)
    return seen


def test_every_imported_module_of_the_board_is_preloaded() -> None:
    page = TEMPLATE.read_text()
    entries = set(re.findall(r"""<script type="module" src="\{% static 'tactical/([\w.-]+)' %\}">""", page))
    assert {"board.js", "keyboard.js", "phone.js", "setup.js"} <= entries
    preloaded = set(re.findall(r"""<link rel="modulepreload" href="\{% static 'tactical/([\w.-]+)' %\}">""", page))
    assert _graph(entries) - entries <= preloaded
    assert preloaded <= _graph(entries), "a preloaded module nothing imports"


def test_every_import_form_of_the_modules_is_one_the_storage_rewrites() -> None:
    # Django's pattern needs a relative specifier and the closing semicolon; any other form would keep its
    # plain name and escape the hashing.
    for path in TACTICAL.glob("*.js"):
        text = path.read_text()
        statements = re.findall(r"^\s*(?:import|export)\b[^;]*?\bfrom\b[^;]*;?", text, re.MULTILINE)
        assert len(statements) == len(IMPORT.findall(text)), path.name
        assert "import(" not in text, path.name


def test_production_storage_hashes_the_module_imports(tmp_path: Any) -> None:
    storages = {**settings.STORAGES, "staticfiles": {"BACKEND": "config.storage.StaticFilesStorage"}}
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=storages):
        call_command("collectstatic", interactive=False, verbosity=0)
    manifest = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    for name in ("board.js", "keyboard.js", "panels.js", "cards.js"):
        hashed = (tmp_path / manifest[f"tactical/{name}"]).read_text()
        wanted = {Path(manifest[f"tactical/{m}"]).name for m in _imports(name)}
        assert wanted, name
        assert set(re.findall(r'from "\./([\w.-]+)";', hashed)) == wanted, name
