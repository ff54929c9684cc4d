"""The referee as a Python library (docs/python-api.md): what `import referee` offers a platform.

    >>> import referee
    >>> report = referee.check(Path("samples/guandan/disputed-illegal-follow.json"))
    >>> report.valid, report.findings[0].rule
    (False, 'guandan.follow')

A record is given as a parsed record (a dict), its JSON text (str or bytes) or a file (a
`pathlib.Path`). Input that cannot be read is a report too (`unreadable` set), never an exception.
Findings number deals, actions and seats from 0, as the JSON report does; messages are rendered in
`lang`, by default the language of the calling thread (`in_language`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .findings import Finding, Report
from .messages import LANGUAGES, in_language, language, shown

__all__ = [
    "LANGUAGES",
    "Explanation",
    "Finding",
    "Replay",
    "Report",
    "Step",
    "check",
    "check_file",
    "committed_deal",
    "explain",
    "games",
    "in_language",
    "language",
    "replay_deal",
    "report_json",
    "report_text",
    "ruling_document",
]

Source = dict | str | bytes | Path  # a record, its text, or its file


def check(source: Source, *, infer_rules: bool = False) -> Report:
    """The report on one record: a dict, its JSON text, or a file of one record (a Path; gzip or not).
    With `infer_rules`, an invalid record's report also names the rule sets it is valid under
    (`report.inferred`).

    >>> report = check('{"cgr": 1, "game": "guandan"}')
    >>> report.verdict, sorted({f.rule for f in report.findings})
    ('invalid', ['notation.key.missing'])
    >>> check("not JSON").verdict
    'unreadable'
    """
    from .batch import check_one, check_parsed

    if isinstance(source, dict):
        return check_parsed("", source, "<record>", infer_rules)
    text = _text(source)
    if isinstance(text, Report):
        return text
    return check_one(text, _source(source), infer_rules)


def check_file(path: str | os.PathLike, *, infer_rules: bool = False) -> Iterator[Report]:
    """The report on every record of a file, read as it goes (memory stays flat): one JSON record, or
    JSON Lines (each report's `source` says its line); gzip recognised by content; "-" standard input.

    >>> [report.valid for report in check_file("samples/gouji/liberation.json")]
    [True]
    """
    from .batch import check_path

    return check_path(os.fspath(path), infer_rules)


@dataclass(frozen=True)
class Step:
    """One step of a deal's replay: step 0 is the table as dealt, step k+1 the table after action k.
    `table` is the game's snapshot (hands, the trick, whose turn); `findings` those made at this
    step; `rejected`: the action the replay refused, shown on the table it was tried on; `outcome`:
    the deal's, at its last step."""

    number: int
    action: dict | None
    table: dict
    findings: list[Finding] = field(default_factory=list)
    outcome: dict | None = None
    rejected: bool = False


@dataclass(frozen=True)
class Replay:
    """A deal replayed: the record's report and the deal's steps (none when the deal could not be
    replayed at all, or there is no such deal: the report says why)."""

    report: Report
    steps: list[Step]


def replay_deal(source: Source, deal: int = 0) -> Replay:
    """The deal `deal` (from 0) of a record replayed step by step.

    >>> steps = replay_deal(Path("samples/guandan/disputed-illegal-follow.json")).steps
    >>> steps[0].number, steps[-1].rejected, steps[-1].findings[0].rule
    (0, True, 'guandan.follow')
    """
    from .replay import replay_steps

    record = _record(source)
    if isinstance(record, Report):
        return Replay(record, [])
    report, steps = replay_steps(record, deal)
    return Replay(
        report,
        [
            Step(s["step"], s["action"], s["table"], s["findings"], s.get("outcome"), bool(s.get("rejected")))
            for s in steps
        ],
    )


@dataclass(frozen=True)
class Explanation:
    """What a rule id means (`meaning`, in the language asked for), its severity, whether it stops its
    deal's replay (`stops`), the rules page and sections that decide it (`decided_by`), and an
    example of its finding's message (`example`, or None)."""

    rule: str
    severity: str
    stops: str
    meaning: str
    decided_by: str
    example: str | None


def explain(rule: str, lang: str | None = None) -> Explanation | None:
    """A rule id explained, as `referee explain` does; None for an id that is no rule id.

    >>> explain("guandan.follow").severity
    'error'
    >>> explain("no.such.rule") is None
    True
    """
    from .ruledocs import example_message, examples, meaning, rule_entries, section

    entry = rule_entries().get(rule)
    if entry is None:
        return None
    lang = lang or language()
    example = examples().get(rule)
    with in_language(lang):
        said = None if example is None else str(shown(example_message(example), lang))
        return Explanation(
            rule,
            entry["columns"].get("severity", ""),
            entry["columns"].get("stops", ""),
            meaning(rule, lang) or "",
            section(rule),
            said,
        )


def ruling_document(
    source: Source,
    lang: str | None = None,
    *,
    finding: int | None = None,
    deal: int | None = None,
    action: int | None = None,
) -> str:
    """The ruling on a record as one HTML document (print it to PDF with a browser): on its finding
    `finding`, on the findings of `deal` (at `action`), or on every finding (each from 0). Raises
    ValueError (referee.ruling.RulingError) for a finding or deal that is not there, or a record that
    cannot be read.

    >>> html = ruling_document(Path("samples/guandan/disputed-illegal-follow.json"), "zh")
    >>> html.startswith("<!DOCTYPE html>"), "guandan.follow" in html
    (True, True)
    """
    from .canonical import record_id
    from .ruling import ruling as ruling_html

    record = _record(source)
    if isinstance(record, Report):
        raise ValueError(record.findings[0].shown(lang))
    return ruling_html(record, record_id(record), lang or language(), finding, deal, action)


def report_json(report: Report, lang: str | None = None) -> dict[str, Any]:
    """A report as the JSON `referee validate --json` writes (docs/results.md): each finding's message in
    `lang` beside its template and parameters, which a program reads instead of the sentence.

    >>> report_json(check(Path("samples/gouji/liberation.json")))["valid"]
    True
    """
    return report.as_dict(lang or language())


def report_text(report: Report, lang: str | None = None) -> str:
    """A report as `referee validate` prints it without colour: the verdict, each deal's outcome, the
    match, and each finding with where it is.

    >>> print(report_text(check(Path("samples/gouji/liberation.json"))).splitlines()[0])
    samples/gouji/liberation.json  VALID  gouji (pagat)
    """
    from referee.cli.plain import report_parts, text  # the command line's rendering, without a console

    with in_language(lang or language()):
        return text(report_parts(report))


def committed_deal(
    game: str,
    seed: str,
    seats: int,
    dealer: int = 0,
    options: dict | None = None,
    beacon: str | None = None,
    salt: str | None = None,
) -> dict:
    """A deal with its commitment (notation §11), for a platform to publish `commit` before play and
    `reveal` after: the hands the secret `seed` (64 or more hex digits) deals, in the game's default
    options unless `options` are given. ValueError for a game this referee does not check.

    >>> deal = committed_deal("guandan", seed="5e" * 32, seats=4)
    >>> len(deal["hands"]), len(deal["hands"][0]), sorted(deal["reveal"])
    (4, 27, ['seed', 'shuffle'])
    """
    from .commitments import committed_deal as deal_of
    from .replay import game_module

    module = game_module(game)
    if module is None:
        raise ValueError(f"no such game: {game!r}; the games are {', '.join(games())}")
    return deal_of(module, seed, seats, dealer, options, beacon, salt)


def games() -> tuple[str, ...]:
    """The games this referee checks, by the name a record gives.

    >>> games()
    ('guandan', 'gouji', 'gandengyan')
    """
    from .replay import GAMES

    return tuple(GAMES)


def _source(source: str | bytes | os.PathLike) -> str:
    """The name a report gives what it checked: a file's path, else <text>."""
    return os.fspath(source) if isinstance(source, os.PathLike) else "<text>"


def _text(source: str | bytes | os.PathLike) -> str | Report:
    """A record's text, or the report of why it cannot be read."""
    from .batch import read_text, unreadable, unreadable_file, utf8_problem
    from .messages import msg

    try:
        if isinstance(source, os.PathLike):
            return read_text(os.fspath(source))
        return source.decode("utf-8") if isinstance(source, bytes) else source
    except UnicodeDecodeError as exc:
        return unreadable(
            _source(source),
            "notation.encoding",
            msg("the input is not UTF-8 text: {problem}", problem=utf8_problem(exc)),
        )
    except (OSError, ValueError) as exc:
        return unreadable_file(_source(source), exc.args[0] if exc.args else str(exc))


def _record(source: Source) -> dict | Report:
    """The parsed record, or the report of why it cannot be read (or is no record)."""
    from .notation import parse_json

    if isinstance(source, dict):
        return source
    text = _text(source)
    if isinstance(text, Report):
        return text
    value = parse_json(text)
    return value if isinstance(value, dict) else check(source)  # the report says why it is no record
