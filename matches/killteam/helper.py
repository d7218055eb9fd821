"""What the Kill Team board's Shoot and Fight helpers share: an operative and weapon picked as
"a-1|Knife", the weapon rules the table says apply, dice typed in or rolled on screen, chances
as percentages, and applying the result as one event, once per client key."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import wraps

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from blitz_site import inputs
from matches.forms import client_key
from matches.killteam.views import kt_act, player_match
from matches.models import Match, MatchEvent
from rules import killteam as kt
from rules.errors import RulesError
from rules.eventlog import Event, UnknownId
from rules.killteam.profile import RANGED

DICE = re.compile(r"^[1-6](?:[ ,]+[1-6]){0,19}$")


def weapon_choices(
    state: kt.KillTeamState, operative: kt.BattleOperative, kind: str
) -> list[tuple[str, str]]:
    """(name, label) of one operative's weapons of ``kind``: ("Knife", "Knife"); ranged ones
    include its team's picked grenades once, with the team's count: ("Frag grenade", "Frag
    grenade (0 of 2 used)")."""
    choices = [(w.name, w.name) for w in operative.weapons if w.kind == kind]
    if kind == RANGED:
        choices += [
            (g.name, f"{g.name} ({g.used} of {g.picked} used)")
            for g in state.side(operative.side).grenades
        ]
    return choices


def weapon_picks(
    state: kt.KillTeamState, operatives: Iterable[kt.BattleOperative], kind: str
) -> list[tuple[str, str]]:
    """(value, label) of the operatives' weapons of ``kind``: ("a-1|Knife", "Jo (Red): Knife")."""
    return [
        (f"{op.id}|{name}", f"{kt.label(state, op)}: {label}")
        for op in operatives
        for name, label in weapon_choices(state, op, kind)
    ]


def picked(state: kt.KillTeamState, value: str) -> tuple[kt.BattleOperative, kt.Weapon]:
    """The operative and weapon of a pick ("a-1|Knife", or one of its team's grenades); a name no
    operative or weapon has raises UnknownId (a 404)."""
    operative_id, _, weapon_name = value.partition("|")
    operative = state.operative(operative_id)
    grenade = state.side(operative.side).grenade(weapon_name)
    return operative, kt.grenade_weapon(grenade.key) if grenade else operative.weapon(weapon_name)


def rules_chosen(weapon: kt.Weapon, ticked: list[str] | None) -> tuple[str, ...]:
    """The weapon's rules the table says apply: those ``ticked`` (in the printed order), or
    every rule printed on the weapon while the form has not asked (None)."""
    printed = tuple(rule.text for rule in weapon.rules)
    return printed if ticked is None else tuple(rule for rule in printed if rule in ticked)


def percent(p: Fraction) -> str:
    """A chance to one decimal; one that is not nil but rounds to 0.0% (or not certain but to
    100.0%) says so: "<0.1%", ">99.9%"."""
    if 0 < p < Fraction(1, 2000):
        return "<0.1%"
    if Fraction(1999, 2000) <= p < 1:
        return ">99.9%"
    return f"{float(p) * 100:.1f}%"


def read_dice(text: str, what: str) -> tuple[int, ...]:
    """Dice typed as "6 4 2" (or "6,4,2"); () when none are; anything else a RulesError."""
    text = text.strip()
    if not text:
        return ()
    if not DICE.fullmatch(text):
        raise RulesError(f"Enter the {what} as numbers 1 to 6, such as 6 4 2.")
    return tuple(int(d) for d in re.split(r"[ ,]+", text))


def roll(count: int) -> str:
    """``count`` dice rolled on screen, as they would be typed."""
    return " ".join(str(secrets.randbelow(6) + 1) for _ in range(count))


def applies_event(
    build: Callable[[HttpRequest, Match], Event],
) -> Callable[[HttpRequest, int], HttpResponse]:
    """A helper's apply view: ``build`` reads the posted form into one event, applied once per
    client key as the player of the match; then back to the board. A wrong id is a 404, a
    refusal (bad input, stale figures) a 400 with its sentence. Sent twice, the second answer is
    the first one's, even when the form no longer reads against the state the first made."""

    @require_POST
    @wraps(build)
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        match = player_match(request, pk)
        try:
            key = client_key(request.POST.get("key"))
            event = build(request, match)
            applied = kt_act(request, pk, key, event)
        except UnknownId as error:
            return inputs.refusal(error, 404)
        except RulesError as error:
            first = _first(match, request.POST.get("key"))
            return (
                inputs.refusal(error, 400)
                if first is None
                else _answer(pk, first.refused, first.summary)
            )
        for warning in applied.warnings:
            messages.warning(request, warning)
        return _answer(pk, bool(applied.error), applied.error)

    return view


def _first(match: Match, key: object) -> MatchEvent | None:
    """The event this client key already made in the match (a form sent twice), if any."""
    if not inputs.is_once_key(key):  # a key no tap could have stored (a NUL, 5,000 characters)
        return None
    return MatchEvent.objects.filter(match=match, client_key=key).only("refused", "summary").first()


def _answer(pk: int, refused: bool, words: str) -> HttpResponse:
    return inputs.refusal(words, 400) if refused else redirect("matches:match-board", pk=pk)
