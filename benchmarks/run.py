"""`make bench`: run every benchmarks/bench_*.py in turn; each prints its own table, and the
reliability table (benchmarks/reliability.py) gathers the rows they recorded, at the end."""

import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reliability  # noqa: E402

if __name__ == "__main__":
    failed = []
    only = sys.argv[1:]
    rows = os.path.join(os.path.dirname(HERE), "build", "bench", "reliability.jsonl")
    os.makedirs(os.path.dirname(rows), exist_ok=True)
    open(rows, "w").close()  # this run's rows only
    os.environ[reliability.ENV] = rows
    for path in sorted(glob.glob(os.path.join(HERE, "bench_*.py"))):
        name = os.path.basename(path)[6:-3]
        if only and name not in only:
            continue
        print(f"\n=== {name} ===", flush=True)
        if subprocess.run([sys.executable, path]).returncode != 0:
            failed.append(name)
    reliability.print_table(rows)
    if failed:
        sys.exit(f"benchmarks that failed to run: {', '.join(failed)}")
