""" "Save to my datacards" from the attack helper: one tap writes a typed figure into the player's
own pack, checked as the library form checks it; the running match keeps its figures."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from armies.hgb import packs
from armies.models import DataPack, Owner
from matches.models import Match, MatchEvent
from tests.app.test_datacards import JAGUAR, start_match, start_pack
from tests.factories import make_roster, make_user

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
ATTACK = {"attacker": "b-1-1", "target": JAGUAR, "f": "1"}


def save_url(match: Match) -> str:
    return reverse("matches:attack-save-figure", args=[match.pk])


def tap(client, match, field, value, **headers):
    data = ATTACK | {field: value, "save": field}
    return client.post(save_url(match), data, headers=headers or HTMX)


@pytest.fixture
def match(player) -> Match:
    return start_match(player, make_roster(player))


def test_the_helper_offers_it_beside_a_typed_figure(client, match):
    helper = client.get(reverse("matches:attack-helper", args=[match.pk]), ATTACK).content.decode()
    assert f'name="save" value="armor.{JAGUAR}"' in helper
    assert 'Save to my datacards<span class="visually-hidden">: Armor of' in helper


def test_one_tap_makes_my_datacards_once_and_the_match_keeps_its_figures(client, match):
    before = (match.a_pack, match.b_pack, MatchEvent.objects.filter(match=match).count())
    figures_before = Match.objects.values_list("figures", flat=True).get(pk=match.pk)
    for _ in range(2):  # a retried tap
        response = tap(client, match, f"armor.{JAGUAR}", "7")
        assert response.status_code == 200
        html = response.content.decode()
        assert "Saved to “My datacards”: 7, entered by jan." in html, html
    pack = DataPack.objects.get()
    assert pack.name == "My datacards" and pack.entered_by == "jan"
    assert pack.figures == {"models": {"jaguar": {"armor": 7}}}
    assert f'href="/datacards/?pack={pack.pk}"' in html

    match.refresh_from_db()
    assert (match.a_pack, match.b_pack, MatchEvent.objects.filter(match=match).count()) == before
    assert Match.objects.values_list("figures", flat=True).get(pk=match.pk) == figures_before
    assert match.current_state().unit(JAGUAR).armor is None

    library = client.get(reverse("datacards")).content.decode()
    assert '<b>7</b> <small class="figure-mark">yours, entered by jan</small>' in library


def test_it_goes_into_my_first_pack_beside_its_figures(client, match):
    pack = start_pack(client, "Mine")
    start_pack(client, "Second")  # the same create key: still one pack
    packs.pack_set_figures(
        owner=Owner(pack.owner_id, None),
        pack_id=pack.pk,
        kind="models",
        entry_id="jaguar",
        figures={"size": 5},
    )
    assert "Saved to “Mine”" in tap(client, match, f"armor.{JAGUAR}", "6").content.decode()
    pack.refresh_from_db()
    assert pack.figures == {"models": {"jaguar": {"size": 5, "armor": 6}}}
    tap(client, match, f"armor.{JAGUAR}", "8")  # saving again changes the figure
    pack.refresh_from_db()
    assert pack.figures["models"]["jaguar"]["armor"] == 8


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("", "type the figure first. Not saved."),
        ("abc", "Enter a whole number"),
        ("200", "Not saved."),
    ],
)
def test_bad_figures_are_refused_in_words_and_nothing_is_saved(client, match, value, words):
    html = tap(client, match, f"armor.{JAGUAR}", value).content.decode()
    assert words in html and 'class="saved err"' in html
    assert not DataPack.objects.exists()


def test_a_figure_the_pack_range_refuses_is_not_saved(client, match):
    helper = client.get(reverse("matches:attack-helper", args=[match.pk]), ATTACK)
    assert 'name="rof"' in helper.content.decode()
    html = tap(client, match, "rof", "15").content.decode()  # the helper takes up to 20
    assert "must be a whole number from 0 to 9. Not saved." in html
    assert not DataPack.objects.exists()


def test_a_figure_the_data_gives_is_never_saved(player):
    with pytest.raises(packs.PackError, match="the data already gives this figure"):
        packs.pack_save_figure(
            owner=Owner(player.pk, None),
            entered_by="jan",
            kind="models",
            entry_id="hunter",
            key="armor",
            value=9,
        )


def test_not_a_figure_of_the_pack_is_400(client, match):
    assert tap(client, match, "spray", "1").status_code == 400
    assert tap(client, match, "ae", "1").status_code == 400
    assert client.post(save_url(match), ATTACK, headers=HTMX).status_code == 400


def test_someone_not_a_player_gets_404(match):
    other = Client()
    other.force_login(make_user("eve"))
    assert tap(other, match, f"armor.{JAGUAR}", "7").status_code == 404
    assert tap(Client(), match, f"armor.{JAGUAR}", "7").status_code == 404
    assert not DataPack.objects.exists()


def test_without_javascript_it_asks_then_saves_and_goes_back(client, match):
    data = ATTACK | {f"armor.{JAGUAR}": "7", "save": f"armor.{JAGUAR}"}
    page = client.get(save_url(match), data).content.decode()
    assert '<form method="post"' in page and 'name="save" value="armor.' in page
    assert not DataPack.objects.exists()
    response = client.post(save_url(match), data)
    assert response.status_code == 302
    assert response.url.startswith(reverse("matches:attack-helper", args=[match.pk]) + "?")
    assert DataPack.objects.get().figures == {"models": {"jaguar": {"armor": 7}}}
