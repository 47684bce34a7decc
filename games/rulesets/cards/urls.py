"""The cards rule set's pages, included under the games URLs by the registry (games/urls.py)."""

from django.urls import path

from games.rulesets.cards import views as cards

urlpatterns = [
    path("cards/rules/", cards.cards_rules, name="cards_rules"),
    path("games/<int:pk>/cards/", cards.cards_page, name="cards"),
    path("games/<int:pk>/cards/rules/", cards.cards_rules, name="game_cards_rules"),
    path("games/<int:pk>/cards/deck/", cards.deck_page, name="deck"),
    path("games/<int:pk>/cards/deck/check/", cards.deck_check, name="deck_check"),
    path("games/<int:pk>/cards/input/", cards.card_input, name="card_input"),
    path("games/<int:pk>/cards/ability/", cards.card_ability, name="card_ability"),
    path("games/<int:pk>/gm/cards/", cards.gm_cards, name="gm_cards"),
    path("games/<int:pk>/gm/cards/effect/", cards.gm_card_effect, name="gm_card_effect"),
    path("games/<int:pk>/cards/collection/", cards.cards_collection, name="cards_collection"),
]
