"""The tap's plain reads and writes give what the ORM gives."""

from __future__ import annotations

import pytest
from django.db import connection

from matches.models import Match
from matches.rows import in_model_order, instance_from_row, update_row
from tests.factories import make_match, make_user

pytestmark = pytest.mark.django_db

NAMES = in_model_order(Match, ("id", "seq", "updated_at", "a_token", "watch_slug"))


def read(match: Match) -> Match:
    quote = connection.ops.quote_name
    columns = ", ".join(quote(Match._meta.get_field(name).column) for name in NAMES)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {columns} FROM {quote(Match._meta.db_table)} WHERE id = %s", [match.pk]
        )
        return instance_from_row(Match, NAMES, cursor.fetchone())


def test_an_instance_read_plainly_has_the_orm_values_and_defers_the_rest():
    match = make_match(make_user())
    plain, orm = read(match), Match.objects.get(pk=match.pk)
    assert {name: getattr(plain, name) for name in NAMES} == {
        name: getattr(orm, name) for name in NAMES
    }
    assert plain.updated_at.tzinfo is not None
    assert "a_army" in plain.get_deferred_fields()
    assert plain.a_army == orm.a_army  # read on demand, as the ORM does


def test_a_plain_update_sets_auto_now_and_writes_only_the_fields_named():
    match = make_match(make_user())
    before = Match.objects.get(pk=match.pk)
    match.seq, match.a_player = 7, "not written"
    update_row(match, ["seq", "updated_at"])
    after = Match.objects.get(pk=match.pk)
    assert after.seq == 7 and after.updated_at > before.updated_at
    assert after.a_player == before.a_player


def test_fields_out_of_the_models_order_are_refused():
    with pytest.raises(ValueError):
        instance_from_row(Match, ("seq", "id"), (1, 1))
