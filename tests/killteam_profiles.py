"""A Kill Team profile for the tests (plain data, no Django: the rules tests use it too).

Every figure is made up for the tests: the Kill Team core rules give no datacards."""

KT_PROFILE = {
    "name": "Test trooper",
    "apl": 2,
    "move": 6,
    "save": 4,
    "wounds": 8,
    "weapons": [
        {
            "name": "Test gun",
            "kind": "ranged",
            "attacks": 4,
            "hit": 4,
            "normal_damage": 3,
            "critical_damage": 4,
            "rules": ["Lethal 5+", "Piercing 1"],
        },
        {
            "name": "Test blade",
            "kind": "melee",
            "attacks": 3,
            "hit": 4,
            "normal_damage": 3,
            "critical_damage": 5,
            "rules": [],
        },
    ],
}

# A second made-up profile: another player's team (10 wounds: 5 left is not injured, 4 is).
KT_SCOUT = {
    "name": "Test scout",
    "apl": 2,
    "move": 7,
    "save": 5,
    "wounds": 10,
    "weapons": [
        {
            "name": "Test carbine",
            "kind": "ranged",
            "attacks": 4,
            "hit": 3,
            "normal_damage": 2,
            "critical_damage": 3,
            "rules": ["Balanced"],
        },
    ],
}
