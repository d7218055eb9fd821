"""Mecha attacks (rules fragment, "Rules: Attacking part 1" of an unnamed mecha skirmish game):
pure Python, stdlib only, read as docs/mecha-readings.md says. The text gives the three kinds of
attack, weapon stats and how weapons are carried and combined; it gives no hit roll, no damage
track, no unit or weapon profiles and no costs, so every figure is the players'."""
