"""Stub: the Atom feed of a thread (issue 7)."""

from django.http import Http404


def thread_feed(request, pk):
    raise Http404
