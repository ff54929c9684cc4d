"""Rulings through the API and the store (notation §10): POST /v1/records/{id}/rulings adds one, every version
of the record is kept with its report (GET /v1/records/{id}/versions), also across a kill -9 of the server."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import orjson
import pytest

from referee.api.store import Store
from tests.test_api import AUTH, client, db  # noqa: F401 (fixtures)

SERVED_TOKEN = "s3cret-token-of-16-or-more"  # `referee serve` takes one of 16 characters at least
SAMPLES = Path(__file__).parent.parent / "samples"
FALSE_LEVEL = json.loads((SAMPLES / "guandan" / "disputed-false-level.json").read_text())
LEVELS_CLAIM = {
    "rule": "guandan.result.levels",
    "at": "/deals/1/result/levels",
    "decision": "claim",
    "by": "Li Wei",
    "reason": "both teams accepted the levels written on the sheet",
}
FINAL_CLAIM = {"rule": "guandan.match.levels", "at": "/result/levels", "decision": "claim", "by": "Zhang Min"}


def stored(client) -> str:
    answer = client.post("/v1/records", data=orjson.dumps(FALSE_LEVEL), headers=AUTH, content_type="application/json")
    assert answer.status_code == 201
    return answer.get_json()["id"]


def rule(client, record_id, ruling, headers=AUTH, **kw):
    return client.post(
        f"/v1/records/{record_id}/rulings",
        data=orjson.dumps(ruling),
        headers=headers,
        content_type="application/json",
        **kw,
    )


def test_a_ruling_makes_the_next_version_under_a_new_id(client):
    first = stored(client)
    answer = rule(client, first, LEVELS_CLAIM)
    body = answer.get_json()
    assert answer.status_code == 201 and body["version"] == 2 and body["id"] != first
    assert body["report"]["rulings"] == 1 and body["report"]["findings"][0]["ruling"] == 0
    assert client.get(f"/v1/records/{first}").status_code == 404  # the record is stored as ruled
    assert client.get(f"/v1/records/{body['id']}").get_json()["rulings"] == [LEVELS_CLAIM]
    second = rule(client, body["id"], FINAL_CLAIM).get_json()
    assert second["version"] == 3 and second["valid"] and second["report"]["rulings"] == 2
    versions = client.get(f"/v1/records/{first}/versions").get_json()["versions"]
    assert [(v["n"], v["kind"], v["by"], v["rulings"], v["report"]["valid"]) for v in versions] == [
        (1, "submitted", "api", 0, False),
        (2, "ruling", "Li Wei", 1, False),
        (3, "ruling", "Zhang Min", 2, True),
    ]
    assert [v["id"] for v in versions] == [first, body["id"], second["id"]]
    assert client.get(f"/v1/records/{second['id']}/versions").get_json()["versions"] == versions
    assert client.get("/v1/records").get_json()["total"] == 1


def test_submitting_an_earlier_version_again_finds_the_record_as_ruled(client):
    first = stored(client)
    ruled = rule(client, first, LEVELS_CLAIM).get_json()["id"]
    again = client.post("/v1/records", data=orjson.dumps(FALSE_LEVEL), headers=AUTH, content_type="application/json")
    assert again.status_code == 200 and again.get_json()["id"] == ruled


@pytest.mark.parametrize(
    "ruling, code, says",
    [
        (dict(LEVELS_CLAIM, decision="stands"), 422, "is not about an action"),
        (dict(LEVELS_CLAIM, at="/deals/0/result/levels"), 422, "decides no error"),
        (dict(LEVELS_CLAIM, decision="overrule"), 422, "overrule"),
        ([1, 2], 400, "not a ruling"),
    ],
)
def test_a_ruling_that_does_not_fit_is_refused_and_nothing_is_stored(client, ruling, code, says):
    first = stored(client)
    answer = rule(client, first, ruling)
    assert answer.status_code == code and says in answer.get_json()["message"]
    assert [v["n"] for v in client.get(f"/v1/records/{first}/versions").get_json()["versions"]] == [1]
    assert client.get(f"/v1/records/{first}").status_code == 200


def test_a_ruling_bigger_than_the_server_checks_is_refused_and_nothing_is_stored(client):
    """A ruling's x- value is held to the limits a record's are (1,000 items), as the record as ruled would be
    refused by every later request."""
    first = stored(client)
    answer = rule(client, first, dict(LEVELS_CLAIM, **{"x-extra": {"a": [1] * 5000}}))
    assert answer.status_code == 422 and answer.get_json()["findings"][0]["rule"] == "api.limit"
    assert "/rulings/0/x-extra/a holds 5000 items" in answer.get_json()["message"]
    assert client.get(f"/v1/records/{first}").status_code == 200  # nothing stored in its place
    assert rule(client, first, dict(LEVELS_CLAIM, **{"x-extra": {"a": [1] * 10}})).status_code == 201


def test_rulings_need_the_token_and_a_record(client):
    first = stored(client)
    assert rule(client, first, LEVELS_CLAIM, headers={}).status_code == 401
    assert rule(client, "0" * 64, LEVELS_CLAIM).status_code == 404
    assert client.get(f"/v1/records/{'0' * 64}/versions").status_code == 404


def test_the_answer_in_chinese(client):
    answer = rule(client, stored(client), dict(LEVELS_CLAIM, decision="stands"), query_string={"lang": "zh"})
    assert answer.status_code == 422 and "裁决被驳回" in answer.get_json()["message"]


def test_standings_count_the_match_as_ruled(client):
    record = dict(FALSE_LEVEL, meta={"event": "Desk Cup", "round": "1", "table": "1"})
    first = client.post(
        "/v1/records", data=orjson.dumps(record), headers=AUTH, content_type="application/json"
    ).get_json()["id"]
    assert client.get("/v1/events/Desk Cup/standings").get_json()["counted"] == 0
    second = rule(client, first, LEVELS_CLAIM).get_json()["id"]
    rule(client, second, FINAL_CLAIM)
    table = client.get("/v1/events/Desk Cup/standings").get_json()
    assert table["counted"] == 1 and [r["by"] for r in table["results"][0]["rulings"]] == ["Li Wei", "Zhang Min"]


def test_deleting_a_record_deletes_its_versions(client, db):
    first = stored(client)
    ruled = rule(client, first, LEVELS_CLAIM).get_json()["id"]
    assert client.delete(f"/v1/records/{ruled}", headers=AUTH).status_code == 204
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM versions").fetchone()[0] == 0


def test_deleting_an_earlier_version_deletes_nothing(client, db):
    """An earlier version's id names no stored record: 404, and the record as ruled keeps every version."""
    first = stored(client)
    ruled = rule(client, first, LEVELS_CLAIM).get_json()["id"]
    assert client.delete(f"/v1/records/{first}", headers=AUTH).status_code == 404
    versions = client.get(f"/v1/records/{ruled}/versions")
    assert versions.status_code == 200 and [v["id"] for v in versions.get_json()["versions"]] == [first, ruled]
    assert rule(client, ruled, FINAL_CLAIM).status_code == 201


def test_a_store_of_version_2_gets_its_records_as_their_first_version(client, db):
    first = stored(client)
    with sqlite3.connect(db) as conn:  # the store as version 2 left it
        conn.execute("DROP TABLE versions")
        conn.execute("ALTER TABLE records DROP COLUMN meta_round")
        conn.execute("ALTER TABLE records DROP COLUMN meta_table")
        conn.execute("DELETE FROM migrations WHERE version >= 3")
    assert Store(db).version() == 5
    assert [(v["n"], v["id"], v["kind"]) for v in Store(db).versions(first)] == [(1, first, "submitted")]


# ---------------------------------------------------------------- kill -9 between two rulings


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def started(db, token_file) -> tuple[subprocess.Popen, int]:
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "referee.cli.main",
            "serve",
            "--db",
            db,
            "--port",
            str(port),
            "--token-file",
            str(token_file),
            "--no-access-log",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=Path(__file__).parent.parent,
    )
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/records", timeout=1).read()
            return server, port
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.05)
    server.kill()
    raise AssertionError("the server did not start")


def call(port, path, body=None) -> tuple[int, dict]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=body and orjson.dumps(body),
        headers={"Authorization": f"Bearer {SERVED_TOKEN}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def killed(server):
    os.kill(server.pid, signal.SIGKILL)
    server.wait(timeout=10)


def test_no_version_is_lost_when_the_server_is_killed_between_two_rulings(tmp_path):
    db, token_file = str(tmp_path / "referee.db"), tmp_path / "token"
    token_file.write_text(SERVED_TOKEN)
    server, port = started(db, token_file)
    try:
        status, body = call(port, "/v1/records", FALSE_LEVEL)
        assert status == 201
        first = body["id"]
        status, body = call(port, f"/v1/records/{first}/rulings", LEVELS_CLAIM)
        assert status == 201
        killed(server)
        server, port = started(db, token_file)
        status, answer = call(port, f"/v1/records/{first}/versions")
        assert status == 200 and [v["n"] for v in answer["versions"]] == [1, 2]
        status, last = call(port, f"/v1/records/{body['id']}/rulings", FINAL_CLAIM)
        assert status == 201 and last["version"] == 3
        killed(server)
        server, port = started(db, token_file)
        status, answer = call(port, f"/v1/records/{first}/versions")
        assert [(v["n"], v["report"]["valid"]) for v in answer["versions"]] == [(1, False), (2, False), (3, True)]
        assert call(port, f"/v1/records/{last['id']}")[1]["rulings"] == [LEVELS_CLAIM, FINAL_CLAIM]
    finally:
        killed(server)
