"""A WWII skirmish ruleset (vehicles and infantry), known only from a fragment of its rules
text: what the text gives Blitz checks, what it leaves out the players enter.

The text gives no unit profiles, no costs, no hit test, no morale or wound test and no turn
sequence, and its damage table is garbled, so nothing here invents a number: ``force`` reads
and checks a force list (vehicles with their crews, and infantry) against the constraints the
text states. Stdlib only.
"""
