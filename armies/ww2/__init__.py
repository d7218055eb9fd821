"""The WWII skirmish force editor: its forms, views, services and URLs (``armies.systems.ww2``
is its builder)."""
