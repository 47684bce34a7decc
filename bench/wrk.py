"""Driving wrk (Debian's package) and reading what it prints. Pure functions except `ensure_wrk`
and `run_wrk`; tests/test_bench.py covers the parsing and the Lua script."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass

_UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0, "h": 3_600_000.0}
_SIZE = {"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9}


@dataclass
class WrkResult:
    rps: float
    p50_ms: float
    p99_ms: float
    requests: int
    seconds: float
    non_2xx_3xx: int = 0
    socket_errors: int = 0
    ok: int | None = None  # counted by the Lua script of a POST run (expected status)
    bad: int | None = None


def parse_duration_ms(text: str) -> float:
    """wrk's durations ("812.00us", "1.23ms", "2.01s", "1.00m") in milliseconds."""
    match = re.fullmatch(r"\s*([0-9.]+)\s*(us|ms|s|m|h)\s*", text)
    if not match:
        raise ValueError(f"not a wrk duration: {text!r}")
    return float(match.group(1)) * _UNITS_MS[match.group(2)]


def _number(text: str) -> float:
    match = re.fullmatch(r"([0-9.]+)([kKMG]?)", text.strip())
    if not match:
        raise ValueError(f"not a wrk number: {text!r}")
    return float(match.group(1)) * _SIZE[match.group(2)]


def parse_wrk(output: str) -> WrkResult:
    """Requests/s, the 50% and 99% latencies (`--latency`), the request count and the errors."""
    rps = re.search(r"^Requests/sec:\s*([0-9.]+)", output, re.M)
    total = re.search(r"^\s*(\d+) requests in ([0-9.]+\w+),", output, re.M)
    if not rps or not total:
        raise ValueError("wrk printed no summary:\n" + output)
    percentiles = dict(re.findall(r"^\s*(50|99)(?:\.000)?%\s+([0-9.]+\w+)\s*$", output, re.M))
    if "50" not in percentiles or "99" not in percentiles:
        raise ValueError("wrk printed no latency distribution (run it with --latency):\n" + output)
    non_ok = re.search(r"Non-2xx or 3xx responses:\s*(\d+)", output)
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    status = re.search(r"^BENCH-STATUS ok=(\d+) bad=(\d+)", output, re.M)
    return WrkResult(
        rps=float(rps.group(1)),
        p50_ms=parse_duration_ms(percentiles["50"]),
        p99_ms=parse_duration_ms(percentiles["99"]),
        requests=int(total.group(1)),
        seconds=parse_duration_ms(total.group(2)) / 1000,
        non_2xx_3xx=int(non_ok.group(1)) if non_ok else 0,
        socket_errors=sum(int(n) for n in sockets.groups()) if sockets else 0,
        ok=int(status.group(1)) if status else None,
        bad=int(status.group(2)) if status else None,
    )


def merge(results: list[WrkResult]) -> WrkResult:
    """Several runs of one endpoint as one: requests/s over the total time, the median of the
    runs' p50s and the worst of their p99s (percentiles cannot be merged exactly), summed counts."""
    if not results:
        raise ValueError("nothing to merge")
    seconds = sum(r.seconds for r in results)
    p50s = sorted(r.p50_ms for r in results)
    middle = len(p50s) // 2
    p50 = p50s[middle] if len(p50s) % 2 else (p50s[middle - 1] + p50s[middle]) / 2
    counted = [r for r in results if r.ok is not None]
    return WrkResult(
        rps=sum(r.requests for r in results) / seconds if seconds else 0.0,
        p50_ms=p50,
        p99_ms=max(r.p99_ms for r in results),
        requests=sum(r.requests for r in results),
        seconds=seconds,
        non_2xx_3xx=sum(r.non_2xx_3xx for r in results),
        socket_errors=sum(r.socket_errors for r in results),
        ok=sum(r.ok for r in counted) if counted else None,
        bad=sum(r.bad or 0 for r in counted) if counted else None,
    )


def _lua_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def lua_script(*, method: str = "GET", headers: dict[str, str] | None = None, bodies: list[str] | None = None,
               expect_status: int | None = None, expect_header: str | None = None, revalidate: bool = False) -> str:
    """A wrk script: the method and headers of every request, request bodies taken in turn (for
    POSTs), and, with `expect_status`, a count of the responses with and without that status (and,
    with `expect_header`, that header: an htmx reply refused with a message is a 200 too),
    printed by `done` as one line "BENCH-STATUS ok=N bad=M" (parse_wrk reads it). `revalidate`:
    as a browser does with a response it keeps, each connection sends the last ETag it was
    given as If-None-Match (a 304 keeps it)."""
    lines = [f"wrk.method = {_lua_string(method)}"]
    for name, value in (headers or {}).items():
        lines.append(f"wrk.headers[{_lua_string(name)}] = {_lua_string(value)}")
    if revalidate:
        lines += [
            "local etag = nil",
            "request = function()",
            '  if etag then wrk.headers["If-None-Match"] = etag end',
            "  return wrk.format()",
            "end",
            "local function keep_etag(headers)",
            '  local tag = headers["ETag"] or headers["Etag"] or headers["etag"]',
            "  if tag then etag = tag end",
            "end",
        ]
    if bodies:
        lines.append("local bodies = {" + ", ".join(_lua_string(b) for b in bodies) + "}")
        lines += [
            "local counter = 0",
            "request = function()",
            "  counter = counter + 1",
            "  return wrk.format(nil, nil, nil, bodies[(counter % #bodies) + 1])",
            "end",
        ]
    if expect_status is not None:
        lines += [
            "local threads = {}",
            "function setup(thread) table.insert(threads, thread) end",
            "function init(args) ok = 0; bad = 0 end",
            "function response(status, headers, body)",
            *(["  keep_etag(headers)"] if revalidate else []),
            f"  if status == {int(expect_status)}"
            + (f" and headers[{_lua_string(expect_header)}] ~= nil" if expect_header else "")
            + " then ok = ok + 1 else bad = bad + 1 end",
            "end",
            "function done(summary, latency, requests)",
            "  local o, b = 0, 0",
            "  for _, t in ipairs(threads) do o = o + t:get('ok'); b = b + t:get('bad') end",
            "  io.write(string.format('BENCH-STATUS ok=%d bad=%d\\n', o, b))",
            "end",
        ]
    elif revalidate:
        lines += ["function response(status, headers, body) keep_etag(headers) end"]
    return "\n".join(lines) + "\n"


def wrk_command(wrk: str, url: str, *, seconds: float, connections: int, threads: int, script: str | None = None) -> list[str]:
    command = [wrk, f"-t{threads}", f"-c{connections}", f"-d{max(1, round(seconds))}s", "--latency", "--timeout", "10s"]
    if script:
        command += ["-s", script]
    return command + [url]


def ensure_wrk() -> str:
    """wrk's path; installs Debian's package when it is missing and we are root."""
    found = shutil.which("wrk")
    if found:
        return found
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        print("wrk is missing: installing Debian's package (apt-get install -y wrk)...", flush=True)
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        if subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], env=env, capture_output=True).returncode != 0:
            subprocess.run(["apt-get", "update", "-qq"], env=env, capture_output=True)
            subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], env=env, capture_output=True)
        found = shutil.which("wrk")
        if found:
            return found
    raise SystemExit("The benchmark needs wrk, the HTTP load generator: `sudo apt-get install wrk` (Debian/Ubuntu).")


def run_wrk(command: list[str], *, timeout: float) -> WrkResult:
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"wrk failed ({done.returncode}): {done.stderr or done.stdout}")
    return parse_wrk(done.stdout)
