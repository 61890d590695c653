"""M3: the campaign log is append-only, and ``log_append`` is its only writer."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("campaign", "strategic", "tactical", "moderation")
WRITE = re.compile(
    r"LogEntry\.objects\.(create|bulk_create|get_or_create|update_or_create)\b"
    r"|(?<!class )LogEntry\("
    r"|LogEntry\.objects\.[^\n]*\.(update|delete)\("
    r"|\.log\.(create|update|all\(\)\.delete)\("
)


def test_m3_only_log_append_writes_the_campaign_log() -> None:
    offenders = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for line in path.read_text(encoding="utf-8").splitlines():
                if WRITE.search(line):
                    offenders.append(str(path.relative_to(ROOT)))
    # the one create() inside log_append
    assert offenders == ["campaign/services.py"]
