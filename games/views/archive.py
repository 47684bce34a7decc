"""Stub: to be written (issue 7)."""

from django.http import Http404


def archive(request, *args, **kwargs):
    raise Http404


def replay(request, *args, **kwargs):
    raise Http404


def export_json(request, *args, **kwargs):
    raise Http404
