"""The quick battle (Q) in the rules reference."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from campaign.rules_text.entry import RuleEntry

RULES: tuple[RuleEntry, ...] = (
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
)
