"""Kill Team (2024) rosters: a team of operatives built from the profiles players type into
their datacard library, and the team's grenades (``armies.systems.killteam`` is its builder)."""
