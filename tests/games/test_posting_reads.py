"""Issue 30 part 3, a faster post (second session): the posting path reads and writes what its
checks and its post need its own way, each held here to the ORM's plain answer (no timing):

- the locking read of the game with its thread, GM and phase, compiled once per connection, with
  whether the game has co-GMs and whether the poster is banned from it (config.prepared.PreparedQuery,
  permissions.staff_annotations);
- the roster without the other players' user rows (permissions.read_roster);
- the post's and the ledger lines' INSERTs compiled once (config.prepared.PreparedInsert);
- the page cache's counters of a transaction bumped together when it commits, with the entries
  written then (pagecache.CommitBumps, set_on_commit), the posting path's statement-time bumps
  held (pagecache.bumps_held), the ISO picker's author list extended from what the process saw.
"""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Q
from django.db.models.signals import post_save
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.prepared import PreparedInsert, PreparedQuery
from games import permissions, selectors
from games.caching import pagecache
from games.models import Game, GameBan, Phase, Post, Thread, VoteRecord
from games.services import ActionRefused
from games.services.lifecycle import game_set_co_gm
from games.services.moderation import seat_modkill
from games.services.posting import post_submit
from games.services.posts import _GAME_FOR_POST, thread_lock_for_post
from tests.conftest import make_user
from tests.games.test_lifecycle import user_named


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


# --- The locking read --------------------------------------------------------------------------
def test_the_prepared_locking_read_gives_the_orms_instances_for_every_game(started, forum_game):
    other_gm = make_user("Другой ведущий")
    other = Game.objects.create(
        title="Другая", gm=other_gm,
        game_thread=Thread.objects.create(kind=Thread.Kind.GAME, title="т", created_by=other_gm),
        discussion_thread=Thread.objects.create(kind=Thread.Kind.DISCUSSION, title="о", created_by=other_gm))
    vasya = user_named(started, "Вася")
    GameBan.objects.create(game=started, user=vasya, reason="флуд", created_at=timezone.now(), created_by=started.gm)
    game_set_co_gm(game=started, name=make_user("Соведущий").display_name, by=started.gm, add=True)
    for game, banned, co_gms in ((started, True, True), (other, False, False)):
        with transaction.atomic():
            found = _GAME_FOR_POST.fetch(game.game_thread_id, vasya.pk)
        assert len(found) == 1
        got = found[0]
        orm = Game.objects.select_related("game_thread", "gm", "current_phase").get(pk=game.pk)
        assert _fields(got) == _fields(orm)
        assert _fields(got.game_thread) == _fields(orm.game_thread) and _fields(got.gm) == _fields(orm.gm)
        assert (got.current_phase is None) == (orm.current_phase is None)
        if orm.current_phase is not None:
            assert _fields(got.current_phase) == _fields(orm.current_phase)
        assert got.game_thread.game_as_game_thread is got  # the reverse relation, as select_related sets it
        assert not got._state.adding and got._state.db == "default"
        permissions.remember_staff(vasya, got)
        assert permissions.is_banned_from(vasya, got) is banned
        assert permissions.is_game_master(make_user(f"Чужой {game.pk}"), got) is False
        permissions.read_game_staff(vasya, got)
        assert got._co_gm_ids == set(orm.co_gms.values_list("pk", flat=True)) and bool(got._co_gm_ids) is co_gms
    with transaction.atomic():
        assert _GAME_FOR_POST.fetch(-5, vasya.pk) == []


def test_a_prepared_query_is_compiled_once_per_connection(started, monkeypatch):
    query = PreparedQuery(lambda pk: Thread.objects.filter(pk=pk))
    compiled = []
    real = SQLCompiler.as_sql
    monkeypatch.setattr(SQLCompiler, "as_sql", lambda self, *a, **k: compiled.append(1) or real(self, *a, **k))
    assert [t.pk for t in query.fetch(started.game_thread_id)] == [started.game_thread_id]
    assert [t.pk for t in query.fetch(started.discussion_thread_id)] == [started.discussion_thread_id]
    assert len(compiled) == 1


def test_a_prepared_querys_parameters_must_be_in_its_sql_once(db):
    with pytest.raises(ValueError):
        PreparedQuery(lambda pk: Thread.objects.filter(Q(pk=pk) | Q(game_id=pk))).fetch(1)
    with pytest.raises(ValueError):
        PreparedQuery(lambda pk: Thread.objects.all()).fetch(1)


@pytest.mark.django_db(transaction=True)
def test_a_prepared_locking_read_is_refused_outside_a_transaction_as_the_orm_refuses_it(started):
    def refused(read) -> bool:
        try:
            read()
        except TransactionManagementError:
            return True
        return False

    query = PreparedQuery(lambda pk: Game.objects.select_for_update().filter(game_thread_id=pk))
    orm = refused(lambda: list(Game.objects.select_for_update().filter(game_thread_id=started.game_thread_id)))
    assert orm is connection.features.has_select_for_update  # PostgreSQL refuses; SQLite has no such lock
    assert refused(lambda: query.fetch(started.game_thread_id)) is orm  # when compiled now
    with transaction.atomic():
        assert query.fetch(started.game_thread_id)
    assert refused(lambda: query.fetch(started.game_thread_id)) is orm  # and when compiled already


# --- The roster --------------------------------------------------------------------------------
def test_the_posting_roster_is_the_pages(started):
    for seat in started.seats.select_related("user"):
        fresh, page = Game.objects.get(pk=started.pk), Game.objects.get(pk=started.pk)
        permissions.read_roster(seat.user, fresh)
        permissions.seats_with_users(seat.user, page)
        assert fresh._roster_rows == page._roster_rows
        mine = permissions.seat_of(seat.user, fresh)
        assert _fields(mine) == _fields(permissions.seat_of(seat.user, page))
        assert mine.user is seat.user and mine.game is fresh
    outsider, fresh = make_user("Зритель"), Game.objects.get(pk=started.pk)
    permissions.read_roster(outsider, fresh)
    assert permissions.seat_of(outsider, fresh) is None


def test_the_posting_service_decides_as_can_post_with_the_orms_reads(started):
    """Whoever posts, post_submit (its locking read with the ban and the co-GMs, its roster without
    the other players' user rows) accepts or refuses, with the same reason, as permissions.can_post
    does on instances read plainly: a player banned from the game, a modkilled one, a dead one, an
    outsider, a co-GM (then the game has co-GMs: their ids are read), the GM, a locked thread."""
    banned, removed, dead = (user_named(started, name) for name in ("Вася", "Фроло", "Кикимора"))
    outsider, co_gm = make_user("Посторонний"), make_user("Соведущий")
    GameBan.objects.create(game=started, user=banned, reason="флуд", created_at=timezone.now(), created_by=started.gm)
    seat_modkill(game=started, seat=started.seats.get(user=removed), by=started.gm, reason="ушёл")
    started.seats.filter(user=dead).update(is_alive=False, status="dead")

    def verdicts() -> dict[str, tuple[bool, str]]:
        out = {}
        for user in (banned, removed, dead, outsider, co_gm, started.gm, user_named(started, "Негодяй")):
            expected = permissions.can_post(user, Thread.objects.get(pk=started.game_thread_id))
            try:
                with transaction.atomic():
                    post_submit(thread=Thread.objects.get(pk=started.game_thread_id), author=user, body="Слово.")
                    transaction.set_rollback(True)
                got = (True, "")
            except ActionRefused as refused:
                got = (False, str(refused.message))
            assert got == (bool(expected), str(expected.reason)), user.display_name
            out[user.display_name] = got
        return out

    first = verdicts()
    assert not first["Вася"][0] and not first["Фроло"][0] and not first["Посторонний"][0]
    assert first["Негодяй"][0] and first[started.gm.display_name][0]
    game_set_co_gm(game=started, name=co_gm.display_name, by=started.gm, add=True)
    assert verdicts()["Соведущий"][0]
    Thread.objects.filter(pk=started.game_thread_id).update(is_locked=True)
    locked = verdicts()
    assert not locked["Негодяй"][0] and locked[started.gm.display_name][0]


# --- The INSERTs -------------------------------------------------------------------------------
def _row(model, pk, *, skip=("id",)):
    return {k: v for k, v in model.objects.filter(pk=pk).values().get().items() if k not in skip}


def test_a_prepared_insert_writes_what_save_and_bulk_create_write(started):
    thread, vasya = Thread.objects.get(pk=started.game_thread_id), user_named(started, "Вася")
    now = timezone.now()
    values = dict(thread=thread, author=vasya, body="[b]Тело[/b]", html="<b>Тело</b>", search_text="Тело",
                  renderer_version=3, created_at=now, comment="коммент")
    by_orm = Post.objects.create(number=901, **values)
    prepared = Post(number=902, **values)
    assert PreparedInsert(Post).insert([prepared]) == [prepared]
    assert prepared.pk is not None and not prepared._state.adding and prepared._state.db == "default"
    assert _row(Post, prepared.pk, skip=("id", "number")) == _row(Post, by_orm.pk, skip=("id", "number"))
    phase = Phase.objects.filter(game=started).first()
    lines = [dict(phase=phase, post=by_orm, post_number=901, voter=started.seats.first(), kind="vote",
                  source=VoteRecord.Source.POST, valid=valid, reason=reason, fragment="за", recorded_at=now)
             for valid, reason in ((False, "name_unknown"), (True, ""))]
    orm_lines = VoteRecord.objects.bulk_create([VoteRecord(**line) for line in lines])
    ours = PreparedInsert(VoteRecord, signals=False).insert([VoteRecord(**line) for line in lines])
    assert all(line.pk is not None for line in ours) and len({line.pk for line in ours}) == 2
    for mine, theirs in zip(ours, orm_lines):
        assert _row(VoteRecord, mine.pk) == _row(VoteRecord, theirs.pk)


def test_a_prepared_insert_honours_save_signals_and_refuses_an_unsaved_relation(started):
    thread, vasya = Thread.objects.get(pk=started.game_thread_id), user_named(started, "Вася")
    heard = []

    def receiver(sender, instance, created, **kwargs):
        heard.append((instance.number, created))

    post_save.connect(receiver, sender=Post, dispatch_uid="test_prepared_insert")
    try:
        post = Post(thread=thread, author=vasya, number=903, body="x", html="x", renderer_version=1,
                    created_at=timezone.now())
        PreparedInsert(Post).insert([post])
    finally:
        post_save.disconnect(dispatch_uid="test_prepared_insert", sender=Post)
    assert heard == [(903, True)] and Post.objects.filter(pk=post.pk).exists()
    unsaved = Post(thread=Thread(kind=Thread.Kind.GAME, title="новая"), author=vasya, number=1, body="x", html="x",
                   renderer_version=1, created_at=timezone.now())
    with pytest.raises(ValueError):
        PreparedInsert(Post).insert([unsaved])


# --- The page cache's bumps --------------------------------------------------------------------
def test_held_bumps_in_a_savepoint_are_sent_when_the_block_ends(started):
    """In a transaction that does not commit at the block's end (here the test's, as in every
    test), the held statement-time bumps go out when the block ends: the writer's own transaction
    then reads its writes under new counters."""
    key = pagecache.thread_key(started.game_thread_id)
    before = pagecache.generation(key)
    with transaction.atomic():
        with pagecache.writing(thread=started.game_thread_id), pagecache.bumps_held():
            Thread.objects.filter(pk=started.game_thread_id).update(title="Новое")
            assert pagecache.generation(key) == before  # held
        assert pagecache.generation(key) > before


@pytest.mark.django_db(transaction=True)
def test_held_bumps_of_a_committing_transaction_go_with_its_commit(started, monkeypatch):
    """A transaction that commits when its block ends leaves the held bumps to its commit's single
    round trip: nothing is sent while its rows are locked, and the counters move at the commit."""
    sent = []
    real = pagecache._bump_many
    monkeypatch.setattr(pagecache, "_bump_many", lambda keys, sets=None: sent.append(list(keys)) or real(keys, sets))
    key = pagecache.thread_key(started.game_thread_id)
    before = pagecache.generation(key)
    with transaction.atomic():
        with pagecache.writing(thread=started.game_thread_id), pagecache.bumps_held():
            Thread.objects.filter(pk=started.game_thread_id).update(title="Новое")
        assert sent == [] and pagecache.generation(key) == before
    assert [set(keys) for keys in sent] == [{key, pagecache.posts_key(started.game_thread_id)}]
    assert pagecache.generation(key) > before


@pytest.mark.django_db(transaction=True)
def test_an_entry_set_on_commit_goes_with_the_commit_and_not_with_a_savepoint_rolled_back(started):
    cache.delete_many(["kept-here", "rolled-back"])
    with transaction.atomic():
        Thread.objects.filter(pk=started.game_thread_id).update(title="Новое")
        pagecache.set_on_commit("kept-here", "да", 60)
        try:
            with transaction.atomic():
                pagecache.set_on_commit("rolled-back", "нет", 60)
                raise ActionRefused("нет", code="test")
        except ActionRefused:
            pass
        assert cache.get("kept-here") is None
    assert cache.get("kept-here") == "да" and cache.get("rolled-back") is None


@pytest.mark.django_db(transaction=True)
def test_the_author_list_after_each_post_is_the_threads_authors(started, monkeypatch):
    """An entry (N, ids) is the authors of the thread's first N posts, whoever extended it: the
    process's own memory included (no read of the entry after the post's commit)."""
    thread = Thread.objects.get(pk=started.game_thread_id)
    key = selectors.post_authors_key(thread)
    selectors.post_author_ids(thread=thread)  # the entry, seen by this process
    gets = []
    real_get = cache.get
    monkeypatch.setattr(cache, "get", lambda k, *a, **kw: gets.append(k) or real_get(k, *a, **kw))
    for name in ("Вася", "Кикимора", "Вася", "Негодяй", "Фроло"):
        post = post_submit(thread=Thread.objects.get(pk=thread.pk), author=user_named(started, name), body="Слово.")
        entry = real_get(key)
        authors = sorted(set(Post.objects.filter(thread=thread, number__lte=post.number)
                             .values_list("author_id", flat=True)))
        assert entry == (post.number, authors)
    assert key not in gets


def test_a_day_closed_meanwhile_still_refuses_a_late_vote_through_the_reply(started):
    """The deadline is read by the locking read itself (the phase joined): a post after it keeps
    its text, and its vote is not counted."""
    phase = Phase.objects.filter(game=started, closed_at__isnull=True).first()
    Phase.objects.filter(pk=phase.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))
    post = post_submit(thread=Thread.objects.get(pk=started.game_thread_id), author=user_named(started, "Вася"),
                       body="[b]В тюрьму Негодяя[/b]")
    assert post.vote_confirmation is not None and not post.vote_confirmation.counted
    assert not VoteRecord.objects.filter(post=post, valid=True).exists()


def test_the_locked_thread_and_game_are_the_posts(started):
    with transaction.atomic():
        locked = thread_lock_for_post(thread=Thread.objects.get(pk=started.game_thread_id),
                                      author=user_named(started, "Вася"), now=timezone.now())
        assert locked.pk == started.game_thread_id and permissions.game_of(locked).pk == started.pk
        assert connection.in_atomic_block


# --- Third session: the reply's values, the statements prepared by the server ------------------
@pytest.mark.parametrize("data", [
    {"body": "Слово.", "post": "1"},
    {"body": "  [b]пробелы[/b]\n", "comment": "комната: Вася, Петя", "shown_as": "3"},
    {"body": "x", "shown_as": "не число", "comment": "к" * 301},
    {"shown_as": "0"},
    {},
])
def test_the_replys_values_are_the_post_forms_cleaned_data(data):
    """PostValues cleans as PostForm cleans (the reply view's values), with its fields shared, not
    copied: a PostForm made afterwards still has its own widgets' attributes."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.utils.datastructures import MultiValueDict

    from games.forms import PostForm, PostValues

    for files in (MultiValueDict(), MultiValueDict({"media": [SimpleUploadedFile("a.ogg", b"OggS", "audio/ogg")]})):
        form, values = PostForm(data, files), PostValues(data, files)
        assert form.is_valid() == values.is_valid()
        assert form.cleaned_data == values.cleaned_data and form.errors == values.errors
    assert PostValues.base_fields["body"] is PostForm.base_fields["body"]
    assert "maxlength" in str(PostForm()["body"]) and "data-max-bytes" in str(PostForm()["media"])
    assert "maxlength" not in PostForm.base_fields["body"].widget.attrs


def _prepared_names(conn) -> set:
    return set(conn.connection._prepared._names.values())


def test_the_posting_statements_are_prepared_once_per_connection_on_postgresql(started, settings):
    """On PostgreSQL the locking read, the roster, the post's INSERT, the count and the read mark
    are sent through config.prepared.prepared_cursor: prepared by the server the first time, then
    executed by name (the same statements, the same rows as the ORM's, the tests above); no other
    query of the site is prepared. A rollback forgets them (psycopg): the next post prepares them again."""
    from tests.conftest import require_service

    require_service("PostgreSQL", connection.vendor == "postgresql", "DATABASE_URL must name PostgreSQL")
    thread = Thread.objects.get(pk=started.game_thread_id)
    vasya = user_named(started, "Вася")
    before = thread.post_count
    post_submit(thread=thread, author=vasya, body="Первое.", mark_read=True)
    names = _prepared_names(connection)
    assert len(names) >= 5
    with CaptureQueriesContext(connection) as captured:
        post_submit(thread=thread, author=vasya, body="Второе.", mark_read=True)
    assert _prepared_names(connection) == names  # the same statements, not prepared again
    assert all(query["sql"] for query in captured.captured_queries)  # Django's log names each statement
    assert any("FOR NO KEY UPDATE" in query["sql"] for query in captured.captured_queries)
    Post.objects.filter(thread=thread).count()  # an ordinary query: not prepared
    assert _prepared_names(connection) == names
    with pytest.raises(ActionRefused):
        post_submit(thread=thread, author=vasya, body="   ")
    with transaction.atomic():
        post_submit(thread=thread, author=vasya, body="Третье.", mark_read=True)
        transaction.set_rollback(True)
    post = post_submit(thread=thread, author=vasya, body="Четвёртое.", mark_read=True)
    assert Post.objects.get(pk=post.pk).body == "Четвёртое." and post.number == before + 3
    assert Thread.objects.get(pk=thread.pk).post_count == before + 3


def test_prepared_statements_are_off_with_the_setting(started, settings):
    """MAFIA_DB_PREPARED_STATEMENTS = False (a pooler that does not carry prepared statements over):
    the same statements, client-side, nothing prepared."""
    settings.MAFIA_DB_PREPARED_STATEMENTS = False
    thread = Thread.objects.get(pk=started.game_thread_id)
    if connection.vendor == "postgresql":
        connection.connection._prepared.clear()  # what the fixture's posts prepared, forgotten
    post = post_submit(thread=thread, author=user_named(started, "Вася"), body="Слово.", mark_read=True)
    assert Post.objects.get(pk=post.pk).number == post.number == Thread.objects.get(pk=thread.pk).post_count
    if connection.vendor == "postgresql":
        assert not _prepared_names(connection)
