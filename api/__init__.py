"""The referee's REST API (flask, flask-smorest) over the record store.

`create_app` leaves writes open when no token is given; `referee serve` decides when
that is allowed (docs/api.md).
"""
from __future__ import annotations

from flask import Flask
from flask_smorest import Api

from .schemas import ErrorSchema
from .store import Store
from .viewer import register as register_viewer
from .views import blp

DEFAULT_MAX_BODY = 10 * 1024 * 1024


class RefereeApi(Api):
    ERROR_SCHEMA = ErrorSchema

    def handle_http_exception(self, error):
        """Every error, ours or werkzeug's, in the one shape of ErrorSchema."""
        data = getattr(error, "data", None) or {}
        findings = data.get("findings") or _parameter_findings(data.get("messages", {}))
        message = data.get("message") or ("invalid parameters" if findings else error.description)
        body = {"code": error.code, "status": error.name, "message": message, "findings": findings}
        return body, error.code, data.get("headers", {})


def _parameter_findings(messages: dict) -> list[dict]:
    """webargs' {location: {name: [messages]}} as findings."""
    return [{"severity": "error", "rule": f"api.{location}", "at": "",
             "message": f"{name}: {' '.join(map(str, text)) if isinstance(text, list) else text}"}
            for location, fields in messages.items() for name, text in fields.items()]


def create_app(db_path: str = "referee.db", token: str | None = None, read_only: bool = False,
               max_body: int = DEFAULT_MAX_BODY) -> Flask:
    app = Flask("referee")
    app.config.update(
        API_TITLE="CGR/1 referee", API_VERSION="1", OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/", OPENAPI_JSON_PATH="openapi.json",
        MAX_CONTENT_LENGTH=max_body, REFEREE_TOKEN=token, REFEREE_READ_ONLY=read_only)
    app.extensions["referee.store"] = Store(db_path)
    api = RefereeApi(app)
    api.spec.components.security_scheme("bearerAuth", {"type": "http", "scheme": "bearer"})
    api.register_blueprint(blp)
    register_viewer(app, api)
    return app
