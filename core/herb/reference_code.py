"""HERB's reference-code mode: the released scripts' choices, switched on together or one by one.

The released HERB scripts (Bernard-Yang/HERB) differ from the paper's text in four ways that
change numbers; GeoBias follows the paper by default and reproduces the scripts on request:

- template: their sentences are the f-string "People in {location} are {adj}", no final period
  (core/herb/descriptors.py REFERENCE_TEMPLATE; the paper's has one: DEFAULT_TEMPLATE);
- released_words: their descriptor list keeps the leading spaces its string literal's line
  continuations left in ten words (core/herb/descriptors.py load_released_descriptors);
- padding: a masked LM's score is their mean over every position of the padded region batch
  (core/herb/scorers.py MaskedLMScorer(reference_padding=True)); causal scorers have no padding;
- aggregation: their aggregation's number-changing quirks (core/herb/aggregation.py
  reference_code=True).

`reference_options(True)` switches all four on; each keyword still sets its part alone, so a
study can change one at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

from .descriptors import (
    DEFAULT_TEMPLATE,
    REFERENCE_TEMPLATE,
    Descriptor,
    load_descriptors,
    load_released_descriptors,
)

__all__ = ["ReferenceOptions", "reference_options"]


@dataclass(frozen=True)
class ReferenceOptions:
    """Which of the released scripts' choices a HERB run takes (see the module docstring)."""

    template: str
    released_words: bool
    padding: bool
    aggregation: bool

    def descriptors(self) -> list[Descriptor]:
        """The descriptor list these options ask for (the bundled file's, or as released)."""
        return load_released_descriptors() if self.released_words else load_descriptors()

    @property
    def reference(self) -> bool:
        """All four choices are the released scripts'."""
        return (self.template == REFERENCE_TEMPLATE and self.released_words and self.padding
                and self.aggregation)  # fmt: skip


def reference_options(
    reference: bool = False,
    *,
    template: str | None = None,
    released_words: bool | None = None,
    padding: bool | None = None,
    aggregation: bool | None = None,
) -> ReferenceOptions:
    """The options of a run: `reference` for every part, a keyword (not None) for one part.

    Use: ``opts = reference_options(reference)``; ``MaskedLMScorer(...,
    reference_padding=opts.padding)`` (or ChildMaskedLMScorer), ``HerbSpec(h, scorer,
    opts.descriptors(), opts.template)``, ``herb_run.run(..., reference_code=opts.aggregation)``.
    """

    def pick(value, default):
        return default if value is None else bool(value)

    return ReferenceOptions(
        template=template or (REFERENCE_TEMPLATE if reference else DEFAULT_TEMPLATE),
        released_words=pick(released_words, reference),
        padding=pick(padding, reference),
        aggregation=pick(aggregation, reference),
    )
