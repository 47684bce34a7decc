"""The pure vote count (games/engine/votecount.py), rule by rule."""

from games.engine.votecount import PEACE, UNVOTE, VOTE, Ballot, majority_of, tally

A, B, C, D, E = 1, 2, 3, 4, 5
ALL = [A, B, C, D, E]


def v(voter, target, order, kind=VOTE):
    return Ballot(voter=voter, kind=kind, target=target, post_number=order, order=order)


def test_last_vote_counts_when_a_player_votes_several_times():
    """«Голосовать можно неограниченное число раз в течении дня, но засчитывается только последний голос.»"""
    count = tally([v(A, B, 1), v(A, C, 2)], voters=ALL)
    assert [(w.target, w.voters) for w in count.wagons] == [(C, ((A, 2),))]


def test_unvote_takes_the_player_off_his_wagon():
    count = tally([v(A, B, 1), Ballot(voter=A, kind=UNVOTE, order=2)], voters=ALL)
    assert count.wagons == ()
    assert A in count.not_voting


def test_majority_is_more_than_half_and_l_minus_counts_down():
    count = tally([v(A, C, 1), v(B, C, 2)], voters=ALL)
    assert count.majority == majority_of(5) == 3
    assert count.wagons[0].to_majority == 1
    assert count.majority_reached is None
    count = tally([v(A, C, 1), v(B, C, 2), v(D, C, 3)], voters=ALL)
    assert count.wagons[0].to_majority == 0
    assert count.majority_reached.target == C


def test_weights_change_wagon_sizes_and_the_majority():
    count = tally([v(A, C, 1)], voters=ALL, weights={A: 2})
    assert count.total_weight == 6 and count.majority == 4
    assert count.wagons[0].weight == 2 and count.wagons[0].to_majority == 2


def test_count_as_of_a_post_ignores_later_ballots():
    ballots = [v(A, B, 1), v(C, B, 5), v(A, D, 9)]
    assert tally(ballots, voters=ALL, as_of=5).wagons[0].voters == ((A, 1), (C, 5))
    assert {w.target for w in tally(ballots, voters=ALL).wagons} == {B, D}


def test_ballots_of_non_voters_and_votes_for_non_targets_are_ignored():
    """«голосуют ... (доступно только активным игрокам, т.е. не убитым и не посаженным в тюрьму)»"""
    count = tally([v(E, A, 1), v(A, E, 2)], voters=[A, B, C, D], targets=[A, B, C, D])
    assert count.wagons == ()
    assert count.not_voting == (A, B, C, D)


def test_equal_wagons_are_ordered_by_who_got_there_first():
    count = tally([v(A, C, 1), v(B, D, 2), v(E, D, 3), v(C, C, 4)], voters=ALL)
    assert [w.target for w in count.wagons] == [D, C]
    assert {w.target for w in count.leaders} == {C, D}


def test_peace_votes_form_their_own_wagon():
    count = tally([Ballot(voter=A, kind=PEACE, order=1), v(B, C, 2)], voters=ALL)
    peace = next(w for w in count.wagons if w.is_peace)
    assert peace.voters == ((A, None),) or peace.voters[0][0] == A


def test_tally_is_deterministic_whatever_the_input_order():
    ballots = [v(A, B, 3), v(B, C, 1), v(C, B, 2)]
    assert tally(ballots, voters=ALL) == tally(list(reversed(ballots)), voters=ALL)


def test_a_last_vote_for_a_player_who_left_the_game_stands_for_nobody():
    """«засчитывается только последний голос»: A voted B, then C; C left the game (a modkill)
    before the close. A's last vote names nobody in the game now, and his earlier vote for B does
    not come back: he is among those not voting (the forum's close counts him for himself)."""
    count = tally([v(A, B, 1), v(A, C, 2), v(D, B, 3)], voters=[A, B, D, E], targets=[A, B, D, E])
    assert [(w.target, w.voters) for w in count.wagons] == [(B, ((D, 3),))]
    assert A in count.not_voting
