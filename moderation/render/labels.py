"""The consoles' words for a battle's sides and its units' statuses (a battle event's sentence is said by
``tactical.protocol.eventtext``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy, pgettext_lazy

SIDE_NAMES = {"attacker": gettext_lazy("Attacker"), "defender": gettext_lazy("Defender")}
UNIT_STATUSES = {
    "field": gettext_lazy("on the field"),
    "routed": gettext_lazy("routed"),
    "withdrawn": gettext_lazy("withdrawn"),
    "reserve": gettext_lazy("in reserve"),
    "undeployed": gettext_lazy("not deployed"),
}
FACING_NAMES = {  # the words of a turn's refusal (campaign.refusals), the same facings
    "N": pgettext_lazy("turn to", "north"),
    "E": pgettext_lazy("turn to", "east"),
    "S": pgettext_lazy("turn to", "south"),
    "W": pgettext_lazy("turn to", "west"),
}
