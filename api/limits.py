"""What one request may cost (docs/api.md, "Limits"), and the pool the checks run in.

Checks and replays run in a small pool of their own, with a short queue in front: a request
that finds the pool and the queue full gets 503 at once, so the server's threads are never
all waiting on checks and reads are served whatever the validate traffic.
"""

from __future__ import annotations

import contextlib
import contextvars
import gc
import multiprocessing
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from referee.findings import pointer
from referee.messages import part
from referee.notation import walk

from .workers import START_METHOD, Workers

msg, msg_n, word, word_of = part("api")


@dataclass(frozen=True)
class Limits:
    records: int = 1000  # records in one request body
    deals: int = 1000  # deals in one record
    actions: int = 100_000  # actions in one record, all deals together
    items: int = 1000  # items in any other array or object of a record (players, a hand, meta, ...)
    message: int = 1000  # characters of a finding's message in an answer
    checks: int = 2  # checks and replays running at once
    queue: int = 4  # requests waiting for a check; more get 503
    seconds: float = 10.0  # what one request may take; the rule searches stop at half of it


class Busy(Exception):
    """The pool and its queue are full."""


class CheckPool:
    """`processes`: the checks and canonical forms (`run_apart`) in as many worker processes of their own
    (api/workers.py), the rest in threads; the processes and the threads take the same slots."""

    def __init__(self, workers: int, queue: int, processes: bool = False):
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="referee-check")
        self._slots = threading.BoundedSemaphore(workers + queue)
        self._processes = (
            Workers(workers) if processes and START_METHOD in multiprocessing.get_all_start_methods() else None
        )

    def run(self, function, *args):
        """`function(*args)` in the pool, waiting for its answer; Busy when no slot is free. It runs in a copy
        of the caller's context: in the request's language (messages.language)."""
        with self._slot():
            return self._executor.submit(contextvars.copy_context().run, function, *args).result()

    def run_apart(self, function, *args, lang: str, budget):
        """`function(*args)` in a worker process when the pool has them (function and arguments picklable,
        `lang` the request's language, `budget` its Budget), else as `run`."""
        if self._processes is None:
            return self.run(function, *args)
        with self._slot():
            return self._processes.run(function, args, lang, budget)

    def close(self) -> None:
        """The threads and the worker processes stopped (each worker reaped, its CPU time counted with the
        process that started its fork server: benchmarks/store_import.py)."""
        self._executor.shutdown()
        if self._processes is not None:
            self._processes.close()

    @contextlib.contextmanager
    def _slot(self):
        if not self._slots.acquire(blocking=False):
            raise Busy
        try:
            yield
        finally:
            self._slots.release()


def record_size_problem(record, limits: Limits):
    """Why a parsed record is too big to check here, or None."""
    deals = record.get("deals") if isinstance(record, dict) else None
    deals = deals if isinstance(deals, list) else []
    if len(deals) > limits.deals:
        return msg(
            "the record has {n} deals; this server checks at most {most} per record", n=len(deals), most=limits.deals
        )
    actions = [d["actions"] for d in deals if isinstance(d, dict) and isinstance(d.get("actions"), list)]
    if sum(map(len, actions)) > limits.actions:
        return msg(
            "the record has {n} actions; this server checks at most {most} per record",
            n=sum(map(len, actions)),
            most=limits.actions,
        )
    apart = {id(deals), *map(id, actions)}
    long = _long_container(record, limits.items, apart) if _holds_long(record, limits.items, apart) else None
    if long is None:
        return None
    where = next(pointer(*path) for path, value in walk(record) if value is long)
    return msg(
        "{where} holds {n} items; this server checks at most {most} in an array or object (deals and "
        "actions have limits of their own)",
        where=where or msg("the record"),
        n=len(long),
        most=limits.items,
    )


def _holds_long(record, most: int, apart: set) -> bool:
    """Whether an array or object of the record, but those whose id is in `apart`, holds more than `most` items:
    the record is walked a level at a time by gc.get_referents, which gives an array's items and an object's values
    (a parsed record's keys are strings) and nothing for a string or a number. So the referents of a run of a level
    count the items of the arrays and objects in it, and only a run of more than `most` is looked into, in shorter
    runs: a quarter of the instructions of _long_container's walk item by item (issue 36), which then says which."""
    level = [record]
    while level:
        children = gc.get_referents(*level)
        if len(children) > most and _long_among(level, len(children), most, apart):
            return True
        level = children
    return False


def _long_among(run: list, items: int, most: int, apart: set) -> bool:
    """_holds_long of a run of a level whose arrays and objects hold `items` items together, more than `most`:
    looked into in runs of about half `most` items each, so that few of them are looked into again."""
    if len(run) == 1:
        return len(run[0]) > most and id(run[0]) not in apart
    size = max(1, len(run) * most // (2 * items))
    for start in range(0, len(run), size):
        part = run[start : start + size]
        held = len(gc.get_referents(*part))
        if held > most and _long_among(part, held, most, apart):
            return True
    return False


def _long_container(record, most: int, apart: set):
    """The first array or object of the record of more than `most` items, but those whose id is in `apart`.
    Looked at before its items, so a long one is never walked: a few percent of a check."""
    stack = [record] if type(record) in (dict, list) else []
    while stack:
        value = stack.pop()
        if len(value) > most and id(value) not in apart:
            return value
        for child in value.values() if type(value) is dict else value:
            if type(child) is list or type(child) is dict:
                stack.append(child)
    return None


def trimmed(report: dict, limit: int) -> dict:
    """The report with every finding's message, and each text and list among its template's parameters
    (a play's cards), cut to `limit` characters or items."""
    for finding in report["findings"]:
        finding["message"] = _cut(finding["message"], limit)
        if "params" in finding:
            finding["params"] = _cut(finding["params"], limit)
    return report


def _cut(value, limit: int):
    if isinstance(value, str):
        return value if len(value) <= limit else value[:limit] + " … (cut)"
    if isinstance(value, list):
        return [_cut(item, limit) for item in value[:limit]]
    if isinstance(value, dict):  # parameters, or a phrase's: its template stays whole
        return {key: item if key == "template" else _cut(item, limit) for key, item in value.items()}
    return value
