"""Retreat on the strategic map (R) in the rules reference."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from campaign.rules_text.entry import RuleEntry

RULES: tuple[RuleEntry, ...] = (
    RuleEntry(
        "R1", "R", _("Where to retreat"),
        _(
            "The losing army must retreat, even if the winning army was destroyed, to the nearest province "
            "free of enemy units that is either under friendly control or holds more friendly units than the "
            "retreating army has. If several are equally near, the retreating commander chooses."
        ),
    ),
    RuleEntry(
        "R1.1", "R", _("The attacker goes back"),
        _("An attacker that retreats must first retreat into the province it entered the battle from."),
    ),
    RuleEntry(
        "R1.2", "R", _("The defender avoids the attacker's origin"),
        _(
            "A defender that retreats may not enter, anywhere on its route, the province from which the "
            "attacker entered the battle."
        ),
    ),
    RuleEntry(
        "R1.3", "R", _("Limits of a route"),
        _(
            "A retreat may not cross rough terrain or a strait; enter more than 4 provinces; re-enter a "
            "province already entered on this retreat; split the army (except R3); end in a province with "
            "enemy units (except R3) or with units of a third power; end farther from the battle than the "
            "nearest eligible province."
        ),
    ),
    RuleEntry(
        "R1.4", "R", _("No way out"),
        _(
            "An army that cannot retreat — no place, or more than four provinces away — is destroyed: its "
            "units are removed and its commanders displaced (moved to the faction's capital, out of command)."
        ),
    ),
    RuleEntry(
        "R2", "R", _("Rout sweeping"),
        _(
            "Friendly units met on the route that do not outnumber the retreating army are swept into the "
            "retreat and become part of it. This happens before retreat penalties (R4). The size limit on "
            "armies does not apply to retreats."
        ),
    ),
    RuleEntry(
        "R3", "R", _("Fortress cities"),
        _(
            "Defending units and commanders may retreat into a friendly fortress city in the battle's "
            "province, up to the city's capacity (3 units in the source; set per city). An army that sallied "
            "from a city and lost must retreat back into the city."
        ),
    ),
    RuleEntry(
        "R4", "R", _("Penalties"),
        _(
            "A retreating army loses 1 extra unit for each province entered that holds an enemy control "
            "marker, fortress city or tribe, and 1 for each enemy unit in any province passed through. "
            "Interpretation: the retreating commander picks which units are lost; if he does not, the units "
            "with the least health go first."
        ),
    ),
    RuleEntry(
        "R5", "R", _("Sea retreat"),
        _(
            "A force beaten in a province with a port may retreat by sea to a friendly port when its faction "
            "can move by sea; as many units can go as the faction's naval capacity, set by the moderator. An "
            "attacker that came by sea needs no extra capacity to leave by sea."
        ),
    ),
    RuleEntry(
        "R6", "R", _("Political consequences"),
        _(
            "After a battle the winner adds support for itself in the province and/or removes the loser's: "
            "half, rounded up, of the units the loser actually lost (in the battle, in the retreat and to any"
            " event). Support is a per-province, per-faction counter shown on the strategic map."
        ),
    ),
    RuleEntry(
        "R7", "R", _("Settled readings"),
        _(
            "A referee's answers to questions an independent reading raised; each is proved by a scenario "
            "case."
        ),
    ),
    RuleEntry(
        "R7.1", "R", _("Nearest"),
        _(
            "Nearest is counted along routes a retreat may take (R1.1–R1.3 respected), not as raw distance on"
            " the map."
        ),
    ),
    RuleEntry(
        "R7.2", "R", _("Detours"),
        _(
            "Only the end is limited: a longer route to a nearest eligible province is legal within 4 "
            "provinces."
        ),
    ),
    RuleEntry(
        "R7.3", "R", _("The battle's province"),
        _("The battle's province counts as already entered: no retreat passes back through it."),
    ),
    RuleEntry(
        "R7.4", "R", _("What a penalty counts"),
        _(
            "Penalties (R4) are for each province entered that holds an enemy control marker, a fortress city"
            " held by an enemy (a power at war with the retreating side), or a tribe in a province not "
            "controlled by that side or its ally; and for each enemy unit, garrisons included, in each "
            "province entered. The battle's province costs nothing."
        ),
    ),
    RuleEntry(
        "R7.5", "R", _("Sweeping on the way"),
        _(
            "Sweeping (R2) takes friendly units (own and allied) in each province entered on the way, the "
            "destination excepted (units there stay as they are), when they do not outnumber the retreating "
            "army as it stands on entering that province (earlier sweeps counted). Whether a destination is "
            "eligible is judged against the army as it left the battle."
        ),
    ),
    RuleEntry(
        "R7.6", "R", _("Fortress room"),
        _("Fortress room (R3) counts the units already in the city, whoever's."),
    ),
    RuleEntry(
        "R7.7", "R", _("Sea retreat beyond capacity"),
        _(
            "A sea retreat (R5) carries at most the naval capacity, the units named by the commander (least "
            "health left behind if he names none); the units left behind are destroyed, as Camillus escapes "
            "with up to 6 of his units in the source's example. It may go to any friendly port."
        ),
    ),
)
