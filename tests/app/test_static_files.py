"""Static files as production collects them (blitz_site/storage.py): our stylesheets and scripts
minified, then hashed and gzipped by whitenoise, while the files in static/ keep their comments.
A board's first load through nginx is these files (bench/bench_first_load.py)."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import django_htmx
import pytest

from blitz_site.views import PRECACHE

REPO = Path(__file__).resolve().parents[2]
SOURCES = REPO / "static"
OURS = sorted(
    str(path.relative_to(SOURCES)) for ext in ("css", "js") for path in SOURCES.rglob(f"*.{ext}")
)


def collect(root: Path) -> dict[str, str]:
    """``collectstatic`` with the production settings into ``root``: source name -> hashed name."""
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "DEBUG"}}
    env |= {"STATIC_ROOT": str(root), "SECRET_KEY": "collect", "ALLOWED_HOSTS": "127.0.0.1"}
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=REPO,
        env=env,
        check=True,
        timeout=120,
    )
    return json.loads((root / "staticfiles.json").read_text())["paths"]


def comments(text: str) -> list[str]:
    """Lines holding a comment: ``/* ... */`` anywhere, or a line starting with ``//``."""
    return [line for line in text.splitlines() if "/*" in line or line.strip().startswith("//")]


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    root = tmp_path_factory.mktemp("static")
    return root, collect(root)


@pytest.mark.parametrize("name", OURS)
def test_each_stylesheet_and_script_is_sent_minified_under_its_hashed_name(collected, name):
    root, manifest = collected
    source = (SOURCES / name).read_text()
    sent = (root / manifest[name]).read_text()
    assert comments(sent) == []
    assert len(sent) < len(source)
    # nginx's gzip_static and whitenoise send the .gz beside it: the same minified file.
    assert gzip.decompress((root / (manifest[name] + ".gz")).read_bytes()).decode() == sent


def test_the_files_in_static_keep_their_comments(collected):
    assert comments((SOURCES / "js" / "match.js").read_text())
    assert comments((SOURCES / "css" / "match.css").read_text())


def test_a_changed_file_gets_a_new_hashed_name_from_its_minified_text(collected):
    root, manifest = collected
    name = manifest["js/match.js"]
    digest = name.rsplit(".", 2)[1]
    assert hashlib.md5((root / name).read_bytes()).hexdigest()[:12] == digest


def test_files_minified_by_their_authors_are_sent_as_they_are(collected):
    root, manifest = collected
    shipped = Path(django_htmx.__file__).parent / "static" / "django_htmx" / "htmx-2.min.js"
    name = manifest["django_htmx/htmx-2.min.js"]
    assert (root / name).read_bytes() == shipped.read_bytes()


def test_every_file_the_service_worker_stores_is_collected(collected):
    root, manifest = collected
    for name in PRECACHE:
        assert (root / manifest[name]).is_file(), name
