"""The pure parts of `python -m bench` (the benchmark itself is not run here): reading wrk's
output, the Lua script for posting, ratios, goals, the table and the last JSON line."""

import json

import pytest

from bench import report
from bench.server import bench_database_url
from bench.wrk import WrkResult, lua_script, merge, parse_duration_ms, parse_wrk, wrk_command

WRK_OUTPUT = """Running 4s test @ http://127.0.0.1:41234/threads/1/?page=last
  1 threads and 4 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    61.23ms   12.40ms 180.11ms   80.00%
    Req/Sec    65.10     10.20    90.00     70.00%
  Latency Distribution
     50%   58.02ms
     75%   66.10ms
     90%   80.50ms
     99%    1.02s
  262 requests in 4.01s, 12.34MB read
  Non-2xx or 3xx responses: 3
  Socket errors: connect 0, read 1, write 0, timeout 2
Requests/sec:     65.34
Transfer/sec:      3.08MB
BENCH-STATUS ok=259 bad=3
"""


def test_wrk_durations_in_milliseconds():
    assert parse_duration_ms("812.00us") == pytest.approx(0.812)
    assert parse_duration_ms("1.23ms") == pytest.approx(1.23)
    assert parse_duration_ms("2.01s") == pytest.approx(2010)
    assert parse_duration_ms("1.00m") == pytest.approx(60_000)
    with pytest.raises(ValueError):
        parse_duration_ms("fast")


def test_wrk_output_is_read():
    result = parse_wrk(WRK_OUTPUT)
    assert result.rps == pytest.approx(65.34)
    assert result.p50_ms == pytest.approx(58.02) and result.p99_ms == pytest.approx(1020)
    assert (result.requests, result.seconds) == (262, pytest.approx(4.01))
    assert (result.non_2xx_3xx, result.socket_errors) == (3, 3)
    assert (result.ok, result.bad) == (259, 3)


def test_wrk_output_without_errors_or_status_line():
    text = WRK_OUTPUT.replace("  Non-2xx or 3xx responses: 3\n", "").replace(
        "  Socket errors: connect 0, read 1, write 0, timeout 2\n", "").replace("BENCH-STATUS ok=259 bad=3\n", "")
    result = parse_wrk(text)
    assert (result.non_2xx_3xx, result.socket_errors, result.ok, result.bad) == (0, 0, None, None)


@pytest.mark.parametrize("broken", ["", "wrk: connection refused", WRK_OUTPUT.replace("     99%    1.02s\n", "")])
def test_wrk_output_without_figures_is_an_error(broken):
    with pytest.raises(ValueError):
        parse_wrk(broken)


def test_wrk_command():
    command = wrk_command("/usr/bin/wrk", "http://127.0.0.1:1/healthz/", seconds=4, connections=4, threads=1,
                          script="/tmp/x.lua")
    assert command == ["/usr/bin/wrk", "-t1", "-c4", "-d4s", "--latency", "--timeout", "10s", "-s", "/tmp/x.lua",
                       "http://127.0.0.1:1/healthz/"]


def test_lua_script_for_posting_votes():
    script = lua_script(method="POST", headers={"Cookie": 'sessionid=abc; csrftoken="x"', "X-CSRFToken": "tok"},
                        bodies=["body=%5Bb%5D1", "body=2"], expect_status=200, expect_header="HX-Push-Url")
    assert 'wrk.method = "POST"' in script
    assert 'wrk.headers["Cookie"] = "sessionid=abc; csrftoken=\\"x\\""' in script
    assert 'local bodies = {"body=%5Bb%5D1", "body=2"}' in script
    assert 'if status == 200 and headers["HX-Push-Url"] ~= nil then ok = ok + 1 else bad = bad + 1 end' in script
    assert "BENCH-STATUS ok=%d bad=%d" in script
    # Every Lua block is closed.
    opened = sum(line.strip().startswith(("request = function", "function ")) for line in script.splitlines())
    opened += script.count(" then ") + script.count(" do ")
    assert script.count("end\n") + script.count(" end ") + script.count(" end\n") >= opened


def test_plain_get_script_has_no_body_or_status_counting():
    script = lua_script(headers={"Cookie": "sessionid=1"})
    assert "request = function" not in script and "BENCH-STATUS" not in script


def test_lua_script_revalidating_as_a_browser_sends_the_last_etag():
    script = lua_script(headers={"Cookie": "sessionid=1"}, revalidate=True, expect_status=304)
    assert 'wrk.headers["If-None-Match"] = etag' in script and "keep_etag(headers)" in script
    assert "if status == 304" in script and "BENCH-STATUS" in script
    plain = lua_script(revalidate=True)
    assert "function response(status, headers, body) keep_etag(headers) end" in plain


def _result(rps, p50=1.0, p99=2.0):
    return WrkResult(rps=rps, p50_ms=p50, p99_ms=p99, requests=int(rps * 4), seconds=4.0)


def test_ratios_to_the_baseline():
    assert report.ratio(500, 2000) == 0.25
    assert report.ratio(1, 3) == 0.333
    assert report.ratio(None, 2000) is None and report.ratio(5, 0) is None


def test_goals():
    assert report.goal_met("thread_page", 0.45, 11, extra_queries=[12]) is True
    assert report.goal_met("thread_page", 0.39, 11) is False
    assert report.goal_met("thread_page", 0.5, 11, extra_queries=[13]) is False
    assert report.goal_met("poll", 0.85, 0) is True
    assert report.goal_met("poll", 0.85, 1) is False
    assert report.goal_met("poll", None, 0) is False
    assert report.goal_met("fragment", 0.1, 3) is None
    assert report.goal_met("thread_page_cold", 0.12, None) is True
    assert report.goal_met("thread_page_cold", 0.09, None) is False
    assert report.goal_met("vote_post", None, 15, time_vs_plain=1.2) is True
    assert report.goal_met("vote_post", None, 16, time_vs_plain=1.2) is False
    assert report.goal_met("vote_post", None, 15, time_vs_plain=1.6) is False
    assert report.goal_met("vote_post", None, 15) is False  # no plain post measured: not met


def test_a_vote_is_compared_with_a_plain_post_by_time_per_request():
    # 40 plain posts a second (25 ms each) against 32 votes (31.25 ms each): 1.25 times as long.
    assert report.time_vs(32, 40) == 1.25
    assert report.time_vs(None, 40) is None and report.time_vs(32, 0) is None
    results = {"baseline": _result(2000), "plain_post": _result(40, 50, 90), "vote_post": _result(20, 110, 200),
               "thread_page_cold": _result(300)}
    summary = report.summarize(results, {"vote_post": 14, "plain_post": 12}, recount_ms=20, date="2026-11-25")
    assert summary["vote_post_time_vs_plain"] == 2.0 and summary["vote_post_p50_vs_plain"] == 2.2
    assert summary["goals"]["vote_post"] is False and summary["goals"]["thread_page_cold"] is True
    assert "(2.00 x plain)" in report.table(summary)


def test_summary_table_and_the_last_json_line():
    results = {"baseline": _result(2000, 1.5, 7.0), "thread_page": _result(60, 55, 120), "poll": _result(1700, 2, 8),
               "fragment": _result(200, 18, 30), "vote_post": _result(10, 300, 1200)}
    queries = {"thread_page": 11, "thread_page_100": 11, "poll": 0, "fragment": 1, "vote_post": 25}
    summary = report.summarize(results, queries, recount_ms=41.5, date="2026-11-22", extra={"mode": "quick"})
    line = report.json_line(summary)
    assert "\n" not in line
    data = json.loads(line)
    for key in ("thread_page_vs_baseline", "poll_vs_baseline", "fragment_vs_baseline", "vote_post_vs_baseline",
                "thread_page_queries", "thread_page_queries_100", "poll_queries", "fragment_queries",
                "vote_post_queries", "recount_10k_ms", "date", "baseline_rps", "poll_p50_ms", "vote_post_p99_ms"):
        assert key in data, key
    assert data["thread_page_vs_baseline"] == 0.03 and data["poll_vs_baseline"] == 0.85
    assert data["goals"] == {"thread_page": False, "thread_page_cold": False, "poll": True, "vote_post": False,
                             "recount": True, "fragment_304": False, "plain_post": False}
    assert data["date"] == "2026-11-22" and data["mode"] == "quick"
    text = report.table(summary)
    lines = text.splitlines()
    assert lines[0].split()[0] == "endpoint" and len(lines) == 2 + len(report.ENDPOINTS) + 1
    poll_row = next(line for line in lines if line.startswith("live-update poll"))
    assert "0.850" in poll_row and poll_row.rstrip().endswith("yes")
    assert next(line for line in lines if line.startswith("game thread")).rstrip().endswith("NO")
    assert "11 (11 at 100/page)" in text


def test_each_ratio_is_to_the_baseline_measured_in_turns_with_it():
    results = {"baseline": _result(2000), "poll": _result(1520), "thread_page": _result(60)}
    baselines = {"poll": _result(1900), "thread_page": _result(2400)}
    summary = report.summarize(results, {"poll": 0}, recount_ms=50, date="2026-11-22", baselines=baselines)
    assert summary["poll_vs_baseline"] == 0.8 and summary["goals"]["poll"] is True
    assert summary["thread_page_vs_baseline"] == 0.025 and summary["poll_baseline_rps"] == 1900
    assert (summary["baseline_min_rps"], summary["baseline_max_rps"]) == (1900, 2400)


def test_slices_merge_into_one_result():
    slices = [WrkResult(rps=100, p50_ms=2.0, p99_ms=9.0, requests=200, seconds=2.0, non_2xx_3xx=1, ok=190, bad=10),
              WrkResult(rps=300, p50_ms=1.0, p99_ms=20.0, requests=600, seconds=2.0, socket_errors=2, ok=600, bad=0),
              WrkResult(rps=200, p50_ms=4.0, p99_ms=5.0, requests=200, seconds=1.0, ok=None)]
    merged = merge(slices)
    assert merged.rps == 200 and merged.requests == 1000 and merged.seconds == 5.0
    assert (merged.p50_ms, merged.p99_ms) == (2.0, 20.0)  # median of the p50s, worst p99
    assert (merged.non_2xx_3xx, merged.socket_errors, merged.ok, merged.bad) == (1, 2, 790, 10)
    assert merge(slices[:2]).p50_ms == 1.5
    assert merge([slices[2]]).ok is None
    with pytest.raises(ValueError):
        merge([])


def test_missing_endpoint_gives_nulls_not_a_crash():
    summary = report.summarize({"baseline": _result(1000)}, {}, recount_ms=None, date="2026-11-22")
    assert summary["poll_vs_baseline"] is None and summary["goals"]["recount"] is False
    assert "—" in report.table(summary)


@pytest.mark.parametrize("url, expected", [
    ("postgres://postgres@127.0.0.1:5432/mafia", "postgres://postgres@127.0.0.1:5432/mafia_bench"),
    ("postgres://postgres@127.0.0.1:5432/mafia_bench", "postgres://postgres@127.0.0.1:5432/mafia_bench"),
    ("postgres://u:p@db:5433/mafia_bench2", "postgres://u:p@db:5433/mafia_bench2"),
    ("postgres://postgres@127.0.0.1:5432", "postgres://postgres@127.0.0.1:5432/mafia_bench"),
])
def test_the_benchmark_never_uses_a_real_sites_database(url, expected):
    assert bench_database_url(url) == expected


def _growth_rows(page_ms, recount_ms, search_ms):
    return {"thread page (last), kept": {"ms": page_ms, "ratio": 0.7, "queries": 0},
            "recount of the day": {"ms": recount_ms, "ratio": 0.1, "queries": 2},
            "search, a rare word": {"ms": search_ms, "ratio": 0.05, "queries": 7}}


def test_growth_table_judges_each_curve_against_its_goal():
    """python -m bench --growth: a page flat in the thread's size, a recount at most linear (and
    within 300 ms at 100,000), search within 50 ms at the largest size."""
    from bench import growth

    text, verdicts = growth.table([1_000, 100_000], {1_000: _growth_rows(10.0, 4.0, 20.0),
                                                       100_000: _growth_rows(11.0, 250.0, 45.0)})
    assert verdicts["thread page (last), kept"] == {"growth": 1.1, "goal": "<= 1.2 x", "met": True}
    assert verdicts["recount of the day"]["met"] and verdicts["search, a rare word"]["met"]
    assert "100,000 posts" in text and "NO" not in text
    _text, verdicts = growth.table([1_000, 100_000], {1_000: _growth_rows(10.0, 4.0, 20.0),
                                                        100_000: _growth_rows(13.0, 510.0, 80.0)})
    assert not any(v["met"] for v in verdicts.values())


def test_growth_keeps_its_databases_per_size_and_recipe():
    from bench import growth

    first = growth._database_for("postgres://postgres@127.0.0.1:5432/mafia_bench", 10_000)
    assert first.endswith(f"/mafia_bench_growth_10000_{growth.recipe()}") and "bench" in first
    assert growth.recipe() == growth.recipe()
