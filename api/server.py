"""The waitress server of `referee serve`: its own errors (431, 413, 400 before the app sees
the request) answered in the API's one error shape, a deadline for a request to arrive, and one for an
answer the client does not read."""

from __future__ import annotations

import functools
import gc
import sys
import time

import orjson
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import BaseWSGIServer, MultiSocketServer, create_server
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
    """A connection that must send each request whole (the blank lines before it, its headers and its body)
    within the channel timeout of its first byte, and a second more for every BYTES_A_SECOND it sends, its time
    started again once the server is ready for it (the answers to those before it sent, a 100 Continue): waitress
    counts only idle time, so a client sending a byte now and then (slowloris: a header line, a byte of the body,
    a blank line) would otherwise keep its connection, and enough of them every connection."""

    error_task_class = JsonErrorTask
    request_began: float | None = None  # when the request being received began to arrive
    request_bytes = 0  # of it, received so far
    sent_at = 0.0  # when an answer's bytes last went out, or began to wait with none waiting before

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map)
        self.parser_class = functools.partial(_Parser, self)

    def received(self, data):
        if self.request_began is None:
            self.request_began, self.request_bytes = self.last_activity, 0
        self.request_bytes += len(data)
        done = super().received(data)
        if self.request is not None and self.request_began is None:  # the next request began in the same data
            self.request_began, self.request_bytes = self.last_activity, 0
        if self.request_began is not None:  # waitress' maintenance closes it once this is too long ago
            self.last_activity = min(self.last_activity, self.request_began + self.request_bytes / BYTES_A_SECOND)
        return done

    def send_continue(self):
        """The 100 Continue its client waits for before it sends the body: the request's time starts again."""
        super().send_continue()
        self._restarted()

    def service(self):
        """The requests this connection sent are answered; one it has begun sending meanwhile, which the server
        did not read while it answered (a pipelined request, a 100 Continue held back), starts its time again."""
        super().service()
        if self.request_began is not None:
            self._restarted()

    def write_soon(self, data):
        if data and not self.total_outbufs_len:
            self.sent_at = time.time()
        return super().write_soon(data)

    def send(self, data, do_close=True):
        sent = super().send(data, do_close)
        if sent:
            self.sent_at = time.time()
        return sent

    def _restarted(self):
        self.request_began, self.request_bytes = time.time(), 0
        self.last_activity = self.request_began


BYTES_A_SECOND = 1024  # the pace below which a request's sending counts as stalled (Apache's mod_reqtimeout: 500)


class _Parser(HTTPRequestParser):
    """A request's parser that tells its channel when a request (not a blank line) has arrived whole."""

    def __init__(self, channel, adj):
        super().__init__(adj)
        self.channel = channel

    def received(self, data):
        consumed = super().received(data)
        if self.completed and not self.empty:
            self.channel.request_began = None
        return consumed


def _maintenance(server, now):
    """Waitress's maintenance, which closes a connection idle for the channel timeout (JsonErrorChannel: or
    too slow sending a request), and one whose answer has waited that long for a client that reads none of it:
    its thread, blocked writing the answer, is let go (pipelined requests whose answers are never read took
    every thread)."""
    cutoff = now - server.adj.channel_timeout
    for channel in list(server.active_channels.values()):
        if channel.total_outbufs_len and channel.sent_at < cutoff:
            channel.handle_close()  # now: the loop writes (and closes) only when the socket takes more
        elif channel.last_activity < cutoff and not channel.requests:
            channel.will_close = True


def make_server(app, log_refusal=None, **options):
    """A waitress server (not yet running) for `app`; `options` are waitress adjustments.
    `log_refusal(request, client, status)` logs the requests waitress refuses itself (access_log).
    Stalled connections are looked for every second, and a client that hangs up is noticed
    while its request runs (environ["waitress.client_disconnected"]). A body is read 64 kB at a time
    rather than waitress's 8 kB: a 12-deal match in one read, not six turns of the thread that reads
    requests, which waits for the interpreter at each (issue 36)."""
    options = {"cleanup_interval": 1, "channel_request_lookahead": 1, "recv_bytes": 65536, **options}
    server = create_server(app, **options)
    for listening in server.map.values() if isinstance(server, MultiSocketServer) else (server,):
        if isinstance(listening, BaseWSGIServer):
            listening.channel_class = JsonErrorChannel
            listening.maintenance = functools.partial(_maintenance, listening)
            listening.log_refusal = log_refusal
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
