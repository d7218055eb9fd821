"""A request body above the limit is refused before it is read; a real import still works.

The probe's 200 MB multipart upload was spooled to a temporary file before the CSRF check
refused it. Now the limit is checked on Content-Length first (blitz_site.body_limit), and every
body allowed stays in memory (FILE_UPLOAD_HANDLERS holds only the memory handler).
"""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.core.files import temp
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from armies.forms import MAX_IMPORT_BYTES
from armies.models import Roster
from tests.factories import make_roster, make_user

pytestmark = pytest.mark.django_db

BOUNDARY = "BlitzBoundary"


class UnreadableBody:
    """A body that fails the test if anything reads a byte of it."""

    def read(self, *args, **kwargs):
        raise AssertionError("the body of a refused request was read")

    readline = read


@pytest.fixture
def upload_dir(tmp_path, settings, monkeypatch):
    """Django spools an upload to a temporary file (deleted when the request ends): none may be
    made, and none may be left in FILE_UPLOAD_TEMP_DIR."""
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    spooled = []
    real = temp.NamedTemporaryFile

    def spy(*args, **kwargs):
        spooled.append(kwargs.get("suffix"))
        return real(*args, **kwargs)

    monkeypatch.setattr(temp, "NamedTemporaryFile", spy)
    yield tmp_path
    assert spooled == []
    assert list(tmp_path.iterdir()) == []


def csrf_client(user) -> tuple[Client, str]:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    html = client.get(reverse("armies:roster-list")).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    return client, token


def test_a_200_mb_upload_is_refused_with_a_413_before_a_byte_is_read(upload_dir):
    client, _ = csrf_client(make_user())
    response = client.generic(
        "POST",
        reverse("armies:roster-import"),
        content_type=f"multipart/form-data; boundary={BOUNDARY}",
        CONTENT_LENGTH=str(200 * 1024 * 1024),
        **{"wsgi.input": UnreadableBody()},
    )
    assert response.status_code == 413
    html = response.content.decode()
    assert "That was too large to send" in html and "1024 KB" in html
    assert Roster.objects.count() == 0


@pytest.mark.parametrize("size", [1024 * 1024 + 1, 3 * 1024 * 1024])
def test_a_body_over_the_limit_is_refused_and_never_spooled_even_without_a_csrf_token(
    upload_dir, size
):
    """The probe's case: a CSRF cookie but no token. 3 MB is past Django's default in-memory
    size (2.5 MB): before, the CSRF check read the form, spooling the file to disk, to refuse it."""
    assert settings.MAX_REQUEST_BYTES == 1024 * 1024
    client, _ = csrf_client(make_user())
    body = b"x" * size
    upload = SimpleUploadedFile("big.json", body)
    response = client.post(reverse("armies:roster-import"), {"file": upload})
    assert response.status_code == 413


def test_a_file_over_the_import_limit_gets_a_sentence_and_stays_in_memory(upload_dir):
    client, token = csrf_client(make_user())
    upload = SimpleUploadedFile("big.json", b" " * (MAX_IMPORT_BYTES + 1))
    response = client.post(
        reverse("armies:roster-import"), {"file": upload, "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 400
    assert "That file is too large to be a roster export." in response.content.decode()


def test_an_exported_file_still_imports_through_the_csrf_check(upload_dir):
    user = make_user()
    roster = make_roster(user)
    client, token = csrf_client(user)
    exported = client.get(reverse("armies:roster-export-json", args=[roster.pk])).content
    upload = SimpleUploadedFile("list.json", exported, content_type="application/json")
    response = client.post(
        reverse("armies:roster-import"), {"file": upload, "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302
    assert Roster.objects.count() == 2


def test_an_import_pasted_at_the_import_limit_fits_in_a_request(upload_dir):
    """Form encoding turns ``{`` (and ``"``, ``:``, ``,``) into 3 bytes: the request limit leaves
    room for a pasted export at the import limit made only of them."""
    user = make_user()
    roster = make_roster(user)
    client, token = csrf_client(user)
    exported = client.get(reverse("armies:roster-export-json", args=[roster.pk])).content
    document = json.loads(exported)
    document["padding"] = ""
    document["padding"] = "{" * (MAX_IMPORT_BYTES - len(json.dumps(document)))
    text = json.dumps(document)
    assert len(text) == MAX_IMPORT_BYTES
    response = client.post(
        reverse("armies:roster-import"), {"text": text, "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302
    assert Roster.objects.count() == 2
