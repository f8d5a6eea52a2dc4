"""HERB's masked language model in its own process: herb/scorers.py MaskedLMScorer behind a pipe.

torch and transformers are native code, and native code must not share QGIS's process, so
core/herb/scorers.py ChildMaskedLMScorer runs this file with a Python that has them. The child loads
the model once and answers JSON lines on stdin/stdout:

    parent -> {"id": 1, "sentences": ["People in Lima are kind.", ...]}
    child  -> {"id": 1, "scored": [[score, n_tokens, error], ...]}   or {"id": 1, "error": "..."}

Its first line says whether the model loaded: {"ready": {identity, rule, ...}} or {"error": ...}
(then it exits). It exits when its standard input closes: the parent stopped it or died (the
system closes the pipe even on SIGKILL); on POSIX it also polls its parent's pid.

    python mlm_worker.py --model FOLDER_OR_NAME [--threads 2] [--reference-padding]

Standard library only at module level: the interpreter running it need not have GeoBias.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import sys

PACKAGE = "geobias_mlm_core"  # the name core/ is loaded under when this file runs as a script


def load_scorers():
    """core/herb/scorers.py (see load_core)."""
    return load_core("herb.scorers")


def load_core(name):
    """A core/ module by its dotted name under core/ ("herb.scorers"): relative to this package
    when imported, else core/ loaded as a package of its own (the plugin's folder name is the
    user's choice, so no absolute import works)."""
    if __package__:
        return importlib.import_module(".." + name, __package__)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # core/
    if PACKAGE not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            PACKAGE, os.path.join(here, "__init__.py"), submodule_search_locations=[here]
        )
        package = importlib.util.module_from_spec(spec)
        sys.modules[PACKAGE] = package
        spec.loader.exec_module(package)
    return importlib.import_module(f"{PACKAGE}.{name}")


def answer(scorer, request: dict) -> dict:
    """One request's reply: every sentence's (score, n_tokens, error), or the batch's error."""
    rid = request.get("id")
    sentences = request.get("sentences")
    if not isinstance(sentences, list) or not all(isinstance(s, str) for s in sentences):
        return {"id": rid, "error": "the request has no list of sentences"}
    try:
        scored = scorer.score_batch(sentences)
    except Exception as e:  # noqa: BLE001 - any failure of the model is the batch's error
        return {"id": rid, "error": f"{type(e).__name__}: {e}"}
    return {"id": rid, "scored": [[r.score, r.n_tokens, r.error] for r in scored]}


def serve(args, out) -> int:
    """Load the model, say so on `out`, then answer requests until stdin closes."""

    def send(message: dict) -> None:
        out.write(json.dumps(message) + "\n")  # NaN stays NaN (json's default allow_nan)
        out.flush()

    try:
        scorers = load_scorers()
    except ImportError as e:  # e.g. no requests here: core/herb/scorers.py imports it
        send({"error": f"cannot import GeoBias's scorers here: {e}", "missing": True})
        return 2
    try:
        scorer = scorers.MaskedLMScorer(
            args.model, threads=args.threads or None, reference_padding=args.reference_padding
        )
    except scorers.ScorerError as e:
        send({"error": str(e), "missing": isinstance(e.__cause__, ImportError)})
        return 2
    except Exception as e:  # noqa: BLE001 - a model that does not load is a message, not a crash
        send({"error": f"cannot load a masked LM from {args.model}: {type(e).__name__}: {e}"})
        return 2
    import torch
    import transformers

    send({"ready": {
        "identity": scorer.identity, "rule": scorer.rule, "batch_size": scorer.batch_size,
        "needs_region_batches": scorer.needs_region_batches, "python": sys.executable,
        "torch": torch.__version__, "transformers": transformers.__version__,
    }})  # fmt: skip
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
        except ValueError:
            send({"id": None, "error": "the request is not JSON"})
            continue
        send(answer(scorer, request))
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="model folder or name")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: its default)")
    parser.add_argument("--reference-padding", action="store_true",
                        help="the HERB reference code's rule (pads averaged in)")  # fmt: skip
    parser.add_argument("--parent-pid", type=int, default=0, help="exit when it is gone")
    args = parser.parse_args(argv)
    return load_core("runtime.child_worker").run(serve, args)


if __name__ == "__main__":
    code = main()
    sys.stderr.flush()
    os._exit(code)  # skip torch's teardown: nothing is left to save
