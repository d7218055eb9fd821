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
