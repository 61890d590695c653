"""combat — the pure rules engine of the game (RULES.md T, R, Q).

No Django, no I/O outside ``combat.__main__``, no wall clock, no global random: dice come in
from outside (``combat.dice``).
"""
