"""The WWII skirmish tracker (written by its own part of the work; empty until then)."""
