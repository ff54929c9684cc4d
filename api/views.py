"""The /v1 endpoints."""
from __future__ import annotations

import hmac

import orjson
from flask import Response, current_app, request
from flask_smorest import Blueprint, abort

from referee.batch import check_one
from referee.findings import ERROR, Finding
from referee.notation import split_records
from referee.replay import replay_steps, step_json

from . import schemas
from .standings import standings
from .store import prepare

blp = Blueprint("v1", __name__, url_prefix="/v1", description="Check, store, replay and total CGR/1 records")

JSONL_TYPES = ("application/x-ndjson", "application/jsonl")
SOURCE = "<request>"
RECORD_BODY = {"required": True, "content": {
    "application/json": {"schema": schemas.RecordSchema},
    "application/x-ndjson": {"schema": {"type": "string", "description": "JSON Lines: one record per line"}}}}
ONE_RECORD_BODY = {"required": True, "content": {"application/json": {"schema": schemas.RecordSchema}}}
WRITER = {"security": [{"bearerAuth": []}]}


def _store():
    return current_app.extensions["referee.store"]


def _json(value) -> Response:
    return Response(orjson.dumps(value), mimetype="application/json")


def _stored_json(text: str | None) -> Response:
    if text is None:
        abort(404, message="no record has this id")
    return Response(text, mimetype="application/json")


def _bad_body(findings: list[Finding], message: str):
    abort(400, message=message, findings=[f.as_dict() for f in findings])


def _body_text() -> str:
    try:
        return request.get_data().decode("utf-8")
    except UnicodeDecodeError as exc:
        _bad_body([Finding(ERROR, "notation.encoding", "", f"the body is not UTF-8 text: {exc}")],
                  "the body is not UTF-8 text")


def _require_writer():
    if current_app.config["REFEREE_READ_ONLY"]:
        abort(403, message="this server is read-only")
    token = current_app.config["REFEREE_TOKEN"]
    if token is None:
        return
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), token.encode()):
        abort(401, message="writes need the header Authorization: Bearer TOKEN",
              headers={"WWW-Authenticate": "Bearer"})


def _errors(*codes):
    """Document error responses, all of the one error shape."""
    def decorate(view):
        for code in codes:
            view = blp.alt_response(code, schema=schemas.ErrorSchema)(view)
        return view
    return decorate


@blp.route("/validate", methods=["POST"])
@blp.doc(requestBody=RECORD_BODY, summary="Check records; store nothing",
         description="A JSON body gets one report; a JSON Lines body (Content-Type application/x-ndjson, "
                     "or guessed) gets JSON Lines of reports, one per record, as `referee validate --json`.")
@blp.response(200, schemas.ReportSchema)
@blp.alt_response(200, schema=schemas.ReportSchema, content_type="application/x-ndjson",
                  description="one report per line, for a JSON Lines body")
@blp.arguments(schemas.InferSchema, location="query", as_kwargs=True, error_status_code=400)
@_errors(400, 413)
def validate(infer_rules):
    jsonl = True if request.mimetype in JSONL_TYPES else None
    chunks = list(split_records(_body_text(), jsonl))
    reports = [check_one(chunk, SOURCE if line is None else f"{SOURCE}:{line}", infer_rules) for line, chunk in chunks]
    if chunks and chunks[0][0] is None:
        if reports[0].unreadable:
            _bad_body(reports[0].findings, "the body is not a JSON record")
        return _json(reports[0].as_dict())
    return Response(b"".join(orjson.dumps(r.as_dict()) + b"\n" for r in reports), mimetype="application/x-ndjson")


@blp.route("/records", methods=["POST"])
@blp.arguments(schemas.SubmitterSchema, location="headers", as_kwargs=True, error_status_code=400)
@blp.doc(requestBody=ONE_RECORD_BODY, summary="Check and store one record", **WRITER)
@blp.response(201, schemas.SubmittedSchema, description="stored now")
@blp.alt_response(200, schema=schemas.SubmittedSchema, description="already stored: the same id, stored once")
@_errors(400, 401, 403, 413)
def submit(submitter):
    _require_writer()
    entry = prepare(_body_text())
    if isinstance(entry, list):
        _bad_body(entry, "the body is not a CGR/1 record; nothing was stored")
    summary, created = _store().put(entry, submitter)
    return dict(summary, created=created, report=entry.report), 201 if created else 200


@blp.route("/records", methods=["GET"])
@blp.arguments(schemas.RecordQuerySchema, location="query", as_kwargs=True, error_status_code=400)
@blp.response(200, schemas.RecordPageSchema)
@blp.doc(summary="List stored records, filtered and paged")
@_errors(400)
def list_records(page, per_page, **filters):
    total, items = _store().find(page=page, per_page=per_page, **filters)
    return {"total": total, "page": page, "per_page": per_page, "items": items}


@blp.route("/records/<record_id>", methods=["GET"])
@blp.response(200, schemas.RecordSchema, description="the record in canonical form")
@blp.doc(summary="A stored record")
@_errors(404)
def get_record(record_id):
    return _stored_json(_store().text(record_id))


@blp.route("/records/<record_id>", methods=["DELETE"])
@blp.response(204)
@blp.doc(summary="Delete a record with its report", **WRITER)
@_errors(401, 403, 404)
def delete_record(record_id):
    _require_writer()
    if not _store().delete(record_id):
        abort(404, message="no record has this id")


@blp.route("/records/<record_id>/report", methods=["GET"])
@blp.response(200, schemas.ReportSchema)
@blp.doc(summary="The report stored with a record")
@_errors(404)
def get_report(record_id):
    return _stored_json(_store().text(record_id, "report"))


@blp.route("/records/<record_id>/deals/<int:deal>/steps/<int:step>", methods=["GET"])
@blp.response(200, schemas.StepSchema)
@blp.doc(summary="Step `step` of a deal: 0 as dealt, k+1 the table after action k; a rejected action is the last step")
@_errors(404, 422)
def get_step(record_id, deal, step):
    text = _store().text(record_id)
    if text is None:
        abort(404, message="no record has this id")
    record = orjson.loads(text)
    if deal >= len(record["deals"]):
        abort(404, message=f"the record has {len(record['deals'])} deal(s)")
    report, frames = replay_steps(record, deal)
    if not frames:
        abort(422, message=f"deal {deal} could not be replayed", findings=[f.as_dict() for f in report.findings])
    if step >= len(frames):
        abort(404, message=f"deal {deal} replays to step {len(frames) - 1} at most")
    return _json(step_json(frames[step]))


@blp.route("/events/<event>/standings", methods=["GET"])
@blp.response(200, schemas.StandingsSchema)
@blp.doc(summary="Totals per player or team over the valid records of an event")
def get_standings(event):
    return standings(event, _store().event(event))
