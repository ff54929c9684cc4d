"""Reliability III (issue 18): input nested too deep, arrays of a huge number of wrong items, a
finding after the deal stopped, audit's folders and lines: a finding or a clear error, never a
crash, and memory that stays bounded."""
from __future__ import annotations

import copy
import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from api import create_app
from cli.main import main
from referee.replay import check_record, replay_steps
from tests.builders import guandan, quick_deal

ROOT = Path(__file__).parent.parent
BASE = guandan([quick_deal([0, 2])])
TOKEN = "a-token-of-16-chars-or-more"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def run(*args, stdin=None):
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def changed(record, edit):
    record = copy.deepcopy(record)
    edit(record)
    return record


def nested(levels: int) -> list:
    value = []
    for _ in range(levels - 1):
        value = [value]
    return value


def client(tmp_path):
    app = create_app(str(tmp_path / "r.db"), token=TOKEN)
    app.config["PROPAGATE_EXCEPTIONS"] = False     # a crash is a 500 here, as a client sees it
    return app.test_client()


def api_answers(tmp_path, body: bytes) -> dict:
    """The status of each endpoint that takes a record, for `body`."""
    web = client(tmp_path)
    return {path: web.post(path, data=body, headers=AUTH, content_type="application/json")
            for path in ("/v1/validate", "/v1/records", "/v1/replay")}


# ------------------------------------------------------------------ 1. nesting deeper than the notation needs

DEEP_META = changed(BASE, lambda r: r.update(meta={"event": "x", "x": nested(330)}))
DEEP_ACTION = changed(BASE, lambda r: r["deals"][0]["actions"][0].update({"x-trace": nested(250)}))
DEEP_PLAY = changed(BASE, lambda r: r["deals"][0]["actions"][0].update(play=nested(250)))
DEEP_OPTION = changed(BASE, lambda r: r.update(rules={"preset": "official", "options": {"x": nested(300)}}))


@pytest.mark.parametrize("record", [DEEP_META, DEEP_ACTION, DEEP_PLAY, DEEP_OPTION])
def test_nesting_deeper_than_the_notation_needs_is_a_finding_everywhere(tmp_path, record):
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(record))
    (finding,) = check_record(record).findings
    assert finding.rule == "notation.depth"
    checked = run("validate", "--json", str(path))
    assert checked.exit_code == 1 and json.loads(checked.stdout)["findings"][0]["rule"] == "notation.depth"
    for command in (("fmt",), ("replay",), ("store", "import", "--db", str(tmp_path / "r.db"))):
        result = run(*command, str(path))
        assert result.exit_code in (1, 2) and "notation.depth" in result.output, (command, result.output)
    for where, answer in api_answers(tmp_path, json.dumps(record).encode()).items():
        assert answer.status_code in (200, 400, 422), (where, answer.data[:300])
        assert b"notation.depth" in answer.data, where


def test_shallow_extensions_stay_free():
    record = changed(BASE, lambda r: r["deals"][0]["actions"][0].update({"x-trace": nested(20)}))
    assert check_record(record).valid


def test_a_deep_record_in_an_archive_stops_no_other(tmp_path):
    archive = tmp_path / "a.jsonl"
    lines = [json.dumps(r).encode() for r in [BASE] * 20 + [DEEP_META] + [DEEP_ACTION] * 20]
    archive.write_bytes(b"\n".join(lines) + b"\n")
    for jobs in ("1", "2"):
        result = run("validate", "--json", "-j", jobs, str(archive))
        reports = [json.loads(line) for line in result.stdout.splitlines()]
        assert len(reports) == 41 and result.exit_code == 1
        assert [r["valid"] for r in reports] == [True] * 20 + [False] * 21


# ------------------------------------------------------------------ 8. a finding after the deal stopped

def test_a_finding_after_the_deal_stopped_is_shown_on_its_last_step(tmp_path):
    record = json.loads((ROOT / "samples" / "guandan" / "disputed-illegal-follow.json").read_text())
    record["deals"][0]["actions"][26]["play"] = ["rj"]          # an alias after the illegal play (action 24)
    report, steps = replay_steps(record, 0)
    alias = next(f for f in report.findings if f.rule == "notation.card.alias")
    assert alias.action == 26 and steps[-1]["rejected"] and steps[-1]["step"] == 25
    assert alias in steps[-1]["findings"]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    index = report.findings.index(alias)
    for args in ((), ("--finding", str(index)), ("--json",)):
        result = run("replay", str(path), *args)
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    answer = client(tmp_path).post("/v1/replay", data=json.dumps(record), content_type="application/json")
    assert answer.status_code == 200 and answer.get_json()["steps"][-1]["rejected"]
