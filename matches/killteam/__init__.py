"""Kill Team's tracker: its match start, taps, board and Shoot helper (``rules.killteam``)."""
