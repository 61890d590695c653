"""The rules reference: every rule of RULES.md in the project's own words, one entry per rule id.

The texts are translatable; the rules page (campaign.views.rules_page) lists them by section with each
campaign setting a rule names beside it, and ``/c/<slug>/rules/<id>/`` returns one entry for the board.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class RuleEntry:
    """One rule: its id (``T6.1``), its section letter, its title and its text."""

    id: str
    section: str
    title: Promise
    text: Promise

    @property
    def parent(self) -> str | None:
        """The rule this one is a part of (``T6`` for ``T6.1``), or None."""
        return self.id.split(".")[0] if "." in self.id else None


SECTIONS: tuple[tuple[str, Promise], ...] = (
    ("S", _("The strategic stage")),
    ("T", _("The tactical stage")),
    ("R", _("Retreat on the strategic map")),
    ("Q", _("Quick battle")),
    ("M", _("Moderation")),
)

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
    RuleEntry(
        "T1", "T", _("The field"),
        _(
            "The tactical map is a grid of 18 columns (x = 0..17) by 21 rows (y = 0..20); at most one unit "
            "stands in a cell. Directions are N (toward y = 0), E (toward x = 17), S and W. Interpretation: "
            "the attacker deploys in the rows at y = 20 and up, the defender in the rows at y = 0 and down, "
            "as many rows as the setting says; each side's own edge is its deployment edge."
        ),
    ),
    RuleEntry(
        "T2", "T", _("Commanders on the field"),
        _(
            "If a faction leader and a subordinate are on the same side, the leader may give the subordinate "
            "orders he must follow, but the subordinate moves his own units himself. Such orders are recorded"
            " in the battle log, visible to that subordinate and the moderator. Only a unit's own commander "
            "(or the moderator) can act with it."
        ),
    ),
    RuleEntry(
        "T3", "T", _("Unit cards"),
        _(
            "A unit type has health (how many lines); damage against each of the five classes: light infantry"
            " level 1 (LI1), light infantry level 2 (LI2), heavy infantry (HI), light cavalry (LC), heavy "
            "cavalry (HC); its own class; whether it is mounted; and, for missile troops, arrows (struck off "
            "like health). Archers are LI1, horse archers LC, elite troops HI or HC by faction. Unit types "
            "are data of the campaign."
        ),
    ),
    RuleEntry(
        "T3.1", "T", _("Health"),
        _(
            "Health is drawn as lines struck off as damage is taken. It can fall by halves (T8.2), so it is "
            "kept in half lines. A unit whose health reaches 0 or less is routed and leaves the field."
        ),
    ),
    RuleEntry(
        "T4", "T", _("Speed"),
        _(
            "Every infantry unit has speed 3 and every mounted unit speed 6 (speed is not printed on the "
            "card). Speed is the movement points a unit has in one turn of its side; unused points are not "
            "carried over."
        ),
    ),
    RuleEntry(
        "T5", "T", _("Terrain"),
        _(
            "The terrain is field, forest, mountains or desert (S9). Field: no effect. Forest: cavalry cannot"
            " charge and its speed is 1 lower; impassable swamps and rivers. Mountains: nobody charges; "
            "infantry speed 1 lower, cavalry 2 lower; impassable gorges, more a maze than a field. Desert: "
            "cavalry speed 1 lower. Entering a river cell costs every unit 1 more point. Interpretation: the "
            "map is generated from the terrain with a recorded seed, always with a passable route between the"
            " deployment zones; the moderator can edit it before deployment."
        ),
    ),
    RuleEntry(
        "T6", "T", _("Moving"),
        _(
            "After deployment the attacker moves first; rounds are numbered from 1. A side's turn ends when "
            "its commanders say they are done or its time runs out; then the other side moves (T13). A unit "
            "steps one cell forward, back, left or right for 1 point (no diagonals); moving does not change "
            "its facing. Turning 90 degrees costs 1 point, 180 degrees 2. Interpretation: no entering an "
            "occupied or impassable cell, no leaving the grid except by withdrawal (T11); entering a cell "
            "next to an enemy ends the move, the two are in contact (T7). Facing is N, E, S or W."
        ),
    ),
    RuleEntry(
        "T6.1", "T", _("Time"),
        _(
            "Each side's turn lasts at most the campaign's turn time. The project enforces it: when the time "
            "is up, units that have not acted stay where they are and the turn passes. A move or interception"
            " not declared in time did not happen."
        ),
    ),
    RuleEntry(
        "T7", "T", _("Melee"),
        _(
            "When two enemy units come into contact (orthogonally adjacent), fighting begins. The unit that "
            "moved into contact is the contact's initiator."
        ),
    ),
    RuleEntry(
        "T7.1", "T", _("Pairing"),
        _(
            "Fighting is one on one where it can be. Contacts become pairs in this order: interceptions (T10)"
            " in the order declared, then pairs from earlier turns, then new contacts in the order made; a "
            "contact becomes a pair when neither unit is paired yet. Each unit deals its damage to one enemy:"
            " its pair; without one, the enemy it moved against; otherwise the enemy of its oldest contact. A"
            " paired unit does not strike back at a second attacker."
        ),
    ),
    RuleEntry(
        "T7.2", "T", _("Damage"),
        _(
            "Damage dealt is the attacker's card damage against the target's class, +1 for a flank strike, +1"
            " for a charge. A unit receives the sum of what every enemy dealing to it deals."
        ),
    ),
    RuleEntry(
        "T7.3", "T", _("Charge"),
        _(
            "A mounted unit that initiated the contact this turn after moving more than 2 cells gets +1. Not "
            "in forest or mountains. Interpretation: every cell stepped into this turn counts; the bonus "
            "counts only in the resolution of the turn the contact formed."
        ),
    ),
    RuleEntry(
        "T7.4", "T", _("Flank"),
        _(
            "A unit that strikes an enemy in the flank gets +1. Only the initiator of a contact can get it; a"
            " unit that is struck gets nothing even if its front touches the striker's flank. Interpretation:"
            " a flank strike is one from any side of the target other than the cell it faces (left, right or "
            "rear), judged each turn from the current facings."
        ),
    ),
    RuleEntry(
        "T7.5", "T", _("Order"),
        _(
            "Damage to the defending unit is counted first, then to the attacker. Interpretation: within one "
            "resolution all damage is simultaneous, so the order changes no result; when both units of a pair"
            " fall, T7.6 decides."
        ),
    ),
    RuleEntry(
        "T7.6", "T", _("Both destroyed"),
        _(
            "If two paired units destroy each other at once, a six-sided die is rolled: 1–3, the initiating "
            "unit stays and the other is routed; 4–6, the reverse. Interpretation: the survivor is left with "
            "the campaign's survivor health; a die is rolled for every pair whose two units both end the "
            "resolution at 0 or less, in pairing order. A unit that falls without its pair is simply routed; "
            "health below 0 is shown as 0."
        ),
    ),
    RuleEntry(
        "T7.7", "T", _("When"),
        _(
            "Melee is resolved at the end of every side's turn, after the interception window (T10) closes, "
            "for every unit in contact. A pair that stays in contact fights twice a round. The exact sequence"
            " is T13."
        ),
    ),
    RuleEntry(
        "T8", "T", _("The binding rule"),
        _(
            "A unit in melee stays bound to it: it can leave only by moving out of contact in its own side's "
            "turn, taking damage as it goes, or it fights on until it is routed."
        ),
    ),
    RuleEntry(
        "T8.1", "T", _("Leaving contact"),
        _(
            "A bound unit may turn in place (paying points), but its only move is to step out of contact: the"
            " first step of its path must reach a cell adjacent to none of the enemies it was in contact "
            "with; the rest follows T6."
        ),
    ),
    RuleEntry(
        "T8.2", "T", _("The cost of leaving"),
        _(
            "A unit that leaves contact takes half of the standard damage (card damage without bonuses) of "
            "each enemy that was dealing to it, and deals no damage that turn. Example: heavy spearmen "
            "leaving a fight with heavy infantry (3 against them) take 1.5."
        ),
    ),
    RuleEntry(
        "T9", "T", _("Missile troops"),
        _(
            "Archers and horse archers shoot. Each volley strikes off one arrow; a unit with no arrows cannot"
            " shoot."
        ),
    ),
    RuleEntry(
        "T9.1", "T", _("Range"),
        _(
            "6 cells forward and back, 5 left and right, the rest forming a rounded shape. Interpretation: a "
            "cell at f forward and l lateral from the shooter, in its facing's frame, is in range when (f/a)²"
            " + (l/b)² ≤ 1, with the campaign's semi-axes a (forward) and b (lateral)."
        ),
    ),
    RuleEntry(
        "T9.2", "T", _("Over the heads"),
        _(
            "Archers and horse archers shoot over the heads of their own troops: friendly units do not block."
            " Interpretation: nothing else blocks either."
        ),
    ),
    RuleEntry(
        "T9.3", "T", _("Any turn"),
        _(
            "They may shoot in any turn, their own side's or the enemy's. Interpretation: at most one volley "
            "per unit in each side's turn, at any moment of it; a unit in melee does not shoot."
        ),
    ),
    RuleEntry(
        "T9.4", "T", _("Volley damage"),
        _(
            "Volley damage is the shooter's card damage against the target's class (a type may set a separate"
            " missile damage), applied at once."
        ),
    ),
    RuleEntry(
        "T9.5", "T", _("Shooting after intercepting"),
        _("An archer that intercepted (T10) may still shoot in the turn in which it may not move."),
    ),
    RuleEntry(
        "T9.6", "T", _("Reinforcements"),
        _(
            "An allied army supporting from an adjacent province (S8) is placed at its side's own edge at the"
            " start of that side's turn in the campaign's reinforcement round (a round is the attacker's turn"
            " followed by the defender's)."
        ),
    ),
    RuleEntry(
        "T10", "T", _("Interception"),
        _(
            "After side A ends its turn, side B may intercept. A unit of B may intercept when A has finished "
            "its turn; the B unit is not in melee and has the points to reach the A unit (for missile troops:"
            " the A unit is in range and the shooter has arrows); and the A unit entered melee in this very "
            "turn. Interpretation: reaching means a legal path within full speed ending in contact with the "
            "target; entered melee this turn means in contact with no enemy when A's turn began and in "
            "contact now."
        ),
    ),
    RuleEntry(
        "T10.1", "T", _("Declaring at once"),
        _(
            "B's commander declares the interception immediately after A's turn; otherwise there is none and "
            "B's turn begins. Interpretation: the interception window opens when A's turn ends, if B has a "
            "legal interception, and is part of B's turn; it closes at B's first other action or when B says "
            "it is done."
        ),
    ),
    RuleEntry(
        "T10.2", "T", _("Melee anew"),
        _(
            "After an interception the melee result is computed anew (T7.1 puts interceptions first): the "
            "intercepted unit now fights only the interceptor, one on one, and the enemy it had engaged "
            "fights as T7.1 says for it."
        ),
    ),
    RuleEntry(
        "T10.3", "T", _("The interceptor stays"),
        _(
            "An interceptor cannot move in its side's next turn; it can only fight where it stands (and "
            "shoot, if it shoots). After that turn it can move and intercept again. Interpretation: since the"
            " window is part of B's turn, the next turn is the rest of that same turn: the interceptor may "
            "neither move nor turn in it."
        ),
    ),
    RuleEntry(
        "T10.4", "T", _("The record"),
        _(
            "The moderator records in writing which units intercepted, so that nobody can dispute it later; "
            "every participant can check the record at any time."
        ),
    ),
    RuleEntry(
        "T11", "T", _("End of battle"),
        _(
            "Interpretation: a unit may withdraw in its side's turn: it moves to its side's own edge row (y ="
            " 20 for the attacker, y = 0 for the defender) and steps off for 1 more point; it leaves alive. "
            "The battle ends when one side has no units on the field, when a side concedes, or when the "
            "moderator ends it. The side holding the field wins; the other side's survivors, withdrawn ones "
            "included, retreat (R). If both sides are emptied at once, the defender wins."
        ),
    ),
    RuleEntry(
        "T12", "T", _("The worked example"),
        _(
            "Eastern Rome (attacker: heavy infantry, heavy cavalry) against Western Rome (two heavy spearmen "
            "side by side). The infantry meets the right spearmen's front; the cavalry moves more than 2 "
            "cells and strikes their flank: 3 + 2 + 1 + 1 = 7 would rout them. The left spearmen intercept "
            "the infantry in the flank. After it: infantry and left spearmen deal 3 each and keep 2 of 5; "
            "cavalry and right spearmen deal 4 each and keep 1. The left spearmen may not move in West's next"
            " turn."
        ),
    ),
    RuleEntry(
        "T13", "T", _("The sequence of a turn"),
        _(
            "1. A's turn begins: due reinforcements are placed (T9.6), A's units get full points. 2. A's "
            "units act (move, turn, shoot, withdraw); B's archers may shoot; the turn ends when A says so or "
            "its time runs out. 3. If B has a legal interception, B's window opens; it closes when B says it "
            "is done or makes another action. 4. Melee is resolved (T7), dice rolled as T7.6 says. 5. B's "
            "turn continues with its step 2. A round ends when the defender's turn ends. A refused action "
            "changes nothing and reports the most specific rule."
        ),
    ),
    RuleEntry(
        "T14", "T", _("Settled readings"),
        _(
            "A referee's answers to questions an independent reading raised; each is proved by a scenario "
            "case."
        ),
    ),
    RuleEntry(
        "T14.1", "T", _("Volley interceptions"),
        _(
            "An interception by volley does not change who fights whom: the target's melee is resolved as "
            "usual; T10.2's fights only the interceptor is for an interceptor that makes contact."
        ),
    ),
    RuleEntry(
        "T14.2", "T", _("Whose round a window is"),
        _(
            "The interception window after a side's turn belongs to the round of that turn: the round number "
            "rises when the attacker's own turn begins, after the window of the defender's turn has closed, "
            "and that round's reinforcements are placed then, so they never intercept in the window before "
            "it. Every label names the window by whose it is and by that round."
        ),
    ),
    RuleEntry(
        "T14.3", "T", _("Reserves and the end"),
        _(
            "Units in reserve (reinforcements still to come) do not keep a side in the battle: T11 ends it "
            "when a side has no unit on the field."
        ),
    ),
    RuleEntry(
        "T14.4", "T", _("Where reinforcements enter"),
        _(
            "A reinforcement is placed on its side's edge row (y = 20 attacker, y = 0 defender), not anywhere"
            " in the deployment rows."
        ),
    ),
    RuleEntry(
        "T14.5", "T", _("Cases that cannot arise"),
        _(
            "On this square grid T8.1 can never be the reason for a refusal (one orthogonal step always "
            "leaves that contact) and two sides cannot be emptied at the same moment (T7.6 always leaves a "
            "survivor): both are kept for completeness, with no case possible."
        ),
    ),
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
    RuleEntry(
        "Q1", "Q", _("The contest"),
        _(
            "Each commander rolls three six-sided dice against his effective Strategy (for battles of fewer "
            "than 200 men, Tactics): success when the roll is at most the skill; the margin is skill − roll "
            "(negative on failure). A commander with Luck may reroll once and keep the better result. The "
            "winner of this quick contest wins the battle; the difference between the two margins is the "
            "margin of victory."
        ),
    ),
    RuleEntry(
        "Q2", "Q", _("Morale"),
        _(
            "A Morale roll is 3d6 against the unit's Morale with the modifiers below: it succeeds when the "
            "roll is at most the modified Morale. Results are per unit."
        ),
    ),
    RuleEntry(
        "Q3", "Q", _("Table A: open field"),
        _(
            "Both armies in the field, neither the clear attacker. 0–3: no clear winner, every unit of both "
            "sides rolls Morale: success holds, failure by 1–4 retreats in good order, failure by 5+ routs. "
            "4–7: minor victory, each losing unit retreats in good order if it makes Morale, else routs. "
            "8–12: as 4–7, loser's Morale −2. 13–16: as 4–7, loser's Morale −4. 17+: the loser routs."
        ),
    ),
    RuleEntry(
        "Q4", "Q", _("Table B: the defender won"),
        _(
            "0–3: no clear winner, the attacker is thrown back to its starting position and may attack again "
            "next day at Morale −2. 4–7: the attacker holds if at least half its units make Morale, otherwise"
            " the whole army retreats in good order. 8–12: as 4–7 with Morale −2. 13–16: each attacking unit "
            "retreats in good order if it makes Morale, else routs. 17+: as 13–16 with Morale −2."
        ),
    ),
    RuleEntry(
        "Q5", "Q", _("Table C: the attacker won"),
        _(
            "1–3: no clear winner, the defender has no Morale penalty next day. 4–7: both hold, the defender "
            "has Morale −2 next day. 8–12: the defender holds if at least half its units make Morale, "
            "otherwise the whole army retreats in good order.* 13–16: the attacker takes the position; each "
            "defending unit retreats in good order* if it makes Morale, those that fail rout or, with nowhere"
            " to flee, surrender. 17+: as 13–16 with Morale −2, and the enemy commander is captured. *A "
            "defender with nowhere to retreat: each unit rolls Morale again at +2; success holds, failure "
            "surrenders."
        ),
    ),
    RuleEntry(
        "Q6", "Q", _("Sieges"),
        _("In a siege, tables A and B apply only when the attacker storms the city."),
    ),
    RuleEntry(
        "Q7", "Q", _("Consequences on the map"),
        _(
            "Interpretation: retreat in good order moves the unit with its army's retreat (R); rout moves it "
            "too but it loses the campaign's share of its current health, rounded up to a half line; "
            "surrender removes the unit. Holds keeps it in the province. Morale penalties next day are "
            "recorded on the army and apply to its next quick battle. The whole roll sequence is logged with "
            "every die."
        ),
    ),
    RuleEntry(
        "Q8", "Q", _("Settled readings"),
        _(
            "A referee's answers to questions an independent reading raised; each is proved by a scenario "
            "case."
        ),
    ),
    RuleEntry(
        "Q8.1", "Q", _("Ties"),
        _("Equal margins are a defender's win by 0 (table B, 0–3); in table A, a win by 0 of either side."),
    ),
    RuleEntry(
        "Q8.2", "Q", _("Luck"),
        _(
            "The commander with Luck (Q1) rerolls when he is not ahead after both rolls, and keeps the better"
            " result."
        ),
    ),
    RuleEntry(
        "Q8.3", "Q", _("The footnote's roll"),
        _(
            "A Morale penalty of the band (−2, −4) does not carry into the second roll at +2 of the footnote:"
            " that roll is at the unit's Morale + 2."
        ),
    ),
    RuleEntry(
        "Q8.4", "Q", _("Routed to 0"),
        _("A unit whose health falls to 0 by a rout is removed, as in T3.1."),
    ),
    RuleEntry(
        "Q8.5", "Q", _("Sieges without a storm"),
        _("In a siege without a storm the quick battle is not used (Q6): it is refused with the rule."),
    ),
    RuleEntry(
        "M1", "M", _("Moderators"),
        _(
            "A campaign has one or more moderators. They create and edit the map, factions, unit types, units"
            " and settings; watch time in battles; roll the dice of T7.6; record interceptions (T10.4); end "
            "battles; and may correct the state, always with a reason that goes into a log every participant "
            "can read."
        ),
    ),
    RuleEntry(
        "M2", "M", _("Dice"),
        _(
            "Every die is rolled by the server and logged with who asked, when and why. Interpretation: "
            "before a battle the server publishes a hash of a secret seed; each roll derives from the seed "
            "and the roll's number; the seed is revealed when the battle ends, so anyone can recheck every "
            "roll."
        ),
    ),
    RuleEntry(
        "M3", "M", _("The log"),
        _(
            "Nothing is ever silently changed: every move, interception, roll, correction and result is an "
            "entry in an append-only log, from which the state of a battle at any turn can be rebuilt and "
            "shown."
        ),
    ),
)
RULES_BY_ID = {rule.id: rule for rule in RULES}

# The community's own words (RULES.md, glossary): shown as they are, in both languages.
GLOSSARY: tuple[tuple[str, str], ...] = (
    ("campaign", "кампания"),
    ("faction; faction leader", "фракция; лидер фракции"),
    ("commander; general; chieftain", "командующий; генерал; вождь"),
    ("moderator", "модератор"),
    ("province; province relief (terrain table)", "провинция; рельеф провинций"),
    ("strategic map / stage", "стратегическая карта / этап"),
    ("tactical map / stage", "тактическая карта / этап"),
    ("army; unit; roster", "армия; отряд; список войск"),
    ("economic turn; turn; round", "экономический ход; ход; раунд"),
    ("capture", "захват"),
    ("support (of an attack / defence)", "поддержка (наступления / обороны)"),
    ("health (lines)", "здоровье (линии)"),
    ("damage; flank strike; charge", "урон; удар во фланг; наскок"),
    ("light infantry level 1 / level 2; heavy infantry", "легкая пехота 1 / 2 уровня; тяжелая пехота"),
    ("light cavalry; heavy cavalry; elite troops", "легкая кавалерия (конница); тяжелая кавалерия (конница); элитные войска"),
    ("archers; horse archers; heavy spearmen", "лучники; конные лучники; тяжелые копейщики"),
    ("arrows (ammunition); range", "запас стрел; дальность"),
    ("speed (movement points)", "скорость (очки скорости)"),
    ("field; forest; mountains; desert", "поле; лес; горы; пустыня"),
    ("swamp; river; gorge", "болото; река; ущелье"),
    ("melee, engagement; binding rule; leaving melee", "схватка, бой; правило связки; выход из боя"),
    ("interception", "перехват"),
    ("routed (destroyed)", "разбит"),
    ("die roll", "бросок кубика"),
    ("attacker; defender", "нападающий (атакующий); обороняющийся (защищающийся)"),
    ("retreat; rout; retreat in good order; surrender", "отступление; бегство; отступление в порядке; сдача в плен"),
    ("fortress city; port; strait; rough terrain", "город-крепость; порт; пролив; пересеченная местность"),
    ("quick contest; margin of victory; morale", "быстрое состязание; разница; мораль"),
    ("support points (political)", "очки поддержки"),
)
