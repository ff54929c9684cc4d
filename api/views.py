"""The /v1 endpoints."""

from __future__ import annotations

import functools
import hashlib
import hmac
import threading
from collections import OrderedDict

import orjson
from flask import Response, current_app, g, request
from flask_smorest import Blueprint, abort

from referee.batch import utf8_problem
from referee.findings import ERROR, Finding
from referee.messages import DEFAULT, part
from referee.notation import parse_json, split_records
from referee.replay import replay_steps
from referee.results import reason
from referee.rulings import Refused
from referee.standings import standings

from . import checking, schemas
from .budget import Spent
from .language import answer_language, shown, step_shown
from .limits import Busy, record_size_problem, trimmed
from .store import text_hash
from .workers import WorkerLost

msg, msg_n, word, word_of = part("api")

blp = Blueprint("v1", __name__, url_prefix="/v1", description="Check, store, replay and total CGR/1 records")

JSONL_TYPES = ("application/x-ndjson", "application/jsonl")
RECORD_BODY = {
    "required": True,
    "content": {
        "application/json": {"schema": schemas.RecordSchema},
        "application/x-ndjson": {"schema": {"type": "string", "description": "JSON Lines: one record per line"}},
    },
}
ONE_RECORD_BODY = {"required": True, "content": {"application/json": {"schema": schemas.RecordSchema}}}
WRITER = {"security": [{"bearerAuth": []}]}


def _store():
    return current_app.extensions["referee.store"]


def _json(value) -> Response:
    return Response(orjson.dumps(value), mimetype="application/json")


def _stored_json(text: str | None) -> Response:
    if text is None:
        abort(404, message=NO_SUCH_RECORD)
    return Response(text, mimetype="application/json")


NO_SUCH_RECORD = msg("no record has this id")


def _bad_body(findings: list[Finding], message):
    abort(400, message=message, findings=findings)


def _body_text() -> str:
    try:
        return request.get_data(cache=False).decode("utf-8")  # the body's bytes not kept beside its text
    except UnicodeDecodeError as exc:
        problem = msg("the body is not UTF-8 text: {reason}", reason=utf8_problem(exc))
        _bad_body([Finding(ERROR, "notation.encoding", "", problem)], msg("the body is not UTF-8 text"))


def _limits():
    return current_app.extensions["referee.limits"]


def _in_pool(function, *args):
    """`function(*args)` in the check pool; 503 when the pool and its queue are full, 422 when the
    request's time is up (or its client gone) before or while it runs."""
    budget = g.budget

    @functools.wraps(function)
    def within_budget():
        budget.check()  # it may have waited in the queue
        return function(*args)

    try:
        return current_app.extensions["referee.pool"].run(within_budget)
    except Busy:
        abort(503, message=msg("every check slot is taken; try again shortly"), headers={"Retry-After": "1"})
    except Spent:
        abort(422, message=_out_of_time(), findings=[_out_of_time_finding()])


def _apart(function, *args):
    """As _in_pool, for a check or a canonical form: in a worker process of its own when the server has them
    (api/workers.py), else in the pool's threads; 503 as well when the worker process ends before it answers."""
    try:
        return current_app.extensions["referee.pool"].run_apart(
            checking.within, g.budget, function, *args, lang=answer_language(), budget=g.budget
        )
    except checking.TooBig as big:
        _too_big(*big.args)
    except Busy:
        abort(503, message=msg("every check slot is taken; try again shortly"), headers={"Retry-After": "1"})
    except Spent:
        abort(422, message=_out_of_time(), findings=[_out_of_time_finding()])
    except WorkerLost as lost:
        current_app.logger.error("a check's worker process ended before it answered (exit code %s)", lost.args[0])
        abort(
            503,
            message=msg("the check stopped before it answered (its worker process ended); try again shortly"),
            headers={"Retry-After": "1"},
        )


def _out_of_time():
    return msg(
        "the request took more than {seconds} s, what this server gives one request; send fewer records at a time",
        seconds=f"{g.budget.seconds:g}",
    )


def _out_of_time_finding() -> dict:
    return {"severity": "error", "rule": "api.limit", "at": "", "message": shown(_out_of_time())}


def _too_big(message, source: str):
    abort(
        422,
        message=message,
        findings=[
            {
                "severity": "error",
                "rule": "api.limit",
                "at": "",
                "message": msg("{source}: {problem}", source=source, problem=message),
            }
        ],
    )


def _open_writes() -> bool:
    return current_app.config["REFEREE_TOKEN"] is None and not current_app.config["REFEREE_READ_ONLY"]


@blp.before_request
def _json_bodies_only():
    """Open writes (--no-auth) take JSON bodies only: a cross-site form cannot send them."""
    if request.method == "POST" and _open_writes() and request.mimetype not in ("application/json", *JSONL_TYPES):
        abort(415, message=msg("this server takes application/json or application/x-ndjson bodies"))


QUERY_SCHEMAS = {
    "v1.validate": schemas.InferSchema,
    "v1.list_records": schemas.RecordQuerySchema,
    "v1.get_ruling": schemas.RulingQuerySchema,
}  # others: none


@blp.before_request
def known_query_parameters_only():
    """A misspelt parameter (?gam=guandan) is an error, not a filter silently dropped."""
    schema = QUERY_SCHEMAS.get(request.endpoint)
    known = sorted(schema().fields) if schema else []
    unknown = [name for name in request.args if name not in known and name != "lang"]  # lang: any path
    if unknown:
        abort(
            400,
            message=msg(
                "unknown query parameter(s) {names}; this path takes {known}",
                names=", ".join(unknown),
                known=", ".join(known) or msg("none"),
            ),
            findings=[
                {
                    "severity": "error",
                    "rule": "api.query",
                    "at": "",
                    "message": msg("{name}: unknown parameter", name=name),
                }
                for name in unknown
            ],
        )


def _require_writer():
    if current_app.config["REFEREE_READ_ONLY"]:
        abort(403, message=msg("this server is read-only"))
    token = current_app.config["REFEREE_TOKEN"]
    if token is None:
        return
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not given.strip():
        abort(
            401,
            message=msg("writes need the header Authorization: Bearer TOKEN"),
            headers={"WWW-Authenticate": "Bearer"},
        )
    if not hmac.compare_digest(given.strip().encode(), token.encode()):
        abort(401, message=msg("the token is not valid"), headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})


def _errors(*codes):
    """Document error responses, all of the one error shape."""

    def decorate(view):
        for code in codes:
            view = blp.alt_response(code, schema=schemas.ErrorSchema)(view)
        return view

    return decorate


@blp.route("/validate", methods=["POST"])
@blp.doc(
    requestBody=RECORD_BODY,
    summary="Check records; store nothing",
    description="A JSON body gets one report; a JSON Lines body (Content-Type application/x-ndjson, "
    "or guessed) gets JSON Lines of reports, one per record, as `referee validate --json`.",
)
@blp.response(200, schemas.ReportSchema)
@blp.alt_response(
    200,
    schema=schemas.ReportSchema,
    content_type="application/x-ndjson",
    description="one report per line, for a JSON Lines body",
)
@blp.arguments(schemas.InferSchema, location="query", as_kwargs=True, error_status_code=400)
@_errors(400, 413, 415, 422, 503)
def validate(infer_rules):
    jsonl = True if request.mimetype in JSONL_TYPES else None
    chunks = list(split_records(_body_text(), jsonl))
    limits = _limits()
    if len(chunks) > limits.records:
        abort(
            413,
            message=msg(
                "the body holds {n} records; this server checks at most {most} per request",
                n=len(chunks),
                most=limits.records,
            ),
        )
    reports = _apart(checking.check_all, chunks, limits, infer_rules, g.budget, answer_language())
    if chunks and chunks[0][0] is None:
        is_unreadable, findings, report = reports[0]
        if is_unreadable:
            _bad_body(findings, msg("the body is not a JSON record"))
        return _json(report)
    return Response(b"".join(orjson.dumps(r) + b"\n" for _, _, r in reports), mimetype="application/x-ndjson")


def _stored_report(store, record_id: str, limits, lang: str) -> dict | None:
    """The report of a stored record in `lang`, as an answer gives it; None once the record is gone (deleted, or
    ruled on: stored anew under another id)."""
    if lang == "en":
        report = store.report(record_id)
    else:
        shown = store.shown_report(record_id, lang)
        report = None if shown is None else shown.as_dict(lang)
    return None if report is None else trimmed(report, limits.message)


@blp.route("/records", methods=["POST"])
@blp.arguments(schemas.SubmitterSchema, location="headers", as_kwargs=True, error_status_code=400)
@blp.doc(
    requestBody=RECORD_BODY,
    summary="Check and store records",
    **WRITER,
    description="A JSON body stores one record; a JSON Lines body (Content-Type application/x-ndjson, "
    "or guessed) stores each of its records and answers one result per line: the record's "
    "summary with `created` and its report, or, for a line that is no CGR/1 record, "
    "`stored: false` and the findings. Each result names its `line`. When no line is a "
    "record, nothing is stored: 400 with every line's findings.",
)
@blp.response(201, schemas.SubmittedSchema, description="stored now")
@blp.alt_response(200, schema=schemas.SubmittedSchema, description="already stored: the same id, stored once")
@blp.alt_response(
    200,
    schema=schemas.SubmittedSchema,
    content_type="application/x-ndjson",
    description="one result per line, for a JSON Lines body",
)
@_errors(400, 401, 403, 413, 415, 422, 503)
def submit(submitter):
    _require_writer()
    text = _body_text()
    chunks = list(split_records(text, True if request.mimetype in JSONL_TYPES else None))
    if chunks and chunks[0][0] is not None:
        del text  # its lines are copies: the whole let go before they are checked and stored
        return _submit_lines(chunks, submitter)
    result = _submitted([(None, text)], submitter)[0]
    if "findings" in result:
        _bad_body(result["findings"], msg("the body is not a CGR/1 record; nothing was stored"))
    return result, 201 if result["created"] else 200


def _submit_lines(chunks, submitter):
    """Store each record of a JSON Lines body; one result per line, in order."""
    limits = _limits()
    if len(chunks) > limits.records:
        abort(
            413,
            message=msg(
                "the body holds {n} records; this server takes at most {most} per request",
                n=len(chunks),
                most=limits.records,
            ),
        )
    results = _submitted(chunks, submitter)
    if not any("created" in r for r in results):
        abort(
            400,
            message=msg("no line of the body is a CGR/1 record; nothing was stored"),
            findings=[
                dict(f, message=msg("line {line}: {message}", line=r["line"], message=f["message"]))
                for r in results
                for f in r["findings"]
            ],
        )
    return Response(b"".join(orjson.dumps(r) + b"\n" for r in results), mimetype="application/x-ndjson")


def _submitted(chunks, submitter) -> list[dict]:
    """The result of storing each (line, text): a text stored before (the same bytes) is known by its
    hash and not checked again; the new records are stored in one transaction. A result without
    `created` is a text that is no record (its `findings`, as Finding objects for a lone record)."""
    limits, store, lang = _limits(), _store(), answer_language()
    hashes = [text_hash(chunk) for _, chunk in chunks]
    known = _known_sources(store, hashes, limits, lang)
    unknown = [(line, chunk, source) for (line, chunk), source in zip(chunks, hashes) if source not in known]
    made = iter(_apart(checking.entries, unknown, limits, lang, store.report, g.budget) if unknown else ())
    results, entries = [], []
    for (line, _), source in zip(chunks, hashes):
        where = {} if line is None else {"line": line}
        if source in known:
            summary, report = known[source]
            results.append(dict(summary, **where, created=False, report=report))
            continue
        entry, report = next(made)
        if entry is None:
            results.append(dict(where, stored=False, findings=[_out_of_time_finding()]))
            continue
        if isinstance(entry, list):
            results.append(
                dict(where, stored=False, findings=entry if line is None else [f.as_dict(lang) for f in entry])
            )
            continue
        results.append((where, report))
        entries.append(entry)
    stored = iter(store.put_all(entries, submitter))
    return [_new_result(*next(stored), *r) if isinstance(r, tuple) else r for r in results]


def _known_sources(store, hashes: list[str], limits, lang: str) -> dict[str, tuple[dict, dict]]:
    """(summary, report) of the stored records read from texts of these hashes, by hash, taken before the others
    are checked; a record gone between the two reads (deleted or ruled on by another request) is left out, and
    its text is checked as a new one."""
    known = {}
    for source, summary in store.stored_sources(hashes).items():
        report = _stored_report(store, summary["id"], limits, lang)
        if report is not None:
            known[source] = (summary, report)
    return known


def _new_result(summary: dict, created: bool, where: dict, report: dict) -> dict:
    return dict(summary, **where, created=created, report=report)


@blp.route("/records", methods=["GET"])
@blp.arguments(schemas.RecordQuerySchema, location="query", as_kwargs=True, error_status_code=400)
@blp.response(200, schemas.RecordPageSchema)
@blp.doc(summary="List stored records, filtered and paged")
@_errors(400)
def list_records(page, per_page, **filters):
    total, items = _store().find(page=page, per_page=per_page, **filters)
    return {"total": total, "page": page, "per_page": per_page, "items": items}


@blp.url_value_preprocessor
def _whole_record_id(_endpoint, values):
    """A record id in a path may be a unique start of it, 4 characters at least, as the command line takes it."""
    if values and "record_id" in values:
        found = _store().ids_meant(values["record_id"])
        values["record_id"] = found[0] if len(found) == 1 else values["record_id"]


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
        abort(404, message=NO_SUCH_RECORD)


@blp.route("/records/<record_id>/rulings", methods=["POST"])
@blp.arguments(schemas.SubmitterSchema, location="headers", as_kwargs=True, error_status_code=400)
@blp.doc(
    requestBody={"required": True, "content": {"application/json": {"schema": schemas.RulingSchema}}},
    summary="Add an arbiter's ruling to a stored record",
    **WRITER,
    description="The ruling (notation section 10) is written into the record, which is checked as ruled "
    "and stored in one transaction as its next version, under its new id (the answer's `id`); "
    "every version stays (GET .../versions). A ruling that decides no error, or whose decision "
    "does not fit its finding, is refused (422) and nothing is stored.",
)
@blp.response(201, schemas.RuledSchema)
@_errors(400, 401, 403, 404, 415, 422, 503)
def add_ruling(record_id, submitter):
    _require_writer()
    ruling = parse_json(_body_text())
    if not isinstance(ruling, dict):
        _bad_body([ruling] if isinstance(ruling, Finding) else [], msg("the body is not a ruling (a JSON object)"))
    by = ruling.get("by") if isinstance(ruling.get("by"), str) and ruling["by"].strip() else submitter
    try:
        added = _in_pool(_store().add_ruling, record_id, ruling, by, functools.partial(_sized, limits=_limits()))
    except Refused as refused:
        abort(422, message=refused.text)
    except checking.TooBig as big:
        _too_big(*big.args)
    if added is None:
        abort(404, message=NO_SUCH_RECORD)
    summary, version, report = added
    lang = answer_language()
    if lang != "en":
        report = _in_pool(_store().shown_report, summary["id"], lang).as_dict(lang)
    return dict(summary, version=version, report=trimmed(report, _limits().message)), 201


def _sized(record: dict, limits) -> None:
    """Raises checking.TooBig for a record as ruled that is bigger than this server checks (a ruling's x- values)."""
    problem = record_size_problem(record, limits)
    if problem:
        raise checking.TooBig(problem, checking.SOURCE)


@blp.route("/records/<record_id>/versions", methods=["GET"])
@blp.response(200, schemas.VersionsSchema)
@blp.doc(summary="Every version of a stored record: as submitted, and after each ruling, each with its report")
@_errors(404)
def get_versions(record_id):
    versions = _store().versions(record_id)
    if versions is None:
        abort(404, message=NO_SUCH_RECORD)
    return {"versions": versions}


@blp.route("/records/<record_id>/report", methods=["GET"])
@blp.response(200, schemas.ReportSchema)
@blp.doc(summary="The report stored with a record")
@_errors(404)
def get_report(record_id):
    if answer_language() == "en":
        return _stored_json(_store().text(record_id, "report"))
    report = _in_pool(_store().shown_report, record_id, answer_language())
    if report is None:
        abort(404, message=NO_SUCH_RECORD)
    return _json(trimmed(report.as_dict(answer_language()), _limits().message))


@blp.route("/records/<record_id>/ruling", methods=["GET"])
@blp.arguments(schemas.RulingQuerySchema, location="query", as_kwargs=True, error_status_code=400)
@blp.doc(
    summary="The ruling on a stored record: one self-contained HTML file, as `referee ruling` writes it",
    responses={
        "200": {
            "description": "the ruling (a download: Content-Disposition attachment)",
            "content": {"text/html": {"schema": {"type": "string"}}},
        }
    },
)
@_errors(400, 404, 422, 503)
def get_ruling(record_id, finding=None, deal=None, action=None):
    from referee.ruling import POLICY, RulingError, ruling  # here: its markdown reader, 6% of the start

    text = _store().text(record_id)
    if text is None:
        abort(404, message=NO_SUCH_RECORD)
    lang = answer_language()
    try:
        html = _in_pool(ruling, orjson.loads(text), record_id, lang, finding, deal, action)
    except RulingError as exc:
        abort(404, message=exc.text.render(lang))
    return Response(
        html,
        mimetype="text/html",
        headers={
            "Content-Disposition": f'attachment; filename="ruling-{record_id[:12]}.html"',
            "Content-Security-Policy": POLICY,
        },
    )


@blp.route("/records/<record_id>/deals/<int:deal>/steps/<int(signed=True):step>", methods=["GET"])
@blp.response(200, schemas.StepSchema)
@blp.doc(
    summary="Step `step` of a deal: 0 as dealt, k+1 the table after action k; a rejected action is the last "
    "step; -1 the last step, -2 the one before (as `referee replay --step`)"
)
@_errors(404, 422, 503)
def get_step(record_id, deal, step):
    if not _store().has(record_id):
        abort(404, message=NO_SUCH_RECORD)
    deals, findings, frames = _in_pool(_deal_steps, _store(), record_id, deal, answer_language())
    if deal >= deals:
        abort(404, message=msg("the record has {n} deal(s)", n=deals))
    if not frames:
        abort(422, message=msg("deal {deal} could not be replayed", deal=deal), findings=findings)
    if not -len(frames) <= step < len(frames):
        abort(
            404,
            message=msg(
                "deal {deal} replays to step {last} at most (-1 is the last step, -{n} the first)",
                deal=deal,
                last=len(frames) - 1,
                n=len(frames),
            ),
        )
    return Response(frames[step], mimetype="application/json")


@functools.lru_cache(maxsize=16)
def _deal_steps(store, record_id: str, deal: int, lang: str):
    """(deals in the record, findings, the deal's steps as JSON), with messages in `lang`: replayed once, then
    cached. An id is the hash of the stored record, so what is cached under it never changes."""
    record = orjson.loads(store.text(record_id))
    if deal >= len(record["deals"]):
        return len(record["deals"]), [], []
    report, frames = replay_steps(record, deal)
    return (
        len(record["deals"]),
        [f.as_dict(lang) for f in report.findings],
        [orjson.dumps(step_shown(frame, lang)) for frame in frames],
    )


@blp.route("/events/<event:event>/standings", methods=["GET"])  # an event's name may hold "/" (app.EventName)
@blp.response(200, schemas.StandingsSchema)
@blp.doc(summary="Standings of an event: per team or player, matches won, drawn and lost, match points, margin")
@_errors(404, 422, 503)
def get_standings(event):
    ids = _store().event_ids(event)
    if not ids:
        abort(404, message=msg("no stored record belongs to this event"))
    table = _standings_kept.get(_event_state(event, ids)) or _in_pool(_event_standings, _store(), event, g.budget)
    return _reasons_shown(table, answer_language())


def _reasons_shown(table: dict, lang: str) -> dict:
    """The standings with each match's reason for standing apart in the answer's language."""
    if lang == DEFAULT:
        return table
    return dict(
        table,
        **{
            kind: [dict(item, reason=str(shown(reason(item)))) for item in table[kind]]
            for kind in ("invalid", "not_counted")
        },
    )


def _event_state(event: str, ids) -> tuple[str, bytes]:
    """An event as it stands: its records' ids (hashes of their content) in one digest."""
    return event, hashlib.sha256("".join(ids).encode()).digest()


class _Kept:
    """The standings of the last few events asked, each under its event and the ids of its records:
    an id is the hash of its record, so the same ids give the same standings, and any write to the
    event (here, by another server or by `store import`) makes new ids."""

    def __init__(self, size: int):
        self._size, self._items, self._lock = size, OrderedDict(), threading.Lock()

    def get(self, key):
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
            return self._items.get(key)

    def put(self, key, value):
        with self._lock:
            self._items[key] = value
            while len(self._items) > self._size:
                self._items.popitem(last=False)


_standings_kept = _Kept(16)


def _event_standings(store, event: str, budget) -> dict:
    """Computed in the check pool, once per state of the event (a request queued behind the one
    computing it finds it kept), within the request's budget."""
    entries = store.event(event)
    key = _event_state(event, [record_id for record_id, _, _ in entries])
    found = _standings_kept.get(key)
    if found is None:
        found = standings(entries, event, stop=budget.check)
        _standings_kept.put(key, found)
    return found
