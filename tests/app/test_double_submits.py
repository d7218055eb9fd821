"""Creating a roster, importing one and starting a match carry a once-only key, as the board's
taps do: the same form sent twice (a double click, a retry, two requests at the same moment)
makes one roster or one match, and the second submit lands where the first did.

A submit without a key, or with one that is not a key, creates as a plain form always did.
"""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from armies.models import Roster
from matches.models import Match
from tests.app.test_match_concurrency import run_together
from tests.factories import make_roster, make_user

KEY = "double-submit-key-0001"
KEY_FIELD = re.compile(r'<input type="hidden" name="key" value="([A-Za-z0-9_-]{8,64})"')


def create(client, key: str | None = KEY, **more):
    body = {"start": "preset:north_starter", "name": "Bridge", **more}
    if key is not None:
        body["key"] = key
    return client.post(reverse("armies:roster-create"), body)


def export_text() -> str:
    roster = make_roster(make_user("exporter"))
    return json.dumps({"format": "blitz-roster/1", "roster": roster.army})


def import_(client, text: str, key: str | None = KEY):
    body = {"text": text} | ({"key": key} if key is not None else {})
    return client.post(reverse("armies:roster-import"), body)


def start(client, key: str | None = KEY):
    body = {"mine": "preset:north_starter", "opponent": "preset:peace_river_starter"}
    if key is not None:
        body["key"] = key
    return client.post(reverse("matches:match-new"), body)


@pytest.mark.django_db
class TestOneKeyMakesOne:
    def test_the_new_roster_and_import_forms_each_draw_a_fresh_key(self, client, player):
        make_roster(player)  # the import form shows once there is a roster
        first = KEY_FIELD.findall(client.get(reverse("armies:roster-list")).content.decode())
        second = KEY_FIELD.findall(client.get(reverse("armies:roster-list")).content.decode())
        assert len(first) == 3 and len(set(first)) == 3  # new, import, the roster's Duplicate
        assert not set(first) & set(second)

    def test_the_start_a_match_form_draws_a_fresh_key(self, client, player):
        first = KEY_FIELD.findall(client.get(reverse("matches:match-new")).content.decode())
        second = KEY_FIELD.findall(client.get(reverse("matches:match-new")).content.decode())
        assert len(first) == 1 and first != second

    def test_creating_twice_with_one_key_makes_one_roster(self, client, player):
        first, second = create(client), create(client)
        assert Roster.objects.filter(owner=player).count() == 1
        roster = Roster.objects.get(owner=player)
        assert first.status_code == second.status_code == 302
        assert (
            first["Location"]
            == second["Location"]
            == reverse("armies:roster-edit", args=[roster.pk])
        )

    def test_a_guest_creating_twice_with_one_key_makes_one_roster(self, client):
        create(client), create(client)
        assert Roster.objects.count() == 1

    def test_importing_twice_with_one_key_makes_one_roster(self, client, player):
        text = export_text()
        first, second = import_(client, text), import_(client, text)
        assert Roster.objects.filter(owner=player).count() == 1
        assert first["Location"] == second["Location"]

    def test_starting_twice_with_one_key_makes_one_match(self, client, player):
        first, second = start(client), start(client)
        match = Match.objects.get()
        assert (
            first["Location"]
            == second["Location"]
            == reverse("matches:match-board", args=[match.pk])
        )

    def test_each_drawn_form_makes_its_own(self, client, player):
        text = export_text()
        for key in ("key-number-0001", "key-number-0002"):
            create(client, key), import_(client, text, key + "i"), start(client, key)
        assert Roster.objects.filter(owner=player).count() == 4
        assert Match.objects.count() == 2

    def test_a_refused_submit_leaves_its_key_unused(self, client, player):
        refused = create(client, name="x" * 81)
        assert refused.status_code == 400
        assert create(client).status_code == 302
        assert Roster.objects.filter(owner=player).count() == 1

    def test_another_player_with_the_same_key_gets_their_own_roster(self, client, player):
        create(client)
        other = Client()
        other.force_login(make_user("kim"))
        response = create(other)
        assert Roster.objects.filter(create_key=KEY).count() == 2
        mine = Roster.objects.get(owner__username="kim")
        assert response["Location"] == reverse("armies:roster-edit", args=[mine.pk])

    @pytest.mark.parametrize("key", [None, "", "short", "x" * 65, "bad key!", "\x00" * 10, "²" * 9])
    def test_no_key_or_a_malformed_key_still_creates(self, client, player, key):
        assert create(client, key).status_code == 302
        assert create(client, key).status_code == 302
        assert import_(client, export_text(), key).status_code == 302
        assert start(client, key).status_code == 302
        assert Roster.objects.filter(owner=player).count() == 3
        assert Match.objects.count() == 1

    def test_the_forms_work_with_csrf_enforced(self, player):
        client = Client(enforce_csrf_checks=True)
        client.force_login(player)
        page = client.get(reverse("matches:match-new")).content.decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        key = KEY_FIELD.search(page).group(1)
        body = {
            "csrfmiddlewaretoken": token,
            "key": key,
            "mine": "preset:north_starter",
            "opponent": "preset:peace_river_starter",
        }
        for _ in range(2):
            assert client.post(reverse("matches:match-new"), body).status_code == 302
        assert Match.objects.count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="two requests at once need real concurrency: run on PostgreSQL (DATABASE_URL=...)",
)
class TestTwoSubmitsAtOnce:
    def clients(self, user, count: int = 4) -> list[Client]:
        clients = []
        for _ in range(count):
            client = Client()
            client.force_login(user)
            clients.append(client)
        return clients

    def together(self, send, clients) -> list[int]:
        statuses: list[int] = []
        errors = run_together(*[lambda c=c: statuses.append(send(c).status_code) for c in clients])
        assert not errors, errors
        return statuses

    def test_creating(self):
        user = make_user()
        assert self.together(create, self.clients(user)) == [302] * 4
        assert Roster.objects.filter(owner=user).count() == 1

    def test_importing(self):
        user, text = make_user(), export_text()
        assert self.together(lambda c: import_(c, text), self.clients(user)) == [302] * 4
        assert Roster.objects.filter(owner=user).count() == 1

    def test_starting_a_match(self):
        user = make_user()
        assert self.together(start, self.clients(user)) == [302] * 4
        assert Match.objects.count() == 1

    def test_duplicating(self):
        user = make_user()
        url = reverse("armies:roster-duplicate", args=[make_roster(user).pk])
        statuses = self.together(lambda c: c.post(url, {"key": KEY}), self.clients(user))
        assert statuses == [302] * 4
        assert Roster.objects.filter(owner=user).count() == 2


@pytest.mark.django_db
class TestCopies:
    """Duplicate and "Copy to my rosters" are plain button forms with a key of their own."""

    def test_each_duplicate_and_copy_button_draws_a_fresh_key(self, client, player):
        roster = make_roster(player)
        listed = KEY_FIELD.findall(client.get(reverse("armies:roster-list")).content.decode())
        edit = client.get(reverse("armies:roster-edit", args=[roster.pk])).content.decode()
        shared = client.get(reverse("roster-shared", args=[roster.share_slug])).content.decode()
        keys = listed + KEY_FIELD.findall(edit) + KEY_FIELD.findall(shared)
        assert len(keys) >= 4 and len(set(keys)) == len(keys)

    def test_duplicating_twice_with_one_key_makes_one_copy(self, client, player):
        roster = make_roster(player)
        url = reverse("armies:roster-duplicate", args=[roster.pk])
        first, second = client.post(url, {"key": KEY}), client.post(url, {"key": KEY})
        assert first["Location"] == second["Location"]
        assert Roster.objects.filter(owner=player).count() == 2

    def test_copying_a_shared_list_twice_with_one_key_makes_one_copy(self, client, player):
        shared = make_roster(make_user("kim"))
        url = reverse("roster-shared-copy", args=[shared.share_slug])
        first, second = client.post(url, {"key": KEY}), client.post(url, {"key": KEY})
        assert first["Location"] == second["Location"]
        assert Roster.objects.filter(owner=player).count() == 1

    @pytest.mark.parametrize("key", [None, "short", "\x00" * 10])
    def test_without_a_key_each_press_copies(self, client, player, key):
        roster = make_roster(player)
        body = {} if key is None else {"key": key}
        for _ in range(2):
            client.post(reverse("armies:roster-duplicate", args=[roster.pk]), body)
            client.post(reverse("roster-shared-copy", args=[roster.share_slug]), body)
        assert Roster.objects.filter(owner=player).count() == 5
