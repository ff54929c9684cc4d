"""The replay viewer: its pages (/view, /view/{id}, an event's standings at /view/events/{event}), the
steps it draws, and offline API docs.

The pages are plain HTML, CSS and JavaScript shipped in api/web/ (no build step, nothing
loaded from another host, no inline script). A local record is checked with POST /v1/validate
and replayed with POST /v1/replay: neither stores it.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import flask_swagger_ui
import orjson
from flask import Blueprint, Response, current_app, request, send_from_directory
from flask_smorest import Blueprint as ApiBlueprint, abort
from marshmallow import Schema, fields, validate

from referee.findings import Finding
from referee.messages import LANGUAGES, LOCALE_DIR, counted, part
from referee.notation import parse_json
from referee.replay import replay_steps

from . import schemas
from .language import answer_language, step_shown
from .limits import record_size_problem
from .views import QUERY_SCHEMAS, _in_pool, _limits, _too_big, known_query_parameters_only

msg, msg_n, word, word_of = part("viewer")

SWAGGER_FILES = Path(flask_swagger_ui.__file__).parent / "dist"
# every answer: scripts, styles and images from this host only, never inside a frame
POLICY = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
DOCS_POLICY = POLICY + "; style-src 'self' 'unsafe-inline'"  # Swagger UI sets style attributes; scripts stay ours
SECURITY_HEADERS = {"Content-Security-Policy": POLICY, "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY"}
MAX_STEPS = 2000  # a deal of more actions is refused: the answer holds a table per step (~1 KB)

pages = Blueprint("viewer", __name__, static_folder="web", static_url_path="/view/static")
steps_blp = ApiBlueprint("replay", __name__, url_prefix="/v1", description="Every step of a deal, for the viewer")


class DealQuerySchema(Schema):
    deal = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=1_000_000, error=word("must be 0 to 1,000,000")),
        metadata={"description": "which deal, from 0"},
    )


QUERY_SCHEMAS["replay.replay"] = DealQuerySchema
steps_blp.before_request(known_query_parameters_only)


class DealStepsSchema(Schema):
    deal = fields.Integer(required=True)
    deals = fields.Integer(required=True, metadata={"description": "how many deals the record has"})
    steps = fields.List(
        fields.Nested(schemas.StepSchema), required=True, metadata={"description": "every step of the deal, in order"}
    )


class MessagesSchema(Schema):
    lang = fields.String(required=True)
    messages = fields.Dict(
        keys=fields.String(),
        required=True,
        metadata={"description": "English template -> translation (a plural's forms: a list)"},
    )


def register(app, api) -> None:
    """The viewer's pages and endpoints, Swagger UI at /docs, and the security headers of every answer."""
    app.register_blueprint(pages)
    api.register_blueprint(steps_blp)
    app.after_request(_secured)


def _secured(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


@pages.route("/view", strict_slashes=False)
@pages.route("/view/<record_id>", strict_slashes=False)
def page(record_id=None):
    return send_from_directory(pages.static_folder, "index.html", max_age=0)


@pages.route("/view/events/<event:event>")
def standings_page(event):
    """An event's standings, each match linked to its records' pages."""
    return send_from_directory(pages.static_folder, "standings.html", max_age=0)


@pages.route("/docs/")
def docs():
    """Swagger UI, started by our own docs.js rather than the inline script of flask-swagger-ui's page."""
    response = send_from_directory(pages.static_folder, "docs.html", max_age=0)
    response.headers["Content-Security-Policy"] = DOCS_POLICY
    return response


@pages.route("/docs/<path:name>")
def docs_file(name):
    return send_from_directory(SWAGGER_FILES, name)


def deal_steps(record, deal: int) -> Response:
    """Every step of one deal of a parsed record, or an HTTP error saying why there are none."""
    deals = record.get("deals") if isinstance(record, dict) else None
    if isinstance(deals, list) and deal >= len(deals):
        abort(404, message=msg("the record has {n} deal(s)", n=len(deals)))
    actions = deals[deal].get("actions") if isinstance(deals, list) and isinstance(deals[deal], dict) else None
    if isinstance(actions, list) and len(actions) >= MAX_STEPS:
        abort(
            422,
            message=msg(
                "deal {deal} has {n} actions; the viewer replays at most {most}",
                deal=counted(deal),
                n=len(actions),
                most=MAX_STEPS - 1,
            ),
        )
    problem = record_size_problem(record, _limits())
    if problem:
        _too_big(problem, "the record")
    report, steps = _in_pool(replay_steps, record, deal)  # off the threads that serve reads, bounded
    lang = answer_language()
    if not steps:
        abort(
            422,
            message=msg("deal {deal} could not be replayed", deal=counted(deal)),  # for the viewer's reader
            findings=[f.as_dict(lang) for f in report.findings],
        )
    body = {"deal": deal, "deals": len(deals), "steps": [step_shown(step, lang) for step in steps]}
    return Response(orjson.dumps(body), mimetype="application/json")


@steps_blp.route("/replay", methods=["POST"])
@steps_blp.arguments(DealQuerySchema, location="query", as_kwargs=True, error_status_code=400)
@steps_blp.doc(
    requestBody={"required": True, "content": {"application/json": {"schema": schemas.RecordSchema}}},
    summary="Every step of one deal of a posted record; stores nothing",
    description=f"Step 0 is the table as dealt. A deal of {MAX_STEPS} actions or more is refused (422).",
)
@steps_blp.response(200, DealStepsSchema)
@steps_blp.alt_response(400, schema=schemas.ErrorSchema)
@steps_blp.alt_response(404, schema=schemas.ErrorSchema)
@steps_blp.alt_response(413, schema=schemas.ErrorSchema)
@steps_blp.alt_response(422, schema=schemas.ErrorSchema)
@steps_blp.alt_response(503, schema=schemas.ErrorSchema)
def replay(deal):
    record = parse_json(request.get_data())
    if isinstance(record, Finding):
        abort(400, message=msg("the body is not a JSON record"), findings=[record.as_dict(answer_language())])
    return deal_steps(record, deal)


@steps_blp.route("/records/<record_id>/deals/<int:deal>/steps", methods=["GET"])
@steps_blp.response(200, DealStepsSchema)
@steps_blp.doc(summary="Every step of one deal of a stored record")
@steps_blp.alt_response(404, schema=schemas.ErrorSchema)
@steps_blp.alt_response(422, schema=schemas.ErrorSchema)
@steps_blp.alt_response(503, schema=schemas.ErrorSchema)
def stored_steps(record_id, deal):
    record = parse_json(current_app.extensions["referee.store"].text(record_id) or "null")
    if record is None:
        abort(404, message=msg("no record has this id"))
    return deal_steps(record, deal)


@steps_blp.route("/messages/<lang>", methods=["GET"])
@steps_blp.doc(
    summary="The viewer's words in a language: {English template: translation}",
    description="Made from the viewer's gettext catalogue (referee/locale/LANG/LC_MESSAGES/viewer.po); "
    "a plural's forms are a list. English is the templates themselves: an empty catalogue.",
)
@steps_blp.response(200, MessagesSchema)
@steps_blp.alt_response(404, schema=schemas.ErrorSchema)
def messages(lang):
    if lang not in LANGUAGES:
        abort(404, message=msg("the viewer speaks {languages}", languages=", ".join(LANGUAGES)))
    body = {"lang": lang, "messages": viewer_catalogue(lang)}
    response = Response(orjson.dumps(body), mimetype="application/json")
    response.cache_control.max_age = 3600
    return response


@cache
def viewer_catalogue(lang: str) -> dict:
    """The viewer's catalogue as JSON: msgid -> msgstr (a list of forms for a plural; a word in a context
    under "context\u0004msgid", as gettext keys it)."""
    path = os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", "viewer.po")
    if not os.path.exists(path):
        return {}
    from babel.messages.pofile import read_po  # here: babel's catalogue reader, 3% of the app's start

    with open(path, "rb") as po:
        catalogue = read_po(po)
    return {
        ("" if m.context is None else m.context + "\u0004") + (m.id[0] if isinstance(m.id, tuple) else m.id): (
            list(m.string) if isinstance(m.string, tuple) else m.string
        )
        for m in catalogue
        if m.id and m.string and any(m.string)
    }
