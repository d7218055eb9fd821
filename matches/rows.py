"""Plain reads and writes of one model instance, for the damage tap.

A tap is the app's hottest request, and building its statements through the ORM (compiling the
SQL, sending the save signals, working out a raw query's columns) cost more than running them.
These read and write the same values the ORM would: each field's ``pre_save`` (``auto_now`` and
``auto_now_add`` included) and ``get_db_prep_save`` (JSON and dates as this database takes them)
on the way in, the database's and the field's converters on the way out, through Django's
cursor, so database errors are Django's (an ``IntegrityError`` on a duplicate key, say). No
signals are sent: nothing in this project listens to these models' saves.
"""

from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Field, Model
from django.db.models.sql import Query

_SQL: dict[tuple, str] = {}
_CONVERTERS: dict[tuple, tuple[list, list]] = {}


def db():
    """The default database connection itself: ``django.db.connection`` is a proxy that looks the
    connection up again on every attribute, which a hot path pays for dozens of times."""
    return connections[DEFAULT_DB_ALIAS]


def _sql(connection, kind: str, model: type[Model], names: tuple[str, ...], make) -> str:
    key = (connection.vendor, kind, model, names)
    sql = _SQL.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        fields = [model._meta.get_field(name) for name in names]
        sql = _SQL[key] = make(quote(model._meta.db_table), [quote(f.column) for f in fields])
    return sql


def _values(connection, obj: Model, fields: list[Field], add: bool) -> list:
    return [field.get_db_prep_save(field.pre_save(obj, add), connection) for field in fields]


def insert_row(obj: Model) -> None:
    """INSERT ``obj`` (every concrete field but the primary key, which stays unset)."""
    connection = db()
    meta = obj._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    names = tuple(f.name for f in fields)
    sql = _sql(
        connection,
        "insert",
        type(obj),
        names,
        lambda table, columns: (
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))}"
            ")"
        ),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, _values(connection, obj, fields, True))


def update_row(obj: Model, names: list[str]) -> None:
    """UPDATE the fields ``names`` of the row of ``obj`` (``auto_now`` ones are set now)."""
    connection = db()
    meta = obj._meta
    fields = [meta.get_field(name) for name in names]
    pk = connection.ops.quote_name(meta.pk.column)
    sql = _sql(
        connection,
        "update",
        type(obj),
        tuple(names),
        lambda table, columns: (
            f"UPDATE {table} SET {', '.join(f'{c} = %s' for c in columns)} WHERE {pk} = %s"
        ),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*_values(connection, obj, fields, False), obj.pk])


def in_model_order(model: type[Model], names: tuple[str, ...]) -> tuple[str, ...]:
    """``names`` in the order of the model's fields, as ``Model.from_db`` takes values."""
    return tuple(f.name for f in model._meta.concrete_fields if f.name in names)


def instance_from_row(model: type[Model], names: tuple[str, ...], row) -> Model:
    """An instance of ``model`` from the first ``len(names)`` values of a row read by a plain
    query selecting the columns of the fields ``names``, in that order, which must be the
    model's order (``in_model_order``); the other fields are deferred."""
    connection = db()
    key = (connection.vendor, model, names)
    known = _CONVERTERS.get(key)
    if known is None:
        if in_model_order(model, names) != names:
            raise ValueError(f"Fields not in the order of {model.__name__}'s: {names}.")
        fields = [model._meta.get_field(name) for name in names]
        compiler = connection.ops.compiler("SQLCompiler")(Query(model), connection, None)
        found = compiler.get_converters([f.get_col(model._meta.db_table) for f in fields])
        known = _CONVERTERS[key] = (
            [f.attname for f in fields],
            [(pos, *found[pos]) for pos in sorted(found)],
        )
    attnames, converters = known
    values = list(row[: len(names)])
    for pos, functions, expression in converters:
        value = values[pos]
        for function in functions:
            value = function(value, expression, connection)
        values[pos] = value
    return model.from_db(connection.alias, attnames, values)
