"""Typing an army's figures quickly: a model's card as one grid, "copy figures from", the models
of my rosters with their progress, and a pasted table of figures (checked as a pack file is)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from armies.models import DataPack
from tests.factories import make_big_roster, make_roster, make_user

pytestmark = pytest.mark.django_db


def start_pack(client, name: str = "") -> DataPack:
    response = client.post(reverse("datacard-pack-create"), {"name": name, "key": "k" * 12})
    assert response.status_code == 302
    return DataPack.objects.latest("pk")


def card_url(pack, model_id: str) -> str:
    return reverse("datacard-card", args=[pack.pk, model_id])


def paste(client, pack, text: str):
    return client.post(reverse("datacard-paste", args=[pack.pk]), {"table": text})


def test_the_card_saves_a_model_and_its_weapons_in_one_form(client, player):
    pack = start_pack(client)
    response = client.post(
        card_url(pack, "grizzly"),
        {
            "m-armor": "18",
            "m-movement__walker__combat__mp": "5",
            "m-movement__ground__top__defense_modifier": "-1",
            "w-HAC-accuracy": "0",
            "w-HAC-ranges__short": "12",
            "w-MBZK-traits": "AP:1, Brawl",
            "then": "list",
        },
    )
    assert response.status_code == 302
    assert response["Location"].endswith("#model-grizzly")
    pack.refresh_from_db()
    assert pack.figures["models"]["grizzly"] == {
        "armor": 18,
        "movement.walker.combat.mp": 5,
        "movement.ground.top.defense_modifier": -1,
    }
    assert pack.figures["weapons"]["HAC"] == {"accuracy": 0, "ranges.short": 12}
    assert pack.figures["weapons"]["MBZK"] == {"traits": ["AP:1", "Brawl"]}


def test_the_card_is_laid_out_row_by_row_and_shows_the_datas_figures_read_only(client, player):
    pack = start_pack(client)
    page = client.get(card_url(pack, "hunter")).content.decode()
    assert 'name="m-armor"' not in page  # the rules text gives the Hunter's 15
    assert "<b>15</b>" in page and "rules text" in page
    order = [
        page.index(f'name="{name}"')
        for name in (
            "m-size",
            "m-sensors",
            "m-movement__walker__stationary__mp",
            "m-movement__walker__stationary__attack_modifier",
            "m-movement__walker__combat__mp",
            "m-movement__ground__top__defense_modifier",
            "w-LAC-accuracy",
            "w-LAC-traits",
            "w-LRP-accuracy",
        )
    ]
    assert order == sorted(order)  # the tab order is the card's, row by row
    assert "Walker mode" in page and "Ground mode" in page


def test_a_bad_figure_keeps_every_typed_figure_and_saves_nothing(client, player):
    pack = start_pack(client)
    response = client.post(
        card_url(pack, "grizzly"), {"m-armor": "18", "m-size": "x", "w-HAC-dm": "0"}
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Size must be a whole number, like 7." in page
    assert "HAC: Damage Multiplier (DM) must be a whole number from 1 to 99." in page
    assert 'value="18"' in page  # what was typed stays
    pack.refresh_from_db()
    assert pack.figures == {}


def test_saving_the_same_card_twice_changes_it_once(client, player):
    pack = start_pack(client)
    form = {"m-armor": "18", "w-HAC-accuracy": "1", "then": "list"}
    assert client.post(card_url(pack, "grizzly"), form).status_code == 302
    pack.refresh_from_db()
    first, stamp = pack.figures, pack.updated_at
    assert client.post(card_url(pack, "grizzly"), form).status_code == 302
    pack.refresh_from_db()
    assert pack.figures == first and pack.updated_at == stamp


def test_save_then_next_goes_to_the_next_model_of_my_rosters(client, player):
    make_roster(player)
    pack = start_pack(client)
    page = client.get(card_url(pack, "hunter")).content.decode()
    assert "Save, then HeadHunter" in page
    response = client.post(card_url(pack, "hunter"), {"m-size": "5", "then": "next"})
    assert response["Location"] == card_url(pack, "headhunter")


def test_copy_from_fills_only_empty_fields_and_says_what_it_kept(client, player):
    pack = start_pack(client)
    client.post(card_url(pack, "hunter"), {"m-size": "5", "m-movement__walker__combat__mp": "6"})
    client.post(card_url(pack, "headhunter"), {"m-size": "4"})
    page = client.get(card_url(pack, "headhunter"), {"copy": f"{pack.pk}:hunter"})
    text = page.content.decode()
    assert "Copied 2 figures of Hunter" in text  # the Hunter's Armor 15 and its MP 6
    assert "Size: yours 4, theirs 5" in text
    assert 'name="m-armor" value="15"' in text
    assert 'name="m-size" value="4"' in text
    pack.refresh_from_db()
    assert pack.figures["models"]["headhunter"] == {"size": 4}  # nothing saved by a copy


def test_copy_from_another_players_pack_or_a_made_up_model_is_refused(client, player):
    pack = start_pack(client)
    other = Client()
    other.force_login(make_user("eve"))
    theirs = start_pack(other)
    other.post(card_url(theirs, "hunter"), {"m-size": "5"})
    for value in (f"{theirs.pk}:hunter", "x", f"{pack.pk}:nobody", "1:2:3"):
        response = client.get(card_url(pack, "headhunter"), {"copy": value})
        assert response.status_code == 200
        assert "Choose one of the models in the list." in response.content.decode()


def test_another_players_pack_and_unknown_models_are_404(client, player):
    pack = start_pack(client)
    other = Client()
    other.force_login(make_user("eve"))
    for url in (
        card_url(pack, "hunter"),
        reverse("datacard-rosters", args=[pack.pk]),
        reverse("datacard-paste", args=[pack.pk]),
        reverse("datacard-table", args=[pack.pk]),
    ):
        assert other.get(url).status_code == 404
    assert other.post(card_url(pack, "hunter"), {"m-size": "5"}).status_code == 404
    assert paste(other, pack, "id,size\nhunter,5").status_code == 404
    assert client.get(card_url(pack, "no_such_model")).status_code == 404
    assert client.get(reverse("datacard-card", args=[999999, "hunter"])).status_code == 404


def test_the_rosters_page_lists_my_rosters_models_with_their_progress(
    client, player, django_assert_max_num_queries
):
    make_roster(player)
    make_roster(player)
    make_roster(make_user("eve"), preset="peace_river_starter")
    pack = start_pack(client)
    client.post(card_url(pack, "grizzly"), {"m-armor": "18", "w-HAC-accuracy": "1"})
    with django_assert_max_num_queries(8):
        page = client.get(reverse("datacard-rosters", args=[pack.pk])).content.decode()
    for name in ("Hunter", "HeadHunter", "Grizzly", "Jaguar"):
        assert f'class="entry-model-name">{name}<' in page
    assert "Warrior" not in page  # another player's roster
    # The Grizzly carries the HAC and the MBZK: 21 + 2 x 9 figures, the HAC's DM from the text.
    assert "2 of 39 figures" in page
    assert "with MBZK, HAC" in page
    # The Hunter, HeadHunter, Grizzly and Jaguar with the six weapons: 84 + 54 = 138 figures,
    # the Hunter's Armor and the LAC's DM from the rules text and the two typed.
    assert "4 of 138 figures" in page
    assert card_url(pack, "grizzly") in page


def test_the_library_links_to_my_rosters_models(client, player):
    pack = start_pack(client)
    page = client.get(reverse("datacards")).content.decode()
    assert reverse("datacard-rosters", args=[pack.pk]) in page


def test_a_pasted_table_puts_its_figures_in_and_names_what_it_replaced(client, player):
    pack = start_pack(client)
    client.post(card_url(pack, "grizzly"), {"m-armor": "17"})
    table = "id\tarmor\tsize\nGrizzly\t18\t6\n\nid,accuracy,traits\nHAC,1,AP:1; Brawl\n"
    response = paste(client, pack, table)
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "Put 3 new figures into" in page and "1 replaced a different figure" in page
    pack.refresh_from_db()
    assert pack.figures["models"]["grizzly"] == {"armor": 18, "size": 6}
    assert pack.figures["weapons"]["HAC"] == {"accuracy": 1, "traits": ["AP:1", "Brawl"]}
    # The same table again changes nothing.
    assert paste(client, pack, table).status_code == 302
    pack.refresh_from_db()
    assert pack.figures["models"]["grizzly"] == {"armor": 18, "size": 6}


def test_a_bad_table_names_each_row_and_column_and_keeps_nothing(client, player):
    pack = start_pack(client)
    table = (
        "id,armor,size,armour\n"
        "grizzly,18,6\n"
        "jaguar,0,x\n"
        "hunter,15\n"
        "grizzly,1\n"
        "Mystery,1\n"
        "jaguar,1,2,3,4,5\n"
    )
    response = paste(client, pack, table)
    assert response.status_code == 200
    page = response.content.decode()
    for sentence in (
        "Row 1, column 4 (“armour”): is not a datacard figure.",
        "Row 3: model entry &#x27;jaguar&#x27;, field &#x27;armor&#x27;: must be a whole number "
        "from 1 to 99; got 0.",
        "Row 3: model entry &#x27;jaguar&#x27;, field &#x27;size&#x27;: must be a whole number; "
        "got &#x27;x&#x27;.",
        "Row 4: model entry &#x27;hunter&#x27;, field &#x27;armor&#x27;: the data already gives",
        "Row 5: “grizzly” is already in row 2.",
        "Row 6, column 1: the data has no model or weapon “Mystery”.",
        "Row 7 has 6 cells; its table&#x27;s header names 4.",
    ):
        assert sentence in page
    assert "data-focus-on-load" in page
    pack.refresh_from_db()
    assert pack.figures == {}


@pytest.mark.parametrize(
    "table, sentence",
    [
        ("", "Paste a table of figures first."),
        ("hunter,5\n", "Row 1: the first row of a table names its columns, starting with id."),
        ("id,size\n", "has no figures"),
        # A direction control is refused in every text a player sends (blitz_site.text).
        ("id,size\nhunter,\u202e5\n", "U+202E that turns text backwards"),
    ],
)
def test_malformed_tables_get_a_sentence_not_an_error_page(client, player, table, sentence):
    pack = start_pack(client)
    response = paste(client, pack, table)
    assert response.status_code == 200
    assert sentence in response.content.decode()


def test_the_table_to_fill_in_round_trips_through_paste(client, player):
    make_roster(player)
    pack = start_pack(client)
    client.post(card_url(pack, "grizzly"), {"m-armor": "18", "w-HAC-traits": "AP:1, Brawl"})
    text = client.get(reverse("datacard-table", args=[pack.pk])).content.decode()
    lines = text.splitlines()
    assert lines[0].startswith("id,armor,size,sensors,movement.walker.stationary.mp")
    assert "grizzly,18," in text and "HAC,,,,,,,,,AP:1; Brawl" in text
    assert any(line.startswith("hunter,,") for line in lines)  # the rules text's 15 left out
    response = paste(client, pack, text)
    assert response.status_code == 302
    pack.refresh_from_db()
    assert pack.figures["weapons"]["HAC"] == {"traits": ["AP:1", "Brawl"]}


def test_the_forms_work_with_csrf_checks(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    pack = start_pack(_plain(player))
    page = client.get(card_url(pack, "jaguar")).content.decode()
    token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    response = client.post(card_url(pack, "jaguar"), {"csrfmiddlewaretoken": token, "m-size": "5"})
    assert response.status_code == 302
    assert client.post(card_url(pack, "jaguar"), {"m-size": "6"}).status_code == 403


def _plain(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_wrong_methods_are_405(client, player):
    pack = start_pack(client)
    assert client.post(reverse("datacard-rosters", args=[pack.pk])).status_code == 405
    assert client.post(reverse("datacard-table", args=[pack.pk])).status_code == 405
    assert client.put(card_url(pack, "hunter")).status_code == 405


def test_the_rosters_page_and_a_card_cost_the_same_queries_for_many_rosters(
    client, player, django_assert_max_num_queries
):
    pack = start_pack(client)
    make_roster(player)
    urls = [reverse("datacard-rosters", args=[pack.pk]), card_url(pack, "hunter")]
    counts = []
    for url in urls:
        with django_assert_max_num_queries(8) as few:
            client.get(url)
        counts.append(len(few.captured_queries))
    for _ in range(3):
        make_big_roster(player, 20)
    for url, count in zip(urls, counts, strict=True):
        with django_assert_max_num_queries(count):
            assert client.get(url).status_code == 200
