"""The tactical stage (T) in the rules reference."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from campaign.rules_text.entry import RuleEntry

RULES: tuple[RuleEntry, ...] = (
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
)
