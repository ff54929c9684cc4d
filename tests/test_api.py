"""The REST API (flask test client), the record store and the `serve` / `store import` commands."""

from __future__ import annotations

import gc
import importlib
import json
import sqlite3
import urllib.parse

import orjson
import pytest
from click.testing import CliRunner

from referee.api import create_app
from referee.api.schemas import ErrorSchema
from referee.api.store import Entry, Store, prepare
from referee.cli.main import main
from referee.standings import standings
from tests.gandengyan_gen import match_record as gdy_record
from tests.gouji_gen import match_record as gouji_record
from tests.guandan_gen import match_record

TOKEN = "s3cret"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
GOUJI = {
    "cgr": 1,
    "game": "gouji",
    "meta": {"event": "Open"},
    "players": list("ABCDEF"),
    "deals": [{"hands": [["AS"]] * 6, "actions": []}],
}  # hands of one card: not replayable


def guandan(seed: int, event: str = "Open", date: str = "2026-05-01") -> dict:
    record = match_record(seed, max_deals=2)
    record["meta"] = {"event": event, "date": date}
    return record


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "referee.db")


@pytest.fixture
def client(db):
    return create_app(db, token=TOKEN).test_client()


def post(client, record, headers=AUTH):
    return client.post("/v1/records", data=orjson.dumps(record), headers=headers, content_type="application/json")


def assert_error(response, code: int) -> dict:
    body = response.get_json()
    assert response.status_code == code, body
    assert ErrorSchema().validate(body) == {}
    assert body["code"] == code
    return body


# ---------------------------------------------------------------- POST /validate


def test_validate_gives_the_report_of_referee_validate_json(client, tmp_path):
    path = tmp_path / "m.json"
    path.write_bytes(orjson.dumps(guandan(1)))
    cli = json.loads(CliRunner().invoke(main, ["validate", "--json", str(path)]).stdout)
    response = client.post("/v1/validate", data=path.read_bytes(), content_type="application/json")
    assert response.status_code == 200
    assert response.get_json() == dict(cli, source="<request>")
    assert client.get("/v1/records").get_json()["total"] == 0


def test_validate_json_lines_gives_one_report_per_line(client):
    body = orjson.dumps(guandan(1)) + b"\n" + orjson.dumps(GOUJI) + b"\n{oops\n"
    response = client.post("/v1/validate", data=body, content_type="application/x-ndjson")
    assert response.mimetype == "application/x-ndjson"
    reports = [json.loads(line) for line in response.data.splitlines()]
    assert [r["valid"] for r in reports] == [True, False, False]
    assert [r["source"] for r in reports] == ["<request>:1", "<request>:2", "<request>:3"]


def test_validate_reports_a_record_that_breaks_the_structure(client):
    response = client.post("/v1/validate", json={"cgr": 1})
    assert response.status_code == 200
    assert {f["rule"] for f in response.get_json()["findings"]} == {"notation.key.missing"}


@pytest.mark.parametrize(
    "body, rule", [(b"{not json", "notation.json"), (b"", "notation.json"), (b"\xff\xfe", "notation.encoding")]
)
def test_validate_rejects_a_malformed_body_with_findings(client, body, rule):
    error = assert_error(client.post("/v1/validate", data=body, content_type="application/json"), 400)
    assert error["findings"][0]["rule"] == rule


def test_bodies_above_the_limit_get_413(db):
    small = create_app(db, token=TOKEN, max_body=1000).test_client()
    body = orjson.dumps(guandan(1))
    assert_error(small.post("/v1/validate", data=body, content_type="application/json"), 413)
    assert_error(small.post("/v1/records", data=body, headers=AUTH, content_type="application/json"), 413)


# ---------------------------------------------------------------- POST /records


def test_a_record_is_stored_once_under_its_content_hash(client):
    first = post(client, guandan(1), headers=dict(AUTH, **{"X-Submitter": "desk 3"}))
    assert first.status_code == 201
    stored = first.get_json()
    assert stored["created"] and stored["submitted_by"] == "desk 3" and stored["submitted_at"]
    assert stored["report"]["valid"] and len(stored["id"]) == 64
    again = post(client, guandan(1), headers=dict(AUTH, **{"X-Submitter": "someone else"}))
    assert again.status_code == 200
    assert again.get_json()["id"] == stored["id"] and not again.get_json()["created"]
    assert again.get_json()["submitted_by"] == "desk 3"
    assert client.get("/v1/records").get_json()["total"] == 1


def test_a_repeat_submission_is_answered_from_the_store_unchecked(client, monkeypatch):
    first = post(client, guandan(1)).get_json()
    checks = []
    monkeypatch.setattr("referee.api.store.check_record", lambda record, **options: checks.append(record))
    again = post(client, guandan(1))
    assert again.status_code == 200 and checks == []
    assert again.get_json()["report"] == first["report"]
    decimal = guandan(1)
    decimal["deals"][0]["actions"][0]["seat"] = float(decimal["deals"][0]["actions"][0]["seat"])  # 0.0 is 0
    assert post(client, decimal).get_json()["id"] == first["id"] and checks == []


def test_a_new_record_is_read_and_replayed_once_and_its_repeat_not_replayed(client, monkeypatch):
    from referee import guandan as game

    calls = []

    def counted(name, real):
        return lambda *args: calls.append(name) or real(*args)

    monkeypatch.setattr(game, "new_match", counted("replay", game.new_match))
    for module, checks in (
        ("referee.api.store", ("structure_findings",)),
        ("referee.replay", ("structure_findings", "seat_findings")),
    ):
        for check in checks:
            monkeypatch.setattr(f"{module}.{check}", counted(check, getattr(importlib.import_module(module), check)))
    assert post(client, guandan(3)).status_code == 201
    assert calls == ["replay"]  # read as validate reads it (plain), its canonical form's reading made from that
    assert post(client, guandan(3)).status_code == 200
    assert calls.count("replay") == 1


def test_aliases_and_key_order_do_not_change_the_id(client):
    record = guandan(2)
    aliased = {key: record[key] for key in reversed(list(record))}
    aliased["deals"] = [dict(d, hands=[[c.lower() for c in h] for h in d["hands"]]) for d in record["deals"]]
    assert post(client, record).get_json()["id"] == post(client, aliased).get_json()["id"]


def test_an_invalid_record_is_stored_with_its_findings(client, db):
    record = guandan(3)
    record["result"]["levels"] = ["A", "A"]
    body = post(client, record).get_json()
    assert body["created"] and not body["valid"]
    with sqlite3.connect(db) as conn:
        rules = [r for (r,) in conn.execute("SELECT rule FROM findings WHERE record_id = ?", [body["id"]])]
    assert "guandan.match.levels" in rules


@pytest.mark.parametrize(
    "headers, code", [({}, 401), ({"Authorization": "Bearer wrong"}, 401), ({"Authorization": f"Basic {TOKEN}"}, 401)]
)
def test_writes_need_the_token(client, headers, code):
    assert_error(post(client, guandan(1), headers=headers), code)
    response = post(client, guandan(1))
    assert_error(client.delete(f"/v1/records/{response.get_json()['id']}", headers=headers), code)
    assert client.get("/v1/records").get_json()["total"] == 1


def test_a_read_only_server_refuses_writes_and_serves_reads(db):
    client = create_app(db, read_only=True).test_client()
    assert_error(post(client, guandan(1)), 403)
    assert client.get("/v1/records").status_code == 200
    assert client.post("/v1/validate", data=orjson.dumps(guandan(1))).status_code == 200


@pytest.mark.parametrize(
    "body, rule",
    [(b"{bad", "notation.json"), (b'{"cgr": 1}', "notation.key.missing"), (b"[1, 2]", "notation.structure")],
)
def test_a_body_that_is_no_record_is_not_stored(client, body, rule):
    error = assert_error(client.post("/v1/records", data=body, headers=AUTH, content_type="application/json"), 400)
    assert rule in {f["rule"] for f in error["findings"]}
    assert client.get("/v1/records").get_json()["total"] == 0


# ---------------------------------------------------------------- GET /records


def test_list_filters_and_pages(client):
    ids = [post(client, guandan(seed, date=f"2026-05-0{seed}")).get_json()["id"] for seed in (1, 2, 3)]
    post(client, dict(guandan(4, event="Other"), players=["Ann", "Bo", "Zed", "Di"]))
    gouji = post(client, GOUJI).get_json()["id"]

    def found(query):
        return [item["id"] for item in client.get(f"/v1/records?{query}").get_json()["items"]]

    assert found("event=Open&game=guandan") == ids
    assert found("date=2026-05-02") == ids[1:2]
    assert found("date=2026-05&event=Open&valid=true") == ids
    assert found("valid=false") == [gouji]
    assert len(found("player=Zed")) == 1 and len(found("player=Cy")) == 3
    page = client.get("/v1/records?per_page=2&page=2").get_json()
    assert page["total"] == 5 and page["page"] == 2 and len(page["items"]) == 2


@pytest.mark.parametrize(
    "query", ["page=0", "per_page=1000", "valid=perhaps", "page=x", "page=1_0", "page=%D9%A3", "per_page=%EF%BC%95"]
)
def test_bad_query_parameters_get_400(client, query):
    error = assert_error(client.get(f"/v1/records?{query}"), 400)
    assert error["findings"][0]["rule"] == "api.query"


def test_a_stored_record_and_its_report(client):
    record = guandan(1)
    record["deals"][0]["hands"][0] = [c.lower() for c in record["deals"][0]["hands"][0]]
    submitted = post(client, record).get_json()
    stored = client.get(f"/v1/records/{submitted['id']}").get_json()
    assert all(card == card.upper() for card in stored["deals"][0]["hands"][0])  # canonical form
    assert prepare(orjson.dumps(stored)).id == submitted["id"]
    assert client.get(f"/v1/records/{submitted['id']}/report").get_json() == submitted["report"]


@pytest.mark.parametrize(
    "path", ["/v1/records/nope", "/v1/records/nope/report", "/v1/records/nope/deals/0/steps/0", "/v1/nowhere"]
)
def test_unknown_ids_and_paths_get_404(client, path):
    assert_error(client.get(path), 404)


def test_a_wrong_method_gets_the_error_shape(client):
    assert_error(client.put("/v1/validate"), 405)


# ---------------------------------------------------------------- steps


def test_steps_show_the_table_as_referee_replay_does(client, tmp_path):
    record = guandan(5)
    record_id = post(client, record).get_json()["id"]
    path = tmp_path / "r.json"
    path.write_bytes(orjson.dumps(client.get(f"/v1/records/{record_id}").get_json()))
    for step in (0, 1, 7, -1, -2):
        cli = CliRunner().invoke(main, ["replay", str(path), "--deal", "2", "--step", str(step), "--json"])
        api = client.get(f"/v1/records/{record_id}/deals/1/steps/{step}")  # the API's deal 1 is the second
        assert api.status_code == 200 and api.get_json() == json.loads(cli.output)
    assert client.get(f"/v1/records/{record_id}/deals/0/steps/0").get_json()["action"] is None


def test_steps_show_the_rejected_action_as_referee_replay_does(client):
    from pathlib import Path

    disputed = Path(__file__).parent.parent / "samples" / "guandan" / "disputed-illegal-follow.json"
    record_id = post(client, json.loads(disputed.read_text())).get_json()["id"]
    step = client.get(f"/v1/records/{record_id}/deals/0/steps/25").get_json()
    cli = CliRunner().invoke(main, ["replay", str(disputed), "--action", "25", "--json"])  # action index 24
    assert step == json.loads(cli.output) and step["rejected"] and step["findings"][0]["action"] == 24


def test_steps_beyond_the_record_get_404_and_unplayable_deals_422(client):
    record_id = post(client, guandan(5)).get_json()["id"]
    assert "2 deal" in assert_error(client.get(f"/v1/records/{record_id}/deals/2/steps/0"), 404)["message"]
    assert "at most" in assert_error(client.get(f"/v1/records/{record_id}/deals/0/steps/9999"), 404)["message"]
    assert "at most" in assert_error(client.get(f"/v1/records/{record_id}/deals/0/steps/-9999"), 404)["message"]
    gouji = post(client, GOUJI).get_json()["id"]
    error = assert_error(client.get(f"/v1/records/{gouji}/deals/0/steps/0"), 422)
    assert error["findings"][0]["rule"] == "gouji.deal.hand_size"


# ---------------------------------------------------------------- standings


def test_standings_count_wins_and_list_invalid_records_apart(client):
    won = match_record(0, max_deals=30)  # a whole match: one team passes A
    won["meta"] = {"event": "Open"}
    assert won["result"].get("winner") is not None
    broken = guandan(3)
    broken["result"]["levels"] = ["A", "A"]
    gdy = dict(gdy_record(1), meta={"event": "Open"})
    for record in (guandan(1), won, broken, GOUJI, gdy):
        post(client, record)
    body = client.get("/v1/events/Open/standings").get_json()
    assert body["records"] == 5 and body["matches"] == 5 and body["counted"] == 3
    reasons = {item["game"]: item["reason"] for item in body["invalid"]}
    assert "guandan.match.levels" in reasons["guandan"] and "gouji.deal.hand_size" in reasons["gouji"]
    guandan_rows = {row["entrant"]: row for row in body["standings"] if row["game"] == "guandan"}
    assert set(guandan_rows) == {"Ann & Cy", "Bo & Di"}
    assert all(row["played"] == 2 for row in guandan_rows.values())
    champions = ["Ann & Cy", "Bo & Di"][won["result"]["winner"]]
    assert guandan_rows[champions]["won"] >= 1
    points = {row["entrant"]: row["margin"] for row in body["standings"] if row["game"] == "gandengyan"}
    totals = client.post("/v1/validate", data=orjson.dumps(gdy)).get_json()["match"]["totals"]
    assert points == dict(zip(gdy["players"], totals))


def test_team_margins_are_the_match_totals_and_reports_without_totals_are_not_counted():
    gouji = dict(GOUJI, start={"totals": [10, -10]})
    entries = [
        ("g", gouji, {"findings": [], "match": {"totals": [40, -40]}}),
        ("d", dict(gdy_record(1), meta={"event": "Open"}), {"findings": [], "deals": [], "match": None}),
    ]
    body = standings(entries, "Open")
    assert [(row["entrant"], row["margin"], row["won"]) for row in body["standings"]] == [
        ("A & C & E", 40, 1),
        ("B & D & F", -40, 0),
    ]
    assert [(item["id"], item["reason"]) for item in body["not_counted"]] == [("d", "its result could not be computed")]


def test_gouji_team_points_come_from_a_real_record(client):
    record = dict(
        gouji_record(7, deals=2, start={"previous_order": [0, 1, 2, 3, 4, 5], "totals": [6, -6]}),
        meta={"event": "Gou Ji Cup"},
    )
    report = client.post("/v1/validate", data=orjson.dumps(record)).get_json()
    assert report["valid"] and report["match"]["totals"] == record["result"]["totals"]
    post(client, record)
    body = client.get("/v1/events/Gou Ji Cup/standings").get_json()
    margins = {row["entrant"]: row["margin"] for row in body["standings"]}
    totals = record["result"]["totals"]
    assert margins == {"Ann & Cy & Ed": totals[0], "Bo & Di & Flo": totals[1]} and body["counted"] == 1
    record_id = post(client, dict(record, meta={"event": "steps"})).get_json()["id"]
    table = client.get(f"/v1/records/{record_id}/deals/1/steps/0").get_json()["table"]
    assert table["mode"] == "tribute" and len(table["hands"]) == 6 and table["owed"]


@pytest.mark.parametrize("event", ["/lead", "a//b", "x/", "Open/2026", "//"])
def test_an_events_name_may_hold_slashes_anywhere(client, event):
    """Written %2F in the path: the event's own standings and page, never another event's (a leading "/" was
    redirected to the name without it)."""
    post(client, dict(GOUJI, meta={"event": event}))
    redirected_to = event.lstrip("/") if event.startswith("/") and event.strip("/") else "other"
    post(client, dict(GOUJI, meta={"event": redirected_to}, players=list("UVWXYZ")))
    named = urllib.parse.quote(event, safe="")
    body = client.get(f"/v1/events/{named}/standings").get_json()
    assert body["event"] == event and body["counted"] + len(body.get("invalid", [])) == 1
    assert client.get(f"/view/events/{named}").status_code == 200


def test_standings_of_an_event_without_records_are_404(client):
    assert (
        assert_error(client.get("/v1/events/Nobody/standings"), 404)["message"]
        == "no stored record belongs to this event"
    )


# ---------------------------------------------------------------- DELETE


def test_delete_removes_the_record_from_every_table(client, db):
    record_id = post(client, guandan(1)).get_json()["id"]
    assert client.delete(f"/v1/records/{record_id}", headers=AUTH).status_code == 204
    assert_error(client.delete(f"/v1/records/{record_id}", headers=AUTH), 404)
    assert_error(client.get(f"/v1/records/{record_id}"), 404)
    with sqlite3.connect(db) as conn:
        for table in ("reports", "findings", "deals", "seats"):
            assert conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0
    assert post(client, guandan(1)).status_code == 201


# ---------------------------------------------------------------- the store


def test_a_version_1_store_gains_round_and_table_for_its_listing(db):
    """Issue 35: the listing tells records apart by round, table and first finding; a store made
    before keeps its records and has them filled in."""
    from pathlib import Path

    from referee.api.store import _V1_TABLES, MIGRATIONS, prepare

    record = json.loads((Path(__file__).parent.parent / "samples/guandan/disputed-illegal-follow.json").read_text())
    entry = prepare(json.dumps(record))
    with sqlite3.connect(db) as old:  # a store as version 1 made it
        old.executescript(_V1_TABLES)
        old.execute('CREATE TABLE "migrations" ("version" INTEGER PRIMARY KEY, "applied_at" TEXT)')
        old.execute("INSERT INTO migrations VALUES (1, '2026-01-01')")
        old.execute(
            "INSERT INTO records VALUES (?, 'guandan', 'E', NULL, '[]', 0, 1, 'x', 't', ?)",
            [entry.id, json.dumps(entry.record)],
        )
        old.execute("INSERT INTO reports VALUES (?, '{}')", [entry.id])
        old.execute("INSERT INTO findings VALUES (?, 0, 'error', 'guandan.follow', '/', 0, 0, 24, 'm')", [entry.id])
    store = Store(db)
    assert store.version() == len(MIGRATIONS) == 5
    _, [item] = store.find()
    assert (item["round"], item["table"]) == ("1", "11")
    assert item["first_finding"] == {"severity": "error", "rule": "guandan.follow", "deal": 0, "action": 24}


def test_the_store_is_migrated_in_wal_mode(db):
    store = Store(db)
    assert store.version() == 5 and Store(db).version() == 5
    with store.connect() as opened:
        assert opened.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert {"records", "reports", "findings", "deals", "seats", "sources", "migrations"} <= {
            name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }


def test_a_failed_write_leaves_neither_record_nor_report(db):
    store = Store(db)
    entry = prepare(orjson.dumps(guandan(1)))
    broken = Entry(entry.id, entry.record, dict(entry.report, findings=[{"severity": "error"}]))
    with pytest.raises(KeyError):
        store.put(broken, "test")  # fails after the record and report rows were written
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM records").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM reports").fetchone()[0] == 0
    assert store.put(entry, "test")[1]


def test_store_import_loads_files_into_the_same_store(db, tmp_path, client):
    lines = tmp_path / "many.jsonl"
    lines.write_bytes(orjson.dumps(guandan(1)) + b"\n" + orjson.dumps(guandan(2)) + b"\n{oops\n")
    result = CliRunner().invoke(main, ["store", "import", "--db", db, "--submitter", "scorer", str(lines)])
    assert result.exit_code == 2
    assert result.output.count(" stored\n") == 2 and "many.jsonl:3: not stored: notation.json" in result.output
    items = client.get("/v1/records").get_json()["items"]
    assert [item["submitted_by"] for item in items] == ["scorer", "scorer"]
    again = CliRunner().invoke(main, ["store", "import", "--db", db, str(lines)])
    assert again.output.count("already stored") == 2


# ---------------------------------------------------------------- referee serve


@pytest.fixture
def served(monkeypatch):
    """The arguments `referee serve` would start waitress with."""
    calls = []

    class Server:
        def run(self):
            pass

    monkeypatch.setattr("referee.api.server.make_server", lambda app, **kwargs: calls.append((app, kwargs)) or Server())
    monkeypatch.delenv("REFEREE_API_TOKEN", raising=False)
    return calls


@pytest.mark.parametrize(
    "args, message", [([], "writes need a token"), (["--no-auth", "--host", "0.0.0.0"], "loopback only")]
)
def test_serve_refuses_unguarded_writes(served, db, args, message):
    result = CliRunner().invoke(main, ["serve", "--db", db, *args])
    assert result.exit_code == 2 and message in result.output and not served


@pytest.mark.parametrize("args, access", [(["--read-only"], "read-only"), (["--no-auth"], "open")])
def test_serve_starts_read_only_or_open_on_loopback(served, db, args, access):
    result = CliRunner().invoke(main, ["serve", "--db", db, "--port", "8123", *args])
    assert result.exit_code == 0 and f"writes: {access}" in result.output
    assert callable(served[0][1].pop("log_refusal"))
    assert served[0][1] == {
        "host": "127.0.0.1",
        "port": 8123,
        "threads": 16,
        "ident": "referee",
        "connection_limit": 100,
        "channel_timeout": 10,
        "max_request_body_size": 10 * 1024 * 1024,
    }


def test_serve_keeps_what_it_loaded_out_of_the_garbage_collectors_walks(monkeypatch, db):
    frozen = []

    class Server:
        def run(self):
            frozen.append(gc.get_freeze_count())

    monkeypatch.setattr("referee.api.server.make_server", lambda app, **kwargs: Server())
    assert CliRunner().invoke(main, ["serve", "--db", db, "--read-only"]).exit_code == 0
    assert frozen[0] > 10_000  # flask, the schemas, the game modules ...: the ~50 ms full collections of p99
    assert gc.get_freeze_count() == 0


def test_serve_takes_the_token_from_a_file_or_the_environment(served, db, tmp_path, monkeypatch):
    token_file = tmp_path / "token"
    token_file.write_text("from-file-0123456789\n")
    CliRunner().invoke(main, ["serve", "--db", db, "--token-file", str(token_file)])
    monkeypatch.setenv("REFEREE_API_TOKEN", "from-env-0123456789")
    CliRunner().invoke(main, ["serve", "--db", db])
    assert [app.config["REFEREE_TOKEN"] for app, _ in served] == ["from-file-0123456789", "from-env-0123456789"]


def test_a_json_lines_body_sent_again_is_answered_from_the_store_by_its_texts(client, monkeypatch):
    """Issue 36: the new records of a body stored in one transaction; the same texts again found by
    their hashes, unchecked, with the same results."""
    body = b"".join(orjson.dumps(guandan(seed)) + b"\n" for seed in (11, 12, 13))
    first = client.post("/v1/records", data=body, headers=AUTH, content_type="application/x-ndjson")
    results = [orjson.loads(line) for line in first.data.splitlines()]
    assert [r["created"] for r in results] == [True] * 3 and [r["line"] for r in results] == [1, 2, 3]
    checks = []
    monkeypatch.setattr("referee.api.store.check_record", lambda record, **options: checks.append(record))
    monkeypatch.setattr("referee.api.store.structure_findings", lambda record: checks.append(record))
    again = client.post("/v1/records", data=body, headers=AUTH, content_type="application/x-ndjson")
    repeated = [orjson.loads(line) for line in again.data.splitlines()]
    assert checks == [] and [r["created"] for r in repeated] == [False] * 3
    assert [dict(r, created=True, submitted_at=None) for r in repeated] == [dict(r, submitted_at=None) for r in results]
