"""The reliability table of `make bench` (issue 23): each benchmark records its rows while it
runs (`record`), benchmarks/run.py prints them together at the end (`print_table`).

A row is one JSON line in the file named by $GEOBIAS_BENCH_RELIABILITY (run.py sets it); a
benchmark run on its own records nothing and prints only its own table.
"""

import json
import os

ENV = "GEOBIAS_BENCH_RELIABILITY"

# (key, what is measured, target), in the table's order. Rows whose benchmark did not run (or
# does not exist yet) are printed as "not measured".
ROWS = (
    ("stop_html_24", "stop on an HTML-200 endpoint, 24 points (requests, s)",
     "<= 2 x concurrency requests"),
    ("stop_html_200", "stop on an HTML-200 endpoint, 200 points (requests, s)",
     "<= 2 x concurrency requests"),
    ("stop_hung_24", "stop on a hung endpoint, 24 points (requests, s)", "<= 2 read timeouts"),
    ("stop_hung_200", "stop on a hung endpoint, 200 points (requests, s)", "<= 2 read timeouts"),
    ("raster_sampling_peak", "peak memory, world raster-weighted sampling (43,200 x 21,600)",
     "<= 1024 MB"),
    ("session_growth", "QGIS resident memory growth over the long desktop session",
     "<= 150 MB"),
    ("bad_parameters", "bad-parameter cases over every geobias:* algorithm (tracebacks)",
     "0 tracebacks"),
    ("limit_rpm_set", "2,000 points at a server enforcing R = 600 rpm, rpm set to R: share of R, "
     "429 share after the first minute", ">= 90% of R, <= 5% 429"),
    ("limit_rpm_none", "the same with no rpm set (the server's x-ratelimit-* headers)",
     ">= 90% of R, <= 5% 429"),
    ("limit_no_headers", "the same with no rpm set and no x-ratelimit-* headers (Retry-After)",
     ">= 90% of R, <= 5% 429"),
    ("throttle_60s", "ride out a 60 s throttle at the start, 200 points (s after it ends)",
     "every point answered, <= 10 s after"),
    ("shared_cache", "two runs of 1,000 points at once on one cache: requests / distinct prompts",
     "<= 1.02"),
    ("start_qgis_process", "added by enabling GeoBias to qgis_process list (time, peak RSS)",
     "<= 100 ms, <= 15 MB"),
    ("start_qgis_desktop", "added by enabling GeoBias to a desktop start, dock closed "
     "(time, peak RSS)", "<= 100 ms, <= 15 MB"),
)  # fmt: skip


def record(key, value, ok, note=""):
    """Record one row's measured value (text) and whether it meets its target."""
    path = os.environ.get(ENV)
    if not path:
        return
    assert key in dict((k, w) for k, w, _ in ROWS), key
    with open(path, "a") as f:
        f.write(json.dumps({"key": key, "value": value, "ok": bool(ok), "note": note}) + "\n")


def print_table(path):
    """The table from the rows recorded in `path` (the last record of a key wins)."""
    got = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    row = json.loads(line)
                    got[row["key"]] = row
    print("\n=== reliability (issue 23) ===")
    print(f"{'what':64} {'measured':>24} {'target':>28} ok")
    for key, what, target in ROWS:
        row = got.get(key)
        if row is None:
            print(f"{what:64} {'not measured':>24} {target:>28} -")
            continue
        ok = "yes" if row["ok"] else "NO"
        print(f"{what:64} {row['value']:>24} {target:>28} {ok}")
        if row.get("note"):
            print(f"{'':66}{row['note']}")
