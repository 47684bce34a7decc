"""Look-alike display names (accounts/confusables.py): a name that looks like another player's name
(a Latin letter for a Cyrillic one) is refused, at signup, in the profile and by the database."""

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from accounts.confusables import confusable_key, is_mixed_script
from accounts.models import User
from tests.conftest import PASSWORD, client_for, make_user


def _signup(name: str, email: str = "new@example.com"):
    return Client().post(reverse("account_signup"),
                         {"email": email, "display_name": name, "password1": PASSWORD, "password2": PASSWORD})


@pytest.mark.parametrize("first, second", [
    ("Антон", "Aнтон"),          # Latin A
    ("Вася", "Bася"),            # Latin B
    ("Красная Шапочка", "Красная Шaпочка"),  # Latin a inside
    ("Ilya", "lIya"),            # I and l
    ("Вася", "ВАСЯ"),
    ("Алёна", "Алена"),
    ("Mapс", "Марс"),            # whole-script mix
])
def test_confusable_key_is_equal_when_names_look_alike(first, second):
    assert confusable_key(first) == confusable_key(second)


@pytest.mark.parametrize("first, second", [("Вася", "Петя"), ("Антон", "Антоний"), ("Anton", "Антон")])
def test_confusable_key_differs_when_names_look_different(first, second):
    assert confusable_key(first) != confusable_key(second)


def test_is_mixed_script_is_true_when_latin_and_cyrillic_letters_meet():
    assert is_mixed_script("Aнтон")
    assert not is_mixed_script("Антон 2") and not is_mixed_script("Jean-Luc O'Neil") and not is_mixed_script("Ёжик")


@pytest.mark.django_db
def test_signup_refuses_when_name_looks_like_an_existing_name():
    make_user("Антон")
    response = _signup("Aнтон")  # Latin A: refused as mixed script before the look-alike check
    assert response.status_code == 200
    assert not User.objects.filter(email="new@example.com").exists()
    make_user("Марс")
    response = _signup("Mapc")  # all Latin, looks like «Марс»
    assert response.status_code == 200
    assert "Марс" in response.content.decode()
    assert not User.objects.filter(email="new@example.com").exists()


@pytest.mark.django_db
def test_profile_refuses_when_name_looks_like_another_players_name():
    make_user("Марс")
    user = make_user("Венера")
    response = client_for(user).post(reverse("accounts:profile_edit"),
                                     {"display_name": "Mapc", "time_zone": "Europe/Moscow", "language": "ru"})
    assert response.status_code == 400
    user.refresh_from_db()
    assert user.display_name == "Венера"


@pytest.mark.django_db
def test_profile_keeps_own_name_when_only_its_look_alike_key_matches_itself():
    user = make_user("Марс")
    response = client_for(user).post(reverse("accounts:profile_edit"),
                                     {"display_name": "МАРС", "time_zone": "Europe/Moscow", "language": "ru"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.display_name == "МАРС"


@pytest.mark.django_db
def test_database_refuses_when_a_look_alike_name_bypasses_the_forms():
    make_user("Антон")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="other", email="other@example.com", password=PASSWORD,
                                 display_name="Aнтон")


def test_the_model_refuses_a_look_alike_in_every_form_the_admin_included(db):
    """Forms without the key fields (the admin's user form) call the model's clean(): a look-alike
    name is a form error there, not an IntegrityError from the unique index (a 500)."""
    from django.core.exceptions import ValidationError

    make_user("Антон")
    other = make_user("Борис")
    other.display_name = "Aнтон"  # a Latin A
    with pytest.raises(ValidationError) as raised:
        other.full_clean()
    assert "display_name" in raised.value.message_dict
    other.display_name = "Борис"
    other.full_clean()  # his own name is not taken by himself
