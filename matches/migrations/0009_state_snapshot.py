"""``Match.state`` becomes a snapshot again, after event ``state_seq``: a tap writes one event row
and the whole state only every ``SNAPSHOT_EVERY`` events. Every stored state so far is the state
after the match's last event, so its snapshot number is ``seq``."""

from django.db import migrations, models


def snapshots_are_current(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    Match.objects.update(state_seq=models.F("seq"))


class Migration(migrations.Migration):
    dependencies = [("matches", "0008_system")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="state_seq",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(snapshots_are_current, migrations.RunPython.noop),
    ]
