"""The referee's REST API (flask, flask-smorest) over the record store.

`create_app` leaves writes open when no token is given; `referee serve` decides when
that is allowed (docs/api.md).
"""

from __future__ import annotations

import threading

from flask import Flask, current_app, g, request
from flask_smorest import Api
from werkzeug.http import HTTP_STATUS_CODES
from werkzeug.routing import PathConverter

from referee.messages import Listing, Term, part

from .budget import Budget
from .language import answer_language, choose_language, end_language, shown, varies
from .limits import CheckPool, Limits
from .schemas import ErrorSchema
from .store import Store, StoreError
from .viewer import register as register_viewer
from .views import blp

msg, msg_n, word, word_of = part("api")

DEFAULT_MAX_BODY = 10 * 1024 * 1024


class RefereeApi(Api):
    """flask-smorest's Api whose OpenAPI document is written out when it is first asked for (/openapi.json, its
    viewer at /docs): its endpoints' part, made from their schemas, was two fifths of making the app, on every
    start (issue 36)."""

    ERROR_SCHEMA = ErrorSchema

    def __init__(self, app):
        self._undocumented: list[tuple] = []  # (blueprint, name, parameters) registered, not yet in the document
        self._documenting = threading.Lock()
        self._spec = None
        super().__init__(app)

    @property
    def spec(self):
        """The OpenAPI document (apispec.APISpec), every blueprint registered documented in it, in order."""
        if self._spec is not None and self._undocumented:
            with self._documenting:
                for blp, name, parameters in self._undocumented:
                    blp.register_views_in_doc(self, self._app, self._spec, name=name, parameters=parameters)
                    self._spec.tag({"name": name, "description": blp.description})
                self._undocumented.clear()
        return self._spec

    @spec.setter
    def spec(self, spec) -> None:
        self._spec = spec

    def register_blueprint(self, blp, *, parameters=None, **options):
        """As flask-smorest registers one, its documentation left for `spec` to write."""
        name = options.get("name", blp.name)
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)
        self._undocumented.append((blp, name, parameters))

    def handle_http_exception(self, error):
        """Every error, ours or werkzeug's, in the one shape of ErrorSchema, in the answer's language."""
        data = getattr(error, "data", None) or {}
        findings = [_shown_finding(f) for f in data.get("findings") or ()] or _parameter_findings(
            data.get("messages", {})
        )
        message = data.get("message") or (msg("invalid parameters") if findings else Term(error.description))
        body = {"code": error.code, "status": error.name, "message": shown(message), "findings": findings}
        return body, error.code, _headers(error, data)


# werkzeug's descriptions of the errors the API answers without a message of its own
WERKZEUG_DESCRIPTIONS = (
    word(
        "The requested URL was not found on the server. If you entered the URL manually please check your "
        "spelling and try again."
    ),
    word("The method is not allowed for the requested URL."),
    word("The data value transmitted exceeds the capacity limit."),
    word("The browser (or proxy) sent a request that this server could not understand."),
    word("The server does not support the media type transmitted in the request."),
)


def _shown_finding(finding) -> dict:
    """A finding of an error body: made by the referee, or a dict whose message may be a template."""
    if hasattr(finding, "as_dict"):
        return finding.as_dict(answer_language())
    return dict(finding, message=shown(finding["message"]))


def _headers(error, data: dict) -> dict:
    """The error's own headers: ours, and werkzeug's Allow of a 405 (RFC 9110 §15.5.6)."""
    headers = dict(data.get("headers") or {})
    if getattr(error, "valid_methods", None):
        headers["Allow"] = ", ".join(error.valid_methods)
    return headers


# marshmallow's words for the parameters our schemas take (a bound is said in our own words: api/schemas.py)
MARSHMALLOW_WORDS = (
    word("Not a valid integer."),
    word("Not a valid boolean."),
    word("Not a valid string."),
    word("Missing data for required field."),
    word("Unknown field."),
)


def _parameter_findings(messages: dict) -> list[dict]:
    """webargs' {location: {name: [messages]}} as findings, in the answer's language."""
    return [
        {
            "severity": "error",
            "rule": f"api.{location}",
            "at": "",
            "message": shown(
                msg(
                    "{name}: {problem}",
                    name=name,
                    problem=Listing([Term(t) for t in (text if isinstance(text, list) else [text])], "; "),
                )
            ),
        }
        for location, fields in messages.items()
        for name, text in fields.items()
    ]


def _store_error(error: StoreError):
    body = {
        "code": error.status,
        "status": HTTP_STATUS_CODES[error.status],
        "message": shown(error.text),
        "findings": [],
    }
    return body, error.status, {"Retry-After": "1"} if error.status == 503 else {}


def _out_of_memory(error: MemoryError):
    """A request that ran the server out of memory: 503 in the one error shape, as a full store is (not a 500)."""
    return _store_error(
        StoreError(msg("the server ran out of memory for this request; try a smaller record, or later"))
    )


def _start_budget() -> None:
    """Every request's budget (flask `before_request`); waitress says when the client has gone."""
    g.budget = Budget(
        current_app.extensions["referee.limits"].seconds, request.environ.get("waitress.client_disconnected")
    )


class EventName(PathConverter):
    """An event's name in a path: any text, "/" too, even first (%2F), which the path converter refuses."""

    regex = ".+?"
    part_isolating = False  # it spans "/": werkzeug would take a regex without "/" for one part of the path


def create_app(
    db_path: str = "referee.db",
    token: str | None = None,
    read_only: bool = False,
    max_body: int = DEFAULT_MAX_BODY,
    limits: Limits = Limits(),
    trusted_hosts: list[str] | None = None,
    check_processes: bool = False,
) -> Flask:
    """`trusted_hosts`: the Host headers answered (others get 400), against DNS rebinding; `check_processes`:
    checks in worker processes of their own (api/workers.py), as `referee serve` runs them, else in threads."""
    app = Flask("referee")
    app.url_map.converters["event"] = EventName
    app.config.update(
        API_TITLE="CGR/1 referee",
        API_VERSION="1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=max_body,
        REFEREE_TOKEN=token,
        REFEREE_READ_ONLY=read_only,
        TRUSTED_HOSTS=trusted_hosts,
    )
    app.extensions["referee.store"] = Store(db_path)
    app.register_error_handler(StoreError, _store_error)
    app.register_error_handler(MemoryError, _out_of_memory)
    app.extensions["referee.limits"] = limits
    app.extensions["referee.pool"] = CheckPool(limits.checks, limits.queue, check_processes)
    app.before_request(_start_budget)
    app.before_request(choose_language)
    app.teardown_request(end_language)
    app.after_request(varies)
    api = RefereeApi(app)
    api.spec.components.security_scheme("bearerAuth", {"type": "http", "scheme": "bearer"})
    api.register_blueprint(blp)
    register_viewer(app, api)
    return app
