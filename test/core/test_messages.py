"""core's user-facing errors carry a message id and values: every raise site names a template
that exists and passes exactly its fields, and str() stays the English sentence."""

import ast
import os
import string

import pytest

from geobias.core.engine.http_client import EndpointError
from geobias.core.messages import MESSAGES, Message, message_of

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fields(template):
    return {f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(template) if f}


def message_calls():
    """(where, id, keyword names) of every Message(...) call in core/."""
    out = []
    core = os.path.join(ROOT, "core")
    paths = [os.path.join(b, n) for b, _d, ns in os.walk(core) for n in ns if n.endswith(".py")]
    for path in sorted(paths):
        name = os.path.relpath(path, core)
        tree = ast.parse(open(path, encoding="utf-8").read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Message":
                first = node.args[0] if node.args else None
                where = f"core/{name}:{node.lineno}"
                if isinstance(first, ast.Constant):
                    out.append((where, first.value, {k.arg for k in node.keywords}))
                elif isinstance(first, ast.IfExp):  # Message("a" if x else "b")
                    for branch in (first.body, first.orelse):
                        out.append((where, branch.value, {k.arg for k in node.keywords}))
                else:
                    out.append((where, None, set()))
    return out


def test_every_raise_site_names_a_template_and_passes_its_fields():
    calls = message_calls()
    assert len(calls) > 80
    wrong = [
        (where, mid, sorted(given), sorted(fields(MESSAGES.get(mid, ""))))
        for where, mid, given in calls
        if mid not in MESSAGES or given != fields(MESSAGES[mid])
    ]
    assert wrong == []


def test_every_template_is_used():
    used = {mid for _, mid, _ in message_calls()}
    assert sorted(set(MESSAGES) - used) == []


def test_str_is_the_english_sentence_nested_values_too():
    inner = Message("http.refused_key", host="api.example.org", status=401)
    err = EndpointError(Message("http.refused_text", refused=inner, text="bad key"))
    assert str(err) == "api.example.org refused the API key (HTTP 401): bad key"
    assert message_of(err).id == "http.refused_text"
    assert message_of(ValueError("plain")) is None


def test_an_unknown_id_is_refused():
    with pytest.raises(KeyError):
        Message("no.such.message")
