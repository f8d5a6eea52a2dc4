"""ui/task.py: an error reads as one sentence; its traceback stays in the details."""

from geobias.ui.task import error_sentence

TRACEBACK = """Traceback (most recent call last):
  File "/plugins/geobias/processing/rate_locations.py", line 340, in processAlgorithm
    write_rated(...)
shapely.errors.GEOSException: IllegalArgumentException: WKB output dimension must be 2 or 3
"""


def test_a_traceback_gives_its_message_without_class_names():
    assert error_sentence(TRACEBACK) == "WKB output dimension must be 2 or 3"


def test_plain_errors_keep_their_first_line_without_a_final_period():
    assert error_sentence("The region has no polygon with an area.\nmore") == (
        "The region has no polygon with an area"
    )
    assert error_sentence("stub:8080 refused the API key (HTTP 401)") == (
        "stub:8080 refused the API key (HTTP 401)"
    )


def test_exceptions_and_empty_errors():
    assert error_sentence(RuntimeError("cannot reach 127.0.0.1:9: refused")) == (
        "cannot reach 127.0.0.1:9: refused"
    )
    assert error_sentence(KeyError()) == "KeyError"
    assert error_sentence("") == ""


def test_long_errors_are_shortened():
    text = error_sentence("x" * 1000, limit=50)
    assert len(text) == 50 and text.endswith("…")
