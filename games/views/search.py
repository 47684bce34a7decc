"""Stub: to be written (issue 7)."""

from django.http import Http404


def search(request, *args, **kwargs):
    raise Http404
