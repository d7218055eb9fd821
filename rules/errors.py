"""The one error type of the rules package: a sentence a player understands."""


class RulesError(ValueError):
    """Illegal input to a rule. ``str(error)`` is a plain sentence for the player."""
