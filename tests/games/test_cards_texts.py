"""Issue 14, item 15: every code of the cards rule set that reaches a page has its sentence.

Two halves. The walk: every reason code, event kind, effect (primitive) and GM operation the engine
declares (REASONS, VOTE_REASONS, DECK_REASONS, GM_EFFECT_REASONS, EVENT_KINDS, collection.OPS,
GM_OPS, REVEALS) has a translated text in the wording layer (games/rulesets/cards/wording.py,
games/wording/). The played game: a six-player game with refused inputs, a refused deck, GM
effects of every kind, the Veche and deaths, to its end; every page a player, the GM and a
spectator open is read as text (in Russian and in English) and must show no raw code
(`discard_count`, `to=sleeve`, `#37: 3`)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.rulesets.cards.engine import CARDS, default_collection
from games.rulesets.cards.engine.collection import OPS, REVEALS
from games.rulesets.cards.engine.decks import DECK_REASONS
from games.rulesets.cards.engine.ruleset import EVENT_KINDS, GM_EFFECT_REASONS, GM_OPS, REASONS, VOTE_REASONS
from games.engine.state import GameState
from games.wording import event_text
from games.models import Game, Thread
from games.rulesets.cards.services import card_gm_effect_add, card_input_submit, card_reason_text, deck_refusal_texts
from games.services.games import game_create
from games.services.lifecycle import game_signup, game_start
from games.services.posting import post_submit
from games.services.resolution import phase_close
from games.services.votes import vote_button_text
from tests.conftest import client_for, make_user

# A raw code: snake_case words, key=value pairs, seat ids as «#37: 3».
RAW_CODE = re.compile(r"\b[a-z]+_[a-z_]+\b|(?<![\[\w])[a-z]+=\S|#\d+:")


class _Text(HTMLParser):
    """The text a reader sees: text nodes outside script/style, plus the titles and placeholders."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "textarea"):
            self._skip += 1
        for name, value in attrs:
            if name in ("title", "placeholder", "aria-label") and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style", "textarea") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def raw_codes(html: str) -> list[str]:
    return sorted(set(RAW_CODE.findall(visible_text(html))))


# --- the walk over the engine's constants ----------------------------------------------------------
def _every_code_has_text(codes, text_of) -> list[str]:
    missing = []
    for lang in ("ru", "en"):
        with translation.override(lang):
            for code in codes:
                text = text_of(code)
                if not text or text == code or RAW_CODE.search(text):
                    missing.append(f"{lang}:{code}={text!r}")
    return missing


def test_cards_reason_codes_each_have_a_sentence_when_walked_from_the_engine():
    codes = [*REASONS, *VOTE_REASONS, *GM_EFFECT_REASONS]
    assert _every_code_has_text(codes, card_reason_text) == []


def test_cards_deck_refusals_each_have_a_sentence_when_walked_from_the_engine():
    def text(code):
        return "; ".join(deck_refusal_texts([{"code": code, "cards": ["Пистолет"],
                                              "detail": {"count": 3, "max": 2, "needed": 15, "colour": "damage",
                                                         "colours": ["damage"], "given": ["damage"]}}]))

    assert _every_code_has_text(DECK_REASONS, text) == []


def _sample(kind: str) -> dict:
    """The richest data an event of this kind may carry (every optional key set)."""
    ref = {"seat": 37, "name": "Петя"}
    play = {"by": 37, "by_name": "Петя", "card": "Пистолет", "from": "hand", "target": 38, "target_name": "Маша",
            "target2": None, "target2_name": None, "result": "refused", "reason": "self_target", "paid": ["Пустышка"],
            "resolved_by_gm": True,
            "effects": [{"op": op, "target": 38, "target_name": "Маша", "cards": ["Нож"], "n": 1, "to": "sleeve",
                         "what": "hand", "value": ["Нож"], "delivered": True, "card": "Нож"} for op in OPS]}
    return {
        "game_started": {"players": [{**ref, "overt": "Богач"}], "phase": "deckbuilding"},
        "role": {**ref, "role": "joker", "faction": "joker", "colours": ["damage"], "chooses_colours": 2},
        "team": {"faction": "mafia", "members": [{**ref, "role": "boss"}]},
        "deck_refused": {**ref, "refusals": [{"code": c, "cards": ["Нож"], "detail": {"count": 1, "max": 0}}
                                             for c in DECK_REASONS]},
        "deck_auto": {**ref, "deck": ["Нож"], "colours": ["damage"]},
        "mafia_decks": {"members": [{**ref, "role": "boss", "deck": ["Нож"], "hand": ["Нож"]}]},
        "deck_order": {**ref, "deck": ["Нож"]},
        "containers": {**ref, "hand": ["Нож"], "sleeve": ["Туз"], "overt": ["Туз"], "deck_size": 3,
                       "can_rebuild": True, "restricted": 4},
        "phase_report": {**ref, "plays": [play], "discard": {"result": "refused", "reason": "played_instead"},
                         "rebuilt": True, "damage": 3, "armour": 2, "absorbed": 1, "discarded": ["Нож"],
                         "lost": ["Нож"], "gained": ["Нож"], "drawn": ["Нож"], "restricted": 2,
                         "armour_broken": True, "prison": {"lost": ["Нож"], "phases": 4}},
        "reveal": {"card": "Досье", "target": 38, "target_name": "Маша", "what": "colours", "value": ["damage"]},
        "message": {"sender": 37, "sender_name": "Петя", "target": 38, "target_name": "Маша", "text": "привет",
                    "delivered": False},
        "mafia_message": {"sender": 37, "sender_name": "Петя", "result": "refused", "reason": "message_used"},
        "hand_sizes": {"sizes": [{**ref, "size": 5}]},
        "veche_result": {"votes": [], "tally": [{"target": 37, "target_name": "Петя", "votes": 1.5},
                                                {"target": "peace", "target_name": "peace", "votes": 1}],
                         "measure_tally": {"execution": 1.5}, "leaders": [ref], "leader": ref,
                         "measure": "execution", "peace": False, "reason": ""},
        "tie_break": {"leaders": [{**ref, "overt": "Богач"}], **ref, "by": "overt_alphabet"},
        "executed": {**ref, "damage": 6},
        "imprisoned": {**ref, "phases": 4},
        "died": ref,
        "joker_won": ref,
        "joker_left": {**ref, "aces_vanished": 2},
        "game_over": {"winner": "law", "winners": [ref], "seats": [{**ref, "role": "boss", "faction": "mafia",
                                                                    "status": "dead", "overt": "Богач"}]},
        "play": play,
        "gm_resolve": {**play, "result": "done", "note": "the GM decides"},
        "phase_summary": {"damage": {"37": 3}, "armour": {"37": 1}, "discarded": {"37": ["Нож"]},
                          "lost": {"37": ["Нож"]}, "drawn": {"37": ["Нож"]}, "dead": [ref]},
        "discard": {**ref, "cards": ["Нож"], "result": "refused", "reason": "discard_count"},
        "deck_rebuilt": {**ref, "deck": ["Нож"]},
        "joker_guess": {**ref, "guess": {"38": "boss"}, "wrong": [{"seat": 38, "name": "Маша"}]},
        "ability": {**ref, "ability": "maniac_swap", "at_once": True, "phase": "night 1", "card": "Нож",
                    "sleeve_card": "Туз", "hand": ["Туз"], "sleeve": ["Нож"]},
        "maniac_kill_draw": {**ref, "victim": "Маша", "cards": ["Нож", "Туз"]},
        "input_ignored": {"seat": 37, "name": "Петя", "reason": "cards_inputs_are_in_extra",
                          "given": {"actor": 37, "action": "kill"}},
        "vote_dropped": {"voter": 37, "voter_name": "Петя", "given": 38, "reason": "bad_target"},
        "measure_dropped": {"voter": 37, "voter_name": "Петя", "given": "hang"},
        "gm_effect_ignored": {"given": {"op": "give", "target": 37, "card": "Икс", "to": "sleeve"},
                              "reason": "unknown_card", "op": "damage", "seat": 37},
        # issue 17 (d)
        "politician_spared": {**ref, "overt": "Политик"},
        "hero_goal": {**ref, "goal": "armour", "seat": 38, "seat_name": "Маша"},
        "hero_goal_void": {**ref, "goal": "mark", "seat": 38, "seat_name": "Маша"},
        "hero_left": ref,
        "dead_role": {**ref, "role": "sheriff", "phase": "night 1"},
        "avenger_dice": {"avengers": [ref, {"seat": 38, "name": "Маша"}], **ref},
        "avenger_team_won": {**ref, "faction": "traitor", "winner": "mafia"},
        "hero_mark": {**ref, "target": 38, "target_name": "Маша", "role": "boss", "right": True},
        "assassinated": ref,
    }[kind]


def test_cards_event_kinds_each_have_a_sentence_when_walked_from_the_engine():
    missing = []
    for lang in ("ru", "en"):
        with translation.override(lang):
            for kind in EVENT_KINDS:
                text = event_text("cards", kind, _sample(kind))
                if not text or text.startswith(f"{kind}:") or text == kind or RAW_CODE.search(text):
                    missing.append(f"{lang}:{kind}: {text!r}")
    assert missing == []


def test_cards_effect_ops_and_gm_ops_each_have_a_sentence_when_walked_from_the_engine():
    from games.rulesets.cards.wording import effect_text

    names = {37: "Петя", 38: "Маша"}
    missing = []
    for lang in ("ru", "en"):
        with translation.override(lang):
            for op in OPS:
                text = effect_text({"op": op, "target": 38, "target_name": "Маша", "cards": ["Нож"], "n": 2,
                                         "to": "sleeve", "what": "hand", "value": ["Нож"], "delivered": True,
                                         "card": "Нож"})
                if not text or RAW_CODE.search(text) or text == op or "unknown" in text:
                    missing.append(f"{lang}:effect {op}: {text!r}")
            for op in GM_OPS:
                for what in REVEALS:
                    effect = {"op": op, "target": 37, "n": 2, "to": "sleeve", "zone": "deck", "what": what,
                              "viewer": 38, "text": "привет", "card": "Нож"}
                    text = effect_text(effect, names)
                    if not text or RAW_CODE.search(text) or "#37" in text:
                        missing.append(f"{lang}:gm {op}/{what}: {text!r}")
    assert missing == []


# --- a played game ------------------------------------------------------------------------------
PLAYERS = [("Вася", "sheriff"), ("Негодяй", "boss"), ("Маньяк", "maniac"), ("Фроло", "doctor"),
           ("Петя", "commissioner"), ("Киллер", "killer")]


def _state(game: Game) -> GameState:
    game.refresh_from_db()
    return GameState.from_json(game.state)


def _play_a_game(read=None) -> tuple[Game, dict, object]:
    """Play the game to its end; `read(game, users, gm)` is called before each of the first closes."""
    gm = make_user("Ведущий")
    game = game_create(title="Карточная", gm=gm, ruleset="cards", size=len(PLAYERS))
    users = {}
    for name, _role in PLAYERS:
        users[name] = make_user(name)
        game_signup(game=game, user=users[name], overt_role={"Вася": "Богач", "Петя": "Авторитет"}.get(name, ""))
    game_start(game=game, by=gm, seed=11, roles_in_seat_order=[r for _n, r in PLAYERS])
    game.refresh_from_db()
    seats = {s.user.display_name: s for s in game.seats.select_related("user")}
    # Deck building: Вася sends a deck that breaks the rules (refused), Негодяй a short one.
    card_input_submit(game=game, user=users["Вася"], action="deck", detail={"cards": ["Пистолет"] * 3 + ["Нож"] * 4})
    card_input_submit(game=game, user=users["Негодяй"], action="deck", detail={"cards": ["Бункер"]})
    assert phase_close(phase_id=game.current_phase.pk, by=gm)

    for _round in range(14):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        state = _state(game)
        phase = game.current_phase
        alive = [n for n, s in seats.items() if state.seat(s.pk).is_active]
        collection = default_collection()
        for name in alive:
            user, seat = users[name], seats[name]
            hand = CARDS.player_view(state, seat.pk)["hand"]
            # a refused discard, a refused self-target, then a play or a discard
            card_input_submit(game=game, user=user, action="discard", detail={"cards": hand[:1]})
            targeted = [c for c in hand if collection[c].target == "other"]
            if targeted:
                card_input_submit(game=game, user=user, action="play",
                                  detail={"card": targeted[0], "from": "hand", "target": seat.pk})
                other = next(seats[n] for n in alive if n != name)
                card_input_submit(game=game, user=user, action="play",
                                  detail={"card": targeted[0], "from": "hand", "target": other.pk,
                                          "message": "привет"})
            if phase.kind == "night" and len(hand) > 2:
                card_input_submit(game=game, user=user, action="discard", detail={"cards": hand[-2:]})
        if phase.kind == "day":
            for name in alive:
                post_submit(thread=game.game_thread, author=users[name],
                            body=vote_button_text(alive[0], "cards") + " [b]казнь[/b]")
        target = seats[alive[-1]].pk
        viewer = seats[alive[0]].pk
        for effect in ({"op": "damage", "target": target, "n": 3}, {"op": "armour", "target": target, "n": 1},
                       {"op": "draw", "target": target, "n": 1, "to": "hand"},
                       {"op": "discard", "target": target, "n": 1, "zone": "sleeve"},
                       {"op": "reveal", "target": target, "what": "hand", "viewer": viewer},
                       {"op": "message", "target": target, "text": "весточка"},
                       {"op": "give", "target": target, "card": "Бункер", "to": "sleeve"},
                       {"op": "block", "target": target}, {"op": "restrict", "target": target, "n": 1}):
            card_gm_effect_add(phase=phase, gm=gm, effect=effect)
        if _round >= 3:
            card_gm_effect_add(phase=phase, gm=gm, effect={"op": "damage", "target": seats[alive[0]].pk, "n": 12})
        if read is not None and _round < 2:
            read(game, users, gm)
        assert phase_close(phase_id=phase.pk, by=gm)
    return game, users, gm


def _pages(game: Game, users: dict, gm) -> dict[str, list[str]]:
    """Every page of the game, by the client that opens it."""
    letters = {t.seat_id: t for t in Thread.objects.filter(game=game, kind=Thread.Kind.GM_CHAT)}
    pages: dict[str, list[str]] = {}
    for name, user in users.items():
        seat = game.seats.get(user=user)
        urls = [reverse("games:cards", args=[game.pk]), reverse("games:role", args=[game.pk]),
                reverse("games:game", args=[game.pk]), game.game_thread.get_absolute_url(),
                reverse("games:votes", args=[game.pk])]
        if seat.pk in letters:
            urls.append(letters[seat.pk].get_absolute_url())
        pages[name] = urls
    pages["gm"] = [reverse("games:gm_cards", args=[game.pk]), reverse("games:gm_dashboard", args=[game.pk]),
                   reverse("games:archive", args=[game.pk]), reverse("games:votes", args=[game.pk]),
                   game.game_thread.get_absolute_url()] + [t.get_absolute_url() for t in letters.values()]
    pages["anonymous"] = [reverse("games:game", args=[game.pk]), reverse("games:archive", args=[game.pk]),
                          game.game_thread.get_absolute_url(), reverse("games:votes", args=[game.pk])]
    return pages


def _read_all(game, users, gm) -> list[str]:
    found = []
    for lang in ("ru", "en"):
        for who, urls in _pages(game, users, gm).items():
            client = client_for(gm if who == "gm" else users.get(who))
            client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
            for url in urls:
                response = client.get(url, follow=True)
                if response.status_code != 200:
                    continue
                for code in raw_codes(response.content.decode()):
                    found.append(f"{lang} {who} {url}: {code}")
    return found


@pytest.mark.django_db
def test_cards_pages_show_no_raw_code_when_a_game_is_played_to_its_end():
    found: list[str] = []
    game, users, gm = _play_a_game(read=lambda *args: found.extend(_read_all(*args)))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert found + _read_all(game, users, gm) == []
