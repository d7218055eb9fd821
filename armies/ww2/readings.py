"""What the WWII rules fragment gives, only mentions, and leaves to the players, topic by
topic, in Blitz's own words: the page "What these rules give" (``armies:ww2-rules``)."""

from __future__ import annotations

from dataclasses import dataclass

NOT_GIVEN = "Not in the rules text: the players decide or enter it."


@dataclass(frozen=True)
class Topic:
    name: str
    gives: str
    mentions: str
    left: str


GIVEN = (
    Topic(
        "Unit profiles",
        "The kinds of armament a vehicle may carry; a tank's machine guns and flamethrower fire "
        "12 inches.",
        "Gun classes, armour classes, the infantry weapons' characteristics.",
        "Every profile: you enter the armour and gun class from your own cards.",
    ),
    Topic(
        "Costs",
        "Nothing.",
        "Machine guns are “paid for”; specialisation cards are bought for command points.",
        "Every cost and any budget: a force in Blitz has no points.",
    ),
    Topic(
        "Hit test",
        "What napalm does on a hit (every unit within 4 inches destroyed) and on a miss (the "
        "card is gone).",
        "The hit test and attack strength.",
        "The test itself and its dice: the players roll it and enter hit or miss.",
    ),
    Topic(
        "Vehicle damage",
        "A gun whose class is above the armour class damages or destroys; a second damage "
        "destroys; a damaged vehicle keeps its figures; running gear damage stops it moving "
        "for the rest of the game.",
        "An example table, which is garbled in the text.",
        "Whether a hit damages or destroys: the players choose.",
    ),
    Topic(
        "Transport, crew, capture",
        "Seats (a truck 4–16, an APC 12 and a tank 6 as the standard); towing needs 6 or more "
        "seats or a tracked tractor; the two-turn sequences; riders lost when their tank is "
        "damaged; a crew of 1–5, optional, which survives its vehicle's destruction; the capture "
        "conditions and test (11–20 on the die).",
        "A section on disembarking (5.7) that the fragment does not include.",
        "Where survivors stand; which die the capture test uses (Blitz reads a d20).",
    ),
    Topic(
        "Specialisations",
        "Spotter; mine trawl (single use, tanks only); active armour (single use, armour "
        "classes 2–6 only, cancels one hit).",
        "The scout's and radio operator's functions, anti-tank mines.",
        "Their costs, and how many a vehicle may take.",
    ),
    Topic(
        "Smoke",
        "A 5x1 inch strip placed within 4 inches of the vehicle, or fired from a gun of class "
        "3–6 instead of a shell.",
        "A section on smoke (6.1) that the fragment does not include.",
        "What smoke does and how long it lasts.",
    ),
    Topic(
        "Morale",
        "Every soldier should be within 12 inches of a commander or an officer; at the end of "
        "a turn, those beyond it take a morale test.",
        "The morale test (section 1.2, not included).",
        "The test and its result: the players enter it.",
    ),
    Topic(
        "The wounded and prisoners",
        "Killed or wounded; a wound test in later turns; carrying a wounded soldier; a turn "
        "of moving only after recovery; taking a wounded enemy prisoner.",
        "The wound test.",
        "The test and its outcomes: the players enter them.",
    ),
    Topic(
        "Hand-to-hand",
        "Only within 1 inch, once a turn per soldier instead of shooting; a roll of 2 dice, the "
        "higher wins, and the winner chooses killed or wounded.",
        "Nothing more.",
        "The size of the dice and what a tie does.",
    ),
    Topic(
        "Turn sequence",
        "Rules speak of turns.",
        "Nothing more.",
        "What a turn is, its phases, how the game ends and who wins.",
    ),
)
