"""Reliability III (issue 18): budgets, a desk's concurrency, slow clients, one id per match, the access log."""

from __future__ import annotations

import contextlib
import copy
import http.client
import json
import re
import socket
import threading
import time
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

import referee.api.checking
import referee.api.views
from referee.api import create_app
from referee.api.access_log import access_logged, refusals_logged
from referee.api.limits import CheckPool, Limits
from referee.api.store import Store, prepare
from referee.cli.main import main
from tests.builders import guandan, quick_deal
from tests.guandan_gen import match_record
from tests.servers import serving

BASE = guandan([quick_deal([0, 2])], meta={"event": "Open"})
GDY = json.loads((Path(__file__).parent.parent / "samples" / "gandengyan" / "multipliers.json").read_text())
TOKEN = "a-token-of-16-chars-or-more"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def changed(record, edit):
    record = copy.deepcopy(record)
    edit(record)
    return record


def raw_answer(port, data: bytes, timeout: float = 10) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        conn.sendall(data)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    return answer


# ------------------------------------------------------------------ 11. the access log


def test_the_access_log_records_what_waitress_refuses_and_hides_tokens(tmp_path, caplog):
    app = create_app(str(tmp_path / "r.db"), read_only=True)
    app.wsgi_app = access_logged(app.wsgi_app)
    with (
        caplog.at_level("INFO", "referee.api.access"),
        serving(app, max_request_body_size=1000, log_refusal=refusals_logged()) as port,
    ):
        answer = raw_answer(
            port, b"POST /v1/validate?token=s3cret HTTP/1.1\r\nHost: x\r\nContent-Length: 50000000\r\n\r\n{"
        )
        assert answer.startswith(b"HTTP/1.1 413")
        raw_answer(port, b"GET /v1/records?page=1&access_token=s3cret HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    lines = [r.getMessage() for r in caplog.records if r.name == "referee.api.access"]
    assert len(lines) == 2, lines
    assert lines[0].startswith("127.0.0.1 POST /v1/validate?token=*** 413 ")
    assert " GET /v1/records?page=1&access_token=*** 400 " in lines[1]
    assert "s3cret" not in caplog.text


# ------------------------------------------------------------------ 7. one record, one id


def _decimal_scores(record):
    record["cgr"] = 1.0
    record["deals"][0]["result"]["scores"] = [float(score) for score in record["deals"][0]["result"]["scores"]]
    record["result"]["totals"] = [float(total) for total in record["result"]["totals"]]


SAME_GUANDAN = [
    lambda r: r.update(cgr=1.0),
    lambda r: r.update(rules={"preset": "official"}),
    lambda r: r.pop("rules"),
    lambda r: r.update(rules={"preset": "official", "options": {"max_bomb_size": 10, "report_at": 10}}),
    lambda r: r.update(rules={"options": {}}),
]
SAME_GDY = [_decimal_scores, lambda r: r["rules"]["options"].update(decks=1, scoring="zero_sum")]  # pagat's own values


@pytest.mark.parametrize("record, variants", [(BASE, SAME_GUANDAN), (GDY, SAME_GDY)], ids=["guandan", "gandengyan"])
def test_one_match_is_stored_once_and_counted_once_whatever_its_numbers_and_rules(tmp_path, record, variants):
    client = create_app(str(tmp_path / "r.db"), token=TOKEN).test_client()
    answers = [
        client.post("/v1/records", json=changed(record, edit), headers=AUTH) for edit in [lambda r: r, *variants]
    ]
    assert [a.status_code for a in answers] == [201] + [200] * len(variants), [a.get_json() for a in answers]
    assert len({a.get_json()["id"] for a in answers}) == 1
    assert client.get("/v1/records").get_json()["total"] == 1
    assert client.get(f"/v1/events/{record['meta']['event']}/standings").get_json()["records"] == 1


# ------------------------------------------------------------------ 6. slow headers


SLOW_REQUESTS = {  # what a slow client sends first, then one piece of every 0.2 s
    "header lines": (b"GET /v1/records HTTP/1.1\r\nHost: x\r\n", b"X-Slow: 1\r\n"),
    "a body": (
        b"POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n",
        b" ",
    ),
    "a chunked body": (b"POST /v1/validate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", b"1"),
    "blank lines": (b"", b"\r\n"),
}


@pytest.mark.parametrize("sent", SLOW_REQUESTS, ids=list(SLOW_REQUESTS))
def test_clients_trickling_a_request_are_cut_off_so_others_get_in(tmp_path, sent):
    first, piece = SLOW_REQUESTS[sent]
    app = create_app(str(tmp_path / "r.db"), read_only=True)
    with serving(app, connection_limit=10, channel_timeout=2) as port:
        slow = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(8)]
        for conn in slow:
            conn.sendall(first or piece)
        began = time.monotonic()
        waiting = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        answer = []
        asking = threading.Thread(
            target=lambda: waiting.request("GET", "/v1/records") or answer.append(waiting.getresponse().status)
        )
        asking.start()
        while asking.is_alive() and time.monotonic() - began < 8:  # a piece every 0.2 s each
            for conn in slow:
                with contextlib.suppress(OSError):
                    conn.sendall(piece)
            time.sleep(0.2)
        asking.join(10)
        took = time.monotonic() - began
        cut = [_closed(conn) for conn in slow]
        for conn in [*slow, waiting]:
            conn.close()
    assert answer == [200] and took < 6
    assert all(cut), "the slow clients were not cut off"


def test_clients_that_never_read_their_answers_are_cut_off_so_others_get_in(tmp_path):
    """Pipelined requests whose answers pile up unread: each connection's thread blocks writing, until the channel
    timeout passes without the client reading any of it."""
    db = str(tmp_path / "r.db")
    writer = create_app(db, token=TOKEN).test_client()
    big = changed(match_record(5), lambda r: r.update(comment="x" * 400_000))
    record_id = writer.post("/v1/records", data=orjson.dumps(big), headers=AUTH, content_type="application/json")
    record_id = record_id.get_json()["id"]
    app = create_app(db, read_only=True)
    with serving(app, threads=4, channel_timeout=2) as port:
        greedy = []
        for _ in range(6):
            conn = socket.create_connection(("127.0.0.1", port), timeout=10)
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            conn.sendall(b"GET /v1/records/%s HTTP/1.1\r\nHost: x\r\n\r\n" % record_id.encode() * 80)
            greedy.append(conn)
        time.sleep(1)
        began = time.monotonic()
        waiting = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
        waiting.request("GET", "/v1/records")
        status = waiting.getresponse().status
        took = time.monotonic() - began
        for conn in [*greedy, waiting]:
            conn.close()
    assert status == 200 and took < 8


def _closed(conn) -> bool:
    conn.settimeout(2)
    try:
        return conn.recv(1000) == b""
    except TimeoutError:
        return False
    except OSError:  # reset
        return True


# ------------------------------------------------------------------ 5. a desk's concurrency


def served_as_serve_would(monkeypatch, tmp_path, *args):
    """The app and waitress options `referee serve` would start with."""
    calls = []

    class Server:
        def run(self):
            pass

    monkeypatch.setattr(
        "referee.api.server.make_server", lambda app, **options: calls.append((app, options)) or Server()
    )
    result = CliRunner().invoke(main, ["serve", "--no-auth", "--db", str(tmp_path / "r.db"), *args])
    assert result.exit_code == 0, result.output
    app, options = calls[0]
    limits = app.extensions["referee.limits"]
    app.extensions["referee.pool"] = CheckPool(limits.checks, limits.queue)  # in threads: the checks slowed here
    return app, options


def posted_at_once(port, clients: int, body: bytes) -> list[tuple[int, str | None]]:
    """(status, Retry-After) of `clients` POST /v1/validate sent at the same moment."""
    ready, answers = threading.Barrier(clients), []

    def post():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        ready.wait()
        conn.request(
            "POST", "/v1/validate", body=body, headers={"Content-Type": "application/json", "Host": f"127.0.0.1:{port}"}
        )
        answer = conn.getresponse()
        answer.read()
        answers.append((answer.status, answer.getheader("Retry-After")))
        conn.close()

    clients = [threading.Thread(target=post) for _ in range(clients)]
    for client in clients:
        client.start()
    for client in clients:
        client.join(60)
    return answers


def slow_checks(monkeypatch, seconds: float):
    real = referee.api.checking.check_parsed
    monkeypatch.setattr(
        referee.api.checking, "check_parsed", lambda *args, **kw: time.sleep(seconds) or real(*args, **kw)
    )


def test_eight_clients_posting_at_once_are_all_served(monkeypatch, tmp_path):
    app, options = served_as_serve_would(monkeypatch, tmp_path, "--port", "0")
    slow_checks(monkeypatch, 0.2)
    with serving(app, threads=options["threads"]) as port:
        answers = posted_at_once(port, 8, orjson.dumps(BASE))
    assert sorted(status for status, _ in answers) == [200] * 8


def test_only_real_overload_gets_503_with_retry_after(monkeypatch, tmp_path):
    app, options = served_as_serve_would(
        monkeypatch, tmp_path, "--port", "0", "--threads", "6", "--checks", "1", "--check-queue", "1"
    )
    slow_checks(monkeypatch, 1)
    with serving(app, threads=options["threads"]) as port:
        answers = posted_at_once(port, 6, orjson.dumps(BASE))
    served, refused = [a for a in answers if a[0] == 200], [a for a in answers if a[0] != 200]
    assert len(served) >= 2 and refused and set(refused) == {(503, "1")}


# ------------------------------------------------------------------ 4. every request has a budget


def invalid_everywhere(deals: int) -> dict:
    """A match whose claimed levels no rules give: the rule search tries every rule set (about 1 s a deal)."""
    record = match_record(2, max_deals=deals)
    record["result"] = dict(record.get("result", {}), levels=["A", "A"])
    return record


def test_a_rule_search_over_many_records_is_answered_within_the_budget(tmp_path):
    client = create_app(str(tmp_path / "r.db"), limits=Limits(seconds=2)).test_client()
    body = orjson.dumps(invalid_everywhere(4)) + b"\n"
    began = time.monotonic()
    answer = client.post("/v1/validate?infer_rules=true", data=body * 10, content_type="application/x-ndjson")
    took = time.monotonic() - began
    reports = [json.loads(line) for line in answer.data.splitlines()]
    assert answer.status_code == 200 and len(reports) == 10 and took < 3
    assert not reports[-1]["inferred_rules"]["complete"]


def test_checks_beyond_the_budget_are_refused(tmp_path, monkeypatch):
    client = create_app(str(tmp_path / "r.db"), token=TOKEN, limits=Limits(seconds=1)).test_client()
    slow_checks(monkeypatch, 0.3)
    began = time.monotonic()
    refused = client.post("/v1/validate", data=(orjson.dumps(BASE) + b"\n") * 10, content_type="application/x-ndjson")
    assert refused.status_code == 422 and time.monotonic() - began < 2.5
    assert refused.get_json()["findings"][0]["rule"] == "api.limit"
    real_entry = referee.api.checking.entry
    monkeypatch.setattr(referee.api.checking, "entry", lambda *args: time.sleep(0.3) or real_entry(*args))
    lines = b"".join(orjson.dumps(changed(BASE, lambda r, n=n: r.update(comment=str(n)))) + b"\n" for n in range(6))
    stored = client.post("/v1/records", data=lines, headers=AUTH, content_type="application/x-ndjson")
    results = [json.loads(line) for line in stored.data.splitlines()]
    assert [r.get("created") for r in results[:2]] == [True, True] and len(results) == 6
    assert results[-1]["stored"] is False and results[-1]["findings"][0]["rule"] == "api.limit"


def test_the_work_of_a_request_stops_when_its_client_hangs_up(tmp_path):
    app = create_app(str(tmp_path / "r.db"), limits=Limits(checks=1, queue=0, seconds=60))
    body = (orjson.dumps(invalid_everywhere(4)) + b"\n") * 20
    with serving(app) as port:
        gone = socket.create_connection(("127.0.0.1", port), timeout=10)
        gone.sendall(
            b"POST /v1/validate?infer_rules=true HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
        )
        time.sleep(0.5)
        gone.close()
        began, status = time.monotonic(), None
        while status != 200 and time.monotonic() - began < 5:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("POST", "/v1/validate", body=orjson.dumps(BASE), headers={"Content-Type": "application/json"})
            status = conn.getresponse().status
            conn.close()
            time.sleep(0.1)
    assert status == 200 and time.monotonic() - began < 3, "the check slot stayed taken"


def test_standings_are_kept_per_event_so_many_of_them_leave_reads_alone(tmp_path, monkeypatch):
    app = create_app(str(tmp_path / "r.db"), token=TOKEN, limits=Limits(checks=2, queue=4))
    client = app.test_client()
    for n in range(3):
        client.post("/v1/records", json=changed(BASE, lambda r, n=n: r.update(comment=str(n))), headers=AUTH)
    computed = []
    real = referee.api.views.standings
    monkeypatch.setattr(
        referee.api.views, "standings", lambda *args, **kw: computed.append(1) or time.sleep(1) or real(*args, **kw)
    )
    with serving(app, threads=8) as port:
        asked = [threading.Thread(target=get, args=(port, "/v1/events/Open/standings")) for _ in range(16)]
        for thread in asked:
            thread.start()
        time.sleep(0.2)
        began = time.monotonic()
        assert get(port, "/v1/records") == 200
        took = time.monotonic() - began
        for thread in asked:
            thread.join(30)
    assert took < 0.8 and len(computed) <= 2
    assert client.get("/v1/events/Open/standings").get_json()["records"] == 3 and len(computed) <= 2
    client.post("/v1/records", json=changed(BASE, lambda r: r.update(comment="new")), headers=AUTH)
    assert client.get("/v1/events/Open/standings").get_json()["records"] == 4 and len(computed) <= 3


def get(port, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path)
    status = conn.getresponse().status
    conn.close()
    return status


def test_a_rule_search_told_to_stop_lists_no_candidates(monkeypatch):
    import referee.infer

    monkeypatch.setattr(referee.infer, "_candidates", lambda *args: pytest.fail("listed the candidates"))
    found = referee.infer.infer_rules(invalid_everywhere(1), stop=lambda: True)
    assert found == {"valid_under": [], "searched": 0, "complete": False}


def test_standings_read_only_what_they_need_from_the_store(tmp_path):
    store = Store(str(tmp_path / "r.db"))
    record = changed(BASE, lambda r: r.update(start={"levels": ["3", "2"]}))
    entry = prepare(orjson.dumps(record))
    store.put(entry, "desk")
    [(record_id, slim, report)] = store.event("Open")
    assert record_id == entry.id
    assert slim == {
        "game": "guandan",
        "players": list("ABCD"),
        "start": {"levels": ["3", "2"]},
        "meta": record["meta"],
        "deals": len(record["deals"]),
    }
    assert report == {"match": entry.report["match"], "findings": entry.report["findings"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_stored_record_deleted_while_a_batch_that_holds_it_is_checked_is_checked_anew(tmp_path, monkeypatch, lang):
    """A batch's line known as stored, whose record another request deletes (or rules on) before the batch's
    answer is made: no 500; the line is checked and stored again, as a new text."""
    client = create_app(str(tmp_path / "r.db"), token=TOKEN).test_client()
    old = orjson.dumps(BASE)
    first = client.post("/v1/records", data=old, headers=AUTH, content_type="application/json").get_json()
    store = client.application.extensions["referee.store"]
    real = Store.stored_sources

    def deleted_meanwhile(self, hashes):
        known = real(self, hashes)
        store.delete(first["id"])  # another request's DELETE, between the look-up and the answer
        return known

    monkeypatch.setattr(Store, "stored_sources", deleted_meanwhile)
    new = orjson.dumps(changed(BASE, lambda r: r.update(comment="new")))
    answer = client.post(
        f"/v1/records?lang={lang}", data=old + b"\n" + new + b"\n", headers=AUTH, content_type="application/x-ndjson"
    )
    assert answer.status_code == 200
    results = [json.loads(line) for line in answer.data.splitlines()]
    assert [(r["line"], r["created"]) for r in results] == [(1, True), (2, True)]
    assert results[0]["id"] == first["id"] and client.get(f"/v1/records/{first['id']}").status_code == 200


@pytest.mark.parametrize("path, headers", [("/v1/validate", {}), ("/v1/records", AUTH)])
def test_a_line_too_big_to_check_is_named_by_its_line(tmp_path, path, headers):
    """A JSON Lines body whose second record holds an array longer than the server checks: 422, its finding
    naming the line, whether it is validated or stored (and nothing stored)."""
    client = create_app(str(tmp_path / "r.db"), token=TOKEN).test_client()
    big = changed(BASE, lambda r: r["meta"].update({"x-big": list(range(2000))}))
    body = orjson.dumps(BASE) + b"\n" + orjson.dumps(big) + b"\n"
    answer = client.post(path, data=body, headers=headers, content_type="application/x-ndjson")
    assert answer.status_code == 422
    assert answer.get_json()["findings"][0]["message"].startswith("<request>:2: /meta/x-big holds 2000 items")
    assert client.get("/v1/records").get_json()["total"] == 0


def _answers(conn, n: int, timeout: float = 15) -> list[int]:
    """The status lines of the next `n` answers read from a raw connection."""
    conn.settimeout(timeout)
    data, statuses = b"", []
    while len(statuses) < n:
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
        statuses = [int(code) for code in re.findall(rb"HTTP/1\.1 (\d{3}) ", data)]  # a 100 follows a body
    return statuses


def test_a_slow_but_steady_upload_and_a_held_back_continue_are_not_cut_off(tmp_path, monkeypatch):
    """The request deadline gives a second for every kB (Apache's pace is 500 bytes a second), and starts again
    when the server is ready: a client sending 4 kB a second past the channel timeout is answered, and so is
    a pipelined request whose 100 Continue the server holds back while it answers the one before."""
    body = orjson.dumps(changed(BASE, lambda r: r.update(comment="x" * 12_000)))
    head = b"POST /v1/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
    app = create_app(str(tmp_path / "r.db"), read_only=True)
    with serving(app, channel_timeout=2) as port:
        steady = socket.create_connection(("127.0.0.1", port), timeout=10)
        steady.sendall(head % len(body) + b"\r\n")
        for i in range(0, len(body), 2000):  # 4 kB a second: 3 s in all
            steady.sendall(body[i : i + 2000])
            time.sleep(0.5)
        assert _answers(steady, 1) == [200]
        steady.close()
        slow_checks(monkeypatch, 3)
        waiting = socket.create_connection(("127.0.0.1", port), timeout=10)
        waiting.sendall(head % len(body) + b"\r\n" + body + head % len(body) + b"Expect: 100-continue\r\n\r\n")
        assert _answers(waiting, 2) == [200, 100]  # the second's 100 once the first is answered, after 3 s
        waiting.sendall(body)
        assert _answers(waiting, 1) == [200]
        waiting.close()
