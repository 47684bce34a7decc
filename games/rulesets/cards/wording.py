"""The cards rule set's words (seed 001): roles and teams, colours, zones and measures, every reason
code of its inputs and deck rules, the primitives, the GM's operations, and the texts of its events
(docs/rulesets/cards.md, "Events"). Imports Django's translation, games.text and games.wording only
(docs/architecture.md, "Wording")."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.text.names import inflect_name
from games.wording import (RulesetWording, agreed, gender_of, faction_label, name_case, name_in, names_joined, order_reason_text,
                           vote_weight_text)

# The secret roles by the seed's names, and the placeholders of a role table that new_game draws.
ROLE_NAMES = {
    "boss": gettext_lazy("boss"),
    "advisor": gettext_lazy("advisor"),
    "killer": gettext_lazy("killer"),
    "sheriff": gettext_lazy("sheriff"),
    "commissioner": gettext_lazy("commissioner"),
    "doctor": gettext_lazy("doctor"),
    "agent": gettext_lazy("agent"),
    "judge": gettext_lazy("judge"),
    "vigilante": gettext_lazy("vigilante"),
    "policeman": gettext_lazy("policeman"),
    "detective": gettext_lazy("detective"),
    "maniac": gettext_lazy("maniac"),
    "joker": gettext_lazy("joker"),
    "traitor": gettext_lazy("traitor"),
    "hero": gettext_lazy("hero"),
    "law": gettext_lazy("a member of the Law (drawn at the start)"),
    "joker_or_traitor": gettext_lazy("the joker or the traitor (drawn at the start)"),
}
FACTION_NAMES = {
    "law": gettext_lazy("the Law"),
    "mafia": gettext_lazy("the mafia"),
    "maniac": gettext_lazy("the maniac"),
    "joker": gettext_lazy("the joker"),
    "traitor": gettext_lazy("the traitor"),
    "hero": gettext_lazy("the hero"),
}

# One line per overt role («Класс»), keyed by the engine's OVERT_ROLES keys: the signup's list,
# the role page and «My cards» show it (a test checks every key has its line).
OVERT_SUMMARIES = {
    "Здоровяк": gettext_lazy("At the start of the first night draws 1 extra card from his deck into his Hand."),
    "Гик": gettext_lazy("Draws 5 cards into his Hand at the start instead of 6; once a game, at any moment, gets any card of the collection into his Sleeve."),
    "Культист": gettext_lazy("Pays a Price with up to two cards a phase from his Hand instead of his Sleeve."),
    "Инженер": gettext_lazy("Chooses two cards of his deck when building it: they are sure to be among the 6 cards dealt."),
    "Прокурор": gettext_lazy("Once a game, when voting, gets +2 vote strength for that day."),
    "Авторитет": gettext_lazy("+1 vote strength: his vote counts as 2."),
    "Менеджер": gettext_lazy("May create chat rooms of two or four characters."),
    "Заговорщик": gettext_lazy("Once a game creates a day chat room of any size that lasts to the end of the game."),
    "Сплетник": gettext_lazy("Starts with the card «Безлимитный тариф» in his Sleeve."),
    "Патрульный": gettext_lazy("Starts with the card «Свидетель» in his Sleeve."),
    "Богач": gettext_lazy("Starts with the card «Пустышка» in his Sleeve; it may pay a Price."),
    "Мародер": gettext_lazy("Once a game, at once, copies every Sleeve card of a dead character into his own Sleeve."),
    "Горец": gettext_lazy("Takes at most 6 damage a night from other players' cards."),
    "Параноик": gettext_lazy("Starts with the card «Бункер» in his Sleeve."),
    "Секретарша": gettext_lazy("Starts with the card «Кофе» in her Sleeve."),
    "Охранник": gettext_lazy("Starts with the card «Камера наблюдения» in his Sleeve."),
    "Качок": gettext_lazy("Starts with the card «Из последних сил» in his Sleeve."),
    "Шулер": gettext_lazy("At the start draws 1 card from his deck into his Sleeve."),
    "Мот": gettext_lazy("His cards of Price 2 or more are Free (played without paying the Price); he may still build them as non-free."),
    "Везунчик": gettext_lazy("On the first night may twice send back his 6 dealt cards, reshuffle his deck and draw 6 again."),
    "Воин": gettext_lazy("The first two cards a game he discards from his Hand by damage go to his Sleeve instead."),
    "Крупье": gettext_lazy("Up to 4 off-colour cards in his deck instead of 2; as the Traitor, up to 4 cards of each colour."),
    "Гадалка": gettext_lazy("Starts with the card «Оракул» in her Sleeve."),
    "Почтальон": gettext_lazy("Once a day sends a private message by day to any player, naming the recipient publicly."),
    "Фокусник": gettext_lazy("After his first deck rebuild the bottom two cards of the deck become Free, and his cards show it."),
    "Пришелец": gettext_lazy("Starts with the card «Супергерой» in his Sleeve."),
    "Лентяй": gettext_lazy("Gets 3 armour on a night he plays no card."),
    "Учёный": gettext_lazy("Once a game, at night, discards two Hand cards and draws replacements, even while playing cards."),
    "Оператор": gettext_lazy("Starts with the card «Письмо» in his Sleeve."),
    "Банкир": gettext_lazy("Each time he rebuilds an exhausted deck, draws one card of it into his Sleeve in that phase."),
    "Гений": gettext_lazy("His deck holds 12 non-free cards and up to 5 free ones."),
    "Экстрасенс": gettext_lazy("Always sees the top 3 cards of his deck."),
    "Монах": gettext_lazy("Ending a phase with 1 or 2 cards in Hand, draws a card from his deck into his Hand."),
    "Убийца": gettext_lazy("Once a game kills a player who has exactly 1 card in Hand."),
    "Гробовщик": gettext_lazy("Starts with the card «Аутопсия» in his Sleeve."),
    "Джедай": gettext_lazy("Starts with the card «Пролом» in his Sleeve."),
    "Боец": gettext_lazy("Starts with the card «Боевое искусство» in his Sleeve."),
    "Наркоман": gettext_lazy("Starts with the card «Укол стимулятора» in his Sleeve."),
    "Политик": gettext_lazy("+0.5 vote strength (his vote counts as 1.5); the first time he leads the vote he goes to prison instead of execution."),
    "Социопат": gettext_lazy("Cannot be the target of cards or votes in the first night and day."),
    "Мститель": gettext_lazy("Dead, keeps talking publicly and in chat rooms; if the whole town dies, his team wins."),
}

# The engine's reason codes (REASONS, VOTE_REASONS) and the site's own, translated.
CARD_REASONS = {
    # games.rulesets.cards.engine.ruleset.REASONS
    "game_over": gettext_lazy("the game is over"),
    "not_a_player": gettext_lazy("you are not a player of this game"),
    "not_alive": gettext_lazy("the dead take no part in the game"),
    "not_your_action": gettext_lazy("that cannot be done in this phase"),
    "wrong_phase": gettext_lazy("this is not done in the current phase"),
    "bad_input": gettext_lazy("the input is not in the expected shape"),
    "unknown_card": gettext_lazy("there is no such card in this game's collection"),
    "bad_zone": gettext_lazy("a card is played from the Hand or from the Sleeve"),
    "not_in_hand": gettext_lazy("the card is not in your Hand"),
    "not_in_sleeve": gettext_lazy("the card is not in your Sleeve"),
    "night_only": gettext_lazy("the card is played only at night"),
    "day_only": gettext_lazy("the card is played only by day"),
    "missing_target": gettext_lazy("the card needs a target"),
    "missing_second_target": gettext_lazy("the card needs a second target"),
    "unexpected_target": gettext_lazy("the card takes no target"),
    "bad_target": gettext_lazy("the target is not a character of this game"),
    "target_not_alive": gettext_lazy("the target must be a living character"),
    "target_not_dead": gettext_lazy("the target must be a dead character"),
    "self_target": gettext_lazy("the target may be any living character but yourself"),
    "same_targets": gettext_lazy("the two targets must be different characters"),
    "restricted": gettext_lazy("you may not play targeted cards for now (prison or the like)"),
    "message_link": gettext_lazy("a card message may not contain links"),
    "cannot_pay": gettext_lazy("not enough Sleeve cards to pay the Price (cards given by the overt role do not pay)"),
    "bad_payment": gettext_lazy("the cards named to pay the Price are not payable cards of your Sleeve"),
    "discard_count": gettext_lazy("a night discard is exactly two cards from the Hand"),
    "discard_not_in_hand": gettext_lazy("the cards to discard are not in your Hand"),
    "first_night_only": gettext_lazy("this is done only on the first night"),
    "empty_hand": gettext_lazy("your Hand is empty"),
    "discard_by_day": gettext_lazy("the two-card discard is a night action"),
    "played_instead": gettext_lazy("a card play of yours stands this phase, and the two-card discard is instead of "
                                   "playing: your play stands; withdraw it first to discard"),
    "discard_instead": gettext_lazy("your two-card discard stands this night, and it is instead of playing: the "
                                    "discard stands; withdraw it first to play a card"),
    "bad_reorder": gettext_lazy("a new Hand order must hold exactly the cards of your Hand"),
    "deck_not_empty": gettext_lazy("a deck is rebuilt only when it is empty"),
    "already_built": gettext_lazy("your deck has been built"),
    "bad_deck": gettext_lazy("the deck breaks the deck rules"),
    "not_mafia": gettext_lazy("only a mafioso sends the mafia's message, and only to another living mafioso"),
    "message_used": gettext_lazy("the mafia message has been used (it recharges when the deck is rebuilt)"),
    "not_joker": gettext_lazy("only the joker names everybody's roles"),
    "bad_guess": gettext_lazy("the joker's list must give a secret role for every other player"),
    "cards_inputs_are_in_extra": gettext_lazy("a cards game takes card plays, not orders"),
    "no_hand_pay": gettext_lazy("only the Cultist pays a Price with cards from his Hand"),
    "hand_pay_limit": gettext_lazy("the Cultist pays at most two cards a phase from his Hand"),
    "bad_picks": gettext_lazy("the Engineer chooses at most two cards, and only cards of his deck"),
    "target_protected": gettext_lazy("the Sociopath cannot be the target of cards or votes in the first night and "
                                     "day"),
    "hero_no_damage": gettext_lazy("the hero cannot deal damage in any way (nor kill)"),
    # GM_EFFECT_REASONS (an effect applied by the GM that the close skipped)
    "unknown_op": gettext_lazy("no such effect"),
    "bad_n": gettext_lazy("the number must be a whole number, zero or more"),
    "bad_reveal": gettext_lazy("a reveal names what is shown and to whom"),
    "no_tie_pick": gettext_lazy("the GM picked none of the tied leaders, so the alphabet of the classes decided"),
    "bad_gm_deck": gettext_lazy("the deck the GM built for the player breaks the deck rules, so a random legal one "
                                "was dealt"),
    "no_gm_deck": gettext_lazy("the GM built no deck for the player, so a random legal one was dealt"),
    # VOTE_REASONS
    "not_a_voter": gettext_lazy("only a living character votes, and only in the Veche (by day)"),
    "peace_not_allowed": gettext_lazy("there is no vote for peace now"),
    # the site's own
    "after_deadline": gettext_lazy("the phase is over"),
    "no_phase": gettext_lazy("no phase is going on"),
    "bad_action": gettext_lazy("unknown action"),
    "nothing_standing": gettext_lazy("there is nothing to withdraw"),
    "bad_measure": gettext_lazy("the measure is execution or prison"),
    "not_maniac": gettext_lazy("only the maniac keeps a card of his choice in prison"),
    "empty_message": gettext_lazy("the message is empty"),
    # abilities (games.rulesets.cards.engine.abilities)
    "no_such_ability": gettext_lazy("there is no such ability"),
    "not_your_ability": gettext_lazy("your roles do not have this ability"),
    "used_up": gettext_lazy("you have used this ability as many times as a game allows"),
    "used_this_phase": gettext_lazy("you have used this ability as many times as a phase allows"),
}

# games.rulesets.cards.engine.decks.DECK_REASONS, with their numbers.
DECK_REASON_TEXTS = {
    "not_a_list": gettext_lazy("a deck is a list of card names"),
    "unknown_card": gettext_lazy("no such card in this game's collection: %(cards)s"),
    "not_deckable": gettext_lazy("these cards cannot be put in a deck: %(cards)s"),
    "too_many_copies": gettext_lazy("at most %(max)s copies of one card: %(cards)s has %(count)s"),
    "non_free_count": gettext_lazy("a deck holds exactly %(needed)s non-free cards, this one has %(count)s"),
    "too_many_free": gettext_lazy("a deck holds at most %(max)s free cards, this one has %(count)s"),
    "off_colour": gettext_lazy("at most %(max)s cards in total of colours outside the role's (Neutral is always "
                               "allowed), this deck has %(count)s: %(cards)s"),
    "colour_forbidden": gettext_lazy("the role may not take cards of this colour: %(cards)s"),
    "per_colour": gettext_lazy("at most %(max)s cards of one colour: %(colour)s has %(count)s"),
    "colours_missing": gettext_lazy("choose your %(needed)s colours"),
    "colours_invalid": gettext_lazy("the chosen colours must be two different colours other than Neutral"),
    "colours_unexpected": gettext_lazy("only the joker chooses colours"),
}

ACTION_LABELS = {
    "deck": gettext_lazy("Deck"),
    "rebuild": gettext_lazy("Deck rebuilt"),
    "play": pgettext_lazy("cards input", "Card play"),
    "withdraw": gettext_lazy("Withdrawal"),
    "discard": gettext_lazy("Discard"),
    "reorder": gettext_lazy("Hand order"),
    "mafia_message": gettext_lazy("Mafia message"),
    "joker_guess": gettext_lazy("The joker's list"),
    "prison_keep": gettext_lazy("Card kept in prison"),
    "measure": gettext_lazy("Measure"),
    "ability": gettext_lazy("Ability"),
}


ZONE_LABELS = {"hand": gettext_lazy("Hand"), "sleeve": gettext_lazy("Sleeve")}
# What a `withdraw` input takes back.
WITHDRAWN = {"play": gettext_lazy("the play"), "discard": gettext_lazy("the discard"),
             "measure": gettext_lazy("the measure"), "reorder": gettext_lazy("the new Hand order")}

# A card's timing and target (games.rulesets.cards.engine.collection.WHEN, TARGET_RULES).
WHEN_LABELS = {
    "night": gettext_lazy("at night only"),
    "any": gettext_lazy("by day or at night"),
    "day": gettext_lazy("by day only"),
}
TARGET_LABELS = {
    "self": gettext_lazy("no target"),
    "other": gettext_lazy("a living character but yourself"),
    "two": gettext_lazy("two different living characters but yourself"),
    "dead": gettext_lazy("a dead character"),
}
# The primitives the GM applies by hand (docs/rulesets/cards.md, "GM decisions"), on his dashboard.
GM_OP_LABELS = {
    "damage": gettext_lazy("damage"), "armour": gettext_lazy("armour"),
    "draw": pgettext_lazy("cards: the GM's effect", "draw cards"),
    "discard": gettext_lazy("discard"), "reveal": gettext_lazy("reveal"), "message": gettext_lazy("message"),
    "give": gettext_lazy("give a card"), "block": gettext_lazy("block"), "restrict": gettext_lazy("restrict"),
}
REVEAL_LABELS = {
    "role": gettext_lazy("the secret role"), "colours": gettext_lazy("the role's colours"),
    "hand": gettext_lazy("the Hand"), "sleeve": gettext_lazy("the Sleeve"),
    "deck_top": gettext_lazy("the top of the deck"), "visitors": gettext_lazy("who visited the target"),
    "visits": gettext_lazy("whom the target visited"),
}

CARD_COLOURS = {
    "damage": gettext_lazy("Damage"),
    "recon": gettext_lazy("Recon"),
    "defence": gettext_lazy("Defence"),
    "sabotage": gettext_lazy("Sabotage"),
    "control": gettext_lazy("Control"),
    "support": gettext_lazy("Support"),
    "neutral": gettext_lazy("Neutral"),
}
MEASURES = {"execution": gettext_lazy("execution"), "prison": gettext_lazy("prison")}
CARD_ZONES = {"hand": gettext_lazy("Hand"), "sleeve": gettext_lazy("Sleeve"), "deck": gettext_lazy("deck")}
REVEALED = {
    "role": gettext_lazy("secret role"), "colours": gettext_lazy("colours"), "hand": gettext_lazy("Hand"),
    "sleeve": gettext_lazy("Sleeve"), "deck_top": gettext_lazy("top of the deck"),
    "visitors": gettext_lazy("who played cards at the target"),
    "visits": gettext_lazy("at whom the target played cards"),
}
PLAY_RESULTS = {"done": gettext_lazy("done"), "blocked": gettext_lazy("blocked"), "refused": gettext_lazy("refused")}
INTO_ZONE = {"hand": gettext_lazy("into the Hand"), "sleeve": gettext_lazy("into the Sleeve")}
FROM_ZONE = {"hand": gettext_lazy("from the Hand"), "sleeve": gettext_lazy("from the Sleeve"),
             "deck": gettext_lazy("from the top of the deck")}


def play_result_label(result) -> str:
    return str(PLAY_RESULTS.get(result, result or "—"))


def colour_label(colour: str) -> str:
    return str(CARD_COLOURS.get(colour, colour))


def measure_label(measure) -> str:
    return str(MEASURES.get(measure, measure or "—"))


# The cards rule set's win conditions (001 «Условия победы» and the neutrals' descriptions).
CARDS_FACTION_GOALS = {
    "law": gettext_lazy("The Law wins when the whole Mafia, the Traitor and the Maniac are dead and at least one "
                        "member of the Law is alive."),
    "mafia": gettext_lazy("The Mafia and the Traitor win when the whole Law and the Maniac are dead and at least one "
                          "mafioso or the Traitor is alive."),
    "traitor": gettext_lazy("You lead the Mafia to victory: you win with it when the whole Law and the Maniac are "
                            "dead and a mafioso or you are alive."),
    "maniac": gettext_lazy("You win when everybody else is dead."),
    "joker": gettext_lazy("You win at once when your list of every player's overt and secret roles is right; a wrong "
                          "list takes you out of the game. Left the last one alive, you lose like everybody."),
    "hero": gettext_lazy("You win with the Law if you live to its victory or fulfil one of your two goals; with "
                         "both goals fulfilled you win and leave the game."),
}

# The hero's two goals («Имеет две цели, о выполнении которых узнаёт»).
HERO_GOALS = {
    "armour": gettext_lazy("at night the armour you gave saved the life of a member of the Law"),
    "mark": gettext_lazy("by the day's result a mafioso you found, carrying your mark, died"),
}


# --- Abilities (games.rulesets.cards.engine.abilities): a label per key, the labels of their inputs,
# and what the player is told when one acts (one function per key, from the `ability` event's data).
ABILITY_LABELS = {
    "maniac_swap": gettext_lazy("Swap a Hand card and a Sleeve card"),
    "lucky_redraw": gettext_lazy("Send back your six cards, reshuffle and draw six again"),
    "scientist_discard": gettext_lazy("Discard two cards and draw replacements, even while playing"),
    "maniac_strike": gettext_lazy("Discard a Sleeve card: 2 damage or 3 armour"),
    "geek_card": gettext_lazy("Any card into the Sleeve"),
    "marauder_copy": gettext_lazy("Copy a dead character's Sleeve"),
    "joker_list": gettext_lazy("The joker's list"),
}
# The choices of an ability's `mode` input.
ABILITY_MODE_LABELS = {"damage": gettext_lazy("2 damage to a target"), "armour": gettext_lazy("3 armour to myself")}
ABILITY_FIELD_LABELS = {
    "target": gettext_lazy("target"), "target2": gettext_lazy("second target"),
    "card": gettext_lazy("card"), "sleeve_card": gettext_lazy("Sleeve card"), "cards": gettext_lazy("cards"),
    "zone": gettext_lazy("zone"), "mode": gettext_lazy("what to do"), "roles": gettext_lazy("roles"),
}


def ability_label(key: str) -> str:
    return str(ABILITY_LABELS.get(key, key))


def ability_mode_label(mode: str) -> str:
    return str(ABILITY_MODE_LABELS.get(mode, mode))


def ability_field_label(name: str) -> str:
    return str(ABILITY_FIELD_LABELS.get(name, name))


def _swap_text(data: dict) -> str:
    return _("%(card)s went from the Hand to the Sleeve and %(sleeve_card)s from the Sleeve to the Hand. Hand: "
             "%(hand)s. Sleeve: %(sleeve)s.") % {
        "card": data.get("card"), "sleeve_card": data.get("sleeve_card"), "hand": _cards(data.get("hand")),
        "sleeve": _cards(data.get("sleeve"))}


def _lucky_text(data: dict) -> str:
    if "hand" not in data:
        return ""
    return _("your Hand went back into your deck, the deck was shuffled and you drew six: %(hand)s. Redraws left "
             "this night: %(left)s.") % {"hand": _cards(data.get("hand")), "left": data.get("left", 0)}


def _scientist_text(data: dict) -> str:
    if not data.get("cards"):
        return ""
    return _("you discarded %(cards)s and draw replacements") % {"cards": _cards(data.get("cards"))}


def _strike_text(data: dict) -> str:
    if data.get("mode") == "armour":
        return _("discarded %(card)s from the Sleeve for %(n)s armour") % {"card": data.get("card"), "n": data.get("n", 3)}
    if data.get("mode") == "damage":
        return _("discarded %(card)s from the Sleeve for %(n)s damage to %(name)s") % {
            "card": data.get("card"), "n": data.get("n", 2), "name": data.get("target_name") or "?"}
    return ""


def _geek_text(data: dict) -> str:
    return _("%(card)s is in your Sleeve (it does not pay a Price). Sleeve: %(sleeve)s.") % {
        "card": data.get("card"), "sleeve": _cards(data.get("sleeve"))}


def _marauder_text(data: dict) -> str:
    return _("copies of the Sleeve of %(name)s: %(cards)s (they do not pay a Price). Sleeve: %(sleeve)s.") % {
        "name": data.get("target_name") or "?", "cards": _cards(data.get("cards")), "sleeve": _cards(data.get("sleeve"))}


def _list_text(data: dict) -> str:
    if data.get("right"):
        return _("every role is right: you win.")
    return _("%(n)s roles are wrong: you leave the game and every Ace vanishes.") % {"n": data.get("wrong", "?")}


ABILITY_RESULT_TEXTS = {
    "maniac_swap": _swap_text,
    "lucky_redraw": _lucky_text,
    "scientist_discard": _scientist_text,
    "maniac_strike": _strike_text,
    "geek_card": _geek_text,
    "marauder_copy": _marauder_text,
    "joker_list": _list_text,
}


def ability_result_text(key: str, data: dict) -> str:
    """What an ability did, in words, from its event's data (or the service's result)."""
    text = ABILITY_RESULT_TEXTS.get(key)
    return text(data) if text is not None else ""


def _ability_event_text(data: dict) -> str:
    name, label = data.get("name", "?"), ability_label(str(data.get("ability", "")))
    if data.get("at_once"):
        what = ability_result_text(str(data.get("ability", "")), data)
        return (_("%(name)s used «%(ability)s» at once: %(what)s") % {"name": name, "ability": label, "what": what}
                if what else _("%(name)s used «%(ability)s» at once.") % {"name": name, "ability": label})
    if data.get("result") == "done":
        what = ability_result_text(str(data.get("ability", "")), data)
        return _("%(name)s used «%(ability)s» at the end of the phase%(what)s.") % {
            "name": name, "ability": label, "what": f": {what}" if what else ""}
    return _("«%(ability)s» of %(name)s was refused at the end of the phase (%(reason)s).") % {
        "name": name, "ability": label, "reason": _card_reason(data.get("reason"))}


def _role_label(role: str) -> str:
    return str(ROLE_NAMES.get(role, role))


# The public events of a close that its results post shows (hand sizes last).
# «Приоритет повешения - по алфавиту», as the GM's option `tie_break` reads it (the tie_break event's `by`).
TIE_BREAK_RULES = {
    "overt_alphabet": gettext_lazy("by the alphabet of the classes"),
    "name_alphabet": gettext_lazy("by the alphabet of the characters' names"),
    "gm": gettext_lazy("by the GM's choice"),
}

RESULT_KINDS = ("veche_result", "tie_break", "executed", "imprisoned", "politician_spared", "joker_won", "joker_left",
                "assassinated", "died", "hero_left", "avenger_dice", "avenger_team_won", "hand_sizes", "game_over")

def _cards(names) -> str:
    return ", ".join(str(n) for n in (names or ())) or "—"


def _card_reason(code) -> str:
    return card_reason_text(str(code or ""))


def _reveal_value(what: str, value) -> str:
    if what == "role":
        return _role_label(str(value))
    if what == "colours":
        return ", ".join(colour_label(c) for c in value or ()) or "—"
    if isinstance(value, list):
        return _cards(value)
    return str(value)


def _play_outcome(play: dict, *, reason_only_if_refused: bool) -> str:
    """A play's targets, result, reason and the cards that paid for it, after its first words."""
    text = ""
    if play.get("target_name"):
        text += f" → {play['target_name']}"
    if play.get("target2_name"):
        text += f", {play['target2_name']}"
    result = play.get("result")
    text += ": " + play_result_label(result)
    if play.get("reason") and (result == "refused" or not reason_only_if_refused):
        text += f" ({_card_reason(play['reason'])})"
    if play.get("paid"):
        text += "; " + _("paid with %(cards)s") % {"cards": _cards(play["paid"])}
    if play.get("paid_hand"):  # Культист
        text += "; " + _("paid from the Hand with %(cards)s") % {"cards": _cards(play["paid_hand"])}
    effects = [effect_text(e) for e in play.get("effects") or () if isinstance(e, dict)]
    if effects:
        text += "; " + "; ".join(effects)
    return text


def effect_text(effect: dict, names: dict | None = None) -> str:
    """One primitive in words, as a card did it (the `effects` of a `play` event) or as the GM
    applies it by hand (docs/rulesets/cards.md, "Primitives" and "GM decisions")."""
    names = names or {}

    def who(key: str) -> str:
        if effect.get(f"{key}_name"):
            return str(effect[f"{key}_name"])
        value = effect.get(key)
        try:
            return str(names.get(int(value), value if value is not None else "?"))
        except (TypeError, ValueError):
            return str(value if value is not None else "?")

    op = str(effect.get("op") or "")
    n = effect.get("n", 1)
    values = {"name": who("target"), "n": n, "into": str(INTO_ZONE.get(effect.get("to"), INTO_ZONE["hand"])),
              "from": str(FROM_ZONE.get(effect.get("zone"), FROM_ZONE["hand"])), "card": effect.get("card") or "—",
              "cards": _cards(effect.get("cards")), "viewer": who("viewer"),
              "what": str(REVEALED.get(effect.get("what"), effect.get("what") or "—")),
              "text": effect.get("text") or ""}
    if op == "damage" and effect.get("reason") == "hero_no_damage":
        return _("%(name)s: no damage (the hero cannot deal damage in any way)") % values
    if op == "damage":
        return _("%(name)s: %(n)s damage") % values
    if op == "armour":
        return _("%(name)s: %(n)s armour") % values
    if op == "break_armour":
        return _("%(name)s: armour broken") % values
    if op == "draw":
        return _("%(name)s draws %(n)s %(into)s") % values
    if op == "discard":
        if effect.get("cards") is not None:
            return _("%(name)s discards %(cards)s %(from)s") % values
        return _("%(name)s discards %(n)s %(from)s") % values
    if op == "reveal":
        if "value" in effect:
            values["value"] = _reveal_value(str(effect.get("what")), effect.get("value"))
            return _("%(name)s — %(what)s: %(value)s") % values
        if effect.get("what") == "deck_top":
            return _("%(viewer)s learns the top %(n)s cards of the deck of %(name)s") % values
        return _("%(viewer)s learns: %(what)s of %(name)s") % values
    if op == "message":
        if effect.get("text"):
            return _("a message to %(name)s: «%(text)s»") % values
        if effect.get("delivered") is False:
            return _("the message to %(name)s is not delivered") % values
        return _("a message to %(name)s") % values
    if op == "give":
        return _("%(name)s gets %(card)s %(into)s") % values
    if op == "block":
        return _("%(name)s is blocked: his cards do nothing this phase") % values
    if op == "redirect":
        return agreed(gender_of(values.get("name")), _("the cards aimed at or played by %(name)s are redirected"),
                      pgettext("masculine", "the cards aimed at or played by %(name)s are redirected"),
                      pgettext("feminine", "the cards aimed at or played by %(name)s are redirected")) % values
    if op == "steal":
        return (_("%(card)s is stolen from %(name)s") if effect.get("card") else
                _("nothing to steal from %(name)s")) % values
    if op == "copy":
        return (_("%(card)s of %(name)s is copied") if effect.get("card") else
                _("nothing to copy from %(name)s")) % values
    if op == "restrict":
        return _("%(name)s may not play targeted cards for %(n)s phases") % values
    if op == "gm":
        return _("%(name)s: the GM decides") % values
    return _("%(name)s: an unknown effect") % values


def _phase_report(data: dict) -> str:
    parts = []
    for play in data.get("plays") or ():
        line = _("you played %(card)s (%(zone)s)") % {"card": play.get("card"),
                                                       "zone": str(CARD_ZONES.get(play.get("from"), play.get("from")))}
        parts.append(line + _play_outcome(play, reason_only_if_refused=True))
    discard = data.get("discard")
    if isinstance(discard, dict):
        if discard.get("result") == "done":
            parts.append(_("you discarded %(cards)s") % {"cards": _cards(discard.get("cards"))})
        else:
            parts.append(_("your discard was refused (%(reason)s)") % {"reason": _card_reason(discard.get("reason"))})
    for used in data.get("abilities") or ():
        label = ability_label(str(used.get("ability", "")))
        if used.get("result") == "done":
            what = ability_result_text(str(used.get("ability", "")), used)
            parts.append(_("your ability «%(ability)s» acted%(what)s") % {"ability": label,
                                                                          "what": f" ({what})" if what else ""})
        else:
            parts.append(_("your ability «%(ability)s» was refused (%(reason)s)") % {
                "ability": label, "reason": _card_reason(used.get("reason"))})
    for draw in data.get("kill_draws") or ():
        parts.append(agreed(gender_of(draw.get("victim")), _("%(name)s, whom you damaged, died: you drew %(cards)s into your Sleeve"),
                            pgettext("masculine", "%(name)s, whom you damaged, died: you drew %(cards)s into your Sleeve"),
                            pgettext("feminine", "%(name)s, whom you damaged, died: you drew %(cards)s into your Sleeve")) % {
            "name": draw.get("victim"), "cards": _cards(draw.get("cards"))})
    if data.get("rebuilt"):
        parts.append(_("your deck was rebuilt"))
    if data.get("rebuild_draw"):  # Банкир
        parts.append(_("as the Banker, you drew %(cards)s from your new deck into your Sleeve") % {
            "cards": _cards(data["rebuild_draw"])})
    if data.get("no_damage"):
        parts.append(_("%(cards)s dealt no damage: the hero cannot deal damage in any way") % {
            "cards": _cards(data["no_damage"])})
    if data.get("damage"):
        parts.append(_("damage taken: %(n)s") % {"n": data["damage"]})
    if data.get("damage_capped"):  # Горец
        parts.append(_("as the Highlander, you took no more than 6 damage from others' cards this night "
                       "(%(n)s more did not reach you)") % {"n": data["damage_capped"]})
    if data.get("idle_armour"):  # Лентяй
        parts.append(_("as the Idler, you played no card this night and got %(n)s armour") % {
            "n": data["idle_armour"]})
    if data.get("armour"):
        parts.append(_("armour: %(n)s") % {"n": data["armour"]})
    if data.get("armour_broken"):
        parts.append(_("your armour was broken"))
    if data.get("absorbed"):
        parts.append(_("cards not replaced because of damage: %(n)s") % {"n": data["absorbed"]})
    if data.get("to_sleeve"):  # Воин
        parts.append(_("as the Warrior, you moved %(cards)s from your Hand into your Sleeve instead of "
                       "discarding them") % {"cards": _cards(data["to_sleeve"])})
    if data.get("discarded"):
        parts.append(_("discarded from the Hand: %(cards)s") % {"cards": _cards(data["discarded"])})
    if data.get("lost"):
        parts.append(_("lost: %(cards)s") % {"cards": _cards(data["lost"])})
    if isinstance(data.get("prison"), dict):
        parts.append(_("prison: you lost %(cards)s and may not play targeted cards for %(n)s phases") % {
            "cards": _cards(data["prison"].get("lost")), "n": data["prison"].get("phases", 4)})
    if data.get("gained"):
        parts.append(_("gained: %(cards)s") % {"cards": _cards(data["gained"])})
    if data.get("drawn"):
        parts.append(_("drawn into the Hand: %(cards)s") % {"cards": _cards(data["drawn"])})
    if data.get("low_hand_draw"):  # Монах
        parts.append(_("as the Monk, you had one or two cards left and drew %(card)s") % {
            "card": data["low_hand_draw"]})
    if data.get("restricted") and not isinstance(data.get("prison"), dict):  # prison says it already
        parts.append(_("no targeted cards for %(n)s phases") % {"n": data["restricted"]})
    if not parts:
        return _("Nothing happened to your cards this phase.")
    return _("Your phase: %(parts)s.") % {"parts": "; ".join(parts)}


VECHE_REASONS = {
    "two_left": gettext_lazy("two players are left"),
    "peace_majority": gettext_lazy("a strict majority for peace"),
    "no_votes": gettext_lazy("no votes"),
}


def veche_reason_label(reason: str) -> str:
    return str(VECHE_REASONS.get(reason, reason))


def _veche_text(data: dict) -> str:
    if data.get("reason") == "two_left":
        return _("The Veche: two players are left, nobody is punished.")
    tally = ", ".join(
        f"{_('peace') if row.get('target') == 'peace' else row.get('target_name')} — {_weight(row.get('votes'))}"
        for row in data.get("tally") or ())
    measures = data.get("measure_tally") or {}
    measure_part = ", ".join(f"{measure_label(k)} — {_weight(v)}" for k, v in measures.items())
    text = _("The Veche. Votes: %(tally)s.") % {"tally": tally or "—"}
    if measure_part:
        text += " " + _("Measure: %(tally)s.") % {"tally": measure_part}
    if data.get("reason") == "peace_majority":
        text += " " + _("A strict majority voted for peace: nobody is punished.")
    elif data.get("reason") == "no_votes" or not data.get("leader"):
        text += " " + _("Nobody is punished.")
    else:
        text += " " + _("Leader: %(name)s; measure: %(measure)s.") % {
            "name": (data.get("leader") or {}).get("name", "?"), "measure": measure_label(data.get("measure"))}
    return text


def _weight(value) -> str:
    return vote_weight_text(value)


# --- The Veche's count in its own words (veche_count.py; SiteRuleset.count_words) ------------------
# «По окончании дня персонаж, набравший больше всего голосов, получает 6 урона, если была выбрана
# казнь ... Если строгое большинство голосов "за мир", то казни и посадки не происходит.»
VECHE_DECIDES = gettext_lazy(
    "The Veche punishes the leader of the vote, whatever the margin; nobody is punished only when more than "
    "half of the votes cast are for peace. The measure: execution if it has more votes than prison, "
    "otherwise prison. A vote's weight is shown beside the voter.")


def veche_outcome_text(*, reason: str, leader: str = "", measure: str | None = None, leaders: list[str] | None = None,
                       tie_rule: str = "", peace: Any = 0, cast: Any = 0, closed: bool = False,
                       execution_damage: int = 6, prison_phases: int = 4) -> str:
    """What the Veche does as the votes stand (or did, for a closed day): the leader and the
    measure, or nobody and why; a tie for the lead names the rule that chose."""
    if reason == "two_left":
        what = _("nobody is punished: two players are left")
    elif reason == "peace_majority":
        what = _("nobody is punished: a strict majority for peace (%(peace)s of %(cast)s)") % {
            "peace": _weight(peace), "cast": _weight(cast)}
    elif not leader:
        what = _("nobody is punished: nobody has a vote")
    elif measure == "execution":
        what = _("execution of %(name)s (%(n)d damage)") % {"name": leader, "n": execution_damage}
    else:
        what = _("prison for %(name)s (the Sleeve is lost, no targeted cards for %(n)d phases)") % {
            "name": leader, "n": prison_phases}
    if leader and leaders and len(leaders) > 1:
        what += "; " + _("a tie between %(names)s, settled %(rule)s") % {
            "names": names_joined(leaders, "ablt"), "rule": tie_rule}
    if closed:
        return _("The Veche's result: %(what)s.") % {"what": what}
    return _("If the day ended now: %(what)s.") % {"what": what}


def veche_wagon_note(*, leader: bool = False, tied: bool = False, peace_needs: Any = None,
                     peace_wins: bool = False) -> str:
    """The words beside a wagon of the Veche's count: the leader (punished, whatever the margin),
    a leader tied with him, peace's strict majority, or what peace needs."""
    if peace_wins:
        return _("a strict majority: nobody is punished")
    if peace_needs is not None:
        return _("peace needs more than %(n)s") % {"n": _weight(peace_needs)}
    if leader:
        return _("leader: punished")
    if tied:
        return _("tied with the leader")
    return ""


def _cards_text(kind: str, data: dict) -> str | None:
    """The texts of the cards rule set's events (docs/rulesets/cards.md, "Events"); None for kinds
    the common texts handle."""
    name = name_in(data, "name", "target_name")
    if kind == "game_started":
        players = data.get("players") or []
        overt = names_joined([f"{p.get('name')} ({p.get('overt')})" if p.get("overt") else p.get("name")
                              for p in players])
        return _("The game has started: %(n)d players. Classes: %(players)s.") % {"n": len(players), "players": overt}
    if kind == "role":
        text = _("Your secret role: %(role)s (%(faction)s); colours: %(colours)s.") % {
            "role": _role_label(data.get("role", "")), "faction": faction_label(data.get("faction", "")),
            "colours": ", ".join(colour_label(c) for c in data.get("colours") or ()) or "—"}
        if data.get("chooses_colours"):
            text += " " + _("You choose your two colours when you build your deck.")
        return text
    if kind == "team":
        return _("The mafia: %(members)s.") % {"members": names_joined([
            f"{m.get('name')} ({_role_label(m.get('role', ''))})" for m in data.get("members") or ()])}
    if kind == "deck_refused":
        return _("The deck of %(name)s breaks the deck rules: %(reasons)s.") % {
            "name": name, "reasons": "; ".join(deck_refusal_texts(data.get("refusals") or ()))}
    if kind == "deck_auto" and data.get("by") == "gm":
        # The GM's option illegal_deck = gm: the GM built the deck.
        text = _("%(name)s had no legal deck at the deadline; as this game's rules say, the GM built his deck: "
                 "%(cards)s.") % {"name": name, "cards": _deck_contents(data.get("deck"))}
    elif kind == "deck_auto":
        text = agreed(gender_of(name), _("%(name)s had no legal deck at the deadline and was dealt a random legal one, of his colours and Neutral: %(cards)s."),
                      pgettext("masculine", "%(name)s had no legal deck at the deadline and was dealt a random legal one, of his colours and Neutral: %(cards)s."),
                      pgettext("feminine", "%(name)s had no legal deck at the deadline and was dealt a random legal one, of his colours and Neutral: %(cards)s.")) % {
            "name": name, "cards": _deck_contents(data.get("deck"))}
    if kind == "deck_auto":
        if data.get("colours"):
            text += " " + _("Colours: %(colours)s.") % {"colours": ", ".join(colour_label(c) for c in data["colours"])}
        return text
    if kind == "mafia_decks":
        return _("The mafia's decks and Hands: %(members)s.") % {"members": "; ".join(
            _("%(name)s — deck: %(deck)s; Hand: %(hand)s") % {"name": m.get("name"), "deck": _cards(m.get("deck")),
                                                              "hand": _cards(m.get("hand"))}
            for m in data.get("members") or ())}
    if kind == "deck_order":
        return _("%(name)s's deck, top first: %(cards)s.") % {"name": name, "cards": _cards(data.get("deck"))}
    if kind == "containers":
        text = _("Your Hand: %(hand)s. Sleeve: %(sleeve)s. Cards in the deck: %(deck)s.") % {
            "hand": _cards(data.get("hand")), "sleeve": _cards(data.get("sleeve")), "deck": data.get("deck_size", 0)}
        if data.get("can_rebuild"):
            text += " " + _("Your deck is empty: you may rebuild it.")
        if data.get("deck_top"):  # Экстрасенс
            text += " " + _("The top of your deck: %(cards)s.") % {"cards": _cards(data["deck_top"])}
        return text
    if kind == "phase_report":
        return _phase_report(data)
    if kind == "reveal":
        return _("%(card)s: %(name)s — %(what)s: %(value)s.") % {
            "card": data.get("card") or _("the GM"), "name": data.get("target_name", "?"),
            "what": str(REVEALED.get(data.get("what"), data.get("what"))),
            "value": _reveal_value(str(data.get("what")), data.get("value"))}
    if kind == "message" and "sender_name" in data:
        return _("Card message from %(sender)s to %(target)s: «%(text)s»%(status)s") % {
            "sender": name_case(data.get("sender_name") or _("the GM"), "gent"),
            "target": name_case(data.get("target_name", "?"), "gent"),
            "text": data.get("text", ""), "status": "" if data.get("delivered") else " " + _("(not delivered)")}
    if kind == "message":
        return _("A message from the GM (a card was played at you): «%(text)s»") % {"text": data.get("text", "")}
    if kind == "mafia_message" and "sender_name" in data:
        if data.get("result") == "refused":
            return _("The mafia message of %(sender)s was refused (%(reason)s).") % {
                "sender": name_case(data.get("sender_name"), "gent"), "reason": _card_reason(data.get("reason"))}
        return _("Mafia message from %(sender)s to %(target)s: «%(text)s»") % {
            "sender": name_case(data.get("sender_name"), "gent"), "target": name_case(data.get("target_name", "?"), "gent"),
            "text": data.get("text", "")}
    if kind == "mafia_message":
        return _("A message from %(name)s of the mafia: «%(text)s»") % {"name": name, "text": data.get("text", "")}
    if kind == "hand_sizes":
        return _("Cards in Hand: %(sizes)s.") % {"sizes": ", ".join(
            f"{row.get('name')} — {row.get('size')}" for row in data.get("sizes") or ()) or "—"}
    if kind == "veche_result":
        return _veche_text(data)
    if kind == "tie_break":
        rule = TIE_BREAK_RULES.get(data.get("by"), TIE_BREAK_RULES["overt_alphabet"])
        return agreed(gender_of(name), _("The lead was tied between %(names)s; %(rule)s, %(name)s is chosen."),
                      pgettext("masculine", "The lead was tied between %(names)s; %(rule)s, %(name)s is chosen."),
                      pgettext("feminine", "The lead was tied between %(names)s; %(rule)s, %(name)s is chosen.")) % {
            "names": names_joined([f"{p.get('name')} ({p.get('overt') or '—'})" for p in data.get("leaders") or ()]),
            "rule": rule, "name": name}
    if kind == "executed":
        return _("%(name)s is executed by the Veche: %(n)s damage.") % {"name": name, "n": data.get("damage", 6)}
    if kind == "imprisoned":
        return _("%(name)s is sent to prison by the Veche: he loses his Sleeve and plays no targeted cards for "
                 "%(n)s phases.") % {"name": name, "n": data.get("phases", 4)}
    if kind == "died":
        return _("%(name)s has no cards left in his Hand and dies.") % {"name": name}
    if kind == "politician_spared":
        return _("%(name)s, the Politician, leads the Veche for the first time: he goes to prison instead of "
                 "execution.") % {"name": name}
    if kind == "hero_goal":
        text = str(HERO_GOALS.get(data.get("goal"), data.get("goal")))
        return _("Your goal is fulfilled: %(goal)s (%(seat)s).") % {"goal": text, "seat": data.get("seat_name", "?")}
    if kind == "hero_goal_void":
        return agreed(gender_of(name), _("The hero %(name)s would have fulfilled a goal (%(goal)s: %(seat)s), but it does not count: the living Mafia and Traitor were not fewer than the other living characters."),
                      pgettext("masculine", "The hero %(name)s would have fulfilled a goal (%(goal)s: %(seat)s), but it does not count: the living Mafia and Traitor were not fewer than the other living characters."),
                      pgettext("feminine", "The hero %(name)s would have fulfilled a goal (%(goal)s: %(seat)s), but it does not count: the living Mafia and Traitor were not fewer than the other living characters.")) % {
            "name": name, "goal": str(HERO_GOALS.get(data.get("goal"), data.get("goal"))),
            "seat": data.get("seat_name", "?")}
    if kind == "hero_left":
        return _("%(name)s has fulfilled both of his goals: he wins and leaves the game. The game goes on.") % {
            "name": name}
    if kind == "dead_role":
        return _("You know the secret roles of the dead: %(name)s was %(role)s.") % {
            "name": name, "role": _role_label(data.get("role", ""))}
    if kind == "avenger_dice":
        return _("The Avengers %(names)s died together; the dice picks %(name)s.") % {
            "names": names_joined([a.get("name") for a in data.get("avengers") or ()]), "name": name}
    if kind == "avenger_team_won":
        return _("The whole town has died: the team of the Avenger %(name)s wins (%(winner)s).") % {
            "name": name, "winner": faction_label(data.get("winner") or "none")}
    if kind == "joker_won":
        return agreed(gender_of(name), _("The joker %(name)s named everybody's roles and wins."),
                      pgettext("masculine", "The joker %(name)s named everybody's roles and wins."),
                      pgettext("feminine", "The joker %(name)s named everybody's roles and wins.")) % {"name": name}
    if kind == "joker_left":
        return agreed(gender_of(name), _("The joker %(name)s named the roles wrongly and leaves the game; every Ace vanishes (%(n)s)."),
                      pgettext("masculine", "The joker %(name)s named the roles wrongly and leaves the game; every Ace vanishes (%(n)s)."),
                      pgettext("feminine", "The joker %(name)s named the roles wrongly and leaves the game; every Ace vanishes (%(n)s).")) % {
            "name": name, "n": data.get("aces_vanished", 0)}
    if kind == "game_over":
        winners = names_joined([w.get("name") for w in data.get("winners") or ()]) if data.get("winners") else ""
        text = _("The game is over. Winner: %(winner)s.") % {"winner": faction_label(data.get("winner") or "none")}
        if winners:
            text += " " + _("Winners: %(names)s.") % {"names": winners}
        roles = "; ".join(
            f"{s.get('name')}: {_role_label(s.get('role', ''))}" + (f" / {s['overt']}" if s.get("overt") else "")
            for s in data.get("seats") or ())
        if roles:
            text += " " + _("Roles: %(roles)s.") % {"roles": roles}
        return text
    if kind == "play":
        text = _("%(by)s plays %(card)s (%(zone)s)") % {
            "by": data.get("by_name", "?"), "card": data.get("card"),
            "zone": str(CARD_ZONES.get(data.get("from"), data.get("from")))}
        text += _play_outcome(data, reason_only_if_refused=False)
        if data.get("resolved_by_gm"):
            text += "; " + _("resolved by the GM")
        return text + "."
    if kind == "gm_resolve":
        return _("For the GM to resolve: %(by)s played %(card)s → %(target)s. %(note)s") % {
            "by": data.get("by_name", "?"), "card": data.get("card"), "target": data.get("target_name") or "—",
            "note": data.get("note", "")}
    if kind == "phase_summary":
        dead = names_joined([d.get("name") for d in data.get("dead") or ()]) if data.get("dead") else ""
        names = data.get("names") or {}
        return _("Phase summary: damage %(damage)s; armour %(armour)s; deaths: %(dead)s.") % {
            "damage": _by_seat(data.get("damage"), names), "armour": _by_seat(data.get("armour"), names),
            "dead": dead or "—"}
    if kind == "discard":
        if data.get("result") == "done":
            return _("%(name)s discards %(cards)s.") % {"name": name, "cards": _cards(data.get("cards"))}
        return _("%(name)s's discard was refused (%(reason)s).") % {"name": name,
                                                                     "reason": _card_reason(data.get("reason"))}
    if kind == "deck_rebuilt":
        return _("%(name)s rebuilt his deck: %(cards)s.") % {"name": name, "cards": _cards(data.get("deck"))}
    if kind == "joker_guess":
        wrong = names_joined([w.get("name") for w in data.get("wrong") or ()]) if data.get("wrong") else ""
        return (agreed(gender_of(name), _("The joker %(name)s named the roles: wrong for %(wrong)s."),
                       pgettext("masculine", "The joker %(name)s named the roles: wrong for %(wrong)s."),
                       pgettext("feminine", "The joker %(name)s named the roles: wrong for %(wrong)s.")) % {
            "name": name, "wrong": wrong} if wrong else
            agreed(gender_of(name), _("The joker %(name)s named every role rightly."),
                   pgettext("masculine", "The joker %(name)s named every role rightly."),
                   pgettext("feminine", "The joker %(name)s named every role rightly.")) % {"name": name})
    if kind == "ability":
        return _ability_event_text(data)
    if kind == "maniac_kill_draw":
        return agreed(gender_of(data.get("victim")), _("%(victim)s, damaged by the maniac %(name)s, died: he draws %(cards)s into his Sleeve."),
                      pgettext("masculine", "%(victim)s, damaged by the maniac %(name)s, died: he draws %(cards)s into his Sleeve."),
                      pgettext("feminine", "%(victim)s, damaged by the maniac %(name)s, died: he draws %(cards)s into his Sleeve.")) % {
            "victim": data.get("victim"), "name": name, "cards": _cards(data.get("cards"))}
    if kind == "input_ignored":
        who = data.get("name") or _("a player")
        return _("An input of %(name)s was ignored: %(reason)s.") % {"name": who,
                                                                     "reason": _card_reason(data.get("reason"))}
    if kind == "vote_dropped":
        return _("The vote of %(name)s was dropped: %(reason)s.") % {"name": data.get("voter_name", "?"),
                                                                     "reason": _card_reason(data.get("reason"))}
    if kind == "measure_dropped":
        return _("The measure vote of %(name)s was dropped.") % {"name": data.get("voter_name", "?")}
    if kind == "gm_effect_ignored":
        given = data.get("given")
        what = effect_text(given) if isinstance(given, dict) else str(GM_EFFECT_LABELS.get(data.get("op"), "")) or "—"
        return _("An effect applied by the GM was skipped (%(what)s): %(reason)s.") % {
            "what": what, "reason": _card_reason(data.get("reason"))}
    return None


def _by_seat(book, names: dict) -> str:
    """{seat id: n} by the players' names (the event's `names`); a seat without one is «a player»."""
    if not book:
        return "—"
    return ", ".join(f"{names.get(str(k)) or _('a player')} — {v}" for k, v in dict(book).items())


GM_EFFECT_LABELS = {"damage": gettext_lazy("damage"), "armour": gettext_lazy("armour")}


def _deck_contents(cards) -> str:
    """A deck as its contents: «Пистолет ×2, Бункер»."""
    counts = Counter(str(c) for c in cards or ())
    return ", ".join(f"{name} ×{n}" if n > 1 else name for name, n in sorted(counts.items())) or "—"


def card_reason_text(code: str, **params) -> str:
    """The translated text of any reason code of the cards rule set (the engine's REASONS,
    VOTE_REASONS and DECK_REASONS, and the site's own); unknown codes are shown as they are."""
    if code in CARD_REASONS:
        return str(CARD_REASONS[code])
    if code in DECK_REASON_TEXTS:
        return _deck_text(code, list(params.pop("cards", ()) or ()), params)
    return order_reason_text(code)


def _deck_text(code: str, cards: list[str], detail: dict) -> str:
    values: dict[str, Any] = {"cards": ", ".join(map(str, cards)), "count": detail.get("count", ""),
                              "max": detail.get("max", ""), "needed": detail.get("needed", ""),
                              "colour": colour_label(str(detail.get("colour", "")))}
    if code == "colour_forbidden" and not cards and detail.get("colours"):
        values["cards"] = ", ".join(colour_label(c) for c in detail["colours"])
    text = str(DECK_REASON_TEXTS.get(code, code))
    try:
        return text % values
    except (KeyError, TypeError, ValueError):
        return text


def deck_refusal_texts(refusals) -> list[str]:
    """One translated sentence per deck refusal (engine Refusal objects or their JSON), with its
    cards and numbers."""
    out = []
    for refusal in refusals or ():
        if isinstance(refusal, dict):
            code, cards, detail = refusal.get("code", ""), refusal.get("cards") or (), refusal.get("detail") or {}
        else:
            code, cards, detail = refusal.code, refusal.cards, refusal.detail
        out.append(_deck_text(str(code), list(cards), dict(detail)))
    return out


# The GM log's cards actions and data (docs/rulesets/cards.md, "GM decisions"): a card effect in a
# sentence (effect_text), the GM's pick for a tied Veche, the decks he built, never a raw value.
CARDS_GM_ACTION_LABELS = {
    "card_tie_break": gettext_lazy("picked who is punished if the Veche ties"),
    "card_gm_deck": gettext_lazy("built decks for players"),
}
CARDS_GM_DATA_LABELS = {
    "effect": gettext_lazy("effect"),
    "tie_break": gettext_lazy("punished on a tie"),
    "decks": gettext_lazy("decks"),
    "cards": gettext_lazy("cards in the collection"),
    "default": gettext_lazy("the shipped collection"),
}


def gm_log_detail(action: str, key: str, value: Any, seat_name) -> tuple[str, str] | None:
    """A cards GM log item in words (CardsWording.gm_log_detail); None for the core's keys."""
    if key not in CARDS_GM_DATA_LABELS:
        return None
    label = str(CARDS_GM_DATA_LABELS[key])
    if key == "effect":
        if not isinstance(value, dict):
            return label, "—"
        names = {v: seat_name(v) for k in ("target", "target2", "viewer") if isinstance(v := value.get(k), int)}
        return label, effect_text(value, names)
    if key == "tie_break":
        return label, seat_name(value) if isinstance(value, int) else str(_("nobody: the alphabet decides"))
    if key == "decks":
        if not isinstance(value, dict) or not value:
            return label, str(_("none: decks are dealt at random"))
        return label, "; ".join(f"{seat_name(_seat_key(seat))}: {_deck_summary(cards)}" for seat, cards in value.items())
    if key == "default":
        return label, str(_("yes") if value else _("no"))
    return label, "—" if value in (None, "") else str(value)


def _seat_key(seat: Any) -> Any:
    try:
        return int(seat)
    except (TypeError, ValueError):
        return seat


def _deck_summary(cards: Any) -> str:
    if isinstance(cards, dict):  # {"cards": [...], "colours": [...]}
        colours = ", ".join(colour_label(c) for c in cards.get("colours") or ())
        text = _deck_contents(cards.get("cards"))
        return f"{text} ({colours})" if colours else text
    return _deck_contents(cards)


class CardsWording(RulesetWording):
    role_names = ROLE_NAMES
    gm_action_labels = CARDS_GM_ACTION_LABELS
    faction_names = FACTION_NAMES
    faction_goals = CARDS_FACTION_GOALS
    action_labels = ACTION_LABELS
    # The ledger's rows show their reason through games.wording.order_reason_text: the card codes.
    order_reasons = CARD_REASONS
    result_kinds = RESULT_KINDS
    vote_button_form = "[b]Казнить {name}[/b]"  # the vote and the measure «казнь» at once
    # The second button: the vote and the measure «тюрьма» at once.
    prison_button_form = "[b]В тюрьму {name}[/b]"
    # The measure alone, beside a vote written in a syntax of the game's (`##vote X`).
    execution_measure_text = "Мера — [b]казнь[/b]"
    prison_measure_text = "Мера — [b]тюрьма[/b]"

    def reason_text(self, code: str, **params) -> str:
        return card_reason_text(code, **params)

    def gm_log_detail(self, action: str, key: str, value: Any, seat_name) -> tuple[str, str] | None:
        return gm_log_detail(action, key, value, seat_name)

    def measure_label(self, measure) -> str:
        return measure_label(measure)

    def event_text(self, kind: str, data: dict) -> str | None:
        return _cards_text(kind, data) or _part2_d_text(kind, data)

    def results_heading(self, phase) -> str | None:
        if phase.kind == "deckbuilding":
            return _("[b]Deck building is over.[/b] Every player has drawn his Hand; the night begins.")
        return None

    def vote_buttons(self, name: str, written: str | None = None) -> list[tuple[str, str]]:
        """The Veche votes for a character and a measure: «Казнить X» and «В тюрьму X» (the «За мир»
        button is the thread's). In a game whose vote words are off (`written`: «##vote X»), the
        vote as the game reads it, with the measure in bold beside it (the measure is read from bold
        text whatever the vote syntax: docs/rulesets/cards.md, "The measure's syntax")."""
        execute, prison = str(_("Execute %(name)s")) % {"name": name}, str(_("Prison for %(name)s")) % {"name": name}
        if written is not None:
            return [(execute, f"{written}\n{self.execution_measure_text}"),
                    (prison, f"{written}\n{self.prison_measure_text}")]
        accusative = inflect_name(name, "accs")
        return [(execute, self.vote_button_form.format(name=accusative)),
                (prison, self.prison_button_form.format(name=accusative))]


# --- Part 2 (d): the Prosecutor, the Assassin, the Hero and the Joker's abilities -------------------
ABILITY_LABELS.update({
    "prosecutor_boost": gettext_lazy("+2 to my vote today"),
    "assassin_kill": gettext_lazy("Kill a player who has exactly one card in Hand"),
    "hero_armour": gettext_lazy("Give 3 armour to another character"),
    "hero_guess": gettext_lazy("Name a character and his Mafia role (a right guess marks him)"),
    "joker_hr": gettext_lazy("The effect of «Отдел кадров»: learn a character's secret role"),
    "joker_ace": gettext_lazy("Put an Ace into a character's Sleeve"),
})
ABILITY_FIELD_LABELS.setdefault("role", gettext_lazy("Mafia role"))


def ability_option_label(field: str, value) -> str:
    """An ability input's option in words: a secret role by its name, anything else as it is."""
    return _role_label(str(value)) if field == "role" else str(value)


ABILITY_RESULT_TEXTS.update({
    "prosecutor_boost": lambda data: _("your vote weighs %(weight)s today.") % {
        "weight": _weight(data.get("weight", 3))},
    "assassin_kill": lambda data: agreed(gender_of(data.get("target_name")), _("%(name)s is killed"),
                                         pgettext("masculine", "%(name)s is killed"),
                                         pgettext("feminine", "%(name)s is killed")) % {
        "name": data.get("target_name", "?")},
    "hero_armour": lambda data: _("%(name)s gets %(n)s armour") % {"name": data.get("target_name", "?"),
                                                                     "n": data.get("n", 3)},
    "hero_guess": lambda data: _("you named %(name)s as %(role)s; a right guess marks him, and you are not told "
                                 "whether it was") % {"name": name_case(data.get("target_name", "?"), "accs"),
                                                       "role": _role_label(str(data.get("role", "")))},
    "joker_hr": lambda data: _("the secret role of %(name)s: %(role)s") % {
        "name": data.get("target_name", "?"), "role": _role_label(str(data.get("role", "")))},
    "joker_ace": lambda data: _("an Ace goes into the Sleeve of %(name)s") % {"name": data.get("target_name", "?")},
})
CARD_REASONS.update({
    "not_one_card": gettext_lazy("the Assassin kills only a player who has exactly one card in Hand"),
    "hero_sleeve_played": gettext_lazy("the hero acts at night only if he plays no Sleeve card, and you played one"),
    "hero_other_choice": gettext_lazy("you give armour or name a Mafia role at night, not both: the later one "
                                      "counts"),
    "bad_role": gettext_lazy("name one of the Mafia's secret roles: the Boss, the Advisor or the Killer"),
})


def _part2_d_text(kind: str, data: dict) -> str | None:
    name = name_in(data, "name", "target_name")
    if kind == "hero_mark":
        return agreed(gender_of(name), _("The hero %(name)s named %(target)s as %(role)s: %(right)s."),
                      pgettext("masculine", "The hero %(name)s named %(target)s as %(role)s: %(right)s."),
                      pgettext("feminine", "The hero %(name)s named %(target)s as %(role)s: %(right)s.")) % {
            "name": name, "target": name_case(data.get("target_name", "?"), "accs"),
            "role": _role_label(str(data.get("role", ""))),
            "right": _("right, %(target)s is marked") % {"target": data.get("target_name", "?")}
            if data.get("right") else _("wrong")}
    if kind == "assassinated":
        return agreed(gender_of(name), _("%(name)s is killed by the Assassin."),
                      pgettext("masculine", "%(name)s is killed by the Assassin."),
                      pgettext("feminine", "%(name)s is killed by the Assassin.")) % {"name": name}
    return None


WORDING = CardsWording()


def overt_ability_notes(role, player: dict, limited: list[tuple[str, int, int]]) -> list[str]:
    """What is left of an overt role's limited ability (the role page): Воин's two cards a game moved
    to the Sleeve (from the player's memory), and for each ability of the role used so many times a
    game, (key, uses left, uses a game) — Везунчик's two redraws, Учёный's one discard of two."""
    notes = []
    if role.damage_to_sleeve:
        left = max(0, role.damage_to_sleeve - int(player.get("to_sleeve", 0)))
        notes.append(_("Cards you may still move into your Sleeve instead of discarding them because of damage: "
                       "%(left)s of %(total)s.") % {"left": left, "total": role.damage_to_sleeve})
    for key, left, total in limited:
        notes.append(_("«%(ability)s»: %(left)s of %(total)s uses left.") % {
            "ability": ability_label(key), "left": left, "total": total})
    return notes
