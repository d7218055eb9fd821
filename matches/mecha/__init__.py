"""The mecha attack-phase tracker (its own package, plugged in through matches.systems)."""
