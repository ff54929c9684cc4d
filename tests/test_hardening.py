"""Hardening (issue 8): crafted numbers, duplicate keys, line breaks, files that are no files,
`fmt -w` on the disk: a finding or a clear error, never a crash, never silent loss."""

from __future__ import annotations

import contextlib
import copy
import http.client
import json
import os
import re
import socket
import sqlite3
import tempfile
import threading
import time
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

import referee.api.views
from referee.api import create_app
from referee.api.limits import Limits
from referee.api.schemas import ErrorSchema
from referee.api.store import Store, prepare
from referee.cli.main import main
from referee.replay import check_record
from tests.builders import guandan, quick_deal
from tests.folders import refuse_listing
from tests.servers import serving

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


def assert_error(response, code: int) -> dict:
    body = response.get_json()
    assert response.status_code == code, body
    assert ErrorSchema().validate(body) == {} and body["code"] == code
    return body


def errors(record):
    return [(f.rule, f.at) for f in check_record(record).findings if f.severity == "error"]


# ------------------------------------------------------------------ 1. numbers beyond 64 bits

HUGE_SEAT = changed(BASE, lambda r: r["deals"][0]["actions"][1].update(seat=1.9e19))
LOW_TOTALS = changed(GDY, lambda r: r.update(start={"totals": [-(2**63) + 1, 0, 0]}))
HUGE_COUNT = changed(
    BASE, lambda r: r["deals"][0]["actions"].insert(1, {"seat": 1, "declare": "report", "count": 1e30})
)


@pytest.mark.parametrize(
    "record, expected",
    [
        (HUGE_SEAT, [("notation.seat", "/deals/0/actions/1/seat")]),
        (LOW_TOTALS, [("notation.number", "/start/totals/0")]),
        (HUGE_COUNT, [("notation.number", "/deals/0/actions/1/count")]),
        (
            changed(GDY, lambda r: r["deals"][0]["result"].update(scores=[-9.2e18, 0, 0])),
            [("notation.number", "/deals/0/result/scores/0")],
        ),
        (changed(GDY, lambda r: r["result"].update(totals=[1, 2, 10**13])), [("notation.number", "/result/totals/2")]),
        (
            changed(BASE, lambda r: r["deals"][0]["actions"][0].update(t=2**64 - 1)),
            [("notation.number", "/deals/0/actions/0/t")],
        ),
    ],
)
def test_numbers_beyond_any_meaning_are_findings(record, expected):
    assert errors(record) == expected
    orjson.dumps(check_record(record).as_dict())
    orjson.dumps(record)


def test_a_crafted_number_does_not_stop_a_batch(tmp_path):
    archive = tmp_path / "a.jsonl"
    archive.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in (LOW_TOTALS, HUGE_SEAT, BASE)))
    result = run("validate", "--json", str(archive))
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert [json.loads(line)["valid"] for line in result.stdout.splitlines()] == [False, False, True]
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
    ids = {
        client.post("/v1/records", data=orjson.dumps(r), headers=AUTH, content_type="application/json").get_json()["id"]
        for r in (BASE, decimal)
    }
    assert len(ids) == 1 and client.get("/v1/records").get_json()["total"] == 1
    stored = client.get(f"/v1/records/{ids.pop()}")
    record = orjson.loads(stored.data)
    assert (
        hashlib.sha256(orjson.dumps(record, option=orjson.OPT_SORT_KEYS)).hexdigest()
        == stored.request.path.rsplit("/", 1)[1]
    )


# ------------------------------------------------------------------ 3. the work of a request is bounded


def app_with(tmp_path, **limits):
    return create_app(str(tmp_path / "r.db"), token=TOKEN, limits=Limits(**limits))


def test_records_per_request_are_bounded(tmp_path):
    client = app_with(tmp_path, records=3).test_client()
    body = b"1\n" * 4
    assert_error(client.post("/v1/validate", data=body, content_type="application/x-ndjson"), 413)
    answer = client.post("/v1/validate", data=b"1\n" * 3, content_type="application/x-ndjson")
    assert answer.status_code == 200 and len(answer.data.splitlines()) == 3


TWO_DEALS = guandan([quick_deal([0, 2]), quick_deal([0, 2])])


@pytest.mark.parametrize("limits, said", [({"deals": 1}, "2 deals"), ({"actions": 10}, "actions")])
def test_deals_and_actions_per_record_are_bounded(tmp_path, limits, said):
    client = app_with(tmp_path, **limits).test_client()
    body = orjson.dumps(TWO_DEALS)
    for path, headers in (("/v1/validate", {}), ("/v1/records", AUTH), ("/v1/replay", {})):
        error = assert_error(client.post(path, data=body, headers=headers, content_type="application/json"), 422)
        assert said in error["message"] and error["findings"][0]["rule"] == "api.limit"
    assert client.get("/v1/records").get_json()["total"] == 0


def test_the_viewer_replays_in_the_check_pool(tmp_path):
    client = app_with(tmp_path).test_client()
    pool = client.application.extensions["referee.pool"]
    ran = []
    real = pool.run
    pool.run = lambda function, *args: ran.append(function.__name__) or real(function, *args)
    assert client.post("/v1/replay", data=orjson.dumps(TWO_DEALS), content_type="application/json").status_code == 200
    assert ran == ["replay_steps"]


def test_a_finding_message_is_cut_to_the_limit(tmp_path):
    client = app_with(tmp_path, message=60, items=5000).test_client()  # a play of 5,000 cards
    record = changed(BASE, lambda r: r["deals"][0]["actions"][0].update(play=["3S"] * 5000))
    for path, headers in (("/v1/validate", {}), ("/v1/records", AUTH)):
        answer = client.post(path, data=orjson.dumps(record), headers=headers, content_type="application/json")
        report = answer.get_json().get("report", answer.get_json())
        assert report["findings"] and max(len(f["message"]) for f in report["findings"]) <= 60 + len(" … (cut)")
    assert len(client.post("/v1/validate", json=record).data) < 5000


def test_a_full_check_pool_answers_503_and_reads_go_on(tmp_path):
    app = app_with(tmp_path, checks=1, queue=0)
    client = app.test_client()
    release, started = threading.Event(), threading.Event()
    blocker = threading.Thread(
        target=app.extensions["referee.pool"].run, args=(lambda: started.set() or release.wait(10),)
    )
    blocker.start()
    try:
        assert started.wait(10)
        busy = assert_error(client.post("/v1/validate", json=BASE), 503)
        assert "try again" in busy["message"]
        assert client.get("/v1/records").status_code == 200
    finally:
        release.set()
        blocker.join(10)
    assert client.post("/v1/validate", json=BASE).status_code == 200


def test_steps_are_replayed_once_per_deal(tmp_path, monkeypatch):
    client = app_with(tmp_path).test_client()
    record_id = client.post("/v1/records", json=BASE, headers=AUTH).get_json()["id"]
    calls = []
    real = referee.api.views.replay_steps
    monkeypatch.setattr(referee.api.views, "replay_steps", lambda *args: calls.append(args) or real(*args))
    tables = [client.get(f"/v1/records/{record_id}/deals/0/steps/{k}").get_json()["table"] for k in range(4)]
    assert len(calls) == 1 and tables[0] != tables[3]
    client.delete(f"/v1/records/{record_id}", headers=AUTH)
    assert_error(client.get(f"/v1/records/{record_id}/deals/0/steps/1"), 404)


# ------------------------------------------------------------------ 4, 12. waitress: limits, errors in the one shape


def raw_request(port, data: bytes) -> tuple[int, dict]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(data)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def test_waitress_refuses_big_bodies_and_headers_in_the_error_shape(tmp_path):
    with serving(app_with(tmp_path), max_request_body_size=1000, max_request_header_size=2000) as port:
        code, body = raw_request(
            port,
            b"POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 50000000\r\n\r\n{",
        )
        assert code == 413 and ErrorSchema().validate(body) == {} and body["code"] == 413
        code, body = raw_request(port, b"GET /v1/records HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 3000 + b"\r\n\r\n")
        assert code == 431 and ErrorSchema().validate(body) == {}


def test_serve_hands_the_limits_to_waitress_and_the_app(monkeypatch, tmp_path):
    calls = []

    class Server:
        def run(self):
            pass

    monkeypatch.setattr("referee.api.server.make_server", lambda app, **kw: calls.append((app, kw)) or Server())
    result = run(
        "serve",
        "--db",
        str(tmp_path / "r.db"),
        "--read-only",
        "--max-body",
        "5000",
        "--threads",
        "12",
        "--connection-limit",
        "20",
        "--channel-timeout",
        "5",
        "--max-records",
        "7",
        "--checks",
        "3",
        "--max-seconds",
        "2.5",
    )
    assert result.exit_code == 0, result.output
    app, options = calls[0]
    assert options["max_request_body_size"] == 5000 and options["threads"] == 12
    assert options["connection_limit"] == 20 and options["channel_timeout"] == 5
    assert app.extensions["referee.limits"] == Limits(
        records=7, checks=3, queue=12 - 3 - 4, seconds=2.5
    )  # queue: sized to the threads
    assert run("serve", "--read-only", "--checks", "8", "--threads", "8").exit_code == 2
    assert run("serve", "--read-only", "--checks", "2", "--check-queue", "6", "--threads", "8").exit_code == 2


# ------------------------------------------------------------------ 5. --no-auth: JSON bodies, our own Host


def test_open_writes_take_json_bodies_only_and_answer_our_host(monkeypatch, tmp_path):
    calls = []
    monkeypatch.setattr("referee.api.server.make_server", lambda app, **kw: calls.append(app) or Server())

    class Server:
        def run(self):
            pass

    assert run("serve", "--db", str(tmp_path / "r.db"), "--no-auth", "--port", "8765").exit_code == 0
    client = calls[0].test_client()
    local = {"Host": "127.0.0.1:8765"}
    form = client.post("/v1/records", data=orjson.dumps(BASE), headers=local, content_type="text/plain")
    assert_error(form, 415)
    assert client.get("/v1/records", headers=local).get_json()["total"] == 0
    assert client.post("/v1/records", json=BASE, headers=local).status_code == 201
    assert client.get("/v1/records", headers={"Host": "localhost:8765"}).status_code == 200
    rebound = client.get("/v1/records", headers={"Host": "evil.example:8765"})
    assert_error(rebound, 400)


# ------------------------------------------------------------------ 6. JSON Lines break at \n only

ODD = changed(BASE, lambda r: r.update(comment="a\u2028b\u2029c\x85d\x1ce\x0bf"))
ODD_LINES = (orjson.dumps(ODD) + b"\n" + orjson.dumps(BASE) + b"\n").decode()


def test_json_lines_break_at_newlines_only(tmp_path):
    archive = tmp_path / "odd.json"
    archive.write_text(ODD_LINES, encoding="utf-8")
    for source in (str(archive), "-"):
        result = run("validate", "--json", source, stdin=ODD_LINES)
        reports = [json.loads(line) for line in result.stdout.splitlines()]
        assert [r["valid"] for r in reports] == [True, True], result.output
        assert reports[1]["source"].endswith(":2")
    imported = run("store", "import", "--db", str(tmp_path / "r.db"), str(archive))
    assert imported.exit_code == 0 and imported.output.count(" stored") == 2, imported.output
    client = app_with(tmp_path).test_client()
    answer = client.post("/v1/validate", data=ODD_LINES.encode(), content_type="application/x-ndjson")
    assert [json.loads(line)["valid"] for line in answer.data.split(b"\n") if line] == [True, True]


def test_fmt_output_passes_its_own_check(tmp_path):
    archive = tmp_path / "odd.jsonl"
    archive.write_text(ODD_LINES, encoding="utf-8")
    assert run("fmt", "-w", str(archive)).exit_code == 0
    assert run("fmt", "--check", str(archive)).exit_code == 0
    first = archive.read_text(encoding="utf-8").split("\n")[0]
    assert json.loads(first)["comment"] == ODD["comment"]


# ------------------------------------------------------------------ 7. fmt -w keeps the file what it was

ALIASED = changed(BASE, lambda r: r["deals"][0]["hands"][0].__setitem__(0, r["deals"][0]["hands"][0][0].lower()))


def test_fmt_keeps_a_one_record_json_lines_file_json_lines(tmp_path):
    path = tmp_path / "one.jsonl"
    path.write_bytes(orjson.dumps(ALIASED) + b"\n")
    assert run("fmt", "-w", str(path)).exit_code == 0
    lines = path.read_text().split("\n")
    assert len(lines) == 2 and lines[1] == "" and json.loads(lines[0])["deals"][0]["hands"][0][0].isupper()


def test_fmt_keeps_the_mode_and_writes_through_a_symlink(tmp_path):
    target = tmp_path / "record.json"
    target.write_bytes(orjson.dumps(ALIASED))
    target.chmod(0o644)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert run("fmt", "-w", str(link)).exit_code == 0
    assert link.is_symlink() and (target.stat().st_mode & 0o777) == 0o644
    assert run("fmt", "--check", str(target)).exit_code == 0


def test_fmt_syncs_before_the_rename_and_leaves_no_temp_file_when_it_fails(tmp_path, monkeypatch):
    path = tmp_path / "record.json"
    path.write_bytes(orjson.dumps(ALIASED))
    before = path.read_bytes()
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd) or real_fsync(fd))
    assert run("fmt", "-w", str(path)).exit_code == 0 and synced
    path.write_bytes(before)

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    result = run("fmt", "-w", str(path))
    assert result.exit_code == 2 and "No space left" in result.output and "Traceback" not in result.output
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["record.json"]


def test_fmt_in_a_read_only_folder_is_a_clear_error(tmp_path, monkeypatch):
    path = tmp_path / "record.json"
    path.write_bytes(orjson.dumps(ALIASED))

    def refused(*args, **kwargs):  # what a read-only folder answers (root is let through, so it is faked)
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "NamedTemporaryFile", refused)
    result = run("fmt", "-w", str(path))
    assert result.exit_code == 2 and "cannot write" in result.output and "Permission denied" in result.output


# ------------------------------------------------------------------ 8. what cannot be read is said, never skipped


def test_a_folder_that_cannot_be_listed_is_unreadable(tmp_path, monkeypatch):
    folder = tmp_path / "archive"
    (folder / "locked").mkdir(parents=True)
    (folder / "a.json").write_bytes(orjson.dumps(BASE))
    refuse_listing(monkeypatch)
    for command in (("validate", "--json"), ("store", "import", "--db", str(tmp_path / "r.db"))):
        result = run(*command, str(folder))
        assert result.exit_code == 2, result.output
        assert "locked" in result.output and "Permission denied" in result.output


@pytest.mark.parametrize("make", [lambda p: os.mkfifo(p), None])
def test_pipes_and_devices_are_unreadable_not_hangs(tmp_path, make):
    path = str(tmp_path / "pipe.json")
    if make:
        make(path)
    else:
        path = "/dev/zero"
    for command in (("validate", "--json"), ("fmt",), ("replay", "--deal", "1")):
        result = run(*command, path)
        assert result.exit_code == 2 and "not a regular file" in result.output, (command, result.output)


def test_upper_case_suffixes_are_read_and_an_empty_selection_is_a_warning(tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "RECORD.JSON").write_bytes(orjson.dumps(BASE))
    assert "1 record(s)" in run("validate", str(tmp_path / "full")).output
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("nothing")
    for command in (("validate",), ("store", "import", "--db", str(tmp_path / "r.db"))):
        result = run(*command, str(tmp_path / "empty"))
        assert result.exit_code == 2 and "warning: no .json or .jsonl file" in result.output, result.output
    blank = tmp_path / "blank.jsonl"
    blank.write_text("\n\n")
    result = run("validate", str(blank))
    assert result.exit_code == 2 and "warning: no records were selected" in result.output


# ------------------------------------------------------------------ 9. streamed, each record capped before it is read


def test_json_lines_are_streamed_and_a_huge_line_is_skipped_unread(tmp_path, monkeypatch):
    monkeypatch.setattr("referee.batch.MAX_RECORD_BYTES", 5000)
    body = orjson.dumps(BASE)
    assert len(body) < 5000
    archive = tmp_path / "a.json"
    archive.write_bytes(body + b"\n" + b"[" * 3_000_000 + b"\n" + body + b"\n")
    reads = []
    real_open = open

    class Watched:
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def readline(self, limit=-1):
            line = self.handle.readline(limit)
            reads.append(len(line))
            return line

        def read(self, size=-1):
            data = self.handle.read(size)
            reads.append(len(data))
            return data

    monkeypatch.setattr(
        "builtins.open",
        lambda path, mode="r", *a, **k: (
            Watched(real_open(path, mode, *a, **k)) if str(path) == str(archive) else real_open(path, mode, *a, **k)
        ),
    )
    for source, stdin in ((str(archive), None), ("-", archive.read_bytes())):
        result = run("validate", "-j", "1", "--json", source, stdin=stdin)  # -j 1: read here, whatever the load
        reports = [json.loads(line) for line in result.stdout.splitlines()]
        assert [r["valid"] for r in reports] == [True, False, True]
        assert reports[1]["findings"][0]["rule"] == "notation.size" and reports[2]["source"].endswith(":3")
    assert reads and max(reads) <= 1 << 20  # the 3 MB line is skipped in pieces, never held whole


def test_a_document_above_the_cap_is_not_read_whole(tmp_path, monkeypatch):
    monkeypatch.setattr("referee.batch.MAX_RECORD_BYTES", 5000)
    big = tmp_path / "big.json"
    big.write_bytes(b"{\n" + b" " * 100000 + b"}")
    result = run("validate", "--json", str(big))
    assert result.exit_code == 2 and json.loads(result.stdout)["findings"][0]["rule"] == "notation.size"


# ------------------------------------------------------------------ 10. a key written twice

TWICE = orjson.dumps(BASE).decode().replace('"seat":1,', '"seat":3,"seat":1,', 1)


def test_a_key_written_twice_is_a_finding_everywhere(tmp_path):
    assert orjson.dumps(BASE).decode() != TWICE and json.loads(TWICE) == BASE
    path = tmp_path / "twice.json"
    path.write_text(TWICE)
    result = run("validate", "--json", str(path))
    finding = json.loads(result.stdout)["findings"][0]
    assert result.exit_code == 1 and (finding["rule"], finding["at"]) == (
        "notation.key.duplicate",
        "/deals/0/actions/1/seat",
    )
    refused = run("fmt", "-w", str(path))
    assert refused.exit_code == 1 and "notation.key.duplicate" in refused.output and path.read_text() == TWICE
    imported = run("store", "import", "--db", str(tmp_path / "r.db"), str(path))
    assert imported.exit_code == 2 and "not stored: notation.key.duplicate" in imported.output
    client = app_with(tmp_path).test_client()
    stored = assert_error(client.post("/v1/records", data=TWICE, headers=AUTH, content_type="application/json"), 400)
    assert stored["findings"][0]["rule"] == "notation.key.duplicate"
    checked = client.post("/v1/validate", data=TWICE, content_type="application/json").get_json()
    assert checked["valid"] is False and checked["findings"][0]["at"] == "/deals/0/actions/1/seat"


@pytest.mark.parametrize(
    "text, where",
    [
        ('{"a": {"b": [{"x": 1, "x": "\\u003a"}]}}', ["/a/b/0/x"]),  # an escaped colon cannot hide it
        ('{"a": "x:y", "b": {"a": 1}, "c": ["d:e"]}', []),
        ('{"k:": 1, "k:": 2}', ["/k:"]),
        ('{"a": "\u00e9:\\":", "b": {"c": ":"}}', []),
        ('{"x-deep": ' + "[" * 300 + '{"a": 1, "a": 2}' + "]" * 300 + "}", ["/x-deep" + "/0" * 300 + "/a"]),
        ('{"x-deep": ' + "[" * 300 + '{"a": 1, "b": 2}' + "]" * 300 + "}", []),  # deeper than orjson writes
    ],
)
def test_duplicate_keys_are_found_whatever_the_strings_hold(text, where):
    from referee.notation import duplicate_key_findings

    assert [f.at for f in duplicate_key_findings(text, orjson.loads(text))] == where


def _with_colons(record):
    record.update(meta={"event": "e:f"}, result={"winner": 0}, rules={"preset": "official", "options": {}})
    record["x-a:b"] = {"c:d": ":"}
    record["deals"][0].update(result={"order": [0, 2, 1, 3]}, **{"x-k:": [":"]})


COLONS = orjson.dumps(changed(BASE, _with_colons)).decode()
PASS, TRIPLE = '{"seat":1,"pass":true}', '{"seat":0,"play":["6S","6D","6C"]'


@pytest.mark.parametrize(
    "old, new, where",
    [  # the colons counted as the record is read (notation.plain_read), and the text's
        (PASS, '{"seat":1,"seat":1,"pass":true}', ["/deals/0/actions/1/seat"]),  # in a common form
        ('{"seat":0,"play":["3S"', '{"seat":0,"play":["AS"],"play":["3S"', ["/deals/0/actions/0/play"]),
        (PASS, '{"seat":1,"pass":true,"comment":"\\u003a","comment":"x"}', ["/deals/0/actions/1/comment"]),
        (PASS, '{"seat":1,"pass":true,"comment":"a\\u003Ab"}', []),  # an escaped colon, no key twice
        (PASS, '{"seat":1,"pass":true,"x-a:b":":","x-a:b":1}', ["/deals/0/actions/1/x-a:b"]),
        (PASS, '{"seat":1,"declare":"a:b"}', []),  # a declaration's colon
        (PASS, '{"seat":1,"declare":"report","count":3,"count":3}', ["/deals/0/actions/1/count"]),
        (TRIPLE, TRIPLE + ',"as":"triple:6"', []),  # a reading's colon
        (TRIPLE, TRIPLE + ',"as":"triple:6","as":"triple:6"', ["/deals/0/actions/12/as"]),
        ('"result":{"winner":0}', '"result":{"winner":0,"winner":1}', ["/result/winner"]),
        ('"result":{"order":[0,2,1,3]}', '"result":{"order":[0],"order":[0,2,1,3]}', ["/deals/0/result/order"]),
        ('"event":"e:f"', '"event":"e:f","event":"x"', ["/meta/event"]),
        ('"options":{}', '"options":{"a":":","a":2}', ["/rules/options/a"]),
        ('"x-a:b":{"c:d":":"}', '"x-a:b":1,"x-a:b":{"c:d":":"}', ["/x-a:b"]),
        ('"x-k:":[":"]', '"x-k:":[{"::":1,"::":2}]', ["/deals/0/x-k:/0/::"]),
        ('"leader":0,', '"leader":0,"leader":0,', ["/deals/0/leader"]),
        ('"cgr":1,', '"cgr":1,"comment":"a\\\\u003a",', []),  # a backslash, then u003a: no escape
    ],
)
def test_a_plain_records_colons_are_counted_as_it_is_read(old, new, where):
    from referee.batch import check_one
    from referee.notation import duplicate_key_findings, parse_json, plain_read

    text = COLONS.replace(old, new, 1)
    assert text != COLONS
    for written in (text, "\ufeff" + text, text.encode()):
        value = parse_json(written)
        counted = plain_read(value).colons
        assert counted is not None and counted == orjson.dumps(value).count(b":")
        assert [f.at for f in duplicate_key_findings(written, value, counted)] == where
        assert [f.at for f in duplicate_key_findings(written, value)] == where
    rules = [(f.rule, f.at) for f in check_one(text, "t").findings if f.rule == "notation.key.duplicate"]
    assert rules == [("notation.key.duplicate", at) for at in where]


# ------------------------------------------------------------------ 11. clear errors, never a traceback


def no_traceback(result):
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result


def newer_store(path):
    Store(str(path))
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO migrations VALUES (99, 'later')")


@pytest.mark.parametrize(
    "make, said",
    [
        (lambda p: p.mkdir(), "is a folder"),
        (lambda p: p.write_text("not a database, just text" * 100), "file is not a database"),
        (newer_store, "schema version 99"),
    ],
)
def test_a_store_that_cannot_be_used_is_a_clear_error(tmp_path, make, said, monkeypatch):
    db = tmp_path / "r.db"
    make(db)
    record = tmp_path / "a.json"
    record.write_bytes(orjson.dumps(BASE))
    imported = no_traceback(run("store", "import", "--db", str(db), str(record)))
    assert imported.exit_code == 2 and said in imported.output
    monkeypatch.setattr("referee.api.server.make_server", lambda app, **kw: pytest.fail("served a broken store"))
    served = no_traceback(run("serve", "--db", str(db), "--read-only"))
    assert served.exit_code == 2 and said in served.output


def test_a_read_only_store_says_so_for_each_record(tmp_path, monkeypatch):
    db = str(tmp_path / "r.db")
    Store(db)
    real = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda path, **kw: real(f"file:{path}?mode=ro", uri=True, **kw))
    archive = tmp_path / "a.jsonl"
    archive.write_bytes(orjson.dumps(BASE) + b"\n" + orjson.dumps(TWO_DEALS) + b"\n")
    result = no_traceback(run("store", "import", "--db", db, str(archive)))
    assert result.exit_code == 2 and result.output.count("not stored: the store cannot be written") == 2


def test_a_locked_store_answers_503_after_a_short_wait(tmp_path):
    app = app_with(tmp_path)
    app.extensions["referee.store"].wait = 0.2
    client = app.test_client()
    holder = sqlite3.connect(str(tmp_path / "r.db"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        busy = assert_error(client.post("/v1/records", json=BASE, headers=AUTH), 503)
        assert time.monotonic() - started < 5 and "busy" in busy["message"]
        assert client.get("/v1/records").status_code == 200  # WAL: reads go on
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert client.post("/v1/records", json=BASE, headers=AUTH).status_code == 201


def test_a_full_store_answers_507(tmp_path, monkeypatch):
    app = app_with(tmp_path)
    store = app.extensions["referee.store"]
    real = store.connect

    @contextlib.contextmanager
    def full():
        with real() as db:
            pages = db.execute("PRAGMA page_count").fetchone()[0]
            db.execute(f"PRAGMA max_page_count = {pages}")
            yield db

    monkeypatch.setattr(store, "connect", full)
    big = dict(BASE, comment="x" * 200_000)
    error = assert_error(app.test_client().post("/v1/records", json=big, headers=AUTH), 507)
    assert "full" in error["message"]
    monkeypatch.undo()
    assert app.test_client().get("/v1/records").get_json()["total"] == 0


def test_serve_refuses_a_busy_port_a_bad_port_a_short_or_binary_token(tmp_path):
    db = str(tmp_path / "r.db")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = no_traceback(run("serve", "--db", db, "--read-only", "--port", str(port)))
    assert busy.exit_code == 2 and "cannot listen" in busy.output
    assert no_traceback(run("serve", "--db", db, "--read-only", "--port", "70000")).exit_code == 2
    short, binary = tmp_path / "short", tmp_path / "binary"
    short.write_text("s3cret\n")
    binary.write_bytes(b"\xff\xfe\x00token-token-token-token")
    for token_file, said in ((short, "at least 16"), (binary, "cannot read the token file")):
        result = no_traceback(run("serve", "--db", db, "--token-file", str(token_file)))
        assert result.exit_code == 2 and said in result.output


# ------------------------------------------------------------------ 12. filters take their text as it is


def test_the_date_filter_takes_percent_and_underscore_as_they_are(tmp_path):
    client = app_with(tmp_path).test_client()
    client.post("/v1/records", json=dict(BASE, meta={"date": "2026-05-01"}), headers=AUTH)
    client.post("/v1/records", json=dict(BASE, meta={"date": "2026_05%"}), headers=AUTH)

    def dates(query):
        return [item["date"] for item in client.get("/v1/records", query_string={"date": query}).get_json()["items"]]

    assert dates("2026-05") == ["2026-05-01"]
    assert dates("2026_") == ["2026_05%"] and dates("2026_05%") == ["2026_05%"]
    assert dates("%") == [] and dates("2026-05-01\\") == []


def test_idle_connections_are_dropped_so_other_clients_get_in(tmp_path):
    app = app_with(tmp_path)
    with serving(app, connection_limit=3, channel_timeout=1, cleanup_interval=1) as port:
        idle = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(3)]
        try:
            started = time.monotonic()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
            conn.request("GET", "/v1/records")
            assert conn.getresponse().status == 200
            assert time.monotonic() - started < 10
            conn.close()
        finally:
            for sock in idle:
                sock.close()


# ------------------------------------------------------------------ all together: mutated records, nothing lost

SMALL = orjson.dumps(changed(BASE, lambda r: r["deals"][0].update(actions=r["deals"][0]["actions"][:6]))).decode()
GDY_TEXT = orjson.dumps(GDY).decode()
NUMBERS = ["1.9e19", "-9223372036854775807", "18446744073709551615", "1e308", "1e999", "9" * 400, "0.0", "-0.0", "1.5"]


@st.composite
def mutated_lines(draw):
    text = draw(st.sampled_from([SMALL, GDY_TEXT]))
    for _ in range(draw(st.integers(1, 3))):
        spots = [m.start() for m in re.finditer(r"-?\d+(?:\.\d+)?(?:e\d+)?", text)] or [0]
        at = draw(st.sampled_from(spots))
        end = re.match(r"-?\d+(?:\.\d+)?(?:e\d+)?", text[at:])
        kind = draw(st.sampled_from(["number", "cut", "byte", "twice", "odd"]))
        if kind == "number" and end:
            text = text[:at] + draw(st.sampled_from(NUMBERS)) + text[at + end.end() :]
        elif kind == "cut":
            text = text[: draw(st.integers(0, len(text)))]
        elif kind == "byte" and text:
            i = draw(st.integers(0, len(text) - 1))
            text = text[:i] + draw(st.sampled_from(['"', "{", "]", ",", ":", "x", "\\"])) + text[i + 1 :]
        elif kind == "twice":
            text = text.replace('"seat":', '"seat":0,"seat":', 1)
        else:
            text = text.replace('"players":[', '"comment":"\u2028\x85","players":[', 1)
    return text.replace("\n", " ")


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(mutated_lines(), min_size=1, max_size=4))
def test_mutated_records_give_one_answer_per_line_and_none_is_lost(tmp_path_factory, lines):
    folder = tmp_path_factory.mktemp("fuzz")
    archive = folder / "mutated.jsonl"
    archive.write_text("\n".join(lines) + "\n", encoding="utf-8")
    checked = no_traceback(run("validate", "--json", str(archive)))
    reports = [json.loads(line) for line in checked.stdout.splitlines() if not line.startswith("referee: warning")]
    assert [r["source"] for r in reports] == [f"{archive}:{n}" for n, line in enumerate(lines, 1) if line.strip()]
    imported = no_traceback(run("store", "import", "--db", str(folder / "r.db"), str(archive)))
    answers = [line for line in imported.output.splitlines() if line.startswith(str(archive))]
    assert len(answers) == len(reports) and all(" stored" in a or "not stored:" in a for a in answers)
    client = app_with(folder).test_client()
    answer = client.post("/v1/validate", data=archive.read_bytes(), content_type="application/x-ndjson")
    assert answer.status_code in (200, 422)
    if answer.status_code == 200:
        assert len(answer.data.splitlines()) == len(reports)
