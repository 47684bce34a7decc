"""The profile's time-zone picker (accounts/timezones.py): the Russian-speaking world's zones first,
with UTC offsets, the rest grouped by region; a forged value is refused and changes nothing."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.forms import ProfileForm
from accounts.timezones import time_zone_choices
from tests.conftest import client_for, make_user


def test_time_zone_choices_put_russian_zones_first_when_listed():
    with translation.override("ru"):
        choices = time_zone_choices()
    first_group, featured = choices[0]
    zones = [zone for zone, _label in featured]
    assert zones[:2] == ["Europe/Kaliningrad", "Europe/Moscow"]
    assert {"Asia/Novosibirsk", "Asia/Kamchatka", "Europe/Minsk", "Europe/Kyiv", "Asia/Almaty", "Europe/Berlin"} <= set(zones)
    assert re.search(r"\(UTC\+3\)$", dict(featured)["Europe/Moscow"])
    regions = [str(label) for label, _options in choices[1:]]
    assert len(regions) >= 8  # grouped by region, not one list from Africa/Abidjan
    # Every zone is listed once.
    listed = [zone for _label, options in choices for zone, _l in options]
    assert len(listed) == len(set(listed)) and "Africa/Abidjan" in listed and listed[0] != "Africa/Abidjan"


def test_time_zone_choices_name_other_zones_in_russian_when_the_page_is_russian():
    with translation.override("ru"):
        labels = {zone: label for _g, options in time_zone_choices() for zone, label in options}
    assert labels["Europe/Paris"].startswith("Париж, Франция (UTC+")


@pytest.mark.django_db
def test_profile_form_renders_the_zones_in_optgroups_when_shown():
    user = make_user("Вася")
    html = str(ProfileForm(instance=user)["time_zone"])
    assert html.count("<optgroup") >= 9 and "data-filter" in html
    assert html.index("Europe/Moscow") < html.index("Africa/Abidjan")


@pytest.mark.django_db
def test_profile_refuses_a_forged_time_zone_and_changes_nothing():
    user = make_user("Вася")
    before = user.time_zone
    response = client_for(user).post(reverse("accounts:profile_edit"),
                                     {"display_name": "Петя", "time_zone": "Mars/Olympus", "language": "ru"})
    assert response.status_code == 400
    assert "Mars/Olympus" in response.content.decode()  # Django's translated "not one of the available choices"
    user.refresh_from_db()
    assert (user.display_name, user.time_zone) == ("Вася", before)


@pytest.mark.django_db
def test_profile_keeps_an_old_alias_zone_when_saved_untouched():
    user = make_user("Вася")
    user.time_zone = "Europe/Kiev"
    user.save(update_fields=["time_zone"])
    response = client_for(user).post(reverse("accounts:profile_edit"),
                                     {"display_name": "Вася", "time_zone": "Europe/Kiev", "language": "ru"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.time_zone == "Europe/Kiev"
