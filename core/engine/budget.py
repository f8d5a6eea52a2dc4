"""What a run spends, counted from the answers' `usage` as they arrive, and the limit that
stops it: a typo in a count must not turn into money spent on a paid endpoint."""

from __future__ import annotations

import threading

from .http_client import estimate_tokens

__all__ = ["BudgetExceededError", "Spend", "request_cost"]


def request_cost(prompt_tokens: float, completion_tokens: float, price_in: float | None,
                 price_out: float | None) -> float:  # fmt: skip
    """The cost of tokens at prices per million tokens (None or 0: unknown, counted as 0)."""
    return (prompt_tokens * (price_in or 0.0) + completion_tokens * (price_out or 0.0)) / 1e6


class Spend:
    """Tokens and cost of the requests a run sent, thread-safe; `max_cost` (> 0) is the limit
    past which `exceeded()` is true (0 or None: no limit).

    An answer without `usage` is counted from its prompt's length and the request's completion
    budget (the most it could have cost), so a server that reports nothing cannot run unbounded.
    """

    def __init__(self, price_in: float | None = None, price_out: float | None = None,
                 max_cost: float | None = None):  # fmt: skip
        self.price_in = price_in or 0.0
        self.price_out = price_out or 0.0
        self.max_cost = max_cost or 0.0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.n_answers = 0
        self.n_estimated = 0  # answers without usage, counted at their budget
        self._lock = threading.Lock()

    @property
    def priced(self) -> bool:
        """Whether a price is known (else the cost is unknown, not zero)."""
        return bool(self.price_in or self.price_out)

    @property
    def cost(self) -> float:
        return request_cost(self.prompt_tokens, self.completion_tokens, self.price_in,
                            self.price_out)  # fmt: skip

    def add(self, usage: dict | None, prompt: str = "", budget: int = 0) -> None:
        """Count one answer: its `usage` (OpenAI's prompt_tokens/completion_tokens, or
        input_tokens/output_tokens), else an estimate from the prompt and the budget."""
        p = c = None
        if isinstance(usage, dict):
            p = usage.get("prompt_tokens", usage.get("input_tokens"))
            c = usage.get("completion_tokens", usage.get("output_tokens"))
        estimated = not isinstance(p, (int, float)) or not isinstance(c, (int, float))
        if estimated:
            p, c = estimate_tokens(prompt), budget
        with self._lock:
            self.prompt_tokens += int(p)
            self.completion_tokens += int(c)
            self.n_answers += 1
            self.n_estimated += estimated

    def exceeded(self) -> bool:
        """Whether the spend has reached the limit (never without a limit or a price)."""
        return bool(self.max_cost and self.priced and self.cost >= self.max_cost)


class BudgetExceededError(Exception):
    """A run stopped at its cost limit (`spend`: the Spend that reached it)."""

    def __init__(self, spend: Spend):
        super().__init__(f"spent {spend.cost:.4f} of at most {spend.max_cost:g}")
        self.spend = spend
