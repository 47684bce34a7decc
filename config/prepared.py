"""Querysets compiled once per process (issue 30 part 3, "a faster post").

Django compiles a queryset into SQL every time it runs it: for the posting path's locking read of
a game with its thread, GM and phase (four tables) and for a game's roster with its users, the
compiling cost more than the statement and the model instances together (about 1 ms of a post's
6 ms of CPU). A `PreparedQuery` is such a queryset of a fixed shape, compiled by the ORM the first
time a connection runs it; later runs send the same SQL with the new parameter values, and their
rows become model instances through the ORM's own code: the compiler's converters (a JSON field's
decoding, ...), `Model.from_db` (the init signals included) and select_related's populators, as
iterating the queryset does. Nothing is written through it, so no save, no signal and no
validation is skipped: it is a read, made as the ORM makes it, without the ORM's query building.

Its shape must not depend on the values: a queryset whose parameters are equalities on integer
keys (`pk=`, `game_id=`), not `__in` lists or values the ORM turns into SQL of another form (None
becomes `IS NULL`). `build` makes the queryset from marker values (one per parameter, negative
integers: a field that takes no negative value, a PositiveIntegerField, has the ORM drop the
condition, so it cannot be a parameter), which must come out as parameters of the compiled SQL,
each exactly once; it is checked when compiled (ValueError).

On PostgreSQL (psycopg 3) their SQL is also prepared by the server once per connection
(`prepared_cursor`: psycopg's server-side binding, each statement parsed and planned the first time
a connection sends it, then only bound and executed; the values sent beside the statement, not
quoted into it client-side). Only the statements sent through that cursor are prepared: every
other query of the site keeps Django's client-side binding. Off with MAFIA_DB_PREPARED_STATEMENTS
= False (a connection pooler in transaction mode that does not carry prepared statements over,
PgBouncer before 1.21).

The compiled statement is kept on the connection object (per process, per thread: Django gives
each thread its own), so a statement compiled on PostgreSQL is never sent to another database, and
it goes with the connection object (what is compiled refers to it: kept in a table of this
module, it would keep every thread's connection object alive). A locking read (select_for_update)
is refused outside a transaction, as the ORM refuses it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import signals, sql
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError

# Marker values a `build` is called with: integers no primary key takes (negative) but within a
# 32-bit column's range, so the ORM keeps them as parameters.
MARKERS = tuple(-2_000_000_000 - n for n in range(8))


# psycopg prepares a statement sent with prepare=True even below the connection's threshold; with
# no threshold (Django's default: None) it prepares none. This one is never reached by counting:
# only the statements asked for are prepared.
_ONLY_WHEN_ASKED = 1 << 30

_preparing = None  # per process: the cursor class, or False with psycopg 2


def prepared_cursor(connection):
    """A cursor of `connection` (wrapped as Django wraps its own: execute wrappers, the debug log,
    the database errors) whose statements PostgreSQL prepares once per connection (module
    docstring); on another database, with psycopg 2, or with MAFIA_DB_PREPARED_STATEMENTS off,
    Django's cursor."""
    if connection.vendor != "postgresql" or not settings.MAFIA_DB_PREPARED_STATEMENTS:
        return connection.cursor()
    preparing = _preparing_cursor()
    if not preparing:
        return connection.cursor()
    cursor_class, timestamptz_oid, text_format, register_tzloader = preparing
    # What connection.cursor() does (BaseDatabaseWrapper._cursor), with a server-binding cursor in
    # place of the connection's client-side one, and the time zone as DatabaseWrapper.create_cursor sets it.
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        raw = connection.connection
        if raw.prepare_threshold is None:
            raw.prepare_threshold = _ONLY_WHEN_ASKED
        cursor = cursor_class(raw)
        if connection.timezone != raw.adapters.get_loader(timestamptz_oid, text_format).timezone:
            register_tzloader(connection.timezone, cursor)
        return connection._prepare_cursor(cursor)


def _preparing_cursor():
    """(Django's server-binding cursor class made to prepare every statement, what its time zone
    needs), made once per process; False with psycopg 2."""
    global _preparing
    if _preparing is None:
        # The PostgreSQL back end imports psycopg: imported only once a connection is PostgreSQL's.
        from django.db.backends.postgresql.base import TIMESTAMPTZ_OID, ServerBindingCursor
        from django.db.backends.postgresql.psycopg_any import is_psycopg3, register_tzloader

        if not is_psycopg3:
            _preparing = False
        else:
            from psycopg.pq import Format  # psycopg 3's, known present only here

            class PreparingCursor(ServerBindingCursor):
                def execute(self, query, params=None, *, prepare=None, binary=None):
                    return super().execute(query, params, prepare=True if prepare is None else prepare, binary=binary)

                def _send_query_prepared(self, name, pgq, *, binary=None):
                    # psycopg keeps the statement it sent for Django's log (last_executed_query)
                    # only when it sends the text: a prepared one is logged as its text too.
                    self._query = pgq
                    return super()._send_query_prepared(name, pgq, binary=binary)

            _preparing = (PreparingCursor, TIMESTAMPTZ_OID, Format.TEXT, register_tzloader)
    return _preparing


def _kept(connection) -> dict:
    """What is compiled for this connection object, kept on it."""
    kept = connection.__dict__.get("_prepared_statements")
    if kept is None:
        kept = connection.__dict__["_prepared_statements"] = {}
    return kept


@dataclass
class _Compiled:
    sql: str
    params: list
    slots: list[int]  # where each marker's value goes in `params`
    compiler: object
    locking: bool
    model: type
    init_list: list[str]
    start: int
    end: int
    populators: list
    converters: dict
    annotations: dict


class PreparedQuery:
    """A queryset of one fixed shape, compiled once per database connection (module docstring)."""

    def __init__(self, build: Callable[..., object], *, params: int = 1):
        if not 0 < params <= len(MARKERS):
            raise ValueError(f"a prepared query takes 1 to {len(MARKERS)} parameters")
        self._build = build
        self._arity = params

    def _compile(self, connection) -> _Compiled:
        markers = MARKERS[:self._arity]
        queryset = self._build(*markers)
        compiler = queryset.query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        params = list(params)
        slots = []
        for marker in markers:
            found = [index for index, value in enumerate(params) if type(value) is int and value == marker]
            if len(found) != 1:
                raise ValueError(f"a prepared query's parameter must appear once in its SQL: {sql!r} {params!r}")
            slots.append(found[0])
        select, klass_info = compiler.select, compiler.klass_info
        if klass_info is None:
            raise ValueError("a prepared query reads model instances (no values() or values_list())")
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        return _Compiled(
            sql=sql, params=params, slots=slots, compiler=compiler,
            locking=bool(queryset.query.select_for_update) and connection.features.has_select_for_update,
            model=klass_info["model"], init_list=[column[0].target.attname for column in select[start:end]],
            start=start, end=end, populators=get_related_populators(klass_info, select, connection.alias),
            converters=compiler.get_converters([column[0] for column in select[0:compiler.col_count]]),
            annotations=dict(compiler.annotation_col_map or {}),
        )

    def fetch(self, *values, using: str = DEFAULT_DB_ALIAS) -> list:
        """The instances the queryset built with `values` would give, in its order."""
        if len(values) != self._arity:
            raise TypeError(f"this prepared query takes {self._arity} values, not {len(values)}")
        connection = connections[using]
        kept = _kept(connection)
        compiled = kept.get(self)
        if compiled is None:  # the ORM's compiling refuses a locking read outside a transaction
            compiled = kept[self] = self._compile(connection)
        elif compiled.locking and connection.get_autocommit():
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        params = list(compiled.params)
        for slot, value in zip(compiled.slots, values):
            params[slot] = value
        with prepared_cursor(connection) as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        if compiled.converters:
            rows = compiled.compiler.apply_converters(rows, compiled.converters)
        model, init_list, start, end = compiled.model, compiled.init_list, compiled.start, compiled.end
        out = []
        for row in rows:
            obj = model.from_db(using, init_list, row[start:end])
            for populator in compiled.populators:
                populator.populate(row, obj)
            for name, position in compiled.annotations.items():
                setattr(obj, name, row[position])
            out.append(obj)
        return out


@dataclass
class _CompiledInsert:
    sql: str
    compiler: object
    placeholders: object  # what assemble_as_sql gave for the rows compiled (the SQL depends on it)
    returning: list
    returning_params: tuple
    converters: dict
    cols: list


class PreparedInsert:
    """New instances of one model written as `QuerySet.bulk_create` writes them (`Model.save()` for
    one new instance of a model no pre_save or post_save receiver listens to: nothing else differs),
    with the INSERT ... RETURNING compiled once per connection and number of rows (issue 30 part 3:
    the ORM's compiling of a post's INSERT cost as much as sending it). Per call, the values are
    made as the ORM makes them (each field's pre_save and get_db_prep_save, the unsaved related
    objects refused), placed as the compiled statement placed them (the placeholders compared: a
    value the ORM would write in another form, an expression, goes through the ORM), and what the
    database returns (the primary key) is set on the instances, converted as the ORM converts it.

    `signals`: the model's save signals are honoured: with a receiver connected, each instance is
    saved by `save(force_insert=True)`, so that nothing a receiver does is skipped."""

    def __init__(self, model, *, signals: bool = True):
        self.model = model
        self.signals = signals

    def _fields(self):
        meta = self.model._meta
        return [field for field in meta.local_concrete_fields if field is not meta.auto_field and not field.generated]

    def _by_the_orm(self, objs: list, using: str) -> list:
        if self.signals:
            for obj in objs:
                obj.save(force_insert=True, using=using)
            return objs
        return self.model._base_manager.using(using).bulk_create(objs)

    def insert(self, objs: list, *, using: str = DEFAULT_DB_ALIAS) -> list:
        """Write `objs` (new instances, no primary key set); they come back saved, their primary keys set."""
        meta = self.model._meta
        if not objs:
            return objs
        connection = connections[using]
        features = connection.features
        if (meta.parents or meta.auto_field is None or any(obj.pk is not None for obj in objs)
                or (self.signals and (signals.pre_save.has_listeners(self.model)
                                      or signals.post_save.has_listeners(self.model)))
                or not features.can_return_columns_from_insert
                or (len(objs) > 1 and not features.can_return_rows_from_bulk_insert)):
            return self._by_the_orm(objs, using)
        for obj in objs:
            obj._prepare_related_fields_for_save(operation_name="save" if self.signals else "bulk_create")
        fields = self._fields()
        kept = _kept(connection)
        compiled = kept.get((self, len(objs)))
        if compiled is None:
            compiled = kept[(self, len(objs))] = self._compile(connection, fields, objs)
        compiler = compiled.compiler
        value_rows = [[compiler.prepare_value(field, compiler.pre_save_val(field, obj)) for field in fields]
                      for obj in objs]
        if any(hasattr(value, "as_sql") for row in value_rows for value in row):
            return self._by_the_orm(objs, using)
        placeholders, param_rows = compiler.assemble_as_sql(fields, value_rows)
        if placeholders != compiled.placeholders:  # not the statement compiled: the ORM writes it
            return self._by_the_orm(objs, using)
        params = [value for row in param_rows for value in row] + list(compiled.returning_params)
        with prepared_cursor(connection) as cursor:
            cursor.execute(compiled.sql, params)
            if len(objs) > 1:
                rows = connection.ops.fetch_returned_insert_rows(cursor)
            else:
                rows = [connection.ops.fetch_returned_insert_columns(cursor, compiled.returning_params)]
        if compiled.converters:
            rows = list(compiler.apply_converters(rows, compiled.converters))
        for obj, row in zip(objs, rows):
            for field, value in zip(compiled.returning, row):
                setattr(obj, field.attname, value)
            obj._state.adding = False
            obj._state.db = using
        return objs

    def _compile(self, connection, fields, objs) -> _CompiledInsert:
        returning = list(self.model._meta.db_returning_fields)
        query = sql.InsertQuery(self.model)
        query.insert_values(fields, objs, raw=False)
        compiler = query.get_compiler(connection=connection)
        compiler.returning_fields = returning
        statements = compiler.as_sql()
        if len(statements) != 1:  # with RETURNING, every back end Django has writes one statement
            raise NotImplementedError("a prepared insert is one statement")
        value_rows = [[compiler.prepare_value(field, compiler.pre_save_val(field, obj)) for field in fields]
                      for obj in objs]
        placeholders, _params = compiler.assemble_as_sql(fields, value_rows)
        cols = [field.get_col(self.model._meta.db_table) for field in returning]
        return _CompiledInsert(sql=statements[0][0], compiler=compiler, placeholders=placeholders, returning=returning,
                               returning_params=tuple(compiler.returning_params), converters=compiler.get_converters(cols),
                               cols=cols)
