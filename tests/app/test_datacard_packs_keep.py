"""A datacard pack never loses a figure by one tap: deleting and turning its link off ask first,
a deleted pack comes back for 30 days, and an import keeps who typed the figures."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from armies.models import DataPack, RevokedPackSlug
from armies.packs import MAX_PACKS
from tests.factories import make_roster, make_user

pytestmark = pytest.mark.django_db

DAY = 24 * 3600


def start_pack(client, name: str = "Jan's cards", key: str = "k" * 12) -> DataPack:
    response = client.post(reverse("datacard-pack-create"), {"name": name, "key": key})
    assert response.status_code == 302
    return DataPack.objects.latest("pk")


def type_armor(client, pack: DataPack, armor: str = "7") -> None:
    url = reverse("datacard-edit", args=[pack.pk, "models", "jaguar"])
    assert client.post(url, {"armor": armor}).status_code == 302


def test_delete_asks_first_and_the_question_names_the_pack(client, player):
    pack = start_pack(client)
    library = client.get(reverse("datacards")).content.decode()
    assert f'href="{reverse("datacard-delete", args=[pack.pk])}"' in library
    asked = client.get(reverse("datacard-delete", args=[pack.pk]))
    html = asked.content.decode()
    assert asked.status_code == 200
    assert "Delete the datacard pack “Jan&#x27;s cards”?" in html and "30 days" in html
    assert DataPack.objects.filter(pk=pack.pk, deleted_at__isnull=True).exists()


def test_a_deleted_pack_offers_undo_and_comes_back_with_every_figure(client, player):
    pack = start_pack(client)
    type_armor(client, pack)

    deleted = client.post(reverse("datacard-delete", args=[pack.pk]))
    assert deleted.status_code == 302
    library = client.get(deleted["Location"]).content.decode()
    assert "Undo: restore “Jan&#x27;s cards”" in library and "Recently deleted" in library
    assert "Delete this pack" not in library  # no pack left in use
    assert (
        client.get(reverse("datacard-edit", args=[pack.pk, "models", "jaguar"])).status_code == 404
    )

    restored = client.post(reverse("datacard-restore", args=[pack.pk]))
    assert restored.status_code == 302
    assert DataPack.objects.get(pk=pack.pk).figures == {"models": {"jaguar": {"armor": 7}}}
    again = client.post(reverse("datacard-restore", args=[pack.pk]))
    assert again.status_code == 404  # a second tap restores nothing more and breaks nothing
    assert "Recently deleted" not in client.get(reverse("datacards")).content.decode()


def test_a_deleted_pack_stops_completing_its_rosters_cards_until_restored(client, player):
    pack = start_pack(client)
    type_armor(client, pack)
    roster = make_roster(player)
    client.post(reverse("armies:roster-pack", args=[roster.pk]), {"pack": str(pack.pk)})
    cards = reverse("armies:roster-cards", args=[roster.pk])
    assert "entered by jan" in client.get(cards).content.decode()
    client.post(reverse("datacard-delete", args=[pack.pk]))
    assert "entered by jan" not in client.get(cards).content.decode()
    client.post(reverse("datacard-restore", args=[pack.pk]))
    assert "entered by jan" in client.get(cards).content.decode()


def test_after_30_days_a_deleted_pack_is_gone(client, player, clock):
    pack = start_pack(client)
    client.post(reverse("datacard-delete", args=[pack.pk]))
    clock.advance(29 * DAY)
    assert "Recently deleted" in client.get(reverse("datacards")).content.decode()
    clock.advance(2 * DAY)
    assert "Recently deleted" not in client.get(reverse("datacards")).content.decode()
    assert client.post(reverse("datacard-restore", args=[pack.pk])).status_code == 404
    other = start_pack(client, "Another", key="o" * 12)
    client.post(reverse("datacard-delete", args=[other.pk]))  # deleting tidies the old one away
    assert not DataPack.objects.filter(pk=pack.pk).exists()


def test_a_deleted_share_link_stays_off_after_restore(client, player):
    pack = start_pack(client)
    client.post(reverse("datacard-share-new", args=[pack.pk]))
    slug = DataPack.objects.get(pk=pack.pk).share_slug
    client.post(reverse("datacard-delete", args=[pack.pk]))
    assert RevokedPackSlug.objects.filter(slug=slug).exists()
    assert Client().get(reverse("datacard-shared", args=[slug])).status_code == 404
    client.post(reverse("datacard-restore", args=[pack.pk]))
    assert DataPack.objects.get(pk=pack.pk).share_slug is None


def test_restore_is_refused_in_words_at_the_pack_bound(client, player):
    first = start_pack(client, "First", key="f" * 12)
    client.post(reverse("datacard-delete", args=[first.pk]))
    for number in range(MAX_PACKS):
        start_pack(client, f"Pack {number}", key=f"key-{number:08d}")
    response = client.post(reverse("datacard-restore", args=[first.pk]), follow=True)
    assert f"You have {MAX_PACKS} packs" in response.content.decode()
    assert DataPack.objects.get(pk=first.pk).deleted_at is not None


def test_someone_elses_pack_cannot_be_deleted_or_restored(client, player):
    pack = start_pack(client)
    other = Client()
    other.force_login(make_user("anna"))
    assert other.get(reverse("datacard-delete", args=[pack.pk])).status_code == 404
    assert other.post(reverse("datacard-delete", args=[pack.pk])).status_code == 404
    client.post(reverse("datacard-delete", args=[pack.pk]))
    assert other.post(reverse("datacard-restore", args=[pack.pk])).status_code == 404
    assert client.get(reverse("datacard-restore", args=[pack.pk])).status_code == 405
    assert client.post(reverse("datacard-restore", args=[999999])).status_code == 404


def test_turning_the_share_link_off_asks_first(client, player):
    pack = start_pack(client)
    client.post(reverse("datacard-share-new", args=[pack.pk]))
    revoke = reverse("datacard-share-revoke", args=[pack.pk])
    assert f'href="{revoke}"' in client.get(reverse("datacards")).content.decode()
    asked = client.get(revoke)
    assert asked.status_code == 200 and "Turn off the share link of" in asked.content.decode()
    assert DataPack.objects.get(pk=pack.pk).share_slug
    assert client.post(revoke).status_code == 302
    assert DataPack.objects.get(pk=pack.pk).share_slug is None


def test_delete_and_restore_check_csrf(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    pack = DataPack.objects.create(owner=player, name="P", entered_by="jan", data_fingerprint="x")
    assert client.post(reverse("datacard-delete", args=[pack.pk])).status_code == 403
    assert client.post(reverse("datacard-share-revoke", args=[pack.pk])).status_code == 403


# --- Import -------------------------------------------------------------------------------------


def exported(client, name: str = "Jan's cards") -> bytes:
    pack = start_pack(client, name)
    type_armor(client, pack)
    return client.get(reverse("datacard-export", args=[pack.pk])).content


def import_as(username: str, raw: bytes, filename: str = "cards.toml"):
    ben = Client()
    ben.force_login(make_user(username))
    upload = SimpleUploadedFile(filename, raw)
    return ben.post(reverse("datacard-pack-import"), {"file": upload, "key": "i" * 12})


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"], ids=["plain", "with-BOM"])
def test_an_import_keeps_who_typed_the_figures_and_the_packs_name(client, player, bom):
    raw = exported(client)
    response = import_as("ben", bom + raw.replace(b"\n", b"\r\n") if bom else raw, "x.toml")
    assert response.status_code == 302
    pack = DataPack.objects.get(owner__username="ben")
    assert pack.name == "Jan's cards"
    assert pack.entered_by == "jan (imported from a file by ben)"
    assert pack.figures == {"models": {"jaguar": {"armor": 7}}}
    library = Client()
    library.force_login(pack.owner)
    assert (
        "entered by jan (imported from a file by ben)"
        in library.get(response["Location"]).content.decode()
    )


def test_a_file_repeating_one_id_gives_one_sentence_and_keeps_nothing(client, player):
    raw = b'data_version = "x"\n' + b'[[models]]\nid = "jaguar"\narmor = 7\n' * 400
    response = import_as("ben", raw)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count("duplicate id") == 1
    assert (
        "field &#x27;id&#x27;: duplicate id in the same file (given 400 times; give it once)"
        in html
    )
    assert not DataPack.objects.filter(owner__username="ben").exists()
