"""Rule ids drawn as links to their entry in the campaign's rules reference (``/c/<slug>/rules/#T6.1``).

``{% rule_link "T6.1" %}`` links one id; ``{{ text|link_rule_ids:campaign }}`` escapes a text and links every
rule id in it. Without a campaign (a page outside one) the id is drawn as before, unlinked.
"""

from __future__ import annotations

import re
from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from campaign.rules_text import RULES_BY_ID

register = template.Library()

RULE_ID = re.compile(r"\b([STRQM]\d{1,2}(?:\.\d{1,2})?)\b")


def rule_href(slug: str, rule_id: str) -> str:
    """The address of a rule's entry on the campaign's rules page."""
    return f"{reverse('campaign-rules', args=[slug])}#{rule_id}"


def rule_anchor(slug: str | None, rule_id: str, label: str | None = None) -> SafeString:
    """The link (or, without a campaign or for an unknown id, the plain badge) of one rule id."""
    text = escape(label if label is not None else rule_id)
    entry = RULES_BY_ID.get(rule_id)
    if not slug or entry is None:
        return mark_safe(f'<span class="rule-id">{text}</span>')  # escaped
    title = escape(_("Rule %(rule)s: %(title)s") % {"rule": rule_id, "title": entry.title})
    return mark_safe(  # every part is escaped
        f'<a class="rule-id rule-link" href="{escape(rule_href(slug, rule_id))}" data-rule="{escape(rule_id)}" '
        f'title="{title}">{text}</a>'
    )


def _slug(context: Any) -> str | None:
    campaign = context.get("campaign") or getattr(context.get("request"), "campaign", None)
    return getattr(campaign, "slug", None)


@register.simple_tag(takes_context=True)
def rule_link(context: Any, rule_id: object, label: str | None = None) -> SafeString:
    """``{% rule_link error.rule %}``: the rule id as a link to its entry in this campaign's reference."""
    return rule_anchor(_slug(context), str(rule_id), label)


@register.filter
def link_rule_ids(text: object, campaign: Any) -> SafeString:
    """The text, escaped, with every known rule id in it linked to its entry."""
    slug = getattr(campaign, "slug", None)
    parts = RULE_ID.split(str(text))
    out = []
    for i, part in enumerate(parts):
        if i % 2 and part in RULES_BY_ID and slug:
            out.append(rule_anchor(slug, part))
        else:
            out.append(escape(part))
    return mark_safe("".join(out))  # every part is escaped


@register.simple_tag
def rule_ids() -> str:
    """Every rule id of the reference, space-separated (the page's script links them in texts)."""
    return " ".join(RULES_BY_ID)
