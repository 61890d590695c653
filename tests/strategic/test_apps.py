"""The strategic app's start-up: its log sentences (the map's and the after-battle ones) are registered when
Django starts, not by a views import."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_m3_strategic_log_sentences_are_registered_at_start_up_without_the_views() -> None:
    script = (
        "import sys, django; django.setup(); "
        "from campaign.logtext import SENTENCES, KEY_ENTITY; "
        "from campaign.logtext import KIND_CHOICES, KIND_KEYS; "
        "from strategic.logtext import SENTENCES as OURS; "
        "from strategic.logtext import LOG_SENTENCES, LOG_KIND_KEYS, LOG_KIND_CHOICES; "
        "assert 'strategic.views.turn' not in sys.modules and 'strategic.views.after_battle' not in sys.modules; "
        "print(set(OURS) <= set(SENTENCES), KEY_ENTITY['province'], KEY_ENTITY['army'], "
        "set(LOG_SENTENCES) <= set(SENTENCES), all(KIND_KEYS[k] == v for k, v in LOG_KIND_KEYS.items()), "
        "all(KIND_CHOICES[k] == v for k, v in LOG_KIND_CHOICES.items()))"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stdout.strip()) == (0, "True province army True True True"), result.stderr
