"""The caches in front of the database: the thread page cache and its write counters
(`pagecache`), the thread poll's state (`live`), and the middleware that answers a reload from
the page cache (`middleware`). Below the selectors, above permissions and models
(docs/architecture.md, "The map")."""
