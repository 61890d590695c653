"""The strategic app's start-up: its log sentences are registered when Django starts, not by a views import."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_m3_strategic_log_sentences_are_registered_at_start_up_without_the_views() -> None:
    script = (
        "import sys, django; django.setup(); "
        "from campaign.logtext import SENTENCES, KEY_ENTITY; "
        "from strategic.logtext import SENTENCES as OURS; "
        "assert 'strategic.views' not in sys.modules; "
        "print(set(OURS) <= set(SENTENCES), KEY_ENTITY['province'], KEY_ENTITY['army'])"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stdout.strip()) == (0, "True province army"), result.stderr
