"""The waitress server of `referee serve`: its own errors (431, 413, 400 before the app sees
the request) answered in the API's one error shape, and a deadline for a request's headers."""

from __future__ import annotations

import gc
import sys

import orjson
from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import ErrorTask

from referee.game import games


class JsonErrorTask(ErrorTask):
    def execute(self):
        error = self.request.error
        body = orjson.dumps(
            {
                "code": error.code,
                "status": error.reason,
                "message": str(error.body).strip() or error.reason,
                "findings": [],
            }
        )
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)
        log = self.channel.server.log_refusal
        if log:
            log(self.request, str(self.channel.addr[0]) if self.channel.addr else "-", self.status)


class JsonErrorChannel(HTTPChannel):
    """A connection whose request's headers must all arrive within the channel timeout of its
    first byte: waitress counts only idle time, so a client sending a header line now and then
    (slowloris) would otherwise keep its connection, and enough of them every connection."""

    error_task_class = JsonErrorTask
    headers_began = 0.0

    def received(self, data):
        before = self.request
        done = super().received(data)
        request = self.request
        if request is not None and not request.headers_finished:
            if request is not before:
                self.headers_began = self.last_activity
            self.last_activity = self.headers_began  # waitress' maintenance closes it once that is too long ago
        return done


def make_server(app, log_refusal=None, **options):
    """A waitress server (not yet running) for `app`; `options` are waitress adjustments.
    `log_refusal(request, client, status)` logs the requests waitress refuses itself (access_log).
    Stalled connections are looked for every second, and a client that hangs up is noticed
    while its request runs (environ["waitress.client_disconnected"]). A body is read 64 kB at a time
    rather than waitress's 8 kB: a 12-deal match in one read, not six turns of the thread that reads
    requests, which waits for the interpreter at each (issue 36)."""
    options = {"cleanup_interval": 1, "channel_request_lookahead": 1, "recv_bytes": 65536, **options}
    server = create_server(app, **options)
    server.channel_class = JsonErrorChannel
    server.log_refusal = log_refusal
    return server


# Seconds a thread holds the interpreter before another that waits for it takes its turn (Python's
# default: 5 ms). Waitress's thread that reads requests and writes answers waits for a running check
# at every step of every request, up to that long each time: the p99 at 4 clients (issue 36).
SWITCH_INTERVAL = 0.0005


def run(server):
    """Serve until stopped. Everything loaded by now (flask, the schemas, the game modules) lives as
    long as the process, so it is frozen out of the garbage collector's sight: the checks' garbage
    sets off a full collection every few dozen requests, which would otherwise walk those objects
    each time, a 30-50 ms pause."""
    games()  # loaded now, to be frozen too, rather than by the first check
    gc.collect()
    gc.freeze()
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        server.run()
    finally:
        gc.unfreeze()
