"""Forward observation from the board: which model observed the target. Marking a target
spends the observer's action (``rules.hgb.match.play``), so the board asks who observed."""

from __future__ import annotations

import secrets

from django.urls import reverse

from rules.hgb.match import MatchState, Unit, can_attack, unit_label


def observer_options(state: MatchState, target: Unit) -> list[dict]:
    """The target's enemies in play, those that can still spend an action first; each says
    what it already did this round (applying then warns, never refuses)."""
    options = []
    for unit in state.units:
        if unit.is_out or unit.side == target.side:
            continue
        acted = [words for _, words in unit.actions[:1]]
        if unit.used and not unit.kept_action:
            note = "Used, no action left"
        elif acted:
            note = f"already acted: {acted[0]}"
        elif not can_attack(unit):
            note = "at Top Speed, no action left"
        elif unit.kept_action:
            note = "spends its kept action"
        else:
            note = ""
        options.append({"id": unit.id, "label": unit_label(state, unit), "note": note})
    return sorted(options, key=lambda option: bool(option["note"]) and "kept" not in option["note"])


def observe_context(match, state: MatchState, target: Unit) -> dict:
    return {
        "match": match,
        "target": target.id,
        "target_label": unit_label(state, target),
        "observers": observer_options(state, target),
        "event_url": reverse("matches:match-event", args=[match.pk]),
        "board_url": reverse("matches:match-board", args=[match.pk]) + f"#unit-{target.id}",
        "key": secrets.token_hex(16),
    }
