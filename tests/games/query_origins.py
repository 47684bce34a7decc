"""Where a page's SQL queries come from (issue 30 part 1): each query captured with the project's
frames that sent it, for the query-budget tests' failure messages (as bench/posting.py --where)."""

from __future__ import annotations

import traceback
from pathlib import Path

from django.db import connection
from django.test.utils import CaptureQueriesContext

ROOT = str(Path(__file__).resolve().parents[2])


def _callers() -> str:
    frames = [f for f in traceback.extract_stack()[:-3]
              if f.filename.startswith(ROOT) and "/.venv/" not in f.filename and "/tests/" not in f.filename]
    return " < ".join(f"{Path(f.filename).name}:{f.lineno}:{f.name}" for f in reversed(frames[-4:]))


class PageQueries:
    """The queries of one request: `len()`, and `str()` lists each with where it was sent from."""

    def __init__(self, response, captured: list[dict], origins: list[str]):
        self.response, self.captured, self.origins = response, captured, origins

    def __len__(self) -> int:
        return len(self.captured)

    def __str__(self) -> str:
        lines = [f"{len(self.captured)} queries:"]
        for query, origin in zip(self.captured, self.origins):
            lines.append(f"  {query['sql'][:300]}")
            lines.append(f"      from {origin}")
        return "\n".join(lines)


def page_queries(client, url: str, data: dict | None = None, **extra) -> PageQueries:
    """GET `url` with `client` (a status 200 expected) and capture its queries with their origins."""
    origins: list[str] = []

    def record(execute, sql, params, many, context):
        origins.append(_callers())
        return execute(sql, params, many, context)

    with CaptureQueriesContext(connection) as captured, connection.execute_wrapper(record):
        response = client.get(url, data or {}, **extra)
    assert response.status_code == 200, (url, response.status_code)
    return PageQueries(response, list(captured.captured_queries), origins)
