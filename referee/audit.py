"""Auditing archives that outgrow one machine: JSON Lines partitions checked on a Dask cluster.

Each file is one partition (plain or compressed, local or any fsspec URL); every line gets the
report `referee validate --json` gives it, with the same `source` (`path:line`). Dask is an
optional extra (`pip install '.[dask]'`) and is imported only here.
"""
from __future__ import annotations

import os
from collections import Counter

import orjson

from .batch import check_line

REPORT_COLUMNS = {"source": "string", "valid": "bool", "game": "string", "errors": "int64", "rules": "string",
                  "report": "string"}


def check_partition(lines, names: dict) -> list[dict]:
    """Reports of one file's lines, given as (text, path) pairs in file order, exactly as
    `validate` reports them: the text is turned back into the bytes that were read, and a local
    path is named as the user named it (`names`: Dask's absolute path -> the name given)."""
    reports = []
    for number, (text, path) in enumerate(lines, 1):
        raw = text.encode("utf-8", "surrogateescape")
        if raw.strip():
            source = f"{names.get(path, path)}:{number}"
            reports.append(check_line(raw, source).as_dict())
    return reports


def report_bag(paths: list[str]):
    """A dask.bag of report dicts, one per record line of the files."""
    import dask.bag

    lines = dask.bag.read_text(paths, blocksize=None, include_path=True, linedelimiter="\n",
                               encoding="utf-8", errors="surrogateescape")
    names = {os.path.abspath(path): path for path in paths if "://" not in path}
    return lines.map_partitions(check_partition, names)


UNREADABLE_RULES = {"notation.file", "notation.encoding", "notation.json", "notation.size"}
VERDICTS = ("valid", "invalid", "unreadable")
NO_RECORDS = {"records": 0, **{verdict: 0 for verdict in VERDICTS}, "rules": {}}


def summarise(reports) -> dict:
    """Counts of records by verdict and of findings by rule id, as `validate --summary-json` writes them."""
    verdicts, rules = Counter(), Counter()
    for report in reports:
        verdicts[_verdict(report)] += 1
        rules.update(f["rule"] for f in report["findings"])
    return {"records": sum(verdicts.values()), **{v: verdicts[v] for v in VERDICTS}, "rules": dict(rules.most_common())}


def _verdict(report: dict) -> str:
    if any(f["rule"] in UNREADABLE_RULES for f in report["findings"]):
        return "unreadable"
    return "valid" if report["valid"] else "invalid"


def summary_of(reports):
    """The summary as a Dask value: one per partition, added up on the cluster."""
    return reports.map_partitions(lambda part: [summarise(part)]).fold(_add, initial=NO_RECORDS)


def _add(total: dict, part: dict) -> dict:
    rules = Counter(total["rules"]) + Counter(part["rules"])
    counts = {key: total[key] + part[key] for key in ("records", *VERDICTS)}
    return {**counts, "rules": dict(rules.most_common())}


def as_row(report: dict) -> dict:
    """One report as a flat row for Parquet: the whole report stays in `report` as JSON."""
    return {"source": report.get("source"), "valid": report["valid"], "game": report["game"],
            "errors": sum(f["severity"] == "error" for f in report["findings"]),
            "rules": " ".join(sorted({f["rule"] for f in report["findings"]})),
            "report": orjson.dumps(report).decode()}


def json_line(report: dict) -> str:
    return orjson.dumps(report).decode()     # byte for byte as `validate --json` writes it


def part_name(index: int) -> str:
    """Part files sort in input order."""
    return f"{index:05d}"
