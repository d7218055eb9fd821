"""Templates stay readable in a review: no line over 160 characters (one element a line, as the
roster templates are written). The check the house style names:
``find templates -name '*.html' -exec awk 'length > 160 {print FILENAME": "FNR}' {} +``."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

LIMIT = 160


def test_no_template_line_is_longer_than_160_characters():
    templates = Path(settings.BASE_DIR) / "templates"
    pages = sorted(templates.rglob("*.html"))
    assert len(pages) > 50  # the check reads the project's templates, not an empty folder
    too_long = [
        f"{page.relative_to(templates)}:{number} ({len(line.encode())} bytes)"
        for page in pages
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1)
        if len(line.encode("utf-8")) > LIMIT
    ]
    assert not too_long, "Template lines over 160 characters: " + ", ".join(too_long)
