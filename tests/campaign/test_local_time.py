"""``{% local_time %}``: an instant in the reader's time zone with its UTC offset, the same markup on every page that
shows one (a deadline, a log line, a scheduled battle)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.template import Context, Template
from django.utils import timezone

# The markup the pages have always shown, written as the template it was once included from.
REFERENCE = (
    '{% load tz zones %}{% get_current_timezone as TIME_ZONE %}<time{% if TIME_ZONE == "UTC" %} class="js-local"'
    '{% endif %} datetime="{{ value|date:\'c\' }}">{{ value|date:"Y-m-d H:i" }} {{ value|utc_offset }}</time>'
)
TAG = "{% load zones %}{% local_time value %}"
WINTER = datetime(2030, 1, 2, 15, 30, tzinfo=UTC)
SUMMER = datetime(2030, 7, 2, 23, 45, 10, tzinfo=UTC)


def _both(value: object) -> tuple[str, str]:
    context = {"value": value}
    return Template(TAG).render(Context(context)), Template(REFERENCE).render(Context(context))


@pytest.mark.parametrize(("zone", "value", "expected"), [
    ("UTC", WINTER, '<time class="js-local" datetime="2030-01-02T15:30:00+00:00">2030-01-02 15:30 UTC</time>'),
    ("Europe/Moscow", WINTER, '<time datetime="2030-01-02T18:30:00+03:00">2030-01-02 18:30 UTC+03:00</time>'),
    ("Europe/London", SUMMER, '<time datetime="2030-07-03T00:45:10+01:00">2030-07-03 00:45 UTC+01:00</time>'),
    ("America/New_York", SUMMER, '<time datetime="2030-07-02T19:45:10-04:00">2030-07-02 19:45 UTC-04:00</time>'),
    ("Europe/Moscow", None, '<time datetime=""> </time>'),
])
def test_an_instant_reads_in_the_readers_zone_as_it_always_did(zone: str, value: object, expected: str) -> None:
    with timezone.override(zone):
        tag, reference = _both(value)
    assert tag == expected
    assert tag == reference
