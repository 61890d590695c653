"""Retreat on the strategic map (RULES.md R1–R5): the legal options, then applying a choice.

``retreat_options(inp)`` lists what the beaten army may do; ``apply_retreat(inp, choice)`` checks a
choice against those options (``IllegalAction`` naming the rule) and returns the army that remains.
The values are in ``combat.retreat.model``; the options in ``routes``, the choice in ``apply``.

R2 sweeping follows RULES.md: the *friendly* field units met in a province passed through (own and
allied) are swept, all of them or none, when together they do not outnumber the army as it is there.
``RetreatInput.sweep_allies=False`` (the campaign setting ``retreat_sweeps_allies``) limits it to the
faction's own units, as the source's "your units" reads. A swept allied unit joins the retreat for the
retreat only: it travels the same route, counts in the army's size and can be lost to the penalties (R4),
but it stays its own faction's unit (``ArmyUnit.faction``); the app moves it to the destination in its own
army, under its own commander, never into the retreating faction's army.
"""
