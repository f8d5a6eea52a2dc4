"""Lists and error texts inside user messages, written for people: never a Python repr such as
`['Atlantis']`, `('a', 'b')` or `<urllib3.connection.HTTPConnection object at 0x7f…>`."""

from __future__ import annotations

import re

__all__ = ["listing", "plain_reason", "shortened", "strip_reprs"]

# "<urllib3.connection.HTTPConnection object at 0x7f2c…>: " (urllib3 puts its connection first).
_OBJECT_REPR = re.compile(r"<[\w.]+ object at 0x[0-9a-fA-F]+>:?\s*")
# "HTTPConnectionPool(host='x', port=80): " (the host is named elsewhere in the message).
_POOL_REPR = re.compile(r"\w*ConnectionPool\(host='[^']*', port=\d+\):?\s*")
# "(Caused by NewConnectionError('…'))": urllib3's retry wrapper repeating its cause as a repr.
_CAUSED_BY = re.compile(r"\s*\(Caused by \w+\((.*)\)\)\s*$")


def listing(items, quote: str = '"') -> str:
    """Items as text in a sentence: `"Atlantis", "Mu"` (each quoted, so a name holding a comma
    stays whole); numbers unquoted with `quote=""`."""
    return ", ".join(f"{quote}{item}{quote}" for item in items)


def shortened(text: str, limit: int = 60) -> str:
    """`text` on one line (runs of white space as one space), cut to `limit` characters with
    "…": a model's reply quoted in a sentence."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def strip_reprs(text: str) -> str:
    """A message without the object and connection-pool reprs urllib3 puts in its errors."""
    text = _CAUSED_BY.sub(lambda m: ": " + m.group(1).strip("'\""), str(text))
    return _POOL_REPR.sub("", _OBJECT_REPR.sub("", text)).strip()


def plain_reason(error: BaseException) -> str:
    """Why a connection failed, in words: the innermost reason (urllib3's MaxRetryError wraps
    the real one) without reprs or class names ("Failed to establish a new connection:
    [Errno 111] Connection refused")."""
    inner = getattr(error, "reason", None) or error
    return strip_reprs(str(inner)) or type(inner).__name__
