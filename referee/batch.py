"""Reading files of records (notation section 1) and checking them one by one.

One bad record never stops the others: unreadable input becomes a report with a
`notation.*` finding and `unreadable` set, which callers map to exit status 2.
"""
from __future__ import annotations

import sys
from pathlib import Path

from .findings import ERROR, Finding, Report
from .notation import parse_json, split_records
from .infer import infer_rules
from .replay import check_record

MAX_RECORD_BYTES = 64 * 1024 * 1024


def unreadable(source: str, rule: str, message: str) -> Report:
    return Report(False, None, None, [Finding(ERROR, rule, "", message)], source=source, unreadable=True)


def check_text(text: str | bytes, source: str, jsonl: bool | None = None, infer: bool = False):
    """Reports for every record in one JSON or JSON Lines text."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield unreadable(source, "notation.encoding", f"the input is not UTF-8 text: {exc}")
            return
    for line, chunk in split_records(text, jsonl):
        yield check_one(chunk, source if line is None else f"{source}:{line}", infer)


def check_one(chunk: str, source: str, infer: bool = False) -> Report:
    """One record's report; with `infer`, an invalid record also gets the rules it is valid under."""
    if len(chunk) > MAX_RECORD_BYTES:
        return unreadable(source, "notation.size", f"a record may hold at most {MAX_RECORD_BYTES} bytes")
    value = parse_json(chunk)
    if isinstance(value, Finding):
        return unreadable(source, value.rule, value.message)
    report = check_record(value, source)
    if infer and not report.valid:
        report.inferred = infer_rules(value)
    return report


def check_path(path: str, infer: bool = False):
    """Reports for a file (`-`: standard input); JSON Lines files are streamed."""
    if path == "-":
        yield from check_text(sys.stdin.buffer.read(), "<stdin>", infer=infer)
        return
    try:
        if path.endswith(".jsonl"):
            with open(path, "rb") as handle:
                for number, raw in enumerate(handle, 1):
                    if raw.strip():
                        yield from check_text(raw, f"{path}:{number}", jsonl=False, infer=infer)
            return
        data = Path(path).read_bytes()
    except OSError as exc:
        yield unreadable(path, "notation.file", f"cannot read {path}: {exc.strerror or exc}")
        return
    yield from check_text(data, path, infer=infer)
