"""PostgreSQL only (issue 30, search on a site of thousands of games): each thread title's Russian
tsvector stored in a generated column with its GIN index, as 0012 did for posts. The search's
thread titles were matched by parsing every title of the site again on each search (36 ms for
10,000 threads, growing with the archive). SQLite has no full-text search here and gets nothing."""

from django.db import migrations

VECTOR_INDEX = "games_thread_title_vector_idx"


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        "ALTER TABLE games_thread ADD COLUMN IF NOT EXISTS title_vector tsvector "
        "GENERATED ALWAYS AS (to_tsvector('russian'::regconfig, title)) STORED")
    schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {VECTOR_INDEX} ON games_thread USING gin (title_vector)")


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"DROP INDEX IF EXISTS {VECTOR_INDEX}")
    schema_editor.execute("ALTER TABLE games_thread DROP COLUMN IF EXISTS title_vector")


class Migration(migrations.Migration):
    dependencies = [("games", "0013_vote_syntax_native")]
    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
