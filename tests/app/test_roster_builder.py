from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

import rules.hgb
from armies.models import Roster
from tests.factories import PASSWORD, make_big_roster, make_roster, make_user

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def edit_url(roster, name="armies:roster-edit", *args):
    return reverse(name, args=[roster.pk, *args])


def army(roster) -> rules.hgb.Roster:
    roster.refresh_from_db()
    return rules.hgb.roster_from_dict(roster.army, rules.hgb.default_catalog())


def tv(roster) -> int:
    return rules.hgb.roster_cost(army(roster), rules.hgb.default_catalog()).total


@pytest.fixture
def user():
    return make_user("jan")


@pytest.fixture
def owner_client(client, user):
    client.force_login(user)
    return client


def grizzly_index(roster) -> tuple[int, int, str]:
    """The second Grizzly of the North preset's Fire Support Squad (no MBZK yet)."""
    a = army(roster)
    for g, group in enumerate(a.groups):
        grizzlies = [m for m, e in enumerate(group.models) if e.model == "grizzly"]
        if grizzlies:
            for m in grizzlies:
                if "north_grizzly_mbzk" not in group.models[m].options:
                    return g, m, "north_grizzly_mbzk"
    raise AssertionError("no free Grizzly")


# --- My rosters ----------------------------------------------------------------------------


def test_a_guest_can_create_a_roster_from_a_preset_at_once(client):
    response = client.post(reverse("armies:roster-create"), {"start": "preset:north_starter"})
    roster = Roster.objects.get()
    assert response.status_code == 302
    assert response["Location"] == edit_url(roster)
    assert roster.owner is None and roster.guest_key
    assert tv(roster) == 610
    assert roster.data_fingerprint == rules.hgb.default_catalog().fingerprint
    page = client.get(reverse("armies:roster-list")).content.decode()
    assert "Northern Guard starter force" in page
    assert "Create an account" in page  # the gentle reminder


def test_an_empty_roster_for_a_faction(owner_client):
    owner_client.post(reverse("armies:roster-create"), {"start": "faction:peace_river"})
    roster = Roster.objects.get()
    assert roster.faction == "peace_river" and army(roster).groups == ()
    assert "No combat groups yet" in owner_client.get(edit_url(roster)).content.decode()


def test_creating_with_a_tampered_start_is_a_form_error(owner_client):
    response = owner_client.post(reverse("armies:roster-create"), {"start": "preset:nope"})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not Roster.objects.exists()


def test_signing_up_keeps_the_guests_rosters(client):
    client.post(reverse("armies:roster-create"), {"start": "preset:north_starter"})
    client.post(
        reverse("signup"), {"username": "kim", "password1": PASSWORD, "password2": PASSWORD}
    )
    roster = Roster.objects.get()
    assert roster.owner.username == "kim" and roster.guest_key == ""
    assert (
        "Northern Guard starter force" in client.get(reverse("armies:roster-list")).content.decode()
    )


def test_logging_in_keeps_the_guests_rosters(client, user):
    client.post(reverse("armies:roster-create"), {"start": "preset:south_starter"})
    client.post(reverse("login"), {"username": "jan", "password": PASSWORD})
    assert Roster.objects.get().owner == user


def test_another_players_roster_is_404_everywhere(client, user):
    roster = make_roster(user)
    client.force_login(make_user("eve"))
    for name in ["armies:roster-edit", "armies:roster-cards", "armies:roster-export-json"]:
        assert client.get(edit_url(roster, name)).status_code == 404
    for name in ["armies:roster-rename", "armies:roster-duplicate", "armies:roster-delete"]:
        assert client.post(edit_url(roster, name), {"name": "Mine now"}).status_code == 404
    assert (
        client.post(
            edit_url(roster, "armies:group-add"), {"squad": "x", "key": "k" * 12}
        ).status_code
        == 404
    )
    roster.refresh_from_db()
    assert roster.name == "Northern Guard starter force" and roster.deleted_at is None


def test_an_anonymous_visitor_cannot_touch_a_guests_roster(client):
    roster = make_roster(guest_key="someone-elses-key")
    assert client.get(edit_url(roster)).status_code == 404


def test_rename_and_tv_limit(owner_client, user):
    roster = make_roster(user)
    owner_client.post(edit_url(roster, "armies:roster-rename"), {"name": "  Ice  Wall "})
    owner_client.post(edit_url(roster, "armies:roster-tv-limit"), {"tv_limit": "600"})
    roster.refresh_from_db()
    assert roster.name == "Ice Wall" and roster.tv_limit == 600
    html = owner_client.get(edit_url(roster)).content.decode()
    assert "over its 600 TV limit" in html


@pytest.mark.parametrize("value", ["0", "-5", "10001", "abc", "6.5", ""])
def test_an_out_of_range_tv_limit_is_refused_in_words(owner_client, user, value):
    roster = make_roster(user)
    response = owner_client.post(
        edit_url(roster, "armies:roster-tv-limit"), {"tv_limit": value}, **HTMX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'role="alert"' in html
    roster.refresh_from_db()
    assert roster.tv_limit == 610


def test_duplicate_makes_an_independent_copy(owner_client, user):
    roster = make_roster(user)
    response = owner_client.post(edit_url(roster, "armies:roster-duplicate"))
    copy = Roster.objects.exclude(pk=roster.pk).get()
    assert response["Location"] == edit_url(copy)
    assert copy.name == "Copy of Northern Guard starter force"
    assert copy.army["groups"] == roster.army["groups"]
    assert copy.share_slug != roster.share_slug


def test_delete_asks_first_then_can_be_undone(owner_client, user):
    roster = make_roster(user)
    confirm = owner_client.get(edit_url(roster, "armies:roster-delete"))
    assert "restore it for 30 days" in confirm.content.decode()
    assert Roster.objects.live().count() == 1  # asking deletes nothing
    owner_client.post(edit_url(roster, "armies:roster-delete"))
    assert Roster.objects.live().count() == 0
    listing = owner_client.get(reverse("armies:roster-list")).content.decode()
    assert "Recently deleted" in listing
    assert owner_client.get(edit_url(roster)).status_code == 404
    owner_client.post(edit_url(roster, "armies:roster-restore"))
    assert Roster.objects.live().get() == roster


def test_a_deleted_roster_older_than_30_days_cannot_be_restored(owner_client, user):
    from datetime import timedelta

    from django.utils import timezone

    roster = make_roster(user)
    Roster.objects.filter(pk=roster.pk).update(deleted_at=timezone.now() - timedelta(days=31))
    assert owner_client.post(edit_url(roster, "armies:roster-restore")).status_code == 404


# --- The editor -----------------------------------------------------------------------------


def test_option_swap_over_htmx_returns_the_group_and_oob_total_and_problems(owner_client, user):
    roster = make_roster(user)
    g, m, option = grizzly_index(roster)
    response = owner_client.post(
        edit_url(roster, "armies:model-option", g, m),
        {"option": option, "chosen": "1", "model": "grizzly"},
        **HTMX,
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in html
    assert html.lstrip().startswith(f'<section id="group-{g}"')
    assert 'id="roster-summary" class="roster-summary is-over"' in html
    assert 'hx-swap-oob="true"' in html
    assert '<strong data-testid="roster-tv">620</strong>' in html
    assert "over its 610 TV limit" in html
    assert tv(roster) == 620


def test_option_swap_without_javascript_redirects_to_the_group(owner_client, user):
    roster = make_roster(user)
    g, m, option = grizzly_index(roster)
    response = owner_client.post(
        edit_url(roster, "armies:model-option", g, m),
        {"option": option, "chosen": "1", "model": "grizzly"},
    )
    assert response.status_code == 302
    assert response["Location"].endswith(f"#group-{g}")
    assert tv(roster) == 620


def test_an_option_the_model_cannot_take_is_refused_where_the_player_looks(owner_client, user):
    roster = make_roster(user)
    a = army(roster)
    g = next(i for i, grp in enumerate(a.groups) if grp.squad == "north_fire_support")
    m = next(i for i, e in enumerate(a.groups[g].models) if e.model == "hunter")
    response = owner_client.post(
        edit_url(roster, "armies:model-option", g, m),
        {"option": "north_grizzly_mbzk", "chosen": "1", "model": "hunter"},
        **HTMX,
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert 'class="flash-error" role="alert"' in html
    assert "HAC" in html
    assert tv(roster) == 610


@pytest.mark.parametrize(
    "data",
    [
        {"option": "no_such_option", "chosen": "1", "model": "grizzly"},
        {"option": "north_mac", "chosen": "1", "model": "grizzly"},
    ],
)
def test_tampered_options_are_refused_in_words_never_500(owner_client, user, data):
    roster = make_roster(user)
    g, m, _ = grizzly_index(roster)
    response = owner_client.post(edit_url(roster, "armies:model-option", g, m), data, **HTMX)
    assert response.status_code == 200
    assert "flash-error" in response.content.decode()
    assert tv(roster) == 610


def test_a_malformed_chosen_flag_is_a_400_with_a_message(owner_client, user):
    roster = make_roster(user)
    response = owner_client.post(
        edit_url(roster, "armies:model-option", 0, 0), {"option": "north_mac", "chosen": "yes"}
    )
    assert response.status_code == 400
    assert b"chosen" in response.content


def test_out_of_range_indexes_are_refused_in_words(owner_client, user):
    roster = make_roster(user)
    response = owner_client.post(
        edit_url(roster, "armies:model-option", 7, 0),
        {"option": "north_mac", "chosen": "1"},
        **HTMX,
    )
    assert response.status_code == 200
    assert "There is no Combat Group 8" in response.content.decode()


def test_adding_a_group_twice_with_the_same_key_adds_it_once(owner_client, user):
    roster = make_roster(user)
    data = {"squad": "north_general_purpose", "key": "retry-key-0001"}
    first = owner_client.post(edit_url(roster, "armies:group-add"), data, **HTMX)
    second = owner_client.post(edit_url(roster, "armies:group-add"), data, **HTMX)
    assert first.status_code == second.status_code == 200
    assert len(army(roster).groups) == 3
    assert first.content.decode().lstrip().startswith('<div id="roster-groups"')


def test_removing_a_model_twice_with_the_same_key_removes_one(owner_client, user):
    roster = make_roster(user)
    page = owner_client.get(reverse("armies:roster-edit", args=[roster.pk])).content.decode()
    assert 'aria-label="Remove Hunter (model 1)"' in page  # models counted from 1, as players do
    data = {"model": "hunter", "key": "retry-key-0002"}
    owner_client.post(edit_url(roster, "armies:model-remove", 0, 0), data, **HTMX)
    owner_client.post(edit_url(roster, "armies:model-remove", 0, 0), data, **HTMX)
    assert len(army(roster).groups[0].models) == 4


def test_a_change_aimed_at_a_model_that_moved_is_refused(owner_client, user):
    roster = make_roster(user)
    response = owner_client.post(
        edit_url(roster, "armies:model-remove", 0, 4),
        {"model": "hunter", "key": "retry-key-0003"},  # model 5 is the HeadHunter
        **HTMX,
    )
    assert "changed in another window" in response.content.decode()
    assert len(army(roster).groups[0].models) == 5


def test_keyed_changes_without_a_key_are_a_400(owner_client, user):
    roster = make_roster(user)
    response = owner_client.post(
        edit_url(roster, "armies:group-add"), {"squad": "north_general_purpose"}
    )
    assert response.status_code == 400
    assert len(army(roster).groups) == 2


def test_a_seventh_model_is_kept_and_flagged(owner_client, user):
    roster = make_roster(user)
    for n in range(2):
        owner_client.post(
            edit_url(roster, "armies:model-add", 0),
            {"model": "hunter", "key": f"add-hunter-{n:04d}"},
        )
    html = owner_client.get(edit_url(roster)).content.decode()
    assert len(army(roster).groups[0].models) == 7
    assert "Combat Group 1 has 7 models; a combat group holds at most 6" in html
    assert "Not legal" in html


def test_the_veteran_command_squad_upgrade_toggles(owner_client, user):
    roster = make_roster(user)
    a = army(roster)
    g = next(i for i, grp in enumerate(a.groups) if "north_veteran_command" in grp.upgrades)
    owner_client.post(
        edit_url(roster, "armies:group-upgrade", g),
        {"upgrade": "north_veteran_command", "chosen": "0", "squad": a.groups[g].squad},
    )
    assert tv(roster) == 530


def test_wrong_methods_are_405(owner_client, user):
    roster = make_roster(user)
    assert owner_client.get(edit_url(roster, "armies:group-add")).status_code == 405
    assert owner_client.get(edit_url(roster, "armies:model-option", 0, 0)).status_code == 405
    assert owner_client.post(edit_url(roster)).status_code == 405
    assert owner_client.put(edit_url(roster, "armies:roster-delete")).status_code == 405


@pytest.mark.parametrize("groups", [2, 10])
def test_editor_page_queries_do_not_grow_with_the_roster(
    owner_client, user, groups, django_assert_max_num_queries
):
    roster = make_big_roster(user, groups)
    with django_assert_max_num_queries(3):  # the match history is a fragment of its own
        response = owner_client.get(edit_url(roster))
    assert response.status_code == 200
    assert response.content.decode().count('class="group card"') == groups


@pytest.mark.parametrize("groups", [2, 10])
def test_option_change_queries_do_not_grow_with_the_roster(
    owner_client, user, groups, django_assert_max_num_queries
):
    roster = make_big_roster(user, groups)
    g, m, option = grizzly_index(roster)
    with django_assert_max_num_queries(6):
        response = owner_client.post(
            edit_url(roster, "armies:model-option", g, m),
            {"option": option, "chosen": "1", "model": "grizzly"},
            **HTMX,
        )
    assert response.status_code == 200


# --- CSRF --------------------------------------------------------------------------------------


@pytest.fixture
def csrf_client(user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    ("name", "args", "data"),
    [
        ("armies:roster-create", (), {"start": "preset:north_starter"}),
        ("armies:roster-rename", ("pk",), {"name": "x"}),
        ("armies:roster-tv-limit", ("pk",), {"tv_limit": "700"}),
        ("armies:roster-duplicate", ("pk",), {}),
        ("armies:roster-delete", ("pk",), {}),
        ("armies:group-add", ("pk",), {"squad": "north_general_purpose", "key": "csrf-key-0001"}),
        ("armies:group-remove", ("pk", 0), {"key": "csrf-key-0002"}),
        ("armies:model-add", ("pk", 0), {"model": "hunter", "key": "csrf-key-0003"}),
        ("armies:model-remove", ("pk", 0, 0), {"key": "csrf-key-0004"}),
        ("armies:model-option", ("pk", 0, 0), {"option": "north_mac", "chosen": "1"}),
        ("armies:group-upgrade", ("pk", 0), {"upgrade": "north_veteran_command", "chosen": "1"}),
        ("armies:roster-share-new", ("pk",), {}),
        ("armies:roster-share-revoke", ("pk",), {}),
        ("armies:roster-import", (), {"text": "{}"}),
    ],
)
def test_every_roster_form_enforces_csrf(csrf_client, user, name, args, data):
    roster = make_roster(user)
    before = (roster.army, roster.name, roster.tv_limit, roster.share_slug)
    url = reverse(name, args=[roster.pk if a == "pk" else a for a in args])
    assert csrf_client.post(url, data, HTTP_HX_REQUEST="true").status_code == 403
    roster.refresh_from_db()
    assert (roster.army, roster.name, roster.tv_limit, roster.share_slug) == before
    assert Roster.objects.count() == 1


def test_htmx_requests_pass_csrf_with_the_header_from_the_page(user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    roster = make_roster(user)
    page = client.get(edit_url(roster)).content.decode()
    token = json.loads(page.split("hx-headers='", 1)[1].split("'", 1)[0])["X-CSRFToken"]
    g, m, option = grizzly_index(roster)
    response = client.post(
        edit_url(roster, "armies:model-option", g, m),
        {"option": option, "chosen": "1", "model": "grizzly"},
        HTTP_HX_REQUEST="true",
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 200
    assert tv(roster) == 620


def test_the_editor_loads_the_match_history_with_a_link_as_fallback(owner_client, user):
    roster = make_roster(user)
    html = owner_client.get(edit_url(roster)).content.decode()
    history_url = reverse("matches:roster-history", args=[roster.pk])
    assert f'hx-get="{history_url}" hx-trigger="load"' in html
    assert f'<a href="{history_url}">' in html
    assert f"?roster={roster.pk}" in html


def test_editor_and_option_change_use_the_same_queries_for_2_and_10_groups(owner_client, user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = {}
    for groups in (2, 10):
        roster = make_big_roster(user, groups)
        g, m, option = grizzly_index(roster)
        with CaptureQueriesContext(connection) as page:
            owner_client.get(edit_url(roster))
        with CaptureQueriesContext(connection) as change:
            owner_client.post(
                edit_url(roster, "armies:model-option", g, m),
                {"option": option, "chosen": "1", "model": "grizzly"},
                **HTMX,
            )
        with CaptureQueriesContext(connection) as together:
            owner_client.post(
                edit_url(roster, "armies:model-option-all", 0, 0),
                {"option": "north_fgc", "chosen": "1", "model": "hunter", "count": "2"},
                **HTMX,
            )
        counts[groups] = (len(page), len(change), len(together))
    assert counts[2] == counts[10]


# --- Issue 12: compact and clear ----------------------------------------------------------------


def problems_panel(html: str) -> str:
    return html.split('<section id="roster-problems"', 1)[1].split("</section>", 1)[0]


def test_each_model_is_one_tap_away_with_its_tv_on_the_summary_line(owner_client, user):
    roster = make_roster(user)
    html = owner_client.get(edit_url(roster)).content.decode()
    assert html.count('<details id="group-') == 10
    first = html.split('id="group-0-model-0-details"', 1)[1].split("</summary>", 1)[0]
    assert "Hunter" in first and '<span class="model-tv">+10 TV</span>' in first


def test_identical_models_are_offered_a_swap_together_only_where_the_rules_allow(
    owner_client, user
):
    roster = make_roster(user)
    html = owner_client.get(edit_url(roster)).content.decode()
    # Hunters 1 and 2 (both MAC) may swap to the FGC together: still two swaps in the squad.
    assert 'id="g0-m0-all-north_fgc"' in html and "Apply to both Hunters" in html
    assert 'id="g0-m0-all-north_mac"' in html  # ...or drop the MAC together
    # Hunters 3 and 4 may not both take a swap: the squad allows two.
    assert 'id="g0-m2-all-north_mac"' not in html
    assert 'id="g0-m4-all-' not in html  # the HeadHunter is alone


def test_apply_to_both_hunters_is_one_change_over_htmx(owner_client, user):
    roster = make_roster(user)
    response = owner_client.post(
        edit_url(roster, "armies:model-option-all", 0, 0),
        {"option": "north_fgc", "chosen": "1", "model": "hunter", "count": "2"},
        **HTMX,
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="group-0"')
    assert "Drop from both Hunters" in html
    assert [e.options for e in army(roster).groups[0].models[:3]] == [
        ("north_fgc",),
        ("north_fgc",),
        (),
    ]
    owner_client.post(
        edit_url(roster, "armies:model-option-all", 0, 1),
        {"option": "north_fgc", "chosen": "0", "model": "hunter", "count": "2"},
    )
    assert [e.options for e in army(roster).groups[0].models[:2]] == [(), ()]


def test_apply_to_all_that_would_break_a_limit_is_refused_in_a_sentence(owner_client, user):
    roster = make_roster(user)
    response = owner_client.post(
        edit_url(roster, "armies:model-option-all", 0, 2),
        {"option": "north_mac", "chosen": "1", "model": "hunter", "count": "2"},
        **HTMX,
    )
    html = response.content.decode()
    assert 'class="flash-error" role="alert"' in html
    assert "cannot both take" in html and "may swap their LAC" in html
    assert tv(roster) == 610


def test_apply_to_all_aimed_at_models_that_changed_is_refused(owner_client, user):
    roster = make_roster(user)
    response = owner_client.post(
        edit_url(roster, "armies:model-option-all", 0, 0),
        {"option": "north_fgc", "chosen": "1", "model": "hunter", "count": "3"},
        **HTMX,
    )
    assert "changed in another window or tab" in response.content.decode()
    assert tv(roster) == 610 and army(roster).groups[0].models[0].options == ("north_mac",)


def test_a_change_redraws_every_other_groups_offers_against_the_new_total(owner_client, user):
    roster = make_roster(user)
    html = owner_client.get(edit_url(roster)).content.decode()
    assert "The army costs 690 TV, over its 610 TV limit." in html  # Veteran squad for group 1
    g, m, option = grizzly_index(roster)  # the MBZK: 620 TV
    html = owner_client.post(
        edit_url(roster, "armies:model-option", g, m),
        {"option": option, "chosen": "1", "model": "grizzly"},
        **HTMX,
    ).content.decode()
    other = html.split('<div id="group-0-upgrades" class="upgrades" hx-swap-oob="true">', 1)[1]
    assert "The army costs 700 TV, over its 610 TV limit." in other.split("</div>", 1)[0]
    assert "690 TV" not in html
    assert 'id="group-0-model-2-options" class="options" hx-swap-oob="true"' in html
    assert "The army costs 630 TV" in html  # a third LAC swap in group 1, from 620


def test_a_new_tv_limit_redraws_every_groups_offers(owner_client, user):
    roster = make_roster(user)
    html = owner_client.post(
        edit_url(roster, "armies:roster-tv-limit"), {"tv_limit": "700"}, **HTMX
    ).content.decode()
    assert 'id="group-0-upgrades" class="upgrades" hx-swap-oob="true"' in html
    assert 'id="group-1-model-3-options" class="options" hx-swap-oob="true"' in html
    assert "over its 610 TV limit" not in html and "over its 700 TV limit" not in html


def test_reasons_an_offer_would_break_a_rule_are_text_not_a_tooltip(owner_client, user):
    roster = make_roster(user)
    html = owner_client.get(edit_url(roster)).content.decode()
    assert '<p class="will-break" id="g0-m2-opt-north_mac-why">Would break: Only two' in html
    assert 'aria-describedby="g0-m2-opt-north_mac-why"' in html
    assert "title=" not in html.split('<div id="roster-groups"', 1)[1]


def test_the_problems_panel_lists_each_problem_once(owner_client, user):
    roster = make_roster(user)
    owner_client.post(
        edit_url(roster, "armies:model-add", 1), {"model": "jaguar", "key": "add-jaguar-0001"}
    )
    html = owner_client.get(edit_url(roster)).content.decode()
    panel = problems_panel(html)
    sentence = "so model 6 of Combat Group 2, beyond the Fire Support Squad"
    assert panel.count(sentence) == 1
    assert panel.count("Combat Group 2 has 2 Jaguars") == 1


def test_the_tv_bar_says_what_it_counts(owner_client, user):
    roster = make_roster(user)
    html = owner_client.get(edit_url(roster)).content.decode()
    summary = html.split('<div id="roster-summary"', 1)[1].split("</div>", 1)[0]
    assert 'Total TV <strong data-testid="roster-tv">610</strong> of 610' in summary
    assert "(squads, models, upgrades and options)" in summary


@pytest.mark.parametrize("groups", [2, 10])
def test_apply_to_all_and_tv_limit_queries_do_not_grow_with_the_roster(
    owner_client, user, groups, django_assert_max_num_queries
):
    roster = make_big_roster(user, groups)
    with django_assert_max_num_queries(6):
        response = owner_client.post(
            edit_url(roster, "armies:model-option-all", 0, 0),
            {"option": "north_fgc", "chosen": "1", "model": "hunter", "count": "2"},
            **HTMX,
        )
    assert response.status_code == 200
    assert response.content.decode().count('hx-swap-oob="true"') > groups  # every group's offers
    with django_assert_max_num_queries(7):  # a settings change reads the roster once more
        owner_client.post(edit_url(roster, "armies:roster-tv-limit"), {"tv_limit": "700"}, **HTMX)
