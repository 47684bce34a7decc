"""The Django admin works for every model: each changelist and add form renders for staff."""

import pytest
from django.contrib import admin
from django.urls import reverse

from tests.conftest import client_for, make_user


@pytest.mark.parametrize("model", list(admin.site._registry), ids=lambda m: m._meta.label)
def test_admin_pages_render_for_every_model(db, model, lobby_thread, running_game):
    superuser = make_user("Админ", staff=True)
    superuser.is_superuser = True
    superuser.save()
    client = client_for(superuser)
    opts = model._meta
    assert client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")).status_code == 200
    model_admin = admin.site._registry[model]
    add_status = client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_add")).status_code
    assert add_status == (200 if model_admin.has_add_permission(type("R", (), {"user": superuser})()) else 403)
    instance = model.objects.first()
    if instance is not None:
        assert client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[instance.pk])).status_code == 200


def test_every_project_model_is_registered_in_admin():
    from django.apps import apps

    ours = [m for m in apps.get_models() if m._meta.app_label in ("accounts", "games")]
    missing = [m._meta.label for m in ours if m not in admin.site._registry]
    assert not missing
