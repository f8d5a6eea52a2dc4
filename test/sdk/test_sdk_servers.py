"""The local provider servers (test/batchservers.py) driven by each provider's official SDK:
if openai, anthropic, google-genai and mistralai can upload, create, poll, fetch results,
cancel and delete against them, the servers speak the providers' APIs and not merely what
GeoBias's client expects. Runs in build/sdk (scripts/sdk_venv.sh, requirements-sdk.txt): the
SDKs pull newer packages than the plugin's venv holds."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # test/: batchservers, faultserver

from batchservers import KEYS, BatchServer  # noqa: E402

PROMPT = "(1.000, 2.000) Crime Rate:"


def chat_line(i, provider, model="m"):
    body = {"messages": [{"role": "user", "content": f"{PROMPT} {i}"}], "max_tokens": 10,
            "temperature": 0.0}  # fmt: skip
    if provider == "openai":
        return {
            "custom_id": f"k{i}",
            "method": "POST",
            "url": "/v1/chat/completions",
            "body": {"model": model, **body, "logprobs": True, "top_logprobs": 5},
        }
    return {"custom_id": f"k{i}", "body": body}


def write(tmp_path, rows):
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_openai_sdk(tmp_path):
    from openai import OpenAI

    with BatchServer("openai", steps=2, fail={2}) as server:
        client = OpenAI(api_key=KEYS["openai"], base_url=server.base_url, max_retries=0)
        path = write(tmp_path, [chat_line(i, "openai") for i in range(4)])
        f = client.files.create(file=open(path, "rb"), purpose="batch")
        assert f.id.startswith("file-") and f.bytes == path.stat().st_size
        b = client.batches.create(input_file_id=f.id, endpoint="/v1/chat/completions",
                                  completion_window="24h", metadata={"run": "x"})  # fmt: skip
        assert b.status == "validating" and b.request_counts.total == 4
        statuses = []
        while b.status not in ("completed", "failed", "expired", "cancelled"):
            b = client.batches.retrieve(b.id)
            statuses.append(b.status)
        assert statuses == ["in_progress", "completed"]
        assert (b.request_counts.completed, b.request_counts.failed) == (3, 1)
        out = [json.loads(x) for x in client.files.content(b.output_file_id).text.splitlines()]
        assert [r["custom_id"] for r in out] == ["k0", "k1", "k3"]
        assert out[0]["response"]["body"]["choices"][0]["logprobs"]["content"]
        err = client.files.content(b.error_file_id).text
        assert json.loads(err)["custom_id"] == "k2"
        assert [x.id for x in client.batches.list().data] == [b.id]
        assert client.files.delete(f.id).deleted
        # Cancelling: the partial results arrive with an error line per request left.
        f = client.files.create(file=open(path, "rb"), purpose="batch")
        b = client.batches.create(input_file_id=f.id, endpoint="/v1/chat/completions",
                                  completion_window="24h")  # fmt: skip
        assert client.batches.cancel(b.id).status == "cancelling"
        assert client.batches.retrieve(b.id).status == "cancelled"


def test_anthropic_sdk():
    import anthropic

    with BatchServer("anthropic", steps=2, fail={1}) as server:
        root = server.base_url[: -len("/v1")]
        client = anthropic.Anthropic(api_key=KEYS["anthropic"], base_url=root, max_retries=0)
        reqs = [{"custom_id": f"k{i}", "params": {"model": "claude-x", "max_tokens": 10,
                 "messages": [{"role": "user", "content": f"{PROMPT} {i}"}]}}
                for i in range(3)]  # fmt: skip
        b = client.messages.batches.create(requests=reqs)
        assert b.processing_status == "in_progress" and b.request_counts.processing == 3
        while b.processing_status != "ended":
            b = client.messages.batches.retrieve(b.id)
        assert (b.request_counts.succeeded, b.request_counts.errored) == (2, 1)
        results = {r.custom_id: r.result for r in client.messages.batches.results(b.id)}
        assert results["k0"].type == "succeeded"
        assert results["k0"].message.content[0].text.startswith("My answer is")
        assert results["k1"].type == "errored"
        assert client.messages.batches.delete(b.id).type == "message_batch_deleted"
        b = client.messages.batches.create(requests=reqs)
        assert client.messages.batches.cancel(b.id).processing_status == "canceling"
        b = client.messages.batches.retrieve(b.id)
        assert b.processing_status == "ended" and b.request_counts.canceled == 2
        try:
            anthropic.Anthropic(api_key="wrong", base_url=root, max_retries=0
                                ).messages.batches.retrieve(b.id)  # fmt: skip
        except anthropic.AuthenticationError:
            pass
        else:
            raise AssertionError("a wrong key was accepted")


def test_google_genai_sdk(tmp_path):
    from google import genai
    from google.genai import types

    with BatchServer("gemini", steps=2, fail={0}) as server:
        client = genai.Client(api_key=KEYS["gemini"],
                              http_options=types.HttpOptions(base_url=server.base_url,
                                                                 api_version="v1beta"))  # fmt: skip
        rows = [{"key": f"k{i}", "request": {"contents": [{"role": "user", "parts": [
                 {"text": f"{PROMPT} {i}"}]}], "generationConfig": {"responseLogprobs": True,
                 "logprobs": 5, "maxOutputTokens": 10}}} for i in range(3)]  # fmt: skip
        path = write(tmp_path, rows)
        f = client.files.upload(file=str(path), config=types.UploadFileConfig(
            mime_type="jsonl", display_name="in"))  # fmt: skip
        assert f.name.startswith("files/")
        job = client.batches.create(model="gemini-x", src=f.name,
                                    config={"display_name": "geobias"})  # fmt: skip
        assert job.name.startswith("batches/") and job.state.name == "JOB_STATE_PENDING"
        while job.state.name not in ("JOB_STATE_SUCCEEDED", "JOB_STATE_FAILED",
                                     "JOB_STATE_CANCELLED", "JOB_STATE_EXPIRED"):  # fmt: skip
            job = client.batches.get(name=job.name)
        assert job.state.name == "JOB_STATE_SUCCEEDED" and job.dest.file_name
        data = client.files.download(file=job.dest.file_name)
        lines = [json.loads(x) for x in data.decode().splitlines()]
        assert [x["key"] for x in lines] == ["k1", "k2", "k0"] and "error" in lines[2]
        cand = lines[0]["response"]["candidates"][0]
        assert cand["content"]["parts"][0]["text"].startswith("My answer is")
        assert cand["logprobsResult"]["topCandidates"]
        client.batches.delete(name=job.name)
        client.files.delete(name=f.name)
        assert job.name in server.deleted and f.name in server.deleted


def test_mistralai_sdk(tmp_path):
    from mistralai.client import Mistral

    with BatchServer("mistral", steps=2, fail={1}) as server:
        root = server.base_url[: -len("/v1")]
        client = Mistral(api_key=KEYS["mistral"], server_url=root)
        path = write(tmp_path, [chat_line(i, "mistral") for i in range(3)])
        up = client.files.upload(file={"file_name": "in.jsonl", "content": open(path, "rb")},
                                 purpose="batch")  # fmt: skip
        job = client.batch.jobs.create(input_files=[up.id], model="mistral-small-latest",
                                       endpoint="/v1/chat/completions")  # fmt: skip
        assert job.status == "QUEUED" and job.total_requests == 3
        while job.status not in ("SUCCESS", "FAILED", "TIMEOUT_EXCEEDED", "CANCELLED"):
            job = client.batch.jobs.get(job_id=job.id)
        assert job.status == "SUCCESS" and job.failed_requests == 1
        out = client.files.download(file_id=job.output_file).read().decode()
        assert [json.loads(x)["custom_id"] for x in out.splitlines()] == ["k0", "k2"]
        assert client.files.delete(file_id=up.id).deleted
        job = client.batch.jobs.create(input_files=[job.output_file], model="m",
                                       endpoint="/v1/chat/completions")  # fmt: skip
        assert client.batch.jobs.cancel(job_id=job.id).status == "CANCELLATION_REQUESTED"
