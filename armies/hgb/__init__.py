"""Heavy Gear Blitz! Locked & Loaded rosters: combat groups, loadouts, TV and legality from
``rules.hgb``, and the datacard figures players type in (``armies.systems.hgb`` is its builder).

``views`` and ``urls``: the editor's changes (htmx regions or a redirect); ``editor``: what the
editor page shows; ``forms``, ``presenters``, ``services`` (roster writes), ``packs`` (figure
writes), ``datacards`` (its datacard pages) and ``exports`` (its export body and Markdown)."""
