"""Stub: to be written (issue 7)."""

from django.http import Http404


def notification_list(request, *args, **kwargs):
    raise Http404


def notification_open(request, *args, **kwargs):
    raise Http404


def notifications_read_all(request, *args, **kwargs):
    raise Http404


def bell(request, *args, **kwargs):
    raise Http404


def replacement_request(request, *args, **kwargs):
    raise Http404
