"""Concurrent posting: every accepted post is stored with its own number, none lost."""

import threading

import pytest
from django.db import connection, connections

from games.models import Post, Thread
from games.services.posts import post_create
from tests.conftest import make_user


@pytest.mark.django_db(transaction=True)
def test_post_create_numbers_densely_when_many_write_at_once():
    authors = [make_user(f"Игрок {i}") for i in range(6)]
    thread = Thread.objects.create(kind=Thread.Kind.LOBBY, title="Гонка", created_by=authors[0])
    errors: list[Exception] = []
    start = threading.Barrier(len(authors))

    def write(author):
        try:
            start.wait()
            for n in range(5):
                post_create(thread=Thread.objects.get(pk=thread.pk), author=author, body=f"{author.display_name}: {n}")
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)
        finally:
            connections.close_all()

    workers = [threading.Thread(target=write, args=(a,)) for a in authors]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors, errors
    numbers = sorted(Post.objects.filter(thread=thread).values_list("number", flat=True))
    assert numbers == list(range(1, 31))
    thread.refresh_from_db()
    assert thread.post_count == 30
    assert connection.vendor in ("sqlite", "postgresql")
