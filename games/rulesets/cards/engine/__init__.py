"""The `cards` rule set (seed 001_666f92ca90d279a9.txt) as a package:

    collection.py  the card collection as data (games/rulesets/cards/data/cards_collection.yaml), validated
    roles.py       secret roles (colours, deck limits, factions, wins), the overt roles' registry
    decks.py       deck validation (every refusal with its cards) and a legal starter deck
    effects.py     the containers (deck, Hand, Sleeve) and the primitives' bookkeeping
    veche.py       the day's vote and measure, and the measure read from bold text
    context.py     the constants and refusal codes, the phase names, the game's collection, a close's context
    ruleset.py     CardsRuleset: the protocol's face and `resolve`, made of one mixin per phase:
      opening.py       the deal and the first night's knowledge
      plays.py         the actions and the checks of every input
      day.py           the Veche: voters, vote checks, the count at the close
      deckbuilding.py  a deck's refusals and the close of deck building
      pipeline.py      a night's or day's close: the steps' order, the inputs taken into effects
      steps.py         the effects applied step by step
      closing.py       the closing events and the outcome

docs/rulesets/cards.md explains the rules as implemented.
"""

from games.rulesets.cards.engine.collection import (
    Card,
    Collection,
    CollectionError,
    default_collection,
    load_collection,
    parse_collection,
)
from games.rulesets.cards.engine.decks import DECK_REASONS, Refusal, starter_deck, validate_deck
from games.rulesets.cards.engine.roles import OVERT_ROLES, SECRET_ROLES, overt_role
from games.rulesets.cards.engine.ruleset import CARDS, CardsRuleset, collection_of, has_link, parse_phase
from games.rulesets.cards.engine.veche import parse_measure

__all__ = [
    "CARDS",
    "DECK_REASONS",
    "OVERT_ROLES",
    "SECRET_ROLES",
    "Card",
    "CardsRuleset",
    "Collection",
    "CollectionError",
    "Refusal",
    "collection_of",
    "default_collection",
    "has_link",
    "load_collection",
    "overt_role",
    "parse_collection",
    "parse_measure",
    "parse_phase",
    "starter_deck",
    "validate_deck",
]
