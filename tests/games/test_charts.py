"""games.selectors.charts: the wagon history of a day and its SVG, as pure functions (no database)."""

import ast
import pathlib
import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from games.selectors import charts
from games.engine.votecount import Ballot, tally

SVG = "{http://www.w3.org/2000/svg}"
TEXTS = charts.ChartTexts(title="Wagons through day 1", desc="Votes on each player", x_label="post", y_label="votes",
                          majority="majority", empty="no votes")


def vote(voter, target, order):
    return Ballot(voter=voter, kind="vote", target=target, post_number=order, order=order)


def unvote(voter, order):
    return Ballot(voter=voter, kind="unvote", post_number=order, order=order)


def peace(voter, order):
    return Ballot(voter=voter, kind="peace", post_number=order, order=order)


def weights_of(count) -> dict:
    return {w.target: w.weight for w in count.wagons}


def test_charts_module_imports_no_django():
    tree = ast.parse(pathlib.Path(charts.__file__).read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert not any(name.startswith("django") for name in imported)


# --- The history agrees with the count ---------------------------------------------------------
def test_history_steps_follow_each_ballot():
    ballots = [vote(1, 7, 3), vote(2, 7, 4), vote(3, 1, 5), vote(2, 1, 8), unvote(1, 9)]
    history = charts.wagon_history(ballots, voters=[1, 2, 3, 4])
    assert history.changes == [(3, 7, 1), (4, 7, 2), (5, 1, 1), (8, 7, 1), (8, 1, 2), (9, 7, 0)]
    assert history.final == {1: 2}
    assert history.peak == {7: 2, 1: 2}
    assert history.first == {7: 3, 1: 5}
    assert history.at(4) == {7: 2} and history.at(8) == {7: 1, 1: 2} and history.at(2) == {}


def test_history_ignores_what_the_count_ignores():
    ballots = [vote(9, 1, 1), vote(1, 5, 2), vote(1, 2, 3), vote(2, 2, 4), vote(2, 2, 5)]
    history = charts.wagon_history(ballots, voters=[1, 2], targets=[1, 2, 3])
    # Seat 9 is no voter; a vote for seat 5 (not a target) is ignored; a repeated vote moves nothing.
    assert history.changes == [(3, 2, 1), (4, 2, 2)]
    assert history.final == weights_of(tally(ballots, voters=[1, 2], targets=[1, 2, 3]))


def test_history_weights_and_peace():
    ballots = [peace(1, 1), vote(2, 3, 2), peace(2, 3)]
    history = charts.wagon_history(ballots, voters=[1, 2, 3], weights={1: 2, 2: 1})
    assert history.final == {None: 3}
    assert history.final == weights_of(tally(ballots, voters=[1, 2, 3], weights={1: 2, 2: 1}))


ballot_lists = st.lists(
    st.tuples(st.integers(1, 6), st.sampled_from(["vote", "vote", "vote", "unvote", "peace"]), st.integers(1, 7)),
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(ballot_lists, st.sets(st.integers(1, 7), min_size=1))
def test_history_agrees_with_the_count_as_of_every_post(raw, targets):
    ballots = [Ballot(voter=v, kind=k, target=t if k == "vote" else None, post_number=n, order=n)
               for n, (v, k, t) in enumerate(raw, start=1)]
    voters = [1, 2, 3, 4, 5]
    history = charts.wagon_history(ballots, voters=voters, targets=targets, weights={3: 2})
    for as_of in range(0, len(ballots) + 1):
        count = tally(ballots, voters=voters, targets=targets, weights={3: 2}, as_of=as_of)
        assert history.at(as_of) == weights_of(count)
    assert history.final == weights_of(tally(ballots, voters=voters, targets=targets, weights={3: 2}))


# --- Series ------------------------------------------------------------------------------------
def test_series_name_the_top_wagons_and_group_the_rest():
    # Seats 1..8 each get one vote in turn, then seat 1 gets two more: 8 wagons, top 3 named.
    ballots = [vote(v, v, v) for v in range(1, 9)] + [vote(9, 1, 9), vote(10, 1, 10)]
    history = charts.wagon_history(ballots, voters=range(1, 11))
    labels = {i: f"Игрок {i}" for i in range(1, 9)}
    series = charts.chart_series(history, labels, top=3, others_label="прочие")
    assert [s.label for s in series] == ["Игрок 1", "Игрок 2", "Игрок 3", "прочие"]
    assert series[0].points == ((1, 1), (9, 2), (10, 3)) and series[0].final == 3
    others = series[-1]
    assert others.key == "others" and others.final == 5 and others.peak == 5
    assert others.points == ((4, 1), (5, 2), (6, 3), (7, 4), (8, 5))


def test_series_collapse_changes_within_one_post():
    ballots = [vote(1, 5, 1), vote(2, 6, 2), vote(3, 7, 3), Ballot(1, "vote", 6, 4, 4), Ballot(2, "vote", 5, 4, 4)]
    history = charts.wagon_history(ballots, voters=[1, 2, 3])
    series = charts.chart_series(history, {5: "a", 6: "b", 7: "c"}, top=1)
    assert series[-1].points[-1] == (4, 2)  # b and c summed after both moves of post 4


def test_step_points_hold_each_weight_until_the_next_change():
    assert charts.step_points([(3, 1), (5, 2), (5, 2), (8, 0)], 1, 10) == [
        (1, 0), (3, 0), (3, 1), (5, 1), (5, 2), (8, 2), (8, 0), (10, 0)]
    assert charts.step_points([], 1, 10) == [(1, 0), (10, 0)]
    assert charts.step_points([(1, 2)], 1, 1) == [(1, 0), (1, 2)]


def test_scale_maps_linearly_and_survives_an_empty_domain():
    assert charts.scale(5, (0, 10), (100, 200)) == 150
    assert charts.scale(0, (0, 4), (236, 16)) == 236 and charts.scale(4, (0, 4), (236, 16)) == 16
    assert charts.scale(7, (7, 7), (10, 90)) == 10


def test_ticks_are_round_and_cover_the_range():
    assert charts.nice_ticks(0, 4) == [0, 1, 2, 3, 4]
    ticks = charts.nice_ticks(1, 300)
    assert ticks[0] == 1 and ticks[-1] == 300 and len(ticks) <= 8
    assert charts.nice_ticks(3, 3) == [3]


# --- The SVG -----------------------------------------------------------------------------------
def _svg(series, **kwargs):
    kwargs = {"start": 1, "end": 10, "texts": TEXTS, "chart_id": "chart-1", "majority": 3, **kwargs}
    text = charts.vote_chart_svg(series, **kwargs)
    return text, ET.fromstring(text)


def test_svg_draws_a_line_and_a_legend_entry_per_series():
    history = charts.wagon_history([vote(1, 5, 2), vote(2, 5, 4), vote(3, 6, 6)], voters=[1, 2, 3])
    series = charts.chart_series(history, {5: "Саша", 6: "Вася"})
    text, root = _svg(series)
    assert root.get("role") == "img" and root.get("aria-labelledby") == "chart-1-title chart-1-desc"
    assert root.find(f"{SVG}title").text == "Wagons through day 1"
    assert root.find(f"{SVG}desc").text == "Votes on each player"
    lines = root.findall(f".//{SVG}g[@class='wagon-series']")
    assert [(g.get("data-key"), g.get("data-final")) for g in lines] == [("seat-5", "2"), ("seat-6", "1")]
    assert all(g.find(f"{SVG}path").get("d").startswith("M") for g in lines)
    legend = [g.find(f"{SVG}text").text for g in root.findall(f".//{SVG}g[@class='legend-item']")]
    assert legend == ["Саша — 2", "Вася — 1"]
    assert "majority: 3" in text


def test_svg_path_reaches_the_top_for_the_biggest_wagon():
    history = charts.wagon_history([vote(1, 5, 1), vote(2, 5, 2)], voters=[1, 2])
    _text, root = _svg(charts.chart_series(history, {5: "x"}), majority=None, plot_height=200)
    d = root.find(f".//{SVG}path").get("d")
    ys = [float(pair.split()[1]) for pair in d[1:].split(" L")]
    assert min(ys) == 16 and max(ys) == 216  # y = 2 at the top of the plot, 0 at its foot


def test_empty_day_says_so():
    text, root = _svg([], majority=4)
    assert root.find(f".//{SVG}text[@class='empty']").text == "no votes"
    assert not root.findall(f".//{SVG}g[@class='wagon-series']")


def test_names_and_texts_are_escaped():
    history = charts.wagon_history([vote(1, 5, 1)], voters=[1])
    texts = charts.ChartTexts(title='<b>"day"</b>', desc="a & b", empty="<i>")
    text, root = _svg(charts.chart_series(history, {5: "<script>alert(1)</script>"}), texts=texts,
                      chart_id='x" onload="alert(1)')
    assert "<script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert root.find(f"{SVG}title").text == '<b>"day"</b>'
    assert 'onload="' not in text and root.get("id") == "x--onload--alert-1-"
    assert root.find(f".//{SVG}g[@class='legend-item']/{SVG}text").text.startswith("<script>")


def test_a_long_day_is_thinned_to_what_the_chart_can_show():
    """Issue 30: a day of 100,000 votes drew every corner (a page of megabytes); a line keeps per
    slice of its x range its first, lowest, highest and last point: the peak and the final weight
    stay, and a short line is drawn exactly."""
    from games.selectors.charts import CHART_SLICES, thin

    points = [(x, (x * 7919) % 13 + (50 if x == 77_777 else 0)) for x in range(1, 100_001)]
    thinned = thin(points)
    assert len(thinned) <= 4 * CHART_SLICES
    assert thinned[0] == points[0] and thinned[-1] == points[-1]
    assert max(y for _x, y in thinned) == max(y for _x, y in points) and (77_777, 50 + (77_777 * 7919) % 13) in thinned
    assert [x for x, _y in thinned] == sorted(x for x, _y in thinned)
    short = points[:100]
    assert thin(short) == short
