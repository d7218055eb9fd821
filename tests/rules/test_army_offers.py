"""The builder's offers: checking only the changed group gives the same warnings as checking
the whole roster again."""

from __future__ import annotations

from hypothesis import given, settings

from rules.hgb.army import (
    LIMIT_CODES,
    available_group_upgrades,
    available_options,
    offer_baseline,
    roster_problems,
    set_group_upgrade,
    set_option,
)
from tests.examples import examples
from tests.rules.test_army_properties import CATALOG, rosters


def reference_breaks(roster, taken) -> tuple[str, ...]:
    before = {problem.message for problem in roster_problems(roster, CATALOG)}
    return tuple(
        problem.message
        for problem in roster_problems(taken, CATALOG)
        if problem.code in LIMIT_CODES and problem.message not in before
    )


@settings(max_examples=examples(80), deadline=None)
@given(rosters())
def test_offer_warnings_equal_a_full_recheck(roster):
    baseline = offer_baseline(roster, CATALOG)
    for g, group in enumerate(roster.groups):
        if group.squad not in CATALOG.squads:
            continue
        for m in range(len(group.models)):
            for offer in available_options(roster, CATALOG, g, m, baseline):
                if offer.chosen:
                    continue
                taken = set_option(roster, CATALOG, g, m, offer.id, True)
                assert sorted(offer.breaks) == sorted(reference_breaks(roster, taken))
        for offer in available_group_upgrades(roster, CATALOG, g, baseline):
            if not offer.chosen:
                taken = set_group_upgrade(roster, CATALOG, g, offer.id, True)
                assert sorted(offer.breaks) == sorted(reference_breaks(roster, taken))


def test_a_shared_baseline_gives_the_same_offers_as_none():
    from rules.hgb.army import preset_roster

    roster = preset_roster(CATALOG, "north_starter")
    baseline = offer_baseline(roster, CATALOG)
    for m in range(5):
        assert available_options(roster, CATALOG, 0, m) == available_options(
            roster, CATALOG, 0, m, baseline
        )
