"""Blitz's game rules, pure Python and stdlib only: one package per game, and what they share.

- ``rules.hgb``: Heavy Gear Blitz! Locked & Loaded (the quickstart rules).
- ``rules.killteam``: Kill Team (2024).
- Shared by every game, and belonging to none: ``rules.errors`` (the one error type, a sentence
  for the player), ``rules.exact`` (exact dice distributions) and ``rules.eventlog`` (the match
  event log: replay, undo, redo).

A game's rules are imported from its own package (``from rules.hgb import ...``,
``from rules.killteam.shoot import ...``); this package re-exports nothing.
"""
