"""``Match.state`` becomes the state after event ``seq``, saved by every tap (it was a snapshot
after ``state_seq``): each match's state is brought up to date with the events after its
snapshot, then ``state_seq`` goes. Events keep the keys they wrote and read (None for the old
ones: an undo of those replays the log)."""

from django.db import migrations, models


def bring_states_up_to_date(apps, schema_editor):
    from rules.hgb.match import apply_parts, state_dict_after, state_from_dict

    Match = apps.get_model("matches", "Match")
    MatchEvent = apps.get_model("matches", "MatchEvent")
    for match in Match.objects.exclude(state_seq=models.F("seq")).iterator():
        before = state_from_dict(match.state)
        after = before
        changes = MatchEvent.objects.filter(
            match_id=match.pk, seq__gt=match.state_seq, seq__lte=match.seq
        ).order_by("seq")
        for parts in changes.values_list("after", flat=True):
            after = apply_parts(after, parts)
        match.state = state_dict_after(match.state, before, after)
        match.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [("matches", "0006_match_packs")]

    operations = [
        migrations.RunPython(bring_states_up_to_date, migrations.RunPython.noop),
        migrations.RemoveField(model_name="match", name="state_seq"),
        migrations.AddField(
            model_name="matchevent",
            name="writes",
            field=models.JSONField(blank=True, default=None, null=True),
        ),
        migrations.AddField(
            model_name="matchevent",
            name="reads",
            field=models.JSONField(blank=True, default=None, null=True),
        ),
    ]
