"""``Match.state`` becomes a snapshot after event ``state_seq``; every stored state so far is the
state after the match's last event."""

from django.db import migrations, models
from django.db.models import F


def snapshots_are_current(apps, schema_editor):
    apps.get_model("matches", "Match").objects.update(state_seq=F("seq"))


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="state_seq",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(snapshots_are_current, migrations.RunPython.noop),
    ]
