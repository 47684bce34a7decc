"""The role table a GM types at game creation (games.forms.GameCreateForm, games.text.roletable):
each rule set's roles by their Russian names, in any grammatical form, with counts; the help lists
the chosen rule set's roles."""

import pytest
from django.urls import reverse
from django.utils import translation

from games.forms import GameCreateForm
from games.models import Game
from games.text.roletable import parse_role_table, role_names
from tests.conftest import client_for, make_user


def _form(ruleset: str, size: int, roles: str) -> GameCreateForm:
    return GameCreateForm({"title": "Игра", "ruleset": ruleset, "size": size, "roles": roles, "phase_hours": 24,
                           "extra_neutral": "random"})


@pytest.mark.parametrize("ruleset, size, typed, expected", [
    # The club table, one player more (the club plays from 8).
    ("club", 8, "дон, мафиози, путана, комиссар, доктор, маньяк, мирный, мирный",
     ["don", "mafioso", "putana", "commissar", "doctor", "maniac", "civilian", "civilian"]),
    ("club", 10, "Дон, 2 мафиози, путана, шериф, врач, маньяк, мирные ×3",
     ["don", "mafioso", "mafioso", "putana", "commissar", "doctor", "maniac", "civilian", "civilian", "civilian"]),
    ("forum", 7, "рекрутёр, реаниматор, мирные: 2, мафиози, киллер, жулик",
     ["recruiter", "reanimator", "citizen", "citizen", "mafioso", "killer", "thief"]),
    ("forum", 7, "recruiter, reanimator, citizen, citizen, mafioso, killer, thief",
     ["recruiter", "reanimator", "citizen", "citizen", "mafioso", "killer", "thief"]),
    ("forum", 7, "Рекрутер\nреаниматор\n2 честных жителя\nмафиози\nкиллер\nЖУЛИК",
     ["recruiter", "reanimator", "citizen", "citizen", "mafioso", "killer", "thief"]),
    ("cards", 9, "законники x6, босс, советник, киллер", ["law"] * 6 + ["boss", "advisor", "killer"]),
])
def test_game_form_reads_role_names_when_typed_in_russian(ruleset, size, typed, expected):
    with translation.override("ru"):
        form = _form(ruleset, size, typed)
        assert form.is_valid(), form.errors
    assert form.cleaned_data["roles"] == expected


def test_game_form_names_the_unknown_items_as_typed_when_refusing():
    with translation.override("ru"):
        form = _form("club", 8, "дон, мафиози, путана, комиссар, доктор, маньяк, мирный, волшебник")
        assert not form.is_valid()
        error = str(form.errors["roles"])
    assert "волшебник" in error and "commissioner" not in error and "мирный" not in error.split("волшебник")[0]
    assert "путана" in error.split("волшебник")[1]  # the rule set's roles are listed


def test_game_form_refuses_a_role_of_another_rule_set_when_typed():
    with translation.override("ru"):
        form = _form("forum", 7, "дон, реаниматор, мирный, мирный, мафиози, киллер, жулик")
        assert not form.is_valid()
    assert "дон" in str(form.errors["roles"])


def test_game_form_help_lists_each_rule_sets_own_roles_when_rendered():
    with translation.override("ru"):
        html = str(GameCreateForm()["roles"].help_text)
    lines = {key: html.split(f'data-ruleset-help="{key}">')[1].split("</span>")[0] for key in ("forum", "club", "cards")}
    assert "рекрутёр" in lines["forum"] and "путана" not in lines["forum"]
    assert "путана" in lines["club"] and "рекрутёр" not in lines["club"] and "мирный житель" in lines["club"]
    assert "законник" in lines["cards"]


def test_game_new_view_creates_a_club_game_when_roles_are_typed_in_russian(db):
    gm = make_user("Ведущий")
    response = client_for(gm).post(reverse("games:game_new"), {
        "title": "Клуб", "ruleset": "club", "size": 8, "phase_hours": 24, "extra_neutral": "random",
        "roles": "дон, мафиози, путана, комиссар, доктор, маньяк, 2 мирных"})
    assert response.status_code == 302
    game = Game.objects.get(title="Клуб")
    assert sorted(game.role_table) == sorted(["don", "mafioso", "putana", "commissar", "doctor", "maniac",
                                              "civilian", "civilian"])


def test_parse_role_table_keeps_unknown_items_and_refuses_absurd_counts():
    names = role_names({"citizen": ["мирный житель"], "mafioso": ["мафиози"]})
    table = parse_role_table("мирные жители ×2, 0 мафиози, 99 мафиози, мафиози", names)
    assert table.roles == ("citizen", "citizen", "mafioso")
    assert table.unknown == ("0 мафиози", "99 мафиози")
