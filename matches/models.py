"""Matches as stored: two roster snapshots, the seats of the players, the log, the current state.

The state of a match is what its events say (its game's ``replay``). ``initial`` is the state
the match started with, so a replay never needs the rosters or the game data again. Each event keeps
what it changed (``before``, ``after``, and the keys it wrote and read). ``state`` is a snapshot:
the state after event ``state_seq``, written every ``SNAPSHOT_EVERY`` events (and when a match ends
or comes back), so a tap writes one small event row instead of the whole state. The current state is
the snapshot with the ``after`` of each later event put back (the game's ``apply_parts``), read
in one query however many taps an app server did not see. An undo is decided from the events from
the one it takes back on: the state before them is the current one with their ``before`` put back,
and the log before them is never replayed. Every game's match is stored so: a game names its reader
and writer of a state and its ``apply_parts`` in a ``StateStorage``, which the match's game gives
(``matches.systems``: each game's tracker names its ``matches.taps.Game``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Subquery

from armies.models import Owner, system_field
from matches import systems
from matches.lru import LRU
from rules.eventlog import LogEntry

SLUG_BYTES = 16  # 128 bits, URL-safe base64: 22 characters
SIDES = ("a", "b")
STATES_KEPT = 128
# A tap writes the whole state once in this many events: a state is read with at most this many
# small event rows after its snapshot.
SNAPSHOT_EVERY = 50
# The big columns: the roster snapshots and the states. A read that needs only the match's own
# fields defers them (``current`` reads the state on demand, when it must).
HEAVY_FIELDS = ("initial", "a_army", "b_army", "state")


# Match states already read, by (match, event number, time of the write, the game's storage): the
# state after an event never changes (the next event makes a new number and a new time), so a tap
# need not read and parse it again; a write that was rolled back leaves an entry no row will ever
# name. Every app server has its own; it only spares reading, the rows are the truth.
STATES: LRU[Any] = LRU(STATES_KEPT)


@dataclass(frozen=True)
class StateStorage:
    """How a game's match state is stored: ``read`` and ``write`` a whole state as plain data
    (the snapshot), ``apply_parts`` puts an event's recorded change (its ``after``) into a state."""

    read: Callable[[Mapping[str, Any]], Any]
    write: Callable[[Any], dict]
    apply_parts: Callable[[Any, Mapping[str, Any]], Any]


def new_slug() -> str:
    return secrets.token_urlsafe(SLUG_BYTES)


class MatchQuerySet(models.QuerySet):
    def played_by(self, owner: Owner) -> MatchQuerySet:
        """Matches in which ``owner`` holds a seat."""
        if owner.user_id is not None:
            return self.filter(
                models.Q(a_user_id=owner.user_id) | models.Q(b_user_id=owner.user_id)
            )
        if owner.guest_key:
            return self.filter(
                models.Q(a_user__isnull=True, a_guest_key=owner.guest_key)
                | models.Q(b_user__isnull=True, b_guest_key=owner.guest_key)
            )
        return self.none()


class Match(models.Model):
    class Status(models.TextChoices):
        LIVE = "live", "In progress"
        ENDED = "ended", "Ended"

    class Source(models.TextChoices):
        ROSTER = "roster", "A roster of mine"
        SHARED = "shared", "A shared list"
        PRESET = "preset", "A starter force"

    system = system_field()  # the game played (``blitz_site.systems``)
    # Seat A: the player who started the match. Seat B: the opponent who joined by the join link;
    # until then the player of seat A tracks both sides.
    a_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    a_guest_key = models.CharField(max_length=64, blank=True)
    a_player = models.CharField(max_length=150, blank=True)
    a_token = models.CharField(max_length=32, default=new_slug)
    b_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    b_guest_key = models.CharField(max_length=64, blank=True)
    b_player = models.CharField(max_length=150, blank=True)
    b_token = models.CharField(max_length=32, blank=True)

    # The two rosters as they were when the match started (editing a roster later changes nothing).
    a_roster = models.ForeignKey(
        "armies.Roster",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="matches_as_a",
    )
    a_source = models.CharField(max_length=8, choices=Source.choices, default=Source.ROSTER)
    a_army = models.JSONField(default=dict)
    a_roster_name = models.CharField(max_length=200)
    a_faction = models.CharField(max_length=64)
    a_fingerprint = models.CharField(max_length=80, blank=True)
    a_tv = models.PositiveIntegerField(null=True, blank=True)
    b_roster = models.ForeignKey(
        "armies.Roster",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="matches_as_b",
    )
    b_source = models.CharField(max_length=8, choices=Source.choices, default=Source.ROSTER)
    b_army = models.JSONField(default=dict)
    b_roster_name = models.CharField(max_length=200)
    b_faction = models.CharField(max_length=64)
    b_fingerprint = models.CharField(max_length=80, blank=True)
    b_tv = models.PositiveIntegerField(null=True, blank=True)

    join_slug = models.CharField(max_length=32, unique=True, default=new_slug)
    watch_slug = models.CharField(max_length=32, unique=True, default=new_slug)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.LIVE)
    result = models.CharField(max_length=8, blank=True)  # "a", "b" or "draw" once ended
    seq = models.PositiveIntegerField(default=0)  # the number of the last event
    initial = models.JSONField(default=dict)
    state = models.JSONField(default=dict)  # the snapshot: the state after event state_seq
    state_seq = models.PositiveIntegerField(default=0)
    # Datacard figures typed into the attack helper, kept for the rest of the match as soon as
    # they are typed: {"models": {"jager": {"armor": 14}}, "weapons": {"LAC": {"accuracy": 0}}}.
    figures = models.JSONField(default=dict, blank=True)
    # The datacard pack each side started with ({"name", "entered_by", "figures"}, or {}): a
    # copy, so editing the pack later never changes the match.
    a_pack = models.JSONField(default=dict, blank=True)
    b_pack = models.JSONField(default=dict, blank=True)
    # Who entered each side's pack figures ("jan"; "" for none): a board card says so beside
    # each such figure, and a tap reads these short columns, never the packs.
    a_pack_by = models.CharField(max_length=150, blank=True, default="")
    b_pack_by = models.CharField(max_length=150, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    # The once-only key of the form that started this match: sent twice, it starts one match.
    create_key = models.CharField(max_length=64, blank=True, default="")

    objects = MatchQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at", "-pk"]
        verbose_name_plural = "matches"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(a_user__isnull=False) | ~models.Q(a_guest_key=""),
                name="match_seat_a_has_a_player",
            ),
            models.UniqueConstraint(
                fields=["a_user", "create_key"],
                condition=models.Q(a_user__isnull=False) & ~models.Q(create_key=""),
                name="match_create_key_once_per_user",
            ),
            models.UniqueConstraint(
                fields=["a_guest_key", "create_key"],
                condition=models.Q(a_user__isnull=True) & ~models.Q(create_key=""),
                name="match_create_key_once_per_guest",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.a_roster_name} vs {self.b_roster_name}"

    @property
    def is_live(self) -> bool:
        return self.status == self.Status.LIVE

    @property
    def b_joined(self) -> bool:
        return bool(self.b_user_id or self.b_guest_key)

    def seat_of(self, owner: Owner) -> str | None:
        """The seat ("a" or "b") ``owner`` holds in this match, or None."""
        for side in SIDES:
            user_id = getattr(self, f"{side}_user_id")
            guest_key = getattr(self, f"{side}_guest_key")
            if owner.user_id is not None and user_id == owner.user_id:
                return side
            if owner.user_id is None and user_id is None and owner.guest_key:
                if guest_key == owner.guest_key:
                    return side
        return None

    def token(self, side: str) -> str:
        return getattr(self, f"{side}_token")

    def player_name(self, side: str) -> str:
        return getattr(self, f"{side}_player")

    @property
    def taps(self) -> Any:
        """The game's ``matches.taps.Game``: how its state is stored and its log read."""
        return systems.tracker(self.system).taps()

    def _state_key(self, storage: StateStorage) -> tuple:
        # The storage too: a page of one game never gets a state another game's reader made.
        return (self.pk, self.seq, self.updated_at, storage)

    def current_state(self, storage: StateStorage | None = None) -> Any:
        """The state after event ``seq``, read and parsed at most once per app server, with the
        game's ``storage`` (the match's game's unless told)."""
        storage = storage or self.taps.storage
        key = self._state_key(storage)
        state = STATES.get(key)
        if state is None:
            state_seq, state = self._read_state(storage)
            if state_seq <= self.seq:  # else the snapshot is newer than this row: not the key's
                STATES.put(key, state)
        return state

    def _read_state(self, storage: StateStorage) -> tuple[int, Any]:
        """The snapshot with the events after it, up to ``seq``, put back (one query, none when
        the snapshot was read with the row and is current). Returns the snapshot's event number
        too: a row read before a later snapshot was written gets that newer state."""
        if not self.get_deferred_fields() & {"state", "state_seq"}:
            state_seq, snapshot = self.state_seq, self.state
            changes = []
            if state_seq < self.seq:
                later = MatchEvent.objects.filter(
                    match_id=self.pk, seq__gt=state_seq, seq__lte=self.seq
                )
                changes = list(later.order_by("seq").values_list("seq", "after"))
        else:
            # The snapshot and the changes after it in one statement, so they agree even while a
            # tap writes a new snapshot.
            row = Match.objects.filter(pk=self.pk).order_by()
            after = MatchEvent.objects.filter(
                match_id=self.pk,
                seq__gt=Subquery(row.values("state_seq")),
                seq__lte=self.seq,
            ).order_by()
            snapshot_and_after = row.values_list("state_seq", "state").union(
                after.values_list("seq", "after"), all=True
            )
            rows = sorted(snapshot_and_after, key=lambda row: row[0])
            (state_seq, snapshot), changes = rows[0], rows[1:]
        # Every change records the values it set, so each field's latest value put in once is
        # the same as the changes put in one after another (and rebuilds each part once).
        latest: dict[str, dict] = {}
        for _, parts in changes:
            for key, values in parts.items():
                latest.setdefault(key, {}).update(values)
        state = storage.read(snapshot)
        return state_seq, storage.apply_parts(state, latest) if latest else state

    def remember_state(self, state: Any, storage: StateStorage) -> None:
        """Keep the state just written (after ``seq`` and ``updated_at`` were updated)."""
        STATES.put(self._state_key(storage), state)

    def initial_state(self) -> Any:
        return self.taps.storage.read(self.initial)


class MatchEvent(models.Model):
    """One change to a match: who, when, what, the state it touched before and after."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    client_key = models.CharField(max_length=64)
    actor_side = models.CharField(max_length=1)
    actor_name = models.CharField(max_length=150, blank=True)
    round = models.PositiveIntegerField()
    kind = models.CharField(max_length=32)
    payload = models.JSONField(default=dict)
    summary = models.TextField()
    warnings = models.JSONField(default=list, blank=True)
    before = models.JSONField(default=dict, blank=True)  # what it changed, as it was (fast undo)
    after = models.JSONField(default=dict, blank=True)
    units = models.JSONField(default=list, blank=True)  # ids of the models it changed; "*": all
    # The keys it wrote and read ("a-1-2:damage", "turn"; ``rules.eventlog.Step``), so an undo can
    # tell what depends on it without replaying the log; None for events stored before they were.
    writes = models.JSONField(null=True, blank=True, default=None)
    reads = models.JSONField(null=True, blank=True, default=None)
    effective = models.BooleanField(default=True)  # False once undone (and True again if redone)
    # A tap the rules refused: kept in the log so both players see it, never part of the state
    # (its summary is the refusal; it changes nothing and can't be undone).
    refused = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="match_event_seq_unique"),
            models.UniqueConstraint(
                fields=["match", "client_key"], name="match_event_client_key_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.summary}"

    def log_entry(self) -> LogEntry:
        """This event as its match's game reads it (``matches.taps.Game.log_entry``)."""
        return self.match.taps.log_entry(self)
