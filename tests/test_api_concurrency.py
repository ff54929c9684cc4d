"""Several clients submitting and reading at once through a real server (waitress, loopback)."""

from __future__ import annotations

import http.client
import json
import random
import sqlite3
import threading
from collections import Counter

import orjson

from referee.api import create_app
from referee.api.limits import Limits
from tests.guandan_gen import match_record
from tests.servers import serving

CLIENTS, RECORDS = 8, 6


def client_session(port, bodies, seed, results):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    order = list(range(len(bodies)))
    random.Random(seed).shuffle(order)
    for n in order:
        connection.request("POST", "/v1/records", body=bodies[n], headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        body = json.loads(response.read())
        results.append((n, response.status, body.get("id")))
        connection.request("GET", f"/v1/records/{body.get('id')}/report")
        report = connection.getresponse()
        results.append((n, report.status, json.loads(report.read()).get("valid")))
        connection.request("GET", "/v1/records?per_page=100")
        listing = connection.getresponse()
        results.append((n, listing.status, len(json.loads(listing.read())["items"])))
    connection.close()


def test_concurrent_submissions_store_every_record_exactly_once(tmp_path):
    db = str(tmp_path / "referee.db")
    bodies = [orjson.dumps(match_record(seed, max_deals=2)) for seed in range(RECORDS)]
    sessions = [[] for _ in range(CLIENTS)]
    with serving(create_app(db, limits=Limits(queue=CLIENTS)), threads=CLIENTS) as port:
        threads = [
            threading.Thread(target=client_session, args=(port, bodies, seed, sessions[seed]))
            for seed in range(CLIENTS)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    results = [result for session in sessions for result in session]
    submissions = [result for session in sessions for result in session[0::3]]
    assert len(submissions) == CLIENTS * RECORDS
    assert Counter(status for _, status, _ in results) == {201: RECORDS, 200: len(results) - RECORDS}
    ids = {n: {record_id for m, _, record_id in submissions if m == n} for n in range(RECORDS)}
    assert all(len(found) == 1 for found in ids.values())
    created = Counter(n for n, status, _ in submissions if status == 201)
    assert created == Counter(range(RECORDS))
    with sqlite3.connect(db) as conn:
        count = {
            table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("records", "reports", "seats")
        }
    assert count == {"records": RECORDS, "reports": RECORDS, "seats": 4 * RECORDS}
