"""What the check pool runs for `POST /v1/validate` and `POST /v1/records`: a body's records read, checked and
made ready to store. Without flask, so that the check workers (api/workers.py) load none of it: the fork server
that starts them imports this module alone, a fifth of the instructions of importing the views (issue 36)."""

from __future__ import annotations

from referee.batch import check_parsed, unreadable
from referee.findings import Finding
from referee.notation import parse_json
from referee.replay import cycle_collection_paused

from .limits import record_size_problem, trimmed
from .store import prepare_parsed, rechecked

SOURCE = "<request>"


class TooBig(Exception):
    """A record bigger than this server checks: (why, the record's source), which the views answer 422."""


def within(budget, function, *args):
    budget.check()  # it may have waited for a slot
    return function(*args)


def parsed(chunk: str, source: str, limits):
    """The parsed record, a report when it is no JSON; TooBig when it is bigger than this server checks."""
    value = parse_json(chunk)
    if isinstance(value, Finding):
        return unreadable(source, value.rule, value.text or value.message)  # the template, when it has one
    problem = record_size_problem(value, limits)
    if problem:
        raise TooBig(problem, source)
    return value


@cycle_collection_paused()  # the parse too, as validate checks a batch (batch._checked_text)
def check_all(chunks, limits, infer: bool, budget, lang: str) -> list[tuple]:
    """(unreadable, findings, the report in `lang`) of each (line, text) of a body to validate."""
    reports = []
    for line, chunk in chunks:
        budget.check()
        source = SOURCE if line is None else f"{SOURCE}:{line}"
        value = parsed(chunk, source, limits)
        report = (
            value
            if hasattr(value, "unreadable")
            else check_parsed(chunk, value, source, infer, stop=budget.searching_over)
        )
        reports.append((report.unreadable, report.findings, trimmed(report.as_dict(lang), limits.message)))
    return reports


def entry(text: str, source: str, limits, lang: str, stored_report, place: str = SOURCE):
    """The entry to store (Entry.kept) and its report to answer with in `lang`, or the findings that make the
    text no record. `source`: the text's hash (text_hash); `stored_report(id)`: the report of a record stored
    already, which is not checked again (Store.report: in a worker process, read there from the store); `place`:
    where the text stands in the request, as a record too big to check is said."""
    value = parsed(text, place, limits)
    if hasattr(value, "unreadable"):
        return value.findings, None
    made = prepare_parsed(text, value, stored_report, source)
    if isinstance(made, list):
        return made, None
    trimmed(made.report, limits.message)
    if lang == "en":
        return made.kept(), made.report
    return made.kept(), trimmed((made.checked or rechecked(made.record)).as_dict(lang), limits.message)


@cycle_collection_paused()  # what it leaves is collected once, after the body is stored, as store import does
def entries(unknown, limits, lang: str, stored_report, budget) -> list[tuple]:
    """entry of each (line, text, its hash) of a body whose text is not stored, all in one turn of the check pool
    (a worker process's round trip a record cost the server more than the record's check); (None, None) for a
    line of JSON Lines that the request's time ran out before."""
    return [
        (None, None)
        if line is not None and budget.spent()
        else entry(text, source, limits, lang, stored_report, SOURCE if line is None else f"{SOURCE}:{line}")
        for line, text, source in unknown
    ]
