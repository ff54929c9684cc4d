"""Auditing archives that outgrow one machine: JSON Lines partitions checked on a Dask cluster.

Each file is one partition (plain or compressed, local or any fsspec URL); every line gets the
report `referee validate --json` gives it, with the same `source` (`path:line`). Dask is an
optional extra (`pip install '.[dask]'`) and is imported only here.
"""

from __future__ import annotations

import glob
import os
from collections import Counter

import orjson

from .batch import check_items, jsonl_by_name, not_a_file, read_records, unreadable_file
from .integrity import Archive
from .messages import msg

REPORT_COLUMNS = {
    "source": "string",
    "valid": "bool",
    "game": "string",
    "errors": "int64",
    "rules": "string",
    "report": "string",
}


def file_reports(opened, name: str) -> list[dict]:
    """The reports of one file (an fsspec OpenFile, compressed or not), exactly as `validate` gives them:
    JSON Lines read line by line, a line above its size limit skipped unread; a file not named .jsonl
    holding one (pretty-printed) JSON document is one record."""
    return [report.as_dict() for report in check_items(read_records(opened.open, name, jsonl_by_name(name)))]


def report_bag(paths: list[str]):
    """A dask.bag of report dicts, one partition per file, in order: globs and URLs are expanded by fsspec,
    and a local path is named as the user named it. A local path that is no file to read (a folder that
    cannot be listed, a pipe) is one unreadable report, as in `validate`."""
    import dask.bag

    return dask.bag.from_delayed(
        _per_file(paths, file_reports, lambda path, problem: [unreadable_file(path, problem).as_dict()])
    )


def _per_file(paths: list[str], read, unreadable) -> list:
    """`read(opened, name)` for every file the paths name, in order, as Dask's delayed values; a local path
    that is no file to read is `unreadable(path, problem)`, said where the path was given."""
    import dask
    from fsspec import open_files

    names = {os.path.abspath(path): path for path in paths if "://" not in path}
    parts = []
    for path in paths:
        problem = None if "://" in path or glob.has_magic(path) else not_a_file(path)
        if problem:
            parts.append(dask.delayed(unreadable(path, problem)))
            continue
        parts += [
            dask.delayed(read)(opened, names.get(opened.path, opened.path))
            for opened in open_files(path, "rb", compression="infer")
        ]
    if not parts:
        raise ValueError(msg("no file matches {paths}", paths=" ".join(paths)))
    return parts


def file_archive(opened, name: str) -> Archive:
    """One file's part of `referee integrity`'s pass (its deals' keys and counts), read as file_reports reads it."""
    archive = Archive()
    archive.add_file(name, read_records(opened.open, name, jsonl_by_name(name)))
    return archive


def _unreadable_archive(path: str, problem) -> Archive:
    archive = Archive()
    archive.unreadable = 1
    return archive


def integrity_of(paths: list[str]):
    """`referee integrity`'s pass as a Dask value: each file's part on a worker, joined there in input order;
    its findings are made where it is computed (Archive.findings)."""
    import dask

    return dask.delayed(_joined)(_per_file(paths, file_archive, _unreadable_archive))


def _joined(parts: list[Archive]) -> Archive:
    joined = parts[0]
    for part in parts[1:]:
        joined.merge(part)
    return joined


UNREADABLE_RULES = {"notation.file", "notation.encoding", "notation.json", "notation.size"}
VERDICTS = ("valid", "invalid", "unreadable")
NO_RECORDS = {"records": 0, **{verdict: 0 for verdict in VERDICTS}, "rules": {}}


def summarise(reports) -> dict:
    """Counts of records by verdict and of findings by rule id, as `validate --summary-json` writes them."""
    verdicts, rules = Counter[str](), Counter[str]()
    for report in reports:
        verdicts[_verdict(report)] += 1
        rules.update(f["rule"] for f in report["findings"])
    return {"records": sum(verdicts.values()), **{v: verdicts[v] for v in VERDICTS}, "rules": dict(rules.most_common())}


def _verdict(report: dict) -> str:
    if any(f["rule"] in UNREADABLE_RULES for f in report["findings"]):
        return "unreadable"
    return "valid" if report["valid"] else "invalid"


def written_with_summary(reports, output: str):
    """The summary as a Dask value, each partition's reports written to its part file under `output`
    (`part-NNNNN.jsonl`, byte for byte as `validate --json` writes them) by the task that sums them up:
    the reports are made once (Dask's to_textfiles fuses the making of a partition into its writing,
    which a summary computed beside it then made again: 1.5 times the CPU)."""
    import dask.bag
    from fsspec import open_files

    files = open_files(f"{output.rstrip('/')}/part-*.jsonl", "wb", name_function=part_name, num=reports.npartitions)
    one_each = dask.bag.from_sequence(files, npartitions=reports.npartitions)
    return reports.map_partitions(_written, one_each).fold(_add, initial=NO_RECORDS)


def _written(reports: list[dict], files: list) -> list[dict]:
    (opened,) = files
    with opened as handle:
        handle.writelines(json_line(report).encode() + b"\n" for report in reports)
    return [summarise(reports)]


def summary_of(reports):
    """The summary as a Dask value: one per partition, added up on the cluster."""
    return reports.map_partitions(lambda part: [summarise(part)]).fold(_add, initial=NO_RECORDS)


def _add(total: dict, part: dict) -> dict:
    rules = Counter(total["rules"]) + Counter(part["rules"])
    counts = {key: total[key] + part[key] for key in ("records", *VERDICTS)}
    return {**counts, "rules": dict(rules.most_common())}


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


def json_line(report: dict) -> str:
    return orjson.dumps(report).decode()  # byte for byte as `validate --json` writes it


def part_name(index: int) -> str:
    """Part files sort in input order."""
    return f"{index:05d}"
