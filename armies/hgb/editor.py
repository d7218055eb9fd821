"""What the Heavy Gear Blitz editor page shows, and where its rosters start a match."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from armies.hgb.forms import RenameForm, TvLimitForm
from armies.hgb.presenters import roster_view
from armies.models import Roster
from armies.systems.base import form_key, share_url


def play_url(roster: Roster) -> str:
    return f"{reverse('matches:match-new')}?roster={roster.pk}"


def play_against_url(roster: Roster) -> str:
    return f"{reverse('matches:match-new')}?against={roster.share_slug}"


def editor_context(request: HttpRequest, roster: Roster, **extra) -> dict:
    """The editor page and each region an editor change redraws."""
    return {
        "view": roster_view(roster, editing=True),
        "roster": roster,
        "rename_form": RenameForm(initial={"name": roster.name}),
        "tv_form": TvLimitForm(initial={"tv_limit": roster.tv_limit}),
        "share_url": share_url(request, roster),
        "play_url": play_url(roster),
        "key": form_key,
        **extra,
    }
