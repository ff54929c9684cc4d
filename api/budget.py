"""The time one request may take (docs/api.md, "Limits"), cut short when its client hangs up.

Started when the application gets the request; the checks look at it between records, and the
rule search of `?infer_rules=true` between the rule sets it tries.
"""

from __future__ import annotations

import time

from flask import current_app, g, request


class Spent(Exception):
    """The request's time is up, or its client has gone."""


class Budget:
    def __init__(self, seconds: float, client_gone=None):
        self.seconds = seconds
        self._began = time.monotonic()
        self._client_gone = client_gone or (lambda: False)

    def _past(self, share: float) -> bool:
        return time.monotonic() - self._began >= self.seconds * share or self._client_gone()

    def spent(self) -> bool:
        return self._past(1)

    def searching_over(self) -> bool:
        """The rule searches stop at half the budget, which leaves the other half for the checks."""
        return self._past(0.5)

    def check(self) -> None:
        if self.spent():
            raise Spent


def start_budget() -> None:
    """Every request's budget (flask `before_request`); waitress says when the client has gone."""
    g.budget = Budget(
        current_app.extensions["referee.limits"].seconds, request.environ.get("waitress.client_disconnected")
    )
