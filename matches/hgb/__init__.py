"""Heavy Gear Blitz's match tracker: its board, taps, attack helper and summary."""
