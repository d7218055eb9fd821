"""Heavy Gear Blitz! Locked & Loaded: its roster editor, forms, presenters and services."""
