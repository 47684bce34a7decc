"""PostgreSQL only (issue 30, search at a million posts): each post's Russian tsvector stored in a
generated column with its GIN index, so the search ranks without parsing every matching post's
text again; the expression index of 0002 is replaced by it. SQLite has no full-text search here
(games/selectors/search.py) and gets nothing."""

from django.db import migrations

VECTOR_INDEX = "games_post_search_vector_idx"
OLD_INDEX = "games_post_search_ru_idx"


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        "ALTER TABLE games_post ADD COLUMN IF NOT EXISTS search_vector tsvector "
        "GENERATED ALWAYS AS (to_tsvector('russian'::regconfig, search_text)) STORED")
    schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {VECTOR_INDEX} ON games_post USING gin (search_vector)")
    schema_editor.execute(f"DROP INDEX IF EXISTS {OLD_INDEX}")


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        f"CREATE INDEX IF NOT EXISTS {OLD_INDEX} ON games_post USING gin (to_tsvector('russian'::regconfig, search_text))")
    schema_editor.execute(f"DROP INDEX IF EXISTS {VECTOR_INDEX}")
    schema_editor.execute("ALTER TABLE games_post DROP COLUMN IF EXISTS search_vector")


class Migration(migrations.Migration):
    dependencies = [("games", "0011_autohost")]
    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
