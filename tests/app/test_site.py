from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import OperationalError
from django.urls import reverse

from blitz_site import settings as site_settings
from blitz_site import views

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_home_page_says_what_blitz_is_and_links_to_builder_and_tracker(client):
    response = client.get(reverse("home"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Heavy Gear Blitz" in html
    assert f'href="{reverse("armies:roster-list")}"' in html
    assert f'href="{reverse("matches:match-list")}"' in html


@pytest.mark.django_db
def test_pages_load_htmx_and_send_the_csrf_token_with_it(client):
    html = client.get(reverse("home")).content.decode()
    assert "django_htmx/htmx-2.min.js" in html
    assert 'hx-headers=\'{"X-CSRFToken": "' in html


@pytest.mark.django_db
def test_home_refuses_post(client):
    assert client.post(reverse("home")).status_code == 405


@pytest.mark.django_db
def test_healthz_answers_ok_after_a_database_round_trip(client, django_assert_num_queries):
    with django_assert_num_queries(1):
        response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}
    assert "no-cache" in response["Cache-Control"]


class _DownConnection:
    def cursor(self):
        raise OperationalError("connection refused")


@pytest.mark.django_db
def test_healthz_is_503_when_the_database_is_down(client, monkeypatch):
    monkeypatch.setattr(views, "connection", _DownConnection())
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json()["database"] == "unreachable"


def _import_settings(env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    return subprocess.run(
        [sys.executable, "-c", "import blitz_site.settings as s; print(s.DATABASES['default'])"],
        cwd=REPO,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_missing_secret_key_outside_debug_is_a_clear_startup_error():
    result = _import_settings({})
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_debug_runs_without_a_secret_key():
    result = _import_settings({"DEBUG": "1"})
    assert result.returncode == 0, result.stderr


def test_sqlite_is_the_default_database_with_wal_mode():
    db = site_settings.sqlite_database(Path("x.sqlite3"))
    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert "journal_mode=WAL" in db["OPTIONS"]["init_command"]


def test_a_fresh_sqlite_database_really_runs_in_wal_mode(tmp_path):
    db = tmp_path / "wal.sqlite3"
    code = (
        "import django; django.setup();"
        "from django.db import connection;"
        "c = connection.cursor(); c.execute('PRAGMA journal_mode'); print(c.fetchone()[0])"
    )
    clean = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env={
            **clean,
            "DJANGO_SETTINGS_MODULE": "blitz_site.settings",
            "DEBUG": "1",
            "DATABASE_URL": f"sqlite:///{db}",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "wal"


def test_database_url_switches_to_postgresql():
    db = site_settings.database_from_url("postgres://blitz:s%40cret@db.example:6543/blitz")
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert db["CONN_HEALTH_CHECKS"] is True
    assert db["CONN_MAX_AGE"] == 0 and db["OPTIONS"]["pool"]["max_size"] == 10
    assert (db["NAME"], db["USER"], db["PASSWORD"]) == ("blitz", "blitz", "s@cret")
    assert (db["HOST"], db["PORT"]) == ("db.example", "6543")


def test_an_unknown_database_url_scheme_is_refused_in_words():
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match="postgres://"):
        site_settings.database_from_url("mysql://x@y/z")


def test_production_settings_pass_the_deploy_check():
    dropped = {"DEBUG", "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {k: v for k, v in os.environ.items() if k not in dropped}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO,
        env={
            **clean,
            "SECRET_KEY": "x" * 20 + "production-like-secret-key-with-enough-entropy-0123456789",
            "HTTPS": "1",
            "ALLOWED_HOSTS": "blitz.example",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy_without_inline_script(client):
    response = client.get(reverse("home"))
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "frame-ancestors 'none'" in policy
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
