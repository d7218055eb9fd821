"""The Kill Team match start form: two of the player's teams (or a shared one)."""

from __future__ import annotations

from matches.forms import StartForm


class KtStartForm(StartForm):
    noun = "team"
    mine_label = "Your kill team"
    opponent_label = "Your opponent's kill team"
