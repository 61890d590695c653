"""The strategic stage (S) in the rules reference."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from campaign.rules_text.entry import RuleEntry

RULES: tuple[RuleEntry, ...] = (
    RuleEntry(
        "S1", "S", _("Sides"),
        _(
            "A campaign has factions. Each faction has one leader (a player) and may have subordinate "
            "commanders (generals; chieftains under the Huns). The moderator sets alliances. Friendly means "
            "the same faction or an allied one; enemy means a faction at war with it; a faction neither "
            "friendly nor at war is neutral, a third power."
        ),
    ),
    RuleEntry(
        "S2", "S", _("Units and armies"),
        _(
            "A unit is the smallest piece: it has a unit type (its card, T3), its current health and its "
            "arrows. Units are assigned to a commander, who groups them into one army or splits them into "
            "several; each army is commanded in battle by that commander. The faction leader decides freely "
            "which unit is in which army. A moderator can lock a faction's army assignment (during a civil "
            "war of civilized factions)."
        ),
    ),
    RuleEntry(
        "S3", "S", _("Public roster"),
        _(
            "Every faction keeps a public list of its troops: which unit belongs to which army and which "
            "commander. It is a page anyone can read without logging in, always equal to the game state."
        ),
    ),
    RuleEntry(
        "S4", "S", _("Turn order"),
        _(
            "Each campaign turn is the economic phase (here its only effect is that the moderator creates new"
            " units), then the strategic phase, in which the factions act one after another in an order set "
            "by the moderator. On its turn a faction first places its new units into armies (S2), then moves."
        ),
    ),
    RuleEntry(
        "S5", "S", _("Movement"),
        _(
            "In its faction's strategic turn each army may move once, into one adjacent province. Adjacency "
            "is a property of the map; a border may be impassable or a strait (R1.3)."
        ),
    ),
    RuleEntry(
        "S6", "S", _("Capture"),
        _(
            "An army that enters an enemy province holding no enemy units captures it at once: the province's"
            " controller becomes the army's faction. A fortress city with a garrison counts as holding units."
        ),
    ),
    RuleEntry(
        "S7", "S", _("Battle"),
        _(
            "When an army enters a province that holds enemy units, a battle begins there. The army that "
            "moved in is the attacker; the enemy units in the province are the defender."
        ),
    ),
    RuleEntry(
        "S8", "S", _("Support"),
        _(
            "An allied army in the battle's province may support the attack; it then loses its own move when "
            "its turn comes. Allied armies in adjacent provinces may support the attack or the defence; such "
            "an army enters the tactical battle only later (T9.6). Supporters are declared before the battle "
            "starts."
        ),
    ),
    RuleEntry(
        "S9", "S", _("Battlefield terrain"),
        _(
            "The battlefield's terrain (T5) is fixed by the province the attacker moved from and the province"
            " it moved into: by default the terrain of the province entered, unless the map's province relief"
            " table names another for that pair. Example: from Dacia into Dalmatia the battle is fought on a "
            "field, from Gaul into Dalmatia in the mountains, because the Alps lie in western Dalmatia."
        ),
    ),
    RuleEntry(
        "S10", "S", _("After the battle"),
        _(
            "The side that lost the tactical battle (T11) retreats on the strategic map (R). If the defender "
            "lost, the attacker's victorious army stands in the province and captures it if no enemy units "
            "remain there."
        ),
    ),
)
