"""Hardening (issue 8): crafted numbers, duplicate keys, line breaks, files that are no files,
`fmt -w` on the disk: a finding or a clear error, never a crash, never silent loss."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from api import create_app
from api.store import prepare
from cli.main import main
from referee.replay import check_record
from tests.builders import guandan, quick_deal

GDY = json.loads((Path(__file__).parent.parent / "samples" / "gandengyan" / "multipliers.json").read_text())
BASE = guandan([quick_deal([0, 2])])
TOKEN = "a-token-of-16-chars-or-more"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def run(*args, stdin=None):
    return CliRunner().invoke(main, list(args), input=stdin)


def changed(record, edit):
    record = copy.deepcopy(record)
    edit(record)
    return record


def errors(record):
    return [(f.rule, f.at) for f in check_record(record).findings if f.severity == "error"]


# ------------------------------------------------------------------ 1. numbers beyond 64 bits

HUGE_SEAT = changed(BASE, lambda r: r["deals"][0]["actions"][1].update(seat=1.9e19))
LOW_TOTALS = changed(GDY, lambda r: r.update(start={"totals": [-2**63 + 1, 0, 0]}))
HUGE_COUNT = changed(BASE, lambda r: r["deals"][0]["actions"].insert(
    1, {"seat": 1, "declare": "report", "count": 1e30}))


@pytest.mark.parametrize("record, expected", [
    (HUGE_SEAT, [("notation.seat", "/deals/0/actions/1/seat")]),
    (LOW_TOTALS, [("notation.number", "/start/totals/0")]),
    (HUGE_COUNT, [("notation.number", "/deals/0/actions/1/count")]),
    (changed(GDY, lambda r: r["deals"][0]["result"].update(scores=[-9.2e18, 0, 0])),
     [("notation.number", "/deals/0/result/scores/0")]),
    (changed(GDY, lambda r: r["result"].update(totals=[1, 2, 10**13])), [("notation.number", "/result/totals/2")]),
    (changed(BASE, lambda r: r["deals"][0]["actions"][0].update(t=2**64 - 1)),
     [("notation.number", "/deals/0/actions/0/t")]),
])
def test_numbers_beyond_any_meaning_are_findings(record, expected):
    assert errors(record) == expected
    orjson.dumps(check_record(record).as_dict())
    orjson.dumps(record)


def test_a_crafted_number_does_not_stop_a_batch(tmp_path):
    archive = tmp_path / "a.jsonl"
    archive.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in (LOW_TOTALS, HUGE_SEAT, BASE)))
    result = run("validate", "--json", str(archive))
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert [json.loads(line)["valid"] for line in result.output.splitlines()] == [False, False, True]
    db = str(tmp_path / "r.db")
    imported = run("store", "import", "--db", db, str(archive))
    assert imported.exit_code == 1, imported.output
    assert imported.output.count("stored") == 3


def test_api_answers_a_crafted_number_with_a_report(tmp_path):
    client = create_app(str(tmp_path / "r.db"), token=TOKEN).test_client()
    stored = client.post("/v1/records", data=orjson.dumps(HUGE_SEAT), headers=AUTH, content_type="application/json")
    assert stored.status_code == 201 and stored.get_json()["report"]["valid"] is False
    checked = client.post("/v1/validate", data=orjson.dumps(LOW_TOTALS), content_type="application/json")
    assert checked.status_code == 200
    assert checked.get_json()["findings"][0]["rule"] == "notation.number"


# ------------------------------------------------------------------ 2. one id for one stored form

def test_a_whole_number_written_as_a_decimal_is_the_same_record():
    decimal = changed(BASE, lambda r: r["deals"][0]["actions"][1].update(seat=1.0))
    assert prepare(orjson.dumps(decimal)).id == prepare(orjson.dumps(BASE)).id


def test_the_id_is_the_hash_of_the_stored_form(tmp_path):
    import hashlib
    client = create_app(str(tmp_path / "r.db"), token=TOKEN).test_client()
    decimal = changed(BASE, lambda r: r["deals"][0]["actions"][1].update(seat=1.0))
    ids = {client.post("/v1/records", data=orjson.dumps(r), headers=AUTH,
                       content_type="application/json").get_json()["id"] for r in (BASE, decimal)}
    assert len(ids) == 1 and client.get("/v1/records").get_json()["total"] == 1
    stored = client.get(f"/v1/records/{ids.pop()}")
    record = orjson.loads(stored.data)
    assert hashlib.sha256(orjson.dumps(record, option=orjson.OPT_SORT_KEYS)).hexdigest() == stored.request.path.rsplit("/", 1)[1]
