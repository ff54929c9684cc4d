"""The server's log, through `logging`: one line per request on the logger `referee.api.access` (waitress
logs none), the app's errors on `referee` (flask's logger of the app) and waitress's own on `waitress`.
`referee serve` sends them to standard error (`configure`), an access line as

    2026-05-01T12:00:00Z 127.0.0.1 GET /v1/records?page=2 200 1.4ms

(time in UTC, client address, method, path and query, status, milliseconds taken) and any other line
with its level and logger after the time."""

from __future__ import annotations

import logging
import sys
import time
from urllib.parse import unquote_plus

ACCESS = logging.getLogger("referee.api.access")
LOGGERS = ("referee", "waitress")  # the server's: ours (flask's app logger is "referee") and waitress's


def access_logged(app):
    """`app` (a WSGI application) logging each request once its answer is started."""

    def logged(environ, start_response):
        began = time.perf_counter()

        def start(status, headers, exc_info=None):
            _log(environ, status, began)
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

        return app(environ, start)

    return logged


def refusals_logged():
    """A function logging, as `access_logged` does, a request that waitress refused before the
    application saw it (413, 431, 400): from its parsed request, client address and status."""

    def log(request, client: str, status: str):
        environ = {
            "REMOTE_ADDR": client,
            "REQUEST_METHOD": getattr(request, "command", None) or "-",
            "PATH_INFO": getattr(request, "path", None) or "",
            "QUERY_STRING": getattr(request, "query", ""),
        }
        _log(environ, status, time.perf_counter())

    return log


def _log(environ, status: str, began: float) -> None:
    if not ACCESS.isEnabledFor(logging.INFO):
        return
    query = _without_tokens(environ.get("QUERY_STRING"))
    path = environ.get("PATH_INFO", "") + (f"?{query}" if query else "")
    took = (time.perf_counter() - began) * 1000
    # escaped: a path cannot write a line of its own into the log
    ACCESS.info(
        "%s %s %s %s %.1fms",
        environ.get("REMOTE_ADDR", "-"),
        environ.get("REQUEST_METHOD", "-"),
        path.encode("unicode_escape").decode("ascii"),
        status.split(" ", 1)[0],
        took,
    )


def _without_tokens(query: str | None) -> str | None:
    """The query with the value of any parameter named like a token (token, access_token) hidden."""
    if not query:
        return query
    parts = [part.partition("=") for part in query.split("&")]
    return "&".join(
        name + equals + ("***" if equals and "token" in unquote_plus(name).lower() else value)
        for name, equals, value in parts
    )


class LineFormat(logging.Formatter):
    """An access line after the time (UTC); any other line after the time, its level and its logger."""

    def __init__(self):
        super().__init__(datefmt="%Y-%m-%dT%H:%M:%SZ")
        self.converter = time.gmtime

    def usesTime(self) -> bool:
        return True

    def formatMessage(self, record: logging.LogRecord) -> str:
        if record.name == ACCESS.name:
            return f"{record.asctime} {record.message}"
        return f"{record.asctime} {record.levelname} {record.name}: {record.message}"


class StandardError(logging.StreamHandler):
    """Writes to standard error as it is when a line is written (a caller, a test, may swap it)."""

    def __init__(self):
        super().__init__()

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, _value):
        pass


def configure(level: str = "info") -> None:
    """The server's log on standard error from `level` (debug, info, warning or error) up; configured
    again, it replaces what it configured before."""
    handler = StandardError()
    handler.setFormatter(LineFormat())
    for name in LOGGERS:
        logger = logging.getLogger(name)
        for old in [h for h in logger.handlers if isinstance(h, StandardError)]:
            logger.removeHandler(old)
        logger.addHandler(handler)
        logger.setLevel(level.upper())
