"""One line per request on standard error, as `referee serve` writes it (waitress logs none)."""
from __future__ import annotations

import sys
import time
from datetime import UTC, datetime
from urllib.parse import unquote_plus


def access_logged(app, stream=None):
    """`app` (a WSGI application) logging each request once its answer is started:
    time (UTC), client address, method, path and query, status, milliseconds taken."""
    def logged(environ, start_response):
        began = time.perf_counter()

        def start(status, headers, exc_info=None):
            _log(stream or sys.stderr, environ, status, began)
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)
        return app(environ, start)
    return logged


def refusals_logged(stream=None):
    """A function logging, as `access_logged` does, a request that waitress refused before the
    application saw it (413, 431, 400): from its parsed request, client address and status."""
    def log(request, client: str, status: str):
        environ = {"REMOTE_ADDR": client, "REQUEST_METHOD": getattr(request, "command", None) or "-",
                   "PATH_INFO": getattr(request, "path", None) or "", "QUERY_STRING": getattr(request, "query", "")}
        _log(stream or sys.stderr, environ, status, time.perf_counter())
    return log


def _log(stream, environ, status: str, began: float) -> None:
    query = _without_tokens(environ.get("QUERY_STRING"))
    path = environ.get("PATH_INFO", "") + (f"?{query}" if query else "")
    took = (time.perf_counter() - began) * 1000
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    # escaped: a path cannot write a line of its own into the log
    stream.write(f"{stamp} {environ.get('REMOTE_ADDR', '-')} {environ.get('REQUEST_METHOD', '-')} "
                 f"{path.encode('unicode_escape').decode('ascii')} {status.split(' ', 1)[0]} {took:.1f}ms\n")
    stream.flush()


def _without_tokens(query: str | None) -> str | None:
    """The query with the value of any parameter named like a token (token, access_token) hidden."""
    if not query:
        return query
    parts = [part.partition("=") for part in query.split("&")]
    return "&".join(name + equals + ("***" if equals and "token" in unquote_plus(name).lower() else value)
                    for name, equals, value in parts)
