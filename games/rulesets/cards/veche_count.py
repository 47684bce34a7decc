"""The Veche's count in the cards rule set's own words (CardsSite.count_words): what decides, what the
count does if the day ends as it stands, and each vote's weight beside its voter.

The Veche is not the forum's majority vote: «По окончании дня персонаж, набравший больше всего
голосов, получает 6 урона, если была выбрана казнь ... Если строгое большинство голосов "за мир", то
казни и посадки не происходит». Its leader is punished whatever the margin, so the count shows no
«majority: N» nor L-n; the outcome is the engine's own count (CardsRuleset.veche_standing, the
close's code) of the votes and measures standing now.
"""

from __future__ import annotations

from games.rulesets.base import CountWords
from games.rulesets.cards import wording
from games.rulesets.cards.engine import CARDS
from games.rulesets.cards.engine.context import EXECUTION_DAMAGE, PRISON_PHASES
from games.rulesets.cards.services import measures_standing
from games.selectors.votes import engine_state_of

# The GM's option `tie_break` -> the rule's words (TIE_BREAK_RULES, keyed as the tie_break event's `by`).
_TIE_RULES = {"overt": "overt_alphabet", "name": "name_alphabet", "gm": "gm"}


def count_words(count) -> CountWords:
    """The cards words for a day's count (games.selectors.votes.CountView)."""
    phase = count.phase
    words = CountWords(decides=str(wording.VECHE_DECIDES), weights_shown=True)
    _ruleset, state = engine_state_of(phase)
    if state is None:
        return words
    seats = {seat.pk: seat for wagon in count.wagons for seat, _n in wagon.voters}
    seats.update({w.target.pk: w.target for w in count.wagons if w.target is not None})
    votes: dict[int, int | str | None] = {}
    for wagon in count.wagons:
        for seat, _number in wagon.voters:
            votes[seat.pk] = wagon.target.pk if wagon.target is not None else "peace"
    tie_pick = (phase.gm_decisions or {}).get("tie_break")
    result = CARDS.veche_standing(state, votes, measures_standing(phase), tie_pick=tie_pick)
    if result is None:
        return words

    def name(seat_id: int) -> str:
        seat = seats.get(seat_id)
        return seat.user.display_name if seat is not None else state.seat(seat_id).name

    peace = result.tally.get("peace", 0)
    cast = sum(result.tally.values())
    rule = _TIE_RULES.get(CARDS.option(state, "tie_break"), "overt_alphabet")
    if rule == "gm" and tie_pick not in result.leaders:
        rule = "overt_alphabet"  # the close's fallback when the GM picked none of the tied
    outcome = wording.veche_outcome_text(
        reason=result.reason, leader=name(result.leader) if result.leader is not None else "",
        measure=result.measure, leaders=[name(s) for s in result.leaders],
        tie_rule=str(wording.TIE_BREAK_RULES[rule]), peace=peace, cast=cast,
        closed=phase.closed_at is not None, execution_damage=EXECUTION_DAMAGE, prison_phases=PRISON_PHASES)
    notes: dict[int | None, str] = {}
    for seat_id in result.leaders:
        notes[seat_id] = wording.veche_wagon_note(leader=seat_id == result.leader, tied=seat_id != result.leader)
    if peace and result.reason != "two_left":
        notes[None] = wording.veche_wagon_note(peace_needs=cast / 2, peace_wins=result.reason == "peace_majority")
    return CountWords(decides=words.decides, outcome=outcome, wagon_notes=notes, weights_shown=True)
