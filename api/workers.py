"""Checks in worker processes of their own (`referee serve`'s default; `--check-threads` checks in
the server's threads instead, issue 36).

The interpreter runs one thread at a time, so checks in the server's threads take their turns on one
core, however many the machine has. `referee serve` checks records and makes their canonical form in
as many worker processes as it runs checks at once (`--checks`); its threads read requests, write
answers and the store. (Where other work keeps every core busy, that answers slower than threads: each
step of a request then waits for a core, and there are more steps.) The workers are forked by
multiprocessing's fork server, a process of its own that has loaded the referee and its games once: a worker
shares the code's memory and holds none of the server's sockets, locks or threads. They are started by the
first request that needs one, not with the server: a server that only reads, or is sent records it has
stored already, never starts them (issue 36).

A worker runs one function at a time, named by reference and sent with a pickled copy of its arguments,
and sends back what it returned or raised: one message each way. (A store among the arguments is opened
by the worker for reading, api/store.py: it never asks the server.) A worker that ends before it answers (killed, out of memory) is replaced and its
request answered WorkerLost; one that ends while idle is replaced before it is given work; one whose
client hangs up is ended and replaced, so the work stops at once.
"""

from __future__ import annotations

import gc
import multiprocessing
import queue
import signal
import threading
import traceback
import weakref

from referee import messages
from referee.game import GAMES, games

from .budget import Spent

START_METHOD = "forkserver"  # POSIX only: elsewhere the server checks in threads (CheckPool)
CLIENT_POLL = 0.05  # seconds between looks at whether the client of a running check has hung up


class WorkerLost(Exception):
    """The worker process ended before it answered."""


class RemoteError(Exception):
    """What a worker raised that cannot be sent as it is: its traceback."""


class Workers:
    def __init__(self, count: int):
        multiprocessing.get_context(START_METHOD).set_forkserver_preload(
            ["referee.api.checking", "referee.canonical", *(f"referee.{name}" for name in GAMES)]
        )  # what the workers run, loaded once for them all (each imported a game and the canonical form itself)
        self._count = count
        self._idle: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
        self._all: set[_Worker] = set()
        self._lock = threading.Lock()
        self._started = threading.Event()
        self._starting = threading.Lock()
        self._stop_all = weakref.finalize(self, _stop_all, self._all)  # at exit too

    def close(self) -> None:
        """Every worker stopped."""
        self._stop_all()

    def _start(self) -> None:
        """Every worker started, by the first request that needs one (the others wait for it)."""
        with self._starting:
            if self._started.is_set():
                return
            try:
                while len(self._all) < self._count:
                    self._idle.put(self._new())
            except Exception as exc:  # the fork server cannot start one (out of memory): the next request tries again
                raise WorkerLost(None) from exc
            self._started.set()

    def _new(self) -> _Worker:
        worker = _Worker()
        with self._lock:
            self._all.add(worker)
        return worker

    def _replaced(self, worker: _Worker) -> _Worker:
        try:
            new = self._new()
        except Exception as exc:  # the fork server cannot start one (out of memory): the next request tries again
            raise WorkerLost(None) from exc
        with self._lock:
            self._all.discard(worker)
        return new

    def run(self, function, args: tuple, lang: str, budget):
        """`function(*args)` in the first free worker, in the language `lang`, waiting for its answer. `budget`:
        the request's, whose client is looked at as the worker runs: Spent when the client has hung up (the
        worker is then ended); WorkerLost when the worker ends before it answers."""
        if not self._started.is_set():
            self._start()
        worker = self._idle.get()
        try:
            if worker.ended():
                worker = self._replaced(worker)
            return worker.run(function, args, lang, budget)
        finally:
            self._idle.put(worker)  # an ended one is replaced by the next request that takes it


def _stop_all(workers: set[_Worker]) -> None:
    for worker in list(workers):
        worker.stop()


class _Worker:
    def __init__(self):
        context = multiprocessing.get_context(START_METHOD)
        self._connection, theirs = context.Pipe()
        self._process = context.Process(target=_serve, args=(theirs,), name="referee-check", daemon=True)
        self._process.start()
        theirs.close()
        self._stopped = False

    def run(self, function, args: tuple, lang: str, budget):
        try:
            self._connection.send((function, args, lang))
            while not self._connection.poll(CLIENT_POLL):
                if budget.client_gone():
                    self.stop()
                    raise Spent
            kind, value = self._connection.recv()
        except (EOFError, OSError):
            self.stop()
            raise WorkerLost(self._process.exitcode) from None
        if kind == "raised":
            exception, trace = value
            if exception is None:
                raise RemoteError(trace)
            raise exception from RemoteError(trace)  # the worker's traceback, in the server's log of a 500
        return value

    def ended(self) -> bool:
        """Stopped here, or its process gone (killed while idle)."""
        if not self._stopped and not self._process.is_alive():
            self.stop()
        return self._stopped

    def stop(self) -> None:
        if not self._stopped:
            self._stopped = True
            self._process.kill()
            self._process.join(5)
            self._connection.close()


def _serve(connection) -> None:
    """A worker's life: each function sent run, its answer sent back, until the server goes (or stops it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops its workers
    games()  # loaded now, to be frozen too, rather than by the first check
    gc.collect()
    gc.freeze()  # as the server does (api/server.py), so the checks' garbage is collected quickly
    while True:
        try:
            function, args, lang = connection.recv()
        except EOFError:
            return
        token = messages.use_language(lang)
        try:
            answer = ("done", function(*args))
        except Exception as exc:  # raised in the server, as if the function had run there
            answer = ("raised", (exc, traceback.format_exc()))
        finally:
            messages.restore_language(token)
        try:
            _send(connection, answer)
        except OSError:  # the server has gone
            return


def _send(connection, answer: tuple) -> None:
    try:
        connection.send(answer)
    except OSError:
        raise
    except Exception:  # an answer or an exception that cannot be pickled: its traceback
        connection.send(("raised", (None, traceback.format_exc())))
