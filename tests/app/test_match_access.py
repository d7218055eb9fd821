"""Who may act on a match is decided in one place: matches/access.py.

Walks every URL of matches/ rather than a list written by hand, so a new page is covered the day
it is added: a URL that names a match by its number is the players' (a stranger is told it does not
exist), a link nobody was given leads nowhere, and every page about a match asks matches.access.
Outside access.py, nothing in matches/ reads a seat from the session or a cookie, or tells whose
seat is whose (the tap writer, taps.py, and services.py check the claim they are handed on the
locked row, and models.py maps the seats to columns).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, reverse

from matches import access
from matches import urls as match_urls
from matches.models import Match, MatchEvent
from tests.factories import make_match, make_roster, make_user, seat_guest

pytestmark = pytest.mark.django_db


def walk(patterns) -> list[URLPattern]:
    """Every URL pattern, with those of each game's URLs that matches/urls.py includes."""
    found = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            found += walk(pattern.url_patterns)
        else:
            found.append(pattern)
    return found


PATTERNS = walk(match_urls.urlpatterns)
NUMBERED = [p for p in PATTERNS if "pk" in p.pattern.converters]
LINKED = [p for p in PATTERNS if "slug" in p.pattern.converters]
# A number in a matches/ URL names a match, but for these (the roster's match history).
NOT_A_MATCH = {"roster-history": "roster"}
# Well formed for every view that changes something, so that a refusal is about who asks.
BODY = {"op": "mark b-1-1", "key": "access-walk-key-0001", "round": "1", "screen": "1", "on": "1"}
QUERY = "?seq=0"  # what a poll needs to say; the other pages ignore it


def ids(patterns):
    return [p.name for p in patterns]


@pytest.fixture
def played():
    owner = make_user("owner")
    roster = make_roster(owner)
    return owner, roster, make_match(owner, roster=roster)


def stranger(kind: str) -> Client:
    """Someone with no seat in the match: another account, a guest, a visitor with no session."""
    client = Client()
    if kind == "account":
        client.force_login(make_user("eve"))
    elif kind == "guest":
        seat_guest(client, "a-guest-with-no-seat-0001")
    return client


# The other parts of a match page's URL (a helper's name, a unit): any well-formed value, since
# who may see the match is decided before them.
PARTS = {"what": "hit", "unit": "a-v1"}


def numbered_url(pattern: URLPattern, roster, match) -> str:
    pk = roster.pk if NOT_A_MATCH.get(pattern.name) == "roster" else match.pk
    parts = {name: PARTS.get(name, "x") for name in pattern.pattern.converters if name != "pk"}
    return reverse(f"matches:{pattern.name}", kwargs={"pk": pk, **parts}) + QUERY


def test_the_walk_finds_the_pages_of_a_match():
    assert {"match-board", "match-event", "match-poll", "attack-helper"} <= set(ids(NUMBERED))
    assert {"match-watch", "match-watch-poll", "match-join"} <= set(ids(LINKED))


@pytest.mark.parametrize("kind", ["account", "guest", "anonymous"])
@pytest.mark.parametrize("pattern", NUMBERED, ids=ids(NUMBERED))
def test_a_stranger_is_told_a_players_page_does_not_exist(pattern, kind, played):
    _, roster, match = played
    client = stranger(kind)
    url = numbered_url(pattern, roster, match)
    statuses = {client.get(url).status_code, client.post(url, BODY).status_code}
    # Each method the view takes is refused as "no such page"; the other is 405.
    assert statuses <= {403, 404, 405} and statuses & {403, 404}, statuses
    after = Match.objects.get(pk=match.pk)
    assert (after.seq, after.updated_at) == (match.seq, match.updated_at)
    assert not MatchEvent.objects.filter(match=match).exists()


@pytest.mark.parametrize("pattern", LINKED, ids=ids(LINKED))
def test_a_link_nobody_was_given_leads_nowhere(pattern, played, client):
    owner, _, _ = played
    client.force_login(owner)  # even for a player of every match there is
    url = reverse(f"matches:{pattern.name}", kwargs={"slug": "n" * 22}) + QUERY
    assert client.get(url).status_code == 404


# The roster's match history is not about one match: the roster's owner sees it (armies/).
MATCH_PAGES = [p for p in NUMBERED + LINKED if p.name not in NOT_A_MATCH]


@pytest.mark.parametrize("pattern", MATCH_PAGES, ids=ids(MATCH_PAGES))
def test_every_page_of_a_match_asks_matches_access(pattern, played, client, monkeypatch):
    owner, roster, match = played
    asked = []

    def spy(real):
        def asking(*args, **kwargs):
            asked.append(real.__name__)
            return real(*args, **kwargs)

        return asking

    for name in ("match_for", "act"):
        monkeypatch.setattr(access, name, spy(getattr(access, name)))
    client.force_login(owner)
    if pattern in LINKED:
        slug = match.join_slug if "join" in pattern.name else match.watch_slug
        url = reverse(f"matches:{pattern.name}", kwargs={"slug": slug}) + QUERY
    else:
        url = numbered_url(pattern, roster, match)
    for response in (client.get(url), client.post(url, BODY)):
        assert response.status_code < 500
    assert asked, f"matches:{pattern.name} decides who may use it without matches.access"


# --- Nothing else decides -------------------------------------------------------------------------

MATCHES = Path(access.__file__).parent
# access.py decides; taps.py and services.py check the claim they are given on the locked row, in
# the same transaction as the change; models.py maps seats to columns.
ALLOWED = {"access.py", "taps.py", "services.py", "models.py"}
# Reading a seat claim (the session's list, the seat cookie) or telling whose seat is whose.
CLAIMS = {"SEATS_KEY", "COOKIES", "get_signed_cookie", "set_signed_cookie", "seat_of", "token"}
CLAIM_TEXT = ("blitz_match_seats", "blitz_seat_")


def decisions(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in CLAIMS - {"token"}:
            found.append(node.id)
        elif isinstance(node, ast.Attribute) and node.attr in CLAIMS - {"token"}:
            found.append(node.attr)
        elif (  # match.token(side): a seat's token, read to compare with a claim
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "token"
        ):
            found.append("token()")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += [text for text in CLAIM_TEXT if text in node.value]
    return found


def test_no_module_but_access_reads_a_seat_claim():
    modules = [
        path
        for path in MATCHES.rglob("*.py")
        if path.name not in ALLOWED and "migrations" not in path.parts
    ]
    assert MATCHES / "views.py" in modules and MATCHES / "hgb" / "views.py" in modules
    assert MATCHES / "hgb" / "attack" / "views.py" in modules
    found = {
        str(path.relative_to(MATCHES)): names
        for path in modules
        if (names := decisions(ast.parse(path.read_text())))
    }
    assert not found, f"decide who may act on a match in matches/access.py: {found}"


def test_the_check_finds_a_seat_read_outside_access():
    """The check above can fail: these are the lines it is there to catch."""
    source = """
claim = request.session.get(SEATS_KEY)
side = match.seat_of(request_owner(request))
ok = match.token(side) == claim
cookie = request.get_signed_cookie("blitz_seat_1", salt="x")
"""
    found = decisions(ast.parse(source))
    assert sorted(found) == sorted(
        ["SEATS_KEY", "seat_of", "token()", "get_signed_cookie", "blitz_seat_"]
    )
