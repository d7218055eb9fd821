"""Plain INSERT and UPDATE of one model instance, for the damage tap's writes.

A tap is the app's hottest write, and building its two statements through the ORM (compiling the
SQL, sending the save signals) cost more than running them. These write the same values the ORM
would: each field's ``pre_save`` (``auto_now`` and ``auto_now_add`` included) and
``get_db_prep_save`` (JSON and dates as this database takes them), through Django's cursor, so
database errors are Django's (an ``IntegrityError`` on a duplicate key, say). No signals are sent:
nothing in this project listens to these models' saves.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import Field, Model

_SQL: dict[tuple, str] = {}


def _sql(kind: str, model: type[Model], names: tuple[str, ...], make) -> str:
    key = (connection.vendor, kind, model, names)
    sql = _SQL.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        fields = [model._meta.get_field(name) for name in names]
        sql = _SQL[key] = make(quote(model._meta.db_table), [quote(f.column) for f in fields])
    return sql


def _values(obj: Model, fields: list[Field], add: bool) -> list:
    return [field.get_db_prep_save(field.pre_save(obj, add), connection) for field in fields]


def insert_row(obj: Model) -> None:
    """INSERT ``obj`` (every concrete field but the primary key, which stays unset)."""
    meta = obj._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    names = tuple(f.name for f in fields)
    sql = _sql(
        "insert",
        type(obj),
        names,
        lambda table, columns: (
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))}"
            ")"
        ),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, _values(obj, fields, True))


def update_row(obj: Model, names: list[str]) -> None:
    """UPDATE the fields ``names`` of the row of ``obj`` (``auto_now`` ones are set now)."""
    meta = obj._meta
    fields = [meta.get_field(name) for name in names]
    pk = connection.ops.quote_name(meta.pk.column)
    sql = _sql(
        "update",
        type(obj),
        tuple(names),
        lambda table, columns: (
            f"UPDATE {table} SET {', '.join(f'{c} = %s' for c in columns)} WHERE {pk} = %s"
        ),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*_values(obj, fields, False), obj.pk])
