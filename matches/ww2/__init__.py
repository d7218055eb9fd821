"""The WWII skirmish tracker: start a match from two forces, the board and its helpers, the summary
and the Markdown log, on the shared match core (``matches.taps``, ``matches.access``)."""
