"""Bad parameters everywhere (issue 23, item 8): every case test/badparams.py generates from the
geobias:* algorithms' parameter definitions, run in one QGIS process; per algorithm the cases
tried, those refused as they should be (an error naming the parameter, nothing written, started
or sent), the tracebacks and the time. The total goes to make bench's reliability table.
"""

import collections
import os
import sys
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reliability import record  # noqa: E402

QGIS_PLUGINS = "/usr/share/qgis/python/plugins"


def main():
    from qgis.core import QgsApplication

    app = QgsApplication([], False)
    app.initQgis()
    sys.path.insert(0, QGIS_PLUGINS)  # QGIS's `processing`, not the plugin's folder
    from processing.core.Processing import Processing

    Processing.initialize()
    from geobias.processing.provider import GeoBiasProvider

    provider = GeoBiasProvider()
    QgsApplication.processingRegistry().addProvider(provider)
    from geobias.test import badparams
    from geobias.test.faultserver import FaultServer

    profile_data = QgsApplication.qgisSettingsDirPath() + "geobias"
    with tempfile.TemporaryDirectory() as tmp, FaultServer(always="401") as server:
        fx = badparams.make_fixtures(os.path.join(tmp, "data"))
        try:
            cases = badparams.generate(fx, os.path.join(tmp, "out"), server.base_url)
            by_alg = collections.defaultdict(list)
            t0 = time.perf_counter()
            with badparams.TracebackSpy() as tracebacks, badparams.PopenSpy() as popens:
                for case in cases:
                    by_alg[case.alg].append(
                        badparams.run_in_process(case, server, profile_data, tracebacks, popens)
                    )
            seconds = time.perf_counter() - t0
        finally:
            badparams.release_read_only(fx.read_only)
    print(f"{'algorithm':28} {'cases':>6} {'refused':>8} {'tracebacks':>11} {'s':>6}")
    total = refused = tracebacks = 0
    for alg, outcomes in sorted(by_alg.items()):
        ok = sum(not o.problems for o in outcomes)
        tb = sum(bool(o.traceback) for o in outcomes)
        total, refused, tracebacks = total + len(outcomes), refused + ok, tracebacks + tb
        s = sum(o.seconds for o in outcomes)
        print(f"{alg:28} {len(outcomes):6d} {ok:8d} {tb:11d} {s:6.1f}")
    kinds = collections.Counter(o.case.kind for outs in by_alg.values() for o in outs)
    print(f"{'all':28} {total:6d} {refused:8d} {tracebacks:11d} {seconds:6.1f}")
    print("kinds: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    for outs in by_alg.values():
        for o in outs:
            if o.problems:
                print(f"  NOT REFUSED AS IT SHOULD BE: {o.case.id}: {'; '.join(o.problems)}")
    record("bad_parameters", f"{total} cases, {tracebacks} tracebacks",
           tracebacks == 0 and refused == total,
           f"{refused} of {total} refused naming the parameter, nothing written, started or "
           f"sent; {len(by_alg)} algorithms, {seconds:.0f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
