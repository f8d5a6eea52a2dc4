"""`make bench`: run every benchmarks/bench_*.py in turn; each prints its own table."""

import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

if __name__ == "__main__":
    failed = []
    only = sys.argv[1:]
    for path in sorted(glob.glob(os.path.join(HERE, "bench_*.py"))):
        name = os.path.basename(path)[6:-3]
        if only and name not in only:
            continue
        print(f"\n=== {name} ===", flush=True)
        if subprocess.run([sys.executable, path]).returncode != 0:
            failed.append(name)
    if failed:
        sys.exit(f"benchmarks that failed to run: {', '.join(failed)}")
