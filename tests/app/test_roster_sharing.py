from __future__ import annotations

import json
from dataclasses import dataclass
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

import rules.hgb
from armies.models import Roster
from tests.factories import make_roster, make_user

pytestmark = pytest.mark.django_db


def shared(roster, name="roster-shared"):
    return reverse(name, args=[roster.share_slug])


def test_share_slugs_carry_128_bits_and_are_url_safe():
    roster = make_roster(make_user())
    other = make_roster(make_user("kim"))
    assert len(roster.share_slug) >= 22  # 16 random bytes in URL-safe base64
    assert roster.share_slug != other.share_slug
    assert all(c.isalnum() or c in "-_" for c in roster.share_slug)


def test_a_shared_roster_opens_logged_out_read_only_with_cards(client):
    roster = make_roster(make_user(), preset="peace_river_starter")
    response = client.get(shared(roster))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Peace River starter force" in html and ">610</strong> / 610 TV" in html
    assert "Copy to my rosters" in html and "data-print" in html
    assert 'class="datacard"' in html and "Warrior Chieftain" in html
    assert "hx-post" not in html  # nothing to edit
    assert "Edit (you own this)" not in html


def test_the_owner_sees_an_edit_link_on_the_shared_page(client):
    user = make_user()
    roster = make_roster(user)
    client.force_login(user)
    assert "Edit (you own this)" in client.get(shared(roster)).content.decode()


def test_the_qr_code_is_an_svg_of_the_link(client):
    roster = make_roster(make_user())
    response = client.get(shared(roster, "roster-shared-qr"))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg")
    assert b'xmlns="http://www.w3.org/2000/svg"' in response.content


def test_an_unknown_slug_is_a_clear_404(client):
    response = client.get(reverse("roster-shared", args=["not-a-real-slug-at-all"]))
    assert response.status_code == 404


def test_a_new_link_revokes_the_old_one(client):
    user = make_user()
    roster = make_roster(user)
    old = roster.share_slug
    client.force_login(user)
    client.post(reverse("armies:roster-share-new", args=[roster.pk]))
    roster.refresh_from_db()
    assert roster.share_slug != old
    assert client.get(reverse("roster-shared", args=[old])).status_code == 404
    assert client.get(shared(roster)).status_code == 200


def test_turning_the_link_off_makes_it_404(client):
    user = make_user()
    roster = make_roster(user)
    old = roster.share_slug
    client.force_login(user)
    client.post(reverse("armies:roster-share-revoke", args=[roster.pk]))
    assert client.get(reverse("roster-shared", args=[old])).status_code == 404
    assert (
        "Sharing is off"
        in client.get(reverse("armies:roster-edit", args=[roster.pk])).content.decode()
    )


def test_a_deleted_rosters_link_stops_working(client):
    user = make_user()
    roster = make_roster(user)
    client.force_login(user)
    client.post(reverse("armies:roster-delete", args=[roster.pk]))
    client.logout()
    assert client.get(shared(roster)).status_code == 404


def test_another_player_cannot_revoke_my_link(client):
    roster = make_roster(make_user())
    client.force_login(make_user("eve"))
    assert client.post(reverse("armies:roster-share-revoke", args=[roster.pk])).status_code == 404
    assert Roster.objects.get().share_slug == roster.share_slug


def test_copy_to_my_rosters_as_a_guest_and_as_a_user(client):
    roster = make_roster(make_user(), preset="south_starter")
    response = client.post(shared(roster, "roster-shared-copy"))
    copy = Roster.objects.exclude(pk=roster.pk).get()
    assert response["Location"] == reverse("armies:roster-edit", args=[copy.pk])
    assert copy.owner is None and copy.guest_key
    assert copy.army["groups"] == roster.army["groups"]
    assert copy.copied_from == roster
    kim = make_user("kim")
    client.force_login(kim)
    client.post(shared(roster, "roster-shared-copy"))
    assert Roster.objects.filter(owner=kim).count() == 2  # the guest copy came along at login


def test_a_link_keeps_working_when_the_data_drops_an_entry(client):
    roster = make_roster(make_user())
    data = json.loads(json.dumps(roster.army))
    data["groups"][0]["models"][0]["model"] = "retired_hunter_variant"
    data["groups"][0]["models"][0]["name"] = "Hunter Mk I"
    data["groups"][1]["squad"] = "retired_squad"
    data["groups"][1]["name"] = "Old Recon Squad"
    Roster.objects.filter(pk=roster.pk).update(army=data)
    response = client.get(shared(roster))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Hunter Mk I" in html and "Old Recon Squad" in html
    assert "not in the current game data" in html


def test_a_roster_whose_faction_left_the_data_still_opens(client):
    roster = make_roster(make_user())
    data = dict(roster.army, faction="lost_faction")
    Roster.objects.filter(pk=roster.pk).update(army=data, faction="lost_faction")
    response = client.get(shared(roster))
    assert response.status_code == 200
    assert "shown as stored" in response.content.decode()


# --- Export and import ---------------------------------------------------------------------


def test_markdown_export_lists_groups_models_and_tv(client):
    user = make_user()
    roster = make_roster(user)
    client.force_login(user)
    response = client.get(reverse("armies:roster-export-md", args=[roster.pk]))
    text = response.content.decode()
    assert response["Content-Type"].startswith("text/markdown")
    assert text.startswith("# Northern Guard starter force\n")
    assert "610 / 610 TV" in text
    assert "## Combat Group 1: General Purpose Squad (225 TV)" in text
    assert "**HeadHunter** *(leader)*" in text


def test_json_export_then_import_rebuilds_the_same_roster(client):
    user = make_user()
    roster = make_roster(user, preset="peace_river_starter")
    client.force_login(user)
    exported = client.get(reverse("armies:roster-export-json", args=[roster.pk]))
    document = json.loads(exported.content)
    assert document["data"]["fingerprint"] == rules.hgb.default_catalog().fingerprint
    upload = SimpleUploadedFile("list.json", exported.content, content_type="application/json")
    response = client.post(reverse("armies:roster-import"), {"file": upload})
    copy = Roster.objects.exclude(pk=roster.pk).get()
    assert response.status_code == 302
    assert copy.army["groups"] == roster.army["groups"]
    assert copy.name == roster.name


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("not json", "not valid JSON"),
        ('{"format": "something-else"}', "not a Blitz roster export"),
        ('{"format": "blitz-roster/1", "roster": {"faction": "north"}}', "TV limit"),
        (
            '{"format": "blitz-roster/1", "roster": {"faction": "north", "tv_limit": 610, '
            '"groups": [{"squad": "made_up", "models": []}]}}',
            "does not know",
        ),
        ("", "Choose a roster file or paste its JSON"),
        ("[" * 100_000, "nested too deep"),
    ],
)
def test_a_bad_import_is_refused_whole_with_the_reason(client, text, reason):
    client.force_login(make_user())
    response = client.post(reverse("armies:roster-import"), {"text": text})
    assert response.status_code == 400
    assert reason in response.content.decode()
    assert not Roster.objects.exists()


def test_datacards_show_figures_the_data_has_and_name_the_rest_once(client):
    user = make_user()
    roster = make_roster(user)
    client.force_login(user)
    html = client.get(reverse("armies:roster-cards", args=[roster.pk])).content.decode()
    assert "Armor 15" in html  # the Hunter's, from the text
    assert "x8" in html  # the LAC's DM
    # The Grizzly's Armor is not given: one line names every missing figure, no "—" rows.
    assert "Armor —" not in html
    assert "Not in the quickstart: Armor, DM, Accuracy." in html  # the MBZK Grizzly
    assert "<details" in html and "Forward arc (F)" in html
    assert html.count('class="datacard"') == 7  # 10 models, three pairs of identical Hunters


def test_the_shared_page_loads_no_htmx_but_the_editor_does(client):
    user = make_user()
    roster = make_roster(user)
    html = client.get(shared(roster)).content.decode()
    assert "htmx" not in html and "hx-" not in html.replace("hx-headers", "")
    assert "js/blitz.js" in html
    client.force_login(user)
    editor = client.get(reverse("armies:roster-edit", args=[roster.pk])).content.decode()
    assert "django_htmx/htmx" in editor


def test_json_export_states_total_tv_group_tv_problems_and_data(client):
    user = make_user()
    roster = make_roster(user)
    catalog = rules.hgb.default_catalog()
    army = rules.hgb.roster_from_dict(roster.army, catalog)
    m = [i for i, e in enumerate(army.groups[1].models) if e.model == "grizzly"][1]
    army = rules.hgb.set_option(army, catalog, 1, m, "north_grizzly_mbzk", True)  # 620 TV
    Roster.objects.filter(pk=roster.pk).update(army=rules.hgb.roster_to_dict(army))
    client.force_login(user)
    response = client.get(reverse("armies:roster-export-json", args=[roster.pk]))
    document = json.loads(response.content)
    summary = document["summary"]
    cost = rules.hgb.roster_cost(army, catalog)
    assert summary["total_tv"] == cost.total == 620
    assert summary["tv_limit"] == 610 and summary["legal"] is False
    assert summary["groups"] == [
        {"number": 1, "squad": "General Purpose Squad", "tv": cost.groups[0].total},
        {"number": 2, "squad": "Fire Support Squad", "tv": cost.groups[1].total},
    ]
    assert summary["problems"] == [p.message for p in rules.hgb.roster_problems(army, catalog)]
    assert any("over its 610 TV limit" in p for p in summary["problems"])
    assert summary["computed_with_data"] == catalog.fingerprint
    assert document["data"]["fingerprint"] == roster.data_fingerprint
    assert response["Content-Disposition"].startswith("attachment;")


def test_import_ignores_the_summary_and_recomputes(client):
    user = make_user()
    roster = make_roster(user)
    client.force_login(user)
    document = json.loads(
        client.get(reverse("armies:roster-export-json", args=[roster.pk])).content
    )
    document["summary"] = {"total_tv": 1, "legal": True, "groups": [], "problems": []}
    response = client.post(reverse("armies:roster-import"), {"text": json.dumps(document)})
    assert response.status_code == 302
    copy = Roster.objects.exclude(pk=roster.pk).get()
    editor = client.get(reverse("armies:roster-edit", args=[copy.pk])).content.decode()
    assert 'data-testid="roster-tv">610</strong> of 610' in editor


def test_an_export_from_before_the_summary_still_imports(client):
    user = make_user()
    roster = make_roster(user, preset="south_starter")
    client.force_login(user)
    old = {
        "format": "blitz-roster/1",
        "exported_at": "2026-01-01T00:00:00+00:00",
        "data": {"version": "1", "fingerprint": roster.data_fingerprint},
        "roster": roster.army,
    }
    response = client.post(reverse("armies:roster-import"), {"text": json.dumps(old)})
    assert response.status_code == 302
    assert Roster.objects.exclude(pk=roster.pk).get().army["groups"] == roster.army["groups"]


@pytest.mark.parametrize(
    ("name", "question", "button"),
    [
        ("armies:roster-share-new", "Make a new share link for", "Make a new link"),
        ("armies:roster-share-revoke", "Turn off the share link of", "Turn the link off"),
    ],
)
def test_changing_the_link_asks_first_and_works_without_js(client, name, question, button):
    user = make_user()
    roster = make_roster(user)
    old = roster.share_slug
    client.force_login(user)
    editor = client.get(reverse("armies:roster-edit", args=[roster.pk])).content.decode()
    url = reverse(name, args=[roster.pk])
    assert f'href="{url}"' in editor  # a plain link to the question, not a button that acts
    confirm = client.get(url)
    html = confirm.content.decode()
    assert confirm.status_code == 200
    assert question in html and f">{button}</button>" in html
    assert f'action="{url}"' in html and "Keep it as it is" in html
    roster.refresh_from_db()
    assert roster.share_slug == old  # asking changed nothing
    assert client.post(url).status_code == 302
    roster.refresh_from_db()
    assert roster.share_slug != old


def test_sharing_a_roster_with_no_link_asks_nothing_new(client):
    user = make_user()
    roster = make_roster(user)
    client.force_login(user)
    client.post(reverse("armies:roster-share-revoke", args=[roster.pk]))
    editor = client.get(reverse("armies:roster-edit", args=[roster.pk])).content.decode()
    assert "Make a share link</button>" in editor  # one tap: nothing is lost by it
    html = client.get(reverse("armies:roster-share-new", args=[roster.pk])).content.decode()
    assert "Share “Northern Guard starter force”?" in html


def test_export_text_downloads_a_file_instead_of_showing_markdown(client):
    user = make_user()
    roster = make_roster(user)
    client.force_login(user)
    response = client.get(reverse("armies:roster-export-md", args=[roster.pk]))
    assert response["Content-Disposition"] == (
        'attachment; filename="northern-guard-starter-force.md"'
    )


def test_copy_buttons_have_plain_fallbacks_without_js(client):
    user = make_user()
    roster = make_roster(user)
    client.force_login(user)
    editor = client.get(reverse("armies:roster-edit", args=[roster.pk])).content.decode()
    share_url = f"http://testserver/r/{roster.share_slug}"
    # The link sits in a read-only field (select and copy by hand); the button shows with JS.
    assert f'<input type="text" id="share-url" value="{share_url}" readonly>' in editor
    assert 'data-copy="#share-url" hidden>Copy link</button>' in editor
    # "Copy text" is a link to a page with the text in a box; with JS it copies in place.
    text_url = reverse("armies:roster-text", args=[roster.pk])
    md_url = reverse("armies:roster-export-md", args=[roster.pk])
    assert f'href="{text_url}" data-copy-url="{md_url}">Copy text</a>' in editor
    assert f'href="{md_url}" download>Export text</a>' in editor
    page = client.get(text_url).content.decode()
    assert '<textarea id="roster-text" rows="20" readonly># Northern Guard starter force' in page
    assert "htmx" not in page
    shared_page = client.get(shared(roster)).content.decode()
    assert f'id="share-url" value="{share_url}" readonly' in shared_page


def test_the_text_page_is_the_owners_only(client):
    roster = make_roster(make_user())
    client.force_login(make_user("eve"))
    assert client.get(reverse("armies:roster-text", args=[roster.pk])).status_code == 404


def test_a_json_file_with_a_byte_order_mark_imports(client):
    user = make_user()
    roster = make_roster(user)
    client.force_login(user)
    exported = client.get(reverse("armies:roster-export-json", args=[roster.pk])).content
    upload = SimpleUploadedFile("list.json", b"\xef\xbb\xbf" + exported)
    response = client.post(reverse("armies:roster-import"), {"file": upload})
    assert response.status_code == 302
    assert Roster.objects.count() == 2


def test_a_failed_import_shows_its_reasons_at_the_top_and_takes_focus(client):
    client.force_login(make_user())
    upload = SimpleUploadedFile("list.json", b'{"format": "something-else"}')
    html = client.post(reverse("armies:roster-import"), {"file": upload}).content.decode()
    alert = html.split('<div id="import-errors"', 1)[1].split("</div>", 1)[0]
    assert 'role="alert" tabindex="-1" autofocus' in alert
    assert "not a Blitz roster export" in alert
    assert html.index('id="import-errors"') < html.index("New roster")  # above everything
    assert html.count("not a Blitz roster export") == 1  # said once, where the player is


def test_printed_cards_are_split_into_numbered_sheets_that_fit_a_page(client):
    user = make_user()
    client.force_login(user)
    roster = make_roster(user)
    html = client.get(reverse("armies:roster-cards", args=[roster.pk])).content.decode()
    assert html.count('<section class="sheet">') == 2
    assert "Page 1 of 2" in html and "Page 2 of 2" in html
    assert "Northern Guard starter force · Northern Guard · 610 / 610 TV" in html
    first, second = html.split('<section class="sheet">')[1:]
    # Two rows of two on the first page (it holds the summary): the General Purpose Squad's
    # three cards (its identical Hunters once each, "×2"); the Fire Support Squad's four after.
    assert first.count('class="datacard"') == 3
    assert second.count('class="datacard"') == 4
    assert "(385 TV)" in second


@dataclass(frozen=True)
class Profile:
    index: int
    kind: str


def test_each_combat_group_starts_a_row_and_a_sheet_holds_four_rows():
    from armies.hgb.presenters import sheets

    def cards(*sizes):
        groups = [
            SimpleNamespace(
                models=[SimpleNamespace(index=m, profile=Profile(m, f"m{m}")) for m in range(n)]
            )
            for n in sizes
        ]
        return [len(sheet.cards) for sheet in sheets(groups)]

    # The first sheet holds two rows of two cards (the page also holds the summary); the others
    # four rows; a group starts a new row under its heading, at most three headings a sheet.
    assert cards(5, 5) == [4, 6]
    assert cards(5, 5, 5, 5) == [4, 6, 7, 3]
    assert cards(6, 6, 6) == [4, 8, 6]
    assert cards(1, 1, 1, 1, 1) == [2, 3]


def test_identical_models_print_one_card_that_says_how_many():
    from armies.hgb.presenters import sheets

    kinds = ["hunter", "hunter", "grizzly", "hunter", "hunter", "jaguar"]
    group = SimpleNamespace(
        models=[SimpleNamespace(index=m, profile=Profile(m, kind)) for m, kind in enumerate(kinds)]
    )
    printed = [
        (card.model.profile.kind, card.count) for sheet in sheets([group]) for card in sheet.cards
    ]
    assert printed == [("hunter", 4), ("grizzly", 1), ("jaguar", 1)]


def test_the_northern_cards_page_prints_identical_hunters_once(client):
    user = make_user()
    client.force_login(user)
    roster = make_roster(user, preset="north_starter")
    html = client.get(reverse("armies:roster-cards", args=[roster.pk])).content.decode()
    assert html.count('class="datacard"') == 7  # 10 models: 3 pairs of identical Hunters
    assert html.count('<span class="card-count">×2</span>') == 3
