"""``{% log_items %}``: the campaign page's latest log lines, built in Python with the markup the template loop
gave them (M3: every entry reads as a sentence with its turn, its instant, its rule and its reason)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.utils import timezone, translation

from campaign.logtext import LogLine

# The loop the tag replaces, as it stood in templates/campaign/campaign.html.
REFERENCE = (
    "{% load i18n rulelinks zones %}{% for line in log %}"
    '<li class="log-{{ line.kind }}"><span class="log-meta">{% blocktranslate with turn=line.turn %}turn {{ turn }}'
    "{% endblocktranslate %} · {% local_time line.created_at %}{% if line.rule %} · {% rule_link line.rule %}"
    '{% endif %}</span><span class="sentence">{{ line.sentence }}</span>{% if line.reason %} <span class="reason">'
    "{% blocktranslate with reason=line.reason %}Reason: {{ reason }}{% endblocktranslate %}</span>{% endif %}</li>"
    "{% endfor %}"
)
LINES = [
    LogLine(id=2, turn=7, created_at=datetime(2030, 1, 2, 15, 30, tzinfo=UTC), kind="army_moved", rule="S5",
            sentence='Danube army moved from Dacia to <Moesia> & "beyond".', reason="", actor="east_leader"),
    LogLine(id=1, turn=6, created_at=datetime(2030, 1, 1, 9, 5, tzinfo=UTC), kind="moderator_edit", rule="",
            sentence="The moderator set the turn.", reason="A <b>typo</b> in the order", actor="moderator"),
]


def _html(source: str) -> str:
    context = Context({"log": LINES, "campaign": SimpleNamespace(slug="limes")})
    return re.sub(r">\s+<", "><", Template(source).render(context)).strip()


@pytest.mark.parametrize(("language", "zone"), [("en", "UTC"), ("ru", "Europe/Moscow")])
def test_the_log_lines_read_as_the_template_wrote_them(language: str, zone: str) -> None:
    with translation.override(language), timezone.override(zone):
        tag, reference = _html("{% load loglines %}{% log_items log %}"), _html(REFERENCE)
    assert tag == reference
    assert tag.count("<li ") == 2


def test_a_line_is_escaped_and_says_its_turn_rule_and_reason_in_russian() -> None:
    with translation.override("ru"), timezone.override("Europe/Moscow"):
        html = _html("{% load loglines %}{% log_items log %}")
    assert 'ход 7 · <time datetime="2030-01-02T18:30:00+03:00">2030-01-02 18:30 UTC+03:00</time>' in html
    assert 'href="/c/limes/rules/#S5" data-rule="S5"' in html
    assert "Danube army moved from Dacia to &lt;Moesia&gt; &amp; &quot;beyond&quot;." in html
    assert '<span class="reason">Причина: A &lt;b&gt;typo&lt;/b&gt; in the order</span>' in html
