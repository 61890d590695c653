"""The consoles' words for a battle's sides and its units' statuses (a battle event's sentence is said by
``tactical.protocol.eventtext``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

SIDE_NAMES = {"attacker": gettext_lazy("Attacker"), "defender": gettext_lazy("Defender")}
UNIT_STATUSES = {
    "field": gettext_lazy("on the field"),
    "routed": gettext_lazy("routed"),
    "withdrawn": gettext_lazy("withdrawn"),
    "reserve": gettext_lazy("in reserve"),
    "undeployed": gettext_lazy("not deployed"),
}
