"""Checks in worker processes of their own, as `referee serve` runs them (issue 36): the same answers as
checks in threads, a clear 503 when a worker ends, its slot freed when its client hangs up."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import socket
import threading
import time

import orjson
import pytest

from referee.api import create_app
from referee.api.limits import Limits
from tests.guandan_gen import match_record
from tests.servers import serving

TOKEN = "a-token-of-16-chars-or-more"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
RECORDS = [match_record(seed, max_deals=2) for seed in range(3)]
BROKEN = dict(RECORDS[0], players=["A", "B"])  # two players at a table of four


def slow_record(deals: int = 4) -> dict:
    """A match whose claimed levels no rules give: the rule search of ?infer_rules=true tries every rule set."""
    record = match_record(2, max_deals=deals)
    record["result"] = dict(record.get("result", {}), levels=["A", "A"])
    return record


def clients(tmp_path, **limits):
    """A test client of an app checking in threads and one checking in worker processes, each with its store."""
    return [
        create_app(
            str(tmp_path / f"{processes}.db"), token=TOKEN, limits=Limits(**limits), check_processes=processes
        ).test_client()
        for processes in (False, True)
    ]


def workers() -> set[int]:
    """The process ids of the worker processes running."""
    return {child.pid for child in multiprocessing.active_children() if child.name == "referee-check"}


def one_worker_app(tmp_path, **limits):
    """An app checking in one worker process, started by a first check, and that process' id."""
    before = workers()
    app = create_app(str(tmp_path / "r.db"), limits=Limits(checks=1, queue=0, **limits), check_processes=True)
    assert app.test_client().post("/v1/validate", json=RECORDS[0]).status_code == 200
    (worker,) = workers() - before
    return app, worker


def test_the_workers_start_at_the_first_check(tmp_path):
    """Not with the app: one that is sent only records it has stored already never starts them."""
    before = workers()
    app = create_app(str(tmp_path / "r.db"), token=TOKEN, limits=Limits(checks=2), check_processes=True)
    client = app.test_client()
    assert client.get("/v1/records").status_code == 200 and workers() == before
    assert client.post("/v1/records", json=RECORDS[0], headers=AUTH).status_code == 201
    assert len(workers() - before) == 2


def alive(pid: int) -> bool:
    return pid in workers()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_answers_are_the_same_as_from_checks_in_threads(tmp_path, lang):
    lines = b"".join(orjson.dumps(record) + b"\n" for record in [*RECORDS, BROKEN]) + b"{\n"
    answers = []
    for client in clients(tmp_path):
        posts = [
            client.post(f"/v1/validate?lang={lang}", json=RECORDS[0]),
            client.post(f"/v1/validate?lang={lang}", data=lines, content_type="application/x-ndjson"),
            client.post(f"/v1/validate?lang={lang}", data=b"{", content_type="application/json"),
            client.post(f"/v1/records?lang={lang}", json=RECORDS[1], headers=AUTH),
            client.post(f"/v1/records?lang={lang}", json=BROKEN, headers=AUTH),
            client.post(f"/v1/records?lang={lang}", data=lines, headers=AUTH, content_type="application/x-ndjson"),
        ]
        answers.append([(answer.status_code, _without_times(answer.data)) for answer in posts])
    assert answers[0] == answers[1]


def _without_times(data: bytes) -> list:
    lines = [json.loads(line) for line in data.splitlines()]
    return [{key: value for key, value in line.items() if key != "submitted_at"} for line in lines]


def test_a_record_stored_before_is_answered_from_the_store(tmp_path):
    client = clients(tmp_path)[1]
    first = client.post("/v1/records", json=RECORDS[0], headers=AUTH).get_json()
    again = client.post(
        "/v1/records",
        data=orjson.dumps(RECORDS[0], option=orjson.OPT_INDENT_2),
        headers=AUTH,
        content_type="application/json",
    )  # another text: the worker asks the store by the record's id
    assert again.status_code == 200 and again.get_json()["report"] == first["report"]


def test_the_budget_holds_in_a_worker(tmp_path):
    """Ten records whose rule search alone takes seconds each: stopped at the budget, in a worker as in threads
    (the search at half of it, then 200 with the search incomplete, or 422 when the checks ran past it)."""
    for client in clients(tmp_path, seconds=1):
        body = (orjson.dumps(slow_record()) + b"\n") * 10
        began = time.monotonic()
        answer = client.post("/v1/validate?infer_rules=true", data=body, content_type="application/x-ndjson")
        assert time.monotonic() - began < 8
        if answer.status_code == 200:
            assert not json.loads(answer.data.splitlines()[-1])["inferred_rules"]["complete"]
        else:
            assert answer.status_code == 422 and answer.get_json()["findings"][0]["rule"] == "api.limit"


def test_a_worker_that_ends_is_a_503_and_is_replaced(tmp_path):
    app, worker = one_worker_app(tmp_path)
    client = app.test_client()
    killer = threading.Timer(0.5, os.kill, (worker, signal.SIGKILL))
    killer.start()  # 12 deals: a search of about a second on a fast machine, so the worker is killed in the midst of it
    answer = client.post("/v1/validate?infer_rules=true", json=slow_record(deals=12))
    killer.join()
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
    assert "try again" in answer.get_json()["message"]
    assert client.post("/v1/validate", json=RECORDS[0]).status_code == 200
    assert not alive(worker)


def test_a_worker_that_ends_while_idle_is_replaced_before_it_is_given_work(tmp_path):
    app, worker = one_worker_app(tmp_path)
    os.kill(worker, signal.SIGKILL)
    while alive(worker):  # reaped by active_children
        time.sleep(0.01)
    assert app.test_client().post("/v1/validate", json=RECORDS[0]).status_code == 200


def test_a_worker_whose_client_hangs_up_is_ended_and_its_slot_freed(tmp_path):
    app, worker = one_worker_app(tmp_path, seconds=60)
    body = (orjson.dumps(slow_record()) + b"\n") * 20
    with serving(app) as port:
        gone = socket.create_connection(("127.0.0.1", port), timeout=10)
        gone.sendall(
            b"POST /v1/validate?infer_rules=true HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
        )
        time.sleep(2)  # the request in the worker's hands, on a loaded machine too
        gone.close()
        began = time.monotonic()
        while alive(worker) and time.monotonic() - began < 5:
            time.sleep(0.05)
        assert not alive(worker), "the worker went on checking"
        assert app.test_client().post("/v1/validate", json=RECORDS[0]).status_code == 200
