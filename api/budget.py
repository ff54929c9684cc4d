"""The time one request may take (docs/api.md, "Limits"), cut short when its client hangs up.

Started when the application gets the request (app.py); the checks look at it between records, and the
rule search of `?infer_rules=true` between the rule sets it tries.
"""

from __future__ import annotations

import time


class Spent(Exception):
    """The request's time is up, or its client has gone."""


class Budget:
    def __init__(self, seconds: float, client_gone=None, began: float | None = None):
        self.seconds = seconds
        self._began = time.monotonic() if began is None else began
        self._client_gone = client_gone or _never

    def __reduce__(self):
        """As sent to a check's worker process (api/workers.py): the same time, which the machine's monotonic
        clock counts for every process; whether the client has gone is looked at by the server."""
        return Budget, (self.seconds, None, self._began)

    def client_gone(self) -> bool:
        return self._client_gone()

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


def _never() -> bool:
    return False
