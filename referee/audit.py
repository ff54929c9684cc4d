"""Auditing archives that outgrow one machine: JSON Lines partitions checked on a Dask cluster.

Each file is one partition (plain or compressed, local or any fsspec URL); every line gets the
report `referee validate --json` gives it, with the same `source` (`path:line`). Dask is an
optional extra (`pip install '.[dask]'`) and is imported only here.
"""

from __future__ import annotations

import functools
import glob
import operator
import os
from collections import Counter
from typing import Any

import orjson

from .batch import check_items, jsonl_by_name, not_a_file, read_records, unreadable_file
from .findings import Report
from .integrity import Archive
from .messages import language, msg

REPORT_COLUMNS = {
    "source": "string",
    "valid": "bool",
    "game": "string",
    "errors": "int64",
    "rules": "string",
    "report": "string",
}


def file_reports(opened, name: str, lang: str) -> list[dict]:
    """The reports of one file (an fsspec OpenFile, compressed or not), exactly as `validate` gives them, in
    `lang`: JSON Lines read line by line, a line above its size limit skipped unread; a file not named .jsonl
    holding one (pretty-printed) JSON document is one record."""
    return [report.as_dict(lang) for report in check_items(read_records(opened.open, name, jsonl_by_name(name)))]


def report_bag(files: list[tuple[str, Any]]):
    """A dask.bag of report dicts, one partition per file (files_of), in order, in this command's language
    (a worker has its own)."""
    import dask.bag

    lang = language()
    return dask.bag.from_delayed(
        _per_file(files, functools.partial(file_reports, lang=lang), lambda report: [report.as_dict(lang)])
    )


def files_of(paths: list[str]) -> list[tuple[str, Any]]:
    """(name, source) for every file the paths name, in order: globs and URLs are expanded by fsspec, a local
    path is named as the user named it, and the source is its fsspec OpenFile; a local path that is no file
    to read (a folder that cannot be listed, a pipe) has its unreadable report as source, as in `validate`."""
    from fsspec import open_files

    names = {os.path.abspath(path): path for path in paths if "://" not in path}
    files: list[tuple[str, Any]] = []
    for path in paths:
        problem = None if "://" in path or glob.has_magic(path) else not_a_file(path)
        if problem:
            files.append((path, unreadable_file(path, problem)))
            continue
        files += [
            (names.get(opened.path, opened.path), opened) for opened in open_files(path, "rb", compression="infer")
        ]
    if not files:
        raise ValueError(msg("no file matches {paths}", paths=" ".join(paths)))
    return files


def _per_file(files: list[tuple[str, Any]], read, unreadable) -> list:
    """`read(opened, name)` for every file (files_of), in order, as Dask's delayed values; a local path that
    is no file to read is `unreadable(report)`, made where the path was given."""
    import dask

    return [
        dask.delayed(unreadable(source)) if isinstance(source, Report) else dask.delayed(read)(source, name)
        for name, source in files
    ]


def file_archive(opened, name: str) -> Archive:
    """One file's part of `referee integrity`'s pass (its deals' keys and counts), read as file_reports reads it."""
    archive = Archive()
    archive.add_file(name, read_records(opened.open, name, jsonl_by_name(name)))
    return archive


def _unreadable_archive(report: Report) -> Archive:
    archive = Archive()
    archive.unreadable = 1
    return archive


def integrity_of(files: list[tuple[str, Any]]):
    """`referee integrity`'s pass as a Dask value: each file's part on a worker, joined there in input order;
    its findings are made where it is computed (Archive.findings)."""
    import dask

    return dask.delayed(_joined)(_per_file(files, file_archive, _unreadable_archive))


def _joined(parts: list[Archive]) -> Archive:
    joined = parts[0]
    for part in parts[1:]:
        joined.merge(part)
    return joined


UNREADABLE_RULES = {"notation.file", "notation.encoding", "notation.json", "notation.size"}
VERDICTS = ("valid", "invalid", "unreadable")


class Tally:
    """Counts of records by verdict and of findings by rule id; added up in input order, the rules keep the
    order `validate` first meets them in, which its summary's ties keep."""

    def __init__(self, verdicts: Counter[str] | None = None, rules: Counter[str] | None = None) -> None:
        self.verdicts, self.rules = verdicts or Counter[str](), rules or Counter[str]()

    def add(self, report: dict) -> None:
        self.verdicts[_verdict(report)] += 1
        self.rules.update(f["rule"] for f in report["findings"])

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.verdicts + other.verdicts, self.rules + other.rules)

    def summary(self) -> dict:
        """As `validate --summary-json` writes it."""
        counts = {verdict: self.verdicts[verdict] for verdict in VERDICTS}
        return {"records": sum(counts.values()), **counts, "rules": dict(self.rules.most_common())}


def tallied(reports) -> Tally:
    tally = Tally()
    for report in reports:
        tally.add(report)
    return tally


def _verdict(report: dict) -> str:
    if any(f["rule"] in UNREADABLE_RULES for f in report["findings"]):
        return "unreadable"
    return "valid" if report["valid"] else "invalid"


def written(client, files: list[tuple[str, Any]], output: str) -> dict:
    """Every file's reports written under `output` (`part-NNNNN.jsonl`, in input order, byte for byte as
    `validate --json` writes them) by the worker that checks the file, one task a file; the summary of them
    all, made of the files' tallies, the only thing that comes back from the workers."""
    from fsspec import open_files

    names, sources = zip(*files)
    parts = open_files(f"{output.rstrip('/')}/part-*.jsonl", "wb", name_function=part_name, num=len(names))
    tallies = client.gather(client.map(written_part, names, sources, parts, lang=language(), pure=False))
    return sum(tallies, Tally()).summary()


def written_part(name: str, source, part, lang: str) -> Tally:
    """The reports of one file (its OpenFile, or its unreadable report) written to `part` (an OpenFile) in
    `lang` (this command's: a worker has its own), each as it is made, so that memory stays flat; their tally."""
    reports = (
        [source] if isinstance(source, Report) else check_items(read_records(source.open, name, jsonl_by_name(name)))
    )
    tally = Tally()
    with part as handle:
        for report in reports:
            shown = report.as_dict(lang)
            tally.add(shown)
            handle.write(orjson.dumps(shown) + b"\n")
    return tally


def summary_of(reports):
    """The summary as a Dask value: a tally of each partition, added up on the cluster."""
    return reports.map_partitions(lambda part: [tallied(part)]).fold(operator.add).apply(Tally.summary)


def as_row(report: dict) -> dict:
    """One report as a flat row for Parquet: the whole report stays in `report` as JSON."""
    return {
        "source": report.get("source"),
        "valid": report["valid"],
        "game": report["game"],
        "errors": sum(f["severity"] == "error" for f in report["findings"]),
        "rules": " ".join(sorted({f["rule"] for f in report["findings"]})),
        "report": orjson.dumps(report).decode(),
    }


def part_name(index: int) -> str:
    """Part files sort in input order."""
    return f"{index:05d}"
