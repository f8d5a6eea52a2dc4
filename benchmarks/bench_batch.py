"""Benchmark of provider batches (core/batch): 100,000 requests written as each provider's batch
files, then their results imported into a fresh survey cache by custom_id (issue 32).

The requests are the rating prompts of 50,000 points on two topics, as the survey would send
them (ChatClient.request_body); the results are written as each provider returns them (OpenAI:
a chat completion with log-probabilities per line; Anthropic: a Message). Prints, per
provider, the time to write the files, the time to import them and the peak memory of the
process (its maximum resident set, which only grows: the rows run in order, so a row's growth
over the previous one is what that step needed). Targets: export <= 10 s and import <= 60 s for
100,000 requests, peak <= 1 GB.
"""

import json
import os
import resource
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "test"))

from faultserver import chat_response  # noqa: E402

from geobias.core.batch import formats, jobs  # noqa: E402
from geobias.core.engine.cache import SurveyCache  # noqa: E402
from geobias.core.engine.chat import ChatClient, Endpoint  # noqa: E402

N = 100_000
EXPORT_S, IMPORT_S, PEAK_MB = 10.0, 60.0, 1024.0


def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def pending(provider):
    ep = Endpoint("https://api.example/v1", f"{provider}-model",
                  logprobs=formats.FORMATS[provider].logprobs)  # fmt: skip
    client = ChatClient(ep)
    out = []
    for i in range(N):
        topic = "Infant Mortality Rate" if i % 2 else "Population Density"
        prompt = f"({(i % 180) - 90 + i / N:.4f}, {(i * 7) % 360 - 180:.4f}) {topic}:"
        body = client.request_body(prompt)
        out.append((ep, f"{provider}-{i:06d}", body))
    return out


def results(provider, job, path):
    with open(job.request_file, encoding="utf-8") as f, open(path, "w", encoding="utf-8") as out:
        for line in f:
            row = json.loads(line)
            if provider == "anthropic":
                p = row["params"]["messages"][0]["content"]
                text = chat_response(p, False)["choices"][0]["message"]["content"]
                msg = {"id": "m", "type": "message", "role": "assistant", "model": "x",
                       "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
                       "usage": {"input_tokens": 30, "output_tokens": 8}}  # fmt: skip
                res = {"custom_id": row["custom_id"], "result": {"type": "succeeded",
                                                                 "message": msg}}  # fmt: skip
            else:
                p = row["body"]["messages"][0]["content"]
                res = {
                    "custom_id": row["custom_id"],
                    "error": None,
                    "response": {"status_code": 200, "body": chat_response(p, True)},
                }
            out.write(json.dumps(res) + "\n")


def main():
    rows = []
    for provider in ("openai", "anthropic"):
        with tempfile.TemporaryDirectory() as tmp:
            reqs = pending(provider)
            t0 = time.perf_counter()
            written = jobs.write_jobs(reqs, provider, tmp)
            export_s = time.perf_counter() - t0
            del reqs
            outs = []
            for j, job in enumerate(written):
                path = os.path.join(tmp, f"out-{j}.jsonl")
                results(provider, job, path)
                outs.append(path)
            cache = SurveyCache(os.path.join(tmp, "cache.sqlite"))
            t0 = time.perf_counter()
            n_answers = 0
            for job, path in zip(written, outs):
                job.status = "completed"
                n_answers += jobs.import_results(job, [path], cache)[0]
            import_s = time.perf_counter() - t0
            assert n_answers == N and len(cache) == N, (n_answers, len(cache))
            size = sum(os.path.getsize(j.request_file) for j in written) / 2**20
            rows.append((provider, len(written), size, export_s, import_s, peak_mb()))
            cache.close()
    print(f"{'provider':10} {'files':>5} {'MB':>7} {'export s':>9} {'import s':>9} "
          f"{'peak MB':>8}  ok (targets: export <= {EXPORT_S:.0f} s, import <= {IMPORT_S:.0f} s, "
          f"peak <= {PEAK_MB:.0f} MB)")  # fmt: skip
    ok_all = True
    for provider, n_files, size, e, i, peak in rows:
        ok = e <= EXPORT_S and i <= IMPORT_S and peak <= PEAK_MB
        ok_all &= ok
        print(f"{provider:10} {n_files:5d} {size:7.1f} {e:9.2f} {i:9.2f} {peak:8.0f}  "
              f"{'yes' if ok else 'NO'}")  # fmt: skip
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
