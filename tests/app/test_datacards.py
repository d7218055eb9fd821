"""My datacards: a pack's figures on the roster's cards, the board and the attack helper; export,
import, sharing, copying; precedence; bad input; query counts."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import rules.hgb
from armies.models import DataPack, Owner, RevokedPackSlug
from matches.hgb.services import SideChoice, match_start
from matches.models import Match
from rules.hgb.__main__ import check
from tests.factories import PASSWORD, make_big_roster, make_roster, make_user

pytestmark = pytest.mark.django_db

JAGUAR = "a-2-5"  # the Northern starter force's Jaguar


def start_pack(client, name: str = "") -> DataPack:
    response = client.post(reverse("datacard-pack-create"), {"name": name, "key": "k" * 12})
    assert response.status_code == 302
    return DataPack.objects.latest("pk")


def save(client, pack, kind, entry_id, **figures):
    url = reverse("datacard-edit", args=[pack.pk, kind, entry_id])
    return client.post(url, {key.replace(".", "__"): value for key, value in figures.items()})


def start_match(user, roster) -> Match:
    return match_start(
        owner=Owner(user.pk, None),
        player=user.username,
        mine=SideChoice(Match.Source.ROSTER, roster=roster),
        opponent=SideChoice(Match.Source.PRESET, preset="peace_river_starter"),
    )


def test_the_jaguars_armor_typed_once_is_on_the_cards_the_board_and_the_helper(client, player):
    pack = start_pack(client)
    assert save(client, pack, "models", "jaguar", armor="7").status_code == 302
    roster = make_roster(player)

    cards = client.get(reverse("armies:roster-cards", args=[roster.pk])).content.decode()
    assert "Armor 7" in cards and "yours, entered by jan" in cards

    match = start_match(player, roster)
    assert match.current_state().unit(JAGUAR).armor == 7
    board = client.get(reverse("matches:match-board", args=[match.pk])).content.decode()
    assert "entered by jan" in board

    helper = client.get(
        reverse("matches:attack-helper", args=[match.pk]) + f"?attacker=b-1-1&target={JAGUAR}"
    ).content.decode()
    assert f'name="armor.{JAGUAR}"' not in helper
    assert 'name="armor.a-1-1"' not in helper  # the Hunter's 15: the rules text


def test_a_running_match_keeps_the_figures_it_started_with(client, player):
    pack = start_pack(client)
    save(client, pack, "models", "jaguar", armor="7")
    save(client, pack, "weapons", "LAC", accuracy="1")
    match = start_match(player, make_roster(player))
    save(client, pack, "models", "jaguar", armor="9")
    save(client, pack, "weapons", "LAC", accuracy="")
    match.refresh_from_db()
    assert match.current_state().unit(JAGUAR).armor == 7
    assert match.a_pack["figures"]["weapons"]["LAC"]["accuracy"] == 1
    assert DataPack.objects.get().figures["models"]["jaguar"]["armor"] == 9


def test_the_hunters_armor_is_read_only_and_cannot_be_sent(client, player):
    pack = start_pack(client)
    page = client.get(reverse("datacard-edit", args=[pack.pk, "models", "hunter"]))
    html = page.content.decode()
    assert 'name="armor"' not in html and "rules text" in html and "15" in html
    save(client, pack, "models", "hunter", armor="3")  # not a field: ignored
    assert DataPack.objects.get().figures == {}
    assert rules.hgb.complete_catalog(
        rules.hgb.default_catalog(), {"models": {"hunter": {"armor": 3}}}
    )
    # the form for a figure the data leaves empty has a numeric keypad
    page = client.get(reverse("datacard-edit", args=[pack.pk, "models", "jaguar"]))
    assert 'inputmode="numeric"' in page.content.decode()


@pytest.mark.parametrize(
    ("figures", "words"),
    [
        ({"armor": "100"}, "Armor must be a whole number from 1 to 99."),
        ({"armor": "٣"}, "Armor must be a whole number, like 7."),
        ({"armor": "7.5"}, "Armor must be a whole number, like 7."),
        ({"armor": "7", "size": "-4"}, "Size must be a whole number from 1 to 20."),
        ({"armor": "1" * 5000}, "Armor"),
        ({"armor": "7\x00"}, "control characters"),
    ],
)
def test_bad_figures_are_refused_in_words_and_nothing_is_saved(client, player, figures, words):
    pack = start_pack(client)
    response = save(client, pack, "models", "jaguar", **figures)
    assert response.status_code == 200
    assert words in response.content.decode()
    assert DataPack.objects.get().figures == {}


def test_traits_refuse_unstorable_text(client, player):
    pack = start_pack(client)
    response = save(client, pack, "weapons", "LAC", traits="AP, \x00B")
    assert response.status_code == 200
    assert "control characters" in response.content.decode()


def test_someone_elses_pack_and_unknown_entries_are_404(client, player):
    pack = start_pack(client)
    assert client.get(reverse("datacard-edit", args=[pack.pk, "models", "nope"])).status_code == 404
    assert client.get(f"/datacards/{pack.pk}/presets/north_starter").status_code == 404
    assert client.get(f"/datacards/{pack.pk}/__class__/jaguar").status_code == 404
    other = Client()
    other.force_login(make_user("anna"))
    assert (
        other.get(reverse("datacard-edit", args=[pack.pk, "models", "jaguar"])).status_code == 404
    )
    assert save(other, pack, "models", "jaguar", armor="7").status_code == 404
    assert other.get(reverse("datacard-export", args=[pack.pk])).status_code == 404
    assert other.post(reverse("datacard-share-new", args=[pack.pk])).status_code == 404
    assert other.post(reverse("datacard-delete", args=[pack.pk])).status_code == 404


def test_export_check_import_share_copy_revoke(client, player, tmp_path):
    pack = start_pack(client, "Jan's cards")
    save(client, pack, "models", "jaguar", armor="7", **{"movement.walker.combat.mp": "6"})
    save(client, pack, "weapons", "LAC", accuracy="0", **{"ranges.short": "12"}, traits="AP")
    exported = client.get(reverse("datacard-export", args=[pack.pk]))
    text = exported.content.decode()
    assert "entered by jan" in text.lower()
    (tmp_path / "jan.toml").write_text(text, encoding="utf-8")
    assert check([str(tmp_path)]) == 0

    anna = Client()
    anna.force_login(make_user("anna"))
    upload = SimpleUploadedFile("jan.toml", exported.content)
    response = anna.post(reverse("datacard-pack-import"), {"file": upload, "key": "i" * 12})
    assert response.status_code == 302
    imported = DataPack.objects.get(owner__username="anna")
    assert imported.figures == DataPack.objects.get(pk=pack.pk).figures

    client.post(reverse("datacard-share-new", args=[pack.pk]))
    slug = DataPack.objects.get(pk=pack.pk).share_slug
    assert len(slug) >= 22
    shared = anna.get(reverse("datacard-shared", args=[slug])).content.decode()
    assert "entered by jan" in shared and "Edit the figures" not in shared
    copy = anna.post(reverse("datacard-shared-copy", args=[slug]), {"key": "c" * 12})
    assert copy.status_code == 302
    again = anna.post(reverse("datacard-shared-copy", args=[slug]), {"key": "c" * 12})
    assert again["Location"] == copy["Location"]  # the once-only key: one copy
    assert DataPack.objects.filter(owner__username="anna").count() == 2

    client.post(reverse("datacard-share-revoke", args=[pack.pk]))
    assert RevokedPackSlug.objects.filter(slug=slug).exists()
    gone = anna.get(reverse("datacard-shared", args=[slug]))
    assert gone.status_code == 404 and "turned off" in gone.content.decode()
    assert anna.post(reverse("datacard-shared-copy", args=[slug])).status_code == 404


def test_a_bad_import_names_file_entry_and_field_and_keeps_nothing(client, player):
    raw = (
        b'data_version = "x"\n[[models]]\nid = "jaguar"\narmor = 7\n'
        b'[[models]]\nid = "hunter"\narmor = 3\n'
    )
    upload = SimpleUploadedFile("bad.toml", raw)
    response = client.post(reverse("datacard-pack-import"), {"file": upload})
    html = response.content.decode()
    assert response.status_code == 200
    assert "bad.toml: model entry &#x27;hunter&#x27;, field &#x27;armor&#x27;" in html
    assert not DataPack.objects.exists()


def test_a_guests_datacards_move_into_the_account_on_log_in(client):
    pack = start_pack(client)
    save(client, pack, "models", "jaguar", armor="7")
    assert DataPack.objects.get().entered_by == "a guest"
    user = make_user("jan")
    client.post(reverse("login"), {"username": "jan", "password": PASSWORD})
    pack = DataPack.objects.get()
    assert pack.owner == user and pack.entered_by == "jan" and pack.guest_key == ""


def test_a_roster_chooses_its_pack(client, player):
    first = start_pack(client, "First")
    assert start_pack(client, "Second") == first  # the same once-only key: one pack
    other = DataPack.objects.create(
        owner=player, name="Other", entered_by="jan", data_fingerprint="x"
    )
    save(client, other, "models", "jaguar", armor="8")
    roster = make_roster(player)
    url = reverse("armies:roster-pack", args=[roster.pk])
    client.post(url, {"pack": str(other.pk)})
    cards = client.get(reverse("armies:roster-cards", args=[roster.pk])).content.decode()
    assert "Armor 8" in cards
    anna_pack = DataPack.objects.create(
        owner=make_user("anna"), name="A", entered_by="anna", data_fingerprint="x"
    )
    client.post(url, {"pack": str(anna_pack.pk)})  # not mine: refused
    client.post(url, {"pack": "1e9"})  # not a number: refused
    roster.refresh_from_db()
    assert roster.pack_id == other.pk


def queries(client, url: str) -> int:
    client.get(url)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured)


def test_query_counts_do_not_grow_with_the_models(client, player, django_assert_max_num_queries):
    pack = start_pack(client)
    save(client, pack, "models", "jaguar", armor="7")
    small, big = make_big_roster(player, 2), make_big_roster(player, 20)
    counts = {}
    for roster in (small, big):
        counts[roster.pk] = queries(client, reverse("armies:roster-cards", args=[roster.pk]))
    assert counts[small.pk] == counts[big.pk] <= 8
    matches = [start_match(player, roster) for roster in (small, big)]
    for name, query in (("matches:match-board", ""), ("matches:attack-helper", "?attacker=a-1-1")):
        found = {queries(client, reverse(name, args=[m.pk]) + query) for m in matches}
        assert len(found) == 1, (name, found)
    with django_assert_max_num_queries(6):
        client.get(reverse("datacards"))
