"""The record store: records with their reports, findings and per-deal outcomes in one
SQLite file (WAL mode), in tables a person can query with `sqlite-utils` or `sqlite3`.

A record is stored in its canonical form, its numbers and rules written one way, under the
SHA-256 of its compact, key-sorted JSON, so the same record submitted twice is stored once.
"""
from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone

import orjson
import sqlite_utils

from referee.canonical import stored_form
from referee.findings import Finding, Report
from referee.messages import part
from referee.notation import duplicate_key_findings, parse_json, seat_findings, structure_findings
from referee.replay import check_record

msg, msg_n, word, word_of = part("api")

SUMMARY = "id, game, event, date, players, valid, deals, submitted_by, submitted_at"


@dataclass
class Entry:
    """A record ready to store: its id, canonical form and report."""
    id: str
    record: dict
    report: dict


def prepare(text: str | bytes) -> Entry | list[Finding]:
    """The entry for one record's JSON text, or the findings that make it no CGR/1 record."""
    value = parse_json(text)
    return [value] if isinstance(value, Finding) else duplicate_key_findings(text, value) or prepare_record(value)


def prepare_record(value, stored_report=lambda record_id: None) -> Entry | list[Finding]:
    """The entry for one parsed record, or the findings that make it no CGR/1 record. A record
    already stored (`stored_report(id)` gives its report) is not checked again."""
    problems = structure_findings(value)
    if problems:
        return problems
    digest, form = stored_form(value)
    return Entry(digest, form, stored_report(digest) or rechecked(form).as_dict())


def rechecked(record: dict) -> Report:
    """The report of a stored (canonical) record made again, its findings with their messages' types
    (cards, game words), which the stored JSON keeps only as plain values: to show it in a language."""
    return check_record(record, seat_problems=seat_findings(record))


def _v1_tables(db: sqlite_utils.Database):
    db["records"].create({"id": str, "game": str, "event": str, "date": str, "players": str, "valid": int,
                          "deals": int, "submitted_by": str, "submitted_at": str, "record": str}, pk="id")
    db["reports"].create({"record_id": str, "report": str}, pk="record_id",
                         foreign_keys=[("record_id", "records", "id")])
    db["findings"].create({"record_id": str, "n": int, "severity": str, "rule": str, "at": str, "seat": int,
                           "deal": int, "action": int, "message": str}, pk=("record_id", "n"),
                          foreign_keys=[("record_id", "records", "id")])
    db["deals"].create({"record_id": str, "deal": int, "status": str, "outcome": str}, pk=("record_id", "deal"),
                       foreign_keys=[("record_id", "records", "id")])
    db["seats"].create({"record_id": str, "seat": int, "player": str}, pk=("record_id", "seat"),
                       foreign_keys=[("record_id", "records", "id")])
    db["records"].create_index(["event"])
    db["records"].create_index(["game"])
    db["seats"].create_index(["player"])
    db["findings"].create_index(["rule"])


MIGRATIONS = [_v1_tables]     # ordered; step i brings the store to version i + 1


@contextlib.contextmanager
def _writing(db: sqlite_utils.Database):
    """One transaction that holds the write lock from its start, so a check then write is atomic."""
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        if db.conn.in_transaction:        # SQLite has rolled back itself after some errors (a full disk)
            db.conn.execute("ROLLBACK")
        raise
    db.conn.execute("COMMIT")


class StoreError(Exception):
    """The store cannot answer: `status` is the HTTP status that says why (503 busy or not
    writable, 507 full); `text` the message, to be shown in a language."""

    def __init__(self, text, status: int = 503):
        super().__init__(str(text))
        self.text, self.status = text, status


_BUSY = msg("the store is busy (locked by another writer); try again shortly")
_STATUS = {"SQLITE_BUSY": (503, _BUSY), "SQLITE_LOCKED": (503, _BUSY),
           "SQLITE_FULL": (507, msg("the store's disk is full")),
           "SQLITE_READONLY": (503, msg("the store cannot be written (a read-only file or folder)"))}


class Store:
    def __init__(self, path: str, wait: float = 2.0):
        """`wait`: seconds a request waits for another writer's lock before the store says busy."""
        self.path = str(path)
        self.wait = wait
        if os.path.isdir(self.path):
            raise StoreError(msg("the store {path} is a folder, not a SQLite file", path=self.path))
        with self.connect() as db:
            db.enable_wal()
            self._migrate(db)

    @contextlib.contextmanager
    def connect(self):
        try:
            db = sqlite_utils.Database(sqlite3.connect(self.path, timeout=self.wait, check_same_thread=False))
            db.execute("PRAGMA synchronous = NORMAL")     # under WAL: durable at checkpoints, one fsync fewer a write
            try:
                yield db
            finally:
                db.close()
        except sqlite3.Error as exc:
            name = getattr(exc, "sqlite_errorname", "")
            status, message = _STATUS.get(name, (503, msg("the store {path} cannot be used", path=self.path)))
            raise StoreError(msg("{problem}: {reason}", problem=message, reason=str(exc)), status) from None

    def _migrate(self, db):
        done = self._version(db)
        if done > len(MIGRATIONS):
            raise StoreError(msg("the store {path} has schema version {done}; this referee knows versions up to "
                                 "{known}: use a newer referee", path=self.path, done=done, known=len(MIGRATIONS)))
        if done == len(MIGRATIONS):
            return
        with _writing(db):
            db["migrations"].create({"version": int, "applied_at": str}, pk="version", if_not_exists=True)
            done = db.execute("SELECT coalesce(max(version), 0) FROM migrations").fetchone()[0]
            for version, step in enumerate(MIGRATIONS[done:], done + 1):
                step(db)
                db["migrations"].insert({"version": version, "applied_at": _now()})

    def has(self, record_id: str) -> bool:
        with self.connect() as db:
            return db.execute("SELECT 1 FROM records WHERE id = ?", [record_id]).fetchone() is not None

    def version(self) -> int:
        with self.connect() as db:
            return self._version(db)

    @staticmethod
    def _version(db) -> int:
        if not db["migrations"].exists():
            return 0
        return db.execute("SELECT coalesce(max(version), 0) FROM migrations").fetchone()[0]

    def put(self, entry: Entry, submitted_by: str) -> tuple[dict, bool]:
        """Store an entry with its report in one transaction: (summary, True when newly stored)."""
        with self.connect() as db, _writing(db):
            found = self._summary(db, entry.id)
            if found:
                return found, False
            self._insert(db, entry, submitted_by)
            return self._summary(db, entry.id), True

    def _insert(self, db, entry: Entry, submitted_by: str):
        record, report = entry.record, entry.report
        meta = record.get("meta", {})
        db["records"].insert({
            "id": entry.id, "game": record["game"], "event": meta.get("event"), "date": meta.get("date"),
            "players": orjson.dumps(record["players"]).decode(), "valid": report["valid"],
            "deals": len(record["deals"]), "submitted_by": submitted_by, "submitted_at": _now(),
            "record": orjson.dumps(record).decode()})
        db["reports"].insert({"record_id": entry.id, "report": orjson.dumps(report).decode()})
        db["findings"].insert_all(
            {"record_id": entry.id, "n": n, "severity": f["severity"], "rule": f["rule"], "at": f["at"],
             "seat": f.get("seat"), "deal": f.get("deal"), "action": f.get("action"), "message": f["message"]}
            for n, f in enumerate(report["findings"]))
        db["deals"].insert_all(
            {"record_id": entry.id, "deal": d["deal"], "status": d.get("status"), "outcome": orjson.dumps(d).decode()}
            for d in report["deals"])
        db["seats"].insert_all({"record_id": entry.id, "seat": s, "player": name}
                               for s, name in enumerate(record["players"]))

    def _summary(self, db, record_id: str) -> dict | None:
        rows = self._summaries(db, "id = ?", [record_id])
        return rows[0] if rows else None

    @staticmethod
    def _summaries(db, where: str, params: list, tail: str = "") -> list[dict]:
        rows = db.execute(f"SELECT {SUMMARY} FROM records WHERE {where} {tail}", params).fetchall()
        names = SUMMARY.split(", ")
        out = []
        for row in rows:
            item = dict(zip(names, row))
            item.update(players=orjson.loads(item["players"]), valid=bool(item["valid"]))
            out.append(item)
        return out

    def find(self, page=1, per_page=20, **filters):
        """(total, summaries of one page) of the records that pass every filter given."""
        where, params = _where(**filters)
        with self.connect() as db:
            total = db.execute(f"SELECT count(*) FROM records WHERE {where}", params).fetchone()[0]
            rows = self._summaries(db, where, params + [per_page, (page - 1) * per_page],
                                   "ORDER BY submitted_at, id LIMIT ? OFFSET ?")
        return total, rows

    def texts(self, **filters):
        """The stored JSON text of every record that passes the filters, in the order they were submitted."""
        where, params = _where(**filters)
        with self.connect() as db:
            for (text,) in db.execute(f"SELECT record FROM records WHERE {where} ORDER BY submitted_at, id", params):
                yield text

    def ids_starting(self, prefix: str, limit: int = 2) -> list[str]:
        """Up to `limit` record ids that start with `prefix`, in order (a short id, as git takes one)."""
        with self.connect() as db:
            rows = db.execute("SELECT id FROM records WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
                              [prefix, prefix + "\U0010ffff", limit]).fetchall()
        return [row[0] for row in rows]

    def report(self, record_id: str) -> dict | None:
        """The stored report of a record, or None when no record has this id."""
        text = self.text(record_id, "report")
        return None if text is None else orjson.loads(text)

    def shown_report(self, record_id: str, lang: str) -> Report | None:
        """A record's report to show in `lang`: in English the stored one; in another language made again
        from the stored record (`rechecked`), or None when no record has this id."""
        if lang == "en":
            text = self.text(record_id, "report")
            return None if text is None else Report.from_dict(orjson.loads(text))
        text = self.text(record_id)
        return None if text is None else rechecked(orjson.loads(text))

    def text(self, record_id: str, what: str = "record") -> str | None:
        """The stored JSON text of a record (`what` = "record") or of its report ("report")."""
        sql = {"record": "SELECT record FROM records WHERE id = ?",
               "report": "SELECT report FROM reports WHERE record_id = ?"}[what]
        with self.connect() as db:
            row = db.execute(sql, [record_id]).fetchone()
        return row[0] if row else None

    def event_ids(self, event: str) -> tuple[str, ...]:
        """The ids of an event's records, in the order `event` gives them."""
        with self.connect() as db:
            rows = db.execute("SELECT id FROM records WHERE event = ? ORDER BY submitted_at, id", [event]).fetchall()
        return tuple(record_id for (record_id,) in rows)

    def event(self, event: str) -> list[tuple[str, dict, dict]]:
        """(id, record, report) of every record of an event, in the order they were submitted, each
        with only what standings read: the record's game, players, start and meta, its `deals` as
        their number, the report's match and findings. SQLite picks them out, so the deals are never
        parsed (70 times faster)."""
        with self.connect() as db:
            rows = db.execute(
                "SELECT id, json_object('game', json_extract(record, '$.game'), 'players', "
                "json_extract(record, '$.players'), 'start', json_extract(record, '$.start'), "
                "'meta', json_extract(record, '$.meta'), 'deals', json_array_length(record, '$.deals')), "
                "json_object('match', json_extract(report, '$.match'), 'findings', json_extract(report, '$.findings')) "
                "FROM records JOIN reports ON record_id = id "
                "WHERE event = ? ORDER BY submitted_at, id", [event]).fetchall()
        return [(i, _present(record), _present(report)) for i, record, report in rows]

    def entries(self, **filters) -> list[tuple[str, dict, dict]]:
        """(id, record, report) of every record that passes the filters, in the order they were submitted."""
        where, params = _where(**filters)
        with self.connect() as db:
            rows = db.execute("SELECT id, record, report FROM records JOIN reports ON record_id = id "
                              f"WHERE {where} ORDER BY submitted_at, id", params).fetchall()
        return [(i, orjson.loads(record), orjson.loads(report)) for i, record, report in rows]

    def delete(self, record_id: str) -> bool:
        with self.connect() as db, _writing(db):
            for table in ("seats", "deals", "findings", "reports"):
                db.execute(f"DELETE FROM {table} WHERE record_id = ?", [record_id])
            return db.execute("DELETE FROM records WHERE id = ?", [record_id]).rowcount > 0


def _present(text: str) -> dict:
    """The JSON object without the keys whose value is null (absent where SQLite picked them)."""
    return {key: value for key, value in orjson.loads(text).items() if value is not None}


def _where(game=None, event=None, player=None, date=None, valid=None) -> tuple[str, list]:
    """The SQL condition and its parameters for the filters of a record listing."""
    clauses, params = [], []
    for column, value in (("game", game), ("event", event), ("valid", valid)):
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(value)
    if date is not None:
        clauses.append("date LIKE ? || '%' ESCAPE '\\'")    # "2026-05" finds every day of May
        params.append(date.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_"))
    if player is not None:
        clauses.append("id IN (SELECT record_id FROM seats WHERE player = ?)")
        params.append(player)
    return " AND ".join(clauses) or "1", params


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")
