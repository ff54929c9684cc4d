"""The record store: records with their reports, findings and per-deal outcomes in one
SQLite file (WAL mode), in tables a person can query with `sqlite-utils` or `sqlite3`.

A record is stored in its canonical form, its numbers and rules written one way, under the
SHA-256 of its compact, key-sorted JSON, so the same record submitted twice is stored once.
A ruling added to a stored record (notation §10) makes a new version of it, stored under its own
id in place of the one before; table `versions` keeps every version, as submitted and after each
ruling, each with its report, written in the transaction that makes it.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sqlite3
import threading
import time
from datetime import UTC, datetime

import orjson

from referee.findings import Finding, Report
from referee.messages import part
from referee.notation import NOT_PLAIN, Plain, duplicate_key_findings, parse_json, plain_read, structure_findings
from referee.replay import check_record
from referee.rulings import Refused, decided

msg, msg_n, word, word_of = part("api")

SUMMARY = "id, game, event, date, players, valid, deals, submitted_by, submitted_at"
# what tells records of one event apart in a listing (issue 35): round, table and the first finding
# (the first error, else the first warning or note)
LISTED = {
    "round": "meta_round",
    "table": "meta_table",
    "first_finding": "(SELECT json_object('severity', severity, 'rule', rule, 'deal', deal, 'action', action) "
    "FROM findings WHERE record_id = records.id ORDER BY severity != 'error', n LIMIT 1)",
}


class Written:
    """What the store writes of a record: its JSON text and the columns of table `records` taken from it. Plain
    classes, this and Entry, not dataclasses: a dataclass compiles its methods as it is made, which cost every
    `store import` some 3 ms of start-up (a tenth of importing a file stored already)."""

    __slots__ = ("date", "deals", "event", "game", "players", "round", "table", "text")

    def __init__(self, text: str, game: str, event, date, players: list, deals: int, round, table) -> None:
        self.text, self.game, self.event, self.date, self.players = text, game, event, date, players
        self.deals, self.round, self.table = deals, round, table

    @classmethod
    def of(cls, record: dict) -> Written:
        meta = record.get("meta", {})
        return cls(
            orjson.dumps(record).decode(),
            record["game"],
            meta.get("event"),
            meta.get("date"),
            record["players"],
            len(record["deals"]),
            _said(meta.get("round")),
            _said(meta.get("table")),
        )


class Entry:
    """A record ready to store: its id, canonical form and report; `source`: the hash of the text it
    was read from (text_hash), by which the same text submitted again is known without a check;
    `checked`: the report made for it (None when it was found stored), to be shown in another language;
    `written`: what the store writes of the record, when the record itself has been left behind (None:
    made from `record` when it is stored)."""

    __slots__ = ("checked", "id", "record", "report", "source", "written")

    def __init__(
        self,
        id: str,
        record: dict | None,
        report: dict,
        source: str | None = None,
        checked: Report | None = None,
        written: Written | None = None,
    ) -> None:
        self.id, self.record, self.report, self.source = id, record, report, source
        self.checked, self.written = checked, written

    def __reduce__(self):
        """As a check's worker process sends it back (api/workers.py): what the store writes of the record in
        place of the record, which the server would otherwise rebuild from its pickle object by object (0.6 ms
        of the server's time for a 12-deal match, issue 36); `checked` stays behind."""
        return Entry, (self.id, None, self.report, self.source, None, self.stored())

    def kept(self) -> Entry:
        """The entry as a worker process sends it back (__reduce__): what `store import` keeps of a record until
        its batch is stored, the parsed record let go as soon as it is checked (as `validate` lets it go), not held
        with the batch's others: the cycle collector then walks a batch of texts, not of parsed records."""
        return Entry(*self.__reduce__()[1])

    def stored(self) -> Written:
        return self.written or Written.of(self.record)


def text_hash(text: str | bytes) -> str:
    """The SHA-256 of a record's text as submitted (UTF-8)."""
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def prepare(text: str | bytes, source: str | None = None) -> Entry | list[Finding]:
    """The entry for one record's JSON text, or the findings that make it no CGR/1 record; `source`:
    the text's hash (text_hash) where the caller has it already."""
    formed = form_of_text(text)
    return formed if isinstance(formed, list) else entry_of(*formed, source or text_hash(text))


def prepare_parsed(
    text: str | bytes, value, stored_report=lambda record_id: None, source: str | None = None
) -> Entry | list[Finding]:
    """The entry for one record's text parsed as `value`, or the findings that make it no CGR/1 record. A
    record already stored (`stored_report(id)` gives its report) is not checked again. `source`: the hash
    of the text (text_hash), which the entry keeps."""
    formed = form_of_parsed(text, value)
    return formed if isinstance(formed, list) else entry_of(*formed, source, stored_report(formed[0]))


Formed = tuple[str, dict, Plain | None]  # a record's id, stored form and that form's plain reading (form_of)


def form_of_text(text: str | bytes) -> Formed | list[Finding]:
    """form_of one record's JSON text, or the findings that make it no CGR/1 record."""
    value = parse_json(text)
    if isinstance(value, Finding):
        return [value]
    return form_of_parsed(text, value)


def form_of_parsed(text: str | bytes, value) -> Formed | list[Finding]:
    """form_of a record's text parsed as `value`, or the findings that make it no CGR/1 record: read as `validate`
    reads it, by the quick reading of plain records, whose colons count its keys for the duplicate-key test."""
    plain = plain_read(value)
    return duplicate_key_findings(text, value, plain.colons) or form_of(value, plain)


def form_of(value, plain: Plain = NOT_PLAIN) -> Formed | list[Finding]:
    """(id, stored form, the form's plain reading or None) of a parsed record (canonical.stored_form), or the
    findings that make it no CGR/1 record. `plain`: the record's own plain reading (notation.plain_read), from
    which the form's is made (canonical.stored_reading); a plain record follows the schema."""
    from referee.canonical import stored_form, stored_reading  # here: a store import of stored texts forms none

    if plain.deals is not None:
        return stored_reading(value, plain)
    return structure_findings(value) or (*stored_form(value), None)


def entry_of(digest: str, form: dict, reading: Plain | None, source: str | None, stored: dict | None = None) -> Entry:
    """The entry of a record's id, stored form and that form's plain reading (None: read in the check), checked
    unless `stored` is its report (stored already); `source`: the hash of the text it was read from (text_hash)."""
    if stored:
        return Entry(digest, form, stored, source)
    checked = rechecked(form) if reading is None else check_record(form, plain=reading)
    return Entry(digest, form, checked.as_dict(), source, checked)


def rechecked(record: dict) -> Report:
    """The report of a stored (canonical) record made again, its findings with their messages' types
    (cards, game words), which the stored JSON keeps only as plain values: to show it in a language.
    Read as `validate` reads a record, by the quick reading of plain records (notation.read_plain),
    which the canonical form always is: a sixth faster than the structure and seat checks apart."""
    return check_record(record)


# The tables, as sqlite-utils first created them (stores made then and now are alike).
_V1_TABLES = """
CREATE TABLE "records" ("id" TEXT PRIMARY KEY, "game" TEXT, "event" TEXT, "date" TEXT, "players" TEXT,
    "valid" INTEGER, "deals" INTEGER, "submitted_by" TEXT, "submitted_at" TEXT, "record" TEXT);
CREATE TABLE "reports" ("record_id" TEXT PRIMARY KEY REFERENCES "records"("id"), "report" TEXT);
CREATE TABLE "findings" ("record_id" TEXT REFERENCES "records"("id"), "n" INTEGER, "severity" TEXT, "rule" TEXT,
    "at" TEXT, "seat" INTEGER, "deal" INTEGER, "action" INTEGER, "message" TEXT, PRIMARY KEY ("record_id", "n"));
CREATE TABLE "deals" ("record_id" TEXT REFERENCES "records"("id"), "deal" INTEGER, "status" TEXT, "outcome" TEXT,
    PRIMARY KEY ("record_id", "deal"));
CREATE TABLE "seats" ("record_id" TEXT REFERENCES "records"("id"), "seat" INTEGER, "player" TEXT,
    PRIMARY KEY ("record_id", "seat"));
CREATE INDEX "idx_records_event" ON "records" ("event");
CREATE INDEX "idx_records_game" ON "records" ("game");
CREATE INDEX "idx_seats_player" ON "seats" ("player");
CREATE INDEX "idx_findings_rule" ON "findings" ("rule");
"""

# The hashes of the texts records were read from, so that a text submitted again is known as stored
# before it is checked (issue 36).
_V2_SOURCES = """
CREATE TABLE "sources" ("hash" TEXT PRIMARY KEY, "record_id" TEXT REFERENCES "records"("id"));
CREATE INDEX "idx_sources_record_id" ON "sources" ("record_id");
"""

# Every version of a record, as submitted and after each ruling (notation §10): `lineage` is the id the
# record was first stored under, `n` counts from 1 (as submitted).
_V3_VERSIONS = """
CREATE TABLE "versions" ("lineage" TEXT, "n" INTEGER, "id" TEXT, "kind" TEXT, "by" TEXT, "made_at" TEXT,
    "record" TEXT, "report" TEXT, PRIMARY KEY ("lineage", "n"));
CREATE INDEX "idx_versions_id" ON "versions" ("id");
INSERT INTO versions SELECT id, 1, id, 'submitted', submitted_by, submitted_at, record, report
    FROM records JOIN reports ON record_id = id
"""

# Each record's meta.round and meta.table as columns of their own, which listings show (issue 35).
_V4_ROUND_AND_TABLE = """
ALTER TABLE records ADD COLUMN meta_round TEXT;
ALTER TABLE records ADD COLUMN meta_table TEXT;
UPDATE records SET meta_round = json_extract(record, '$.meta.round'), meta_table = json_extract(record, '$.meta.table')
"""


def _v5_current_versions_share_their_texts(db: sqlite3.Connection) -> None:
    """From schema version 5 a record's current version (its id in table `records`) holds no texts in `versions`:
    its record and report are those of tables `records` and `reports`, not written a second time (issue 36), and
    are written into its version as a ruling replaces it (Store.add_ruling). A store of version 4 has nothing to
    change (its versions keep their texts); the version keeps a referee that reads a version's texts from
    `versions` alone from opening a store written since."""


# a record's current version, its texts those of its record's rows (schema version 5)
_VERSION_ROW = "INSERT INTO versions (lineage, n, id, kind, by, made_at) VALUES (?, ?, ?, ?, ?, ?)"
# a version's texts, written into it as a ruling replaces it
_VERSION_TEXTS = (
    "UPDATE versions SET record = (SELECT record FROM records WHERE id = ?1), "
    "report = (SELECT report FROM reports WHERE record_id = ?1) WHERE id = ?1 AND record IS NULL"
)
# every version of a lineage with its texts, the current one's from its record's rows
_VERSIONS = (
    "SELECT n, v.id, kind, by, made_at, coalesce(v.record, r.record), coalesce(v.report, p.report) "
    "FROM versions v LEFT JOIN records r ON r.id = v.id LEFT JOIN reports p ON p.record_id = v.id "
    "WHERE lineage = ? ORDER BY n"
)


def _run_script(script: str):
    def step(db: sqlite3.Connection):
        for statement in filter(str.strip, script.split(";")):
            db.execute(statement)

    return step


MIGRATIONS = [
    _run_script(_V1_TABLES),
    _run_script(_V2_SOURCES),
    _run_script(_V3_VERSIONS),
    _run_script(_V4_ROUND_AND_TABLE),
    _v5_current_versions_share_their_texts,
]  # ordered; step i brings the store to version i + 1


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection):
    """One transaction that holds the write lock from its start, so a check then write is atomic."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        if db.in_transaction:  # SQLite has rolled back itself after some errors (a full disk)
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


CHECKPOINT_EVERY, CHECKPOINT_IDLE = 1.0, 5.0  # seconds (Store._checkpoints)
# A record is 10 to 40 KB of JSON: SQLite's default of 4 KB pages writes
# it as a chain of overflow pages, each its own WAL frame and system call; 16 KB take a quarter of them
# (store import: writing the store a fifth cheaper; a single write as quick).
PAGE_SIZE = 16384


class StoreError(Exception):
    """The store cannot answer: `status` is the HTTP status that says why (503 busy or not
    writable, 507 full); `text` the message, to be shown in a language."""

    def __init__(self, text, status: int = 503):
        super().__init__(str(text))
        self.text, self.status = text, status


_BUSY = msg("the store is busy (locked by another writer); try again shortly")
_STATUS = {
    "SQLITE_BUSY": (503, _BUSY),
    "SQLITE_LOCKED": (503, _BUSY),
    "SQLITE_FULL": (507, msg("the store's disk is full")),
    "SQLITE_READONLY": (503, msg("the store cannot be written (a read-only file or folder)")),
}


class Store:
    def __init__(self, path: str, wait: float = 2.0):
        """`wait`: seconds a request waits for another writer's lock before the store says busy."""
        self.path = str(path)
        self.wait = wait
        if os.path.isdir(self.path):
            raise StoreError(msg("the store {path} is a folder, not a SQLite file", path=self.path))
        self._opened = threading.local()
        self._one_writer = threading.Lock()
        self._checkpoint_due = threading.Event()
        self._checkpointer_lock = threading.Lock()
        self._checkpointer: threading.Thread | None = None
        with self.connect() as db:
            db.execute(f"PRAGMA page_size = {PAGE_SIZE}")  # a new store's; an existing one keeps its own
            db.execute("PRAGMA journal_mode = wal")
            self._migrate(db)

    def __reduce__(self):
        """As a check's worker process gets it (api/workers.py): this store, opened once in that process, which
        reads it (Store.report) by a connection of its own rather than asking the server (issue 36). The path
        made absolute: the workers' fork server keeps the folder it was started in."""
        return _opened, (os.path.abspath(self.path), self.wait)

    @contextlib.contextmanager
    def connect(self):
        """This thread's connection to the store, opened at its first use and kept as long as the store:
        opening one (the schema read, the WAL's index mapped) costs a millisecond or more, closing one
        that is the last open may checkpoint the WAL into the file, 10 ms or more, on a request's time."""
        try:
            db = getattr(self._opened, "db", None)
            if db is None:
                db = self._opened.db = sqlite3.connect(self.path, timeout=self.wait, check_same_thread=False)
                db.execute("PRAGMA synchronous = NORMAL")  # under WAL: durable at checkpoints, one fsync fewer a write
                db.execute("PRAGMA wal_autocheckpoint = 0")  # a thread of its own checkpoints (_wrote)
            yield db
        except sqlite3.Error as exc:
            name = getattr(exc, "sqlite_errorname", "")
            status, message = _STATUS.get(name, (503, msg("the store {path} cannot be used", path=self.path)))
            raise StoreError(msg("{problem}: {reason}", problem=message, reason=str(exc)), status) from None

    def close(self):
        """Copy the write-ahead log into the store's file, empty it, and close this thread's connection: the file
        then holds every record by itself (a copy of it made without its -wal file misses none), and the next
        open has no log to read back. Never waits: while another connection reads or writes, the log is copied as
        far as it can be (SQLite's passive checkpoint) and left as it is."""
        db = getattr(self._opened, "db", None)
        if db is None:
            return
        self._opened.db = None
        with contextlib.suppress(sqlite3.Error):
            db.execute("PRAGMA busy_timeout = 0")
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()

    @contextlib.contextmanager
    def _writing(self, db: sqlite3.Connection):
        """A transaction that writes (_transaction). This process's writers take their turns at a lock of
        their own, each as soon as the one before is done: SQLite's wait for its lock sleeps and looks
        again, up to 100 ms between looks, a write's p99 with 4 writers (issue 36)."""
        if not self._one_writer.acquire(timeout=self.wait):
            raise StoreError(_BUSY)
        try:
            db.execute(
                f"PRAGMA busy_timeout = {round(self.wait * 1000)}"
            )  # other processes' writers: the wait as set now
            with _transaction(db):
                yield db
        finally:
            self._one_writer.release()
        self._wrote()

    def _wrote(self):
        """After a write: the WAL's new pages are copied into the file and synced by a thread of the
        store's own, beside the requests, within a second. SQLite's automatic checkpoint did it in the
        write that crossed its 1,000 pages, on that request's time: about every 40th write of a
        12-deal match waited 20 to 50 ms more, a writer's p99 (issue 36)."""
        self._checkpoint_due.set()
        with self._checkpointer_lock:
            if self._checkpointer is None:
                self._checkpointer = threading.Thread(target=self._checkpoints, name="referee-checkpoint", daemon=True)
                self._checkpointer.start()

    def _checkpoints(self):
        """Checkpoint the writes of each second together; end after CHECKPOINT_IDLE seconds without one."""
        db = sqlite3.connect(self.path, check_same_thread=False)
        try:
            while True:
                if not self._checkpoint_due.wait(CHECKPOINT_IDLE):
                    with self._checkpointer_lock:
                        if not self._checkpoint_due.is_set():
                            self._checkpointer = None
                            return
                    continue
                time.sleep(CHECKPOINT_EVERY)
                self._checkpoint_due.clear()
                with contextlib.suppress(sqlite3.Error):  # busy, or the disk full: the next write asks again
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    def _migrate(self, db):
        done = self._version(db)
        if done > len(MIGRATIONS):
            raise StoreError(
                msg(
                    "the store {path} has schema version {done}; this referee knows versions up to "
                    "{known}: use a newer referee",
                    path=self.path,
                    done=done,
                    known=len(MIGRATIONS),
                )
            )
        if done == len(MIGRATIONS):
            return
        with self._writing(db):
            db.execute('CREATE TABLE IF NOT EXISTS "migrations" ("version" INTEGER PRIMARY KEY, "applied_at" TEXT)')
            done = db.execute("SELECT coalesce(max(version), 0) FROM migrations").fetchone()[0]
            for version, step in enumerate(MIGRATIONS[done:], done + 1):
                step(db)
                db.execute("INSERT INTO migrations (version, applied_at) VALUES (?, ?)", [version, _now()])

    def has(self, record_id: str) -> bool:
        with self.connect() as db:
            return db.execute("SELECT 1 FROM records WHERE id = ?", [record_id]).fetchone() is not None

    def version(self) -> int:
        with self.connect() as db:
            return self._version(db)

    @staticmethod
    def _version(db) -> int:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'migrations'").fetchone():
            return 0
        return db.execute("SELECT coalesce(max(version), 0) FROM migrations").fetchone()[0]

    def put(self, entry: Entry, submitted_by: str) -> tuple[dict, bool]:
        """Store an entry with its report in one transaction: (summary, True when newly stored)."""
        return self.put_all([entry], submitted_by)[0]

    def put_all(self, entries: list[Entry], submitted_by: str) -> list[tuple[dict, bool]]:
        """Store entries with their reports in one transaction: (summary, True when newly stored) for
        each, in order; an entry whose id is stored already (or earlier in the list) is stored once.
        Each table's rows of the new entries are written by one statement (executemany)."""
        with self.connect() as db, self._writing(db):
            placed = self._placed(db, entries)
            new = [entry for entry, (_, created) in zip(entries, placed) if created]
            self._insert_all(db, new, submitted_by)
            db.executemany(_VERSION_ROW, [(entry.id, 1, entry.id, "submitted", submitted_by, _now()) for entry in new])
            db.executemany(
                "INSERT OR IGNORE INTO sources (hash, record_id) VALUES (?, ?)",
                [(entry.source, current) for entry, (current, _) in zip(entries, placed) if entry.source],
            )
            summaries = self._summaries_of(db, [current for current, _ in placed])
        return [(summaries[current], created) for current, created in placed]

    def _placed(self, db, entries: list[Entry]) -> list[tuple[str, bool]]:
        """(the id each entry is stored under, True when it is to be stored now): its own, or the latest
        version's of a record since ruled; an id met earlier in the list is stored by the first."""
        ids = list(dict.fromkeys(entry.id for entry in entries))
        versioned, recorded = _among(db, "versions", ids), _among(db, "records", ids)
        currents: dict[str, str] = {}
        placed = []
        for entry in entries:
            if entry.id in currents:
                placed.append((currents[entry.id], False))
                continue
            current = (self._current(db, entry.id) or entry.id) if entry.id in versioned else entry.id
            stored = current in recorded if current == entry.id else self._summary(db, current) is not None
            currents[entry.id] = current
            placed.append((current, not stored))
        return placed

    def stored_sources(self, hashes: list[str]) -> dict[str, dict]:
        """The summaries of the stored records read from texts of these hashes (text_hash), by hash."""
        with self.connect() as db:
            rows = _rows_among(db, "SELECT hash, record_id FROM sources", "hash", hashes)
            summaries = self._summaries_of(db, [record_id for _, record_id in rows])
        return {source: summaries[record_id] for source, record_id in rows}

    def _summaries_of(self, db, ids: list[str]) -> dict[str, dict]:
        unique = list(dict.fromkeys(ids))
        rows = self._summaries(db, f"id IN ({', '.join('?' * len(unique))})", unique) if unique else []
        return {row["id"]: row for row in rows}

    @staticmethod
    def _current(db, record_id: str) -> str | None:
        """The id of the latest version of the record that `record_id` is a version of, or None."""
        row = db.execute("SELECT lineage FROM versions WHERE id = ? ORDER BY n DESC LIMIT 1", [record_id]).fetchone()
        latest = (
            row and db.execute("SELECT id FROM versions WHERE lineage = ? ORDER BY n DESC LIMIT 1", [row[0]]).fetchone()
        )
        return latest[0] if latest else None

    def add_ruling(self, record_id: str, ruling: dict, by: str, sized=None) -> tuple[dict, int, dict] | None:
        """The record with one more ruling (notation §10), stored in one transaction as its next version,
        under its new id, in place of the one before: (summary, version number, report); None when no
        record has this id. Raises rulings.Refused, storing nothing, for a ruling that does not fit; `sized`,
        given the record with the ruling before it is checked, raises what it raises for one too big."""
        with self.connect() as db, self._writing(db):
            row = db.execute(
                "SELECT record, submitted_by, submitted_at FROM records WHERE id = ?", [record_id]
            ).fetchone()
            if row is None:
                return None
            from referee.canonical import stored_form

            record = orjson.loads(row[0])
            if sized is not None:
                sized(dict(record, rulings=[*record.get("rulings", ()), ruling]))
            ruled, report = decided(record, ruling)
            entry = Entry(*stored_form(ruled), report.as_dict())
            if entry.id != record_id and self._summary(db, entry.id):
                raise Refused(msg("the record as ruled is stored already, as {id}", id=entry.id))
            lineage, n = db.execute(
                "SELECT lineage, max(n) FROM versions WHERE lineage = "
                "(SELECT lineage FROM versions WHERE id = ? LIMIT 1)",
                [record_id],
            ).fetchone()
            db.execute(_VERSION_TEXTS, [record_id])
            self._remove(db, record_id)
            self._insert_all(db, [entry], row[1], row[2])
            db.execute("UPDATE sources SET record_id = ? WHERE record_id = ?", [entry.id, record_id])
            db.execute(_VERSION_ROW, [lineage, n + 1, entry.id, "ruling", by, _now()])
            return self._summary(db, entry.id), n + 1, entry.report

    def versions(self, record_id: str) -> list[dict] | None:
        """Every version of the record `record_id` is a version of, the first as submitted, each with its
        report; None when no version has this id."""
        with self.connect() as db:
            row = db.execute("SELECT lineage FROM versions WHERE id = ? LIMIT 1", [record_id]).fetchone()
            if row is None:
                return None
            rows = db.execute(_VERSIONS, [row[0]]).fetchall()
        return [
            {
                "n": n,
                "id": i,
                "kind": kind,
                "by": by,
                "made_at": made_at,
                "rulings": len(orjson.loads(record).get("rulings", ())),
                "report": orjson.loads(report),
            }
            for n, i, kind, by, made_at, record, report in rows
        ]

    @staticmethod
    def _insert_all(db, entries: list[Entry], submitted_by: str, submitted_at: str | None = None) -> None:
        """Store entries in the tables of records, each table's rows by one statement."""
        written = [entry.stored() for entry in entries]
        db.executemany(
            "INSERT INTO records (id, game, event, date, players, valid, deals, submitted_by, submitted_at, "
            "record, meta_round, meta_table) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                _record_row(entry, stored, submitted_by, submitted_at or _now())
                for entry, stored in zip(entries, written)
            ],
        )
        db.executemany(
            "INSERT INTO reports (record_id, report) VALUES (?, ?)",
            [(entry.id, orjson.dumps(entry.report).decode()) for entry in entries],
        )
        db.executemany(
            "INSERT INTO findings (record_id, n, severity, rule, at, seat, deal, action, message) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    entry.id,
                    n,
                    f["severity"],
                    f["rule"],
                    f["at"],
                    f.get("seat"),
                    f.get("deal"),
                    f.get("action"),
                    f["message"],
                )
                for entry in entries
                for n, f in enumerate(entry.report["findings"])
            ],
        )
        db.executemany(
            "INSERT INTO deals (record_id, deal, status, outcome) VALUES (?, ?, ?, ?)",
            [
                (entry.id, d["deal"], d.get("status"), orjson.dumps(d).decode())
                for entry in entries
                for d in entry.report["deals"]
            ],
        )
        db.executemany(
            "INSERT INTO seats (record_id, seat, player) VALUES (?, ?, ?)",
            [
                (entry.id, seat, name)
                for entry, stored in zip(entries, written)
                for seat, name in enumerate(stored.players)
            ],
        )

    def _summary(self, db, record_id: str) -> dict | None:
        rows = self._summaries(db, "id = ?", [record_id])
        return rows[0] if rows else None

    @staticmethod
    def _summaries(db, where: str, params: list, tail: str = "") -> list[dict]:
        listed = ", ".join(f'{column} AS "{name}"' for name, column in LISTED.items())
        rows = db.execute(f"SELECT {SUMMARY}, {listed} FROM records WHERE {where} {tail}", params).fetchall()
        names = SUMMARY.split(", ") + list(LISTED)
        out = []
        for row in rows:
            item = dict(zip(names, row))
            first = item["first_finding"]
            item.update(
                players=orjson.loads(item["players"]),
                valid=bool(item["valid"]),
                first_finding=orjson.loads(first) if first else None,
            )
            out.append(item)
        return out

    def find(self, page=1, per_page=20, **filters):
        """(total, summaries of one page) of the records that pass every filter given."""
        where, params = _where(**filters)
        with self.connect() as db:
            total = db.execute(f"SELECT count(*) FROM records WHERE {where}", params).fetchone()[0]
            rows = self._summaries(
                db, where, params + [per_page, (page - 1) * per_page], "ORDER BY submitted_at, id LIMIT ? OFFSET ?"
            )
        return total, rows

    def texts(self, **filters):
        """The stored JSON text of every record that passes the filters, in the order they were submitted."""
        where, params = _where(**filters)
        with self.connect() as db:
            for (text,) in db.execute(f"SELECT record FROM records WHERE {where} ORDER BY submitted_at, id", params):
                yield text

    def ids_meant(self, record_id: str) -> list[str]:
        """[record_id] when a record has this id, else the ids (two at most) that start with it when it
        is 4 characters at least (a short id, as git takes one)."""
        if self.has(record_id):
            return [record_id]
        return self.ids_starting(record_id.lower()) if len(record_id) >= 4 else []

    def ids_starting(self, prefix: str, limit: int = 2) -> list[str]:
        """Up to `limit` record ids that start with `prefix`, in order (a short id, as git takes one)."""
        with self.connect() as db:
            rows = db.execute(
                "SELECT id FROM records WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
                [prefix, prefix + "\U0010ffff", limit],
            ).fetchall()
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
        sql = {
            "record": "SELECT record FROM records WHERE id = ?",
            "report": "SELECT report FROM reports WHERE record_id = ?",
        }[what]
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
        with only what standings read: the record's game, players, start, meta and rulings, its `deals` as
        their number, the report's match and findings. SQLite picks them out, so the deals are never
        parsed (70 times faster)."""
        with self.connect() as db:
            rows = db.execute(
                "SELECT id, json_object('game', json_extract(record, '$.game'), 'players', "
                "json_extract(record, '$.players'), 'start', json_extract(record, '$.start'), "
                "'meta', json_extract(record, '$.meta'), 'rulings', json_extract(record, '$.rulings'), "
                "'deals', json_array_length(record, '$.deals')), "
                "json_object('match', json_extract(report, '$.match'), 'findings', json_extract(report, '$.findings')) "
                "FROM records JOIN reports ON record_id = id "
                "WHERE event = ? ORDER BY submitted_at, id",
                [event],
            ).fetchall()
        return [(i, _present(record), _present(report)) for i, record, report in rows]

    def entries(self, **filters) -> list[tuple[str, dict, dict]]:
        """(id, record, report) of every record that passes the filters, in the order they were submitted."""
        where, params = _where(**filters)
        with self.connect() as db:
            rows = db.execute(
                "SELECT id, record, report FROM records JOIN reports ON record_id = id "
                f"WHERE {where} ORDER BY submitted_at, id",
                params,
            ).fetchall()
        return [(i, orjson.loads(record), orjson.loads(report)) for i, record, report in rows]

    def delete(self, record_id: str) -> bool:
        """Delete a record, with its report and every version of it; False, deleting nothing, when no record has
        this id (an earlier version's names none)."""
        with self.connect() as db, self._writing(db):
            if not self._remove(db, record_id):
                return False
            db.execute("DELETE FROM versions WHERE lineage IN (SELECT lineage FROM versions WHERE id = ?)", [record_id])
            db.execute("DELETE FROM sources WHERE record_id = ?", [record_id])
            return True

    @staticmethod
    def _remove(db, record_id: str) -> bool:
        """Remove a record from the tables of records (its versions and sources stay)."""
        for table in ("seats", "deals", "findings", "reports"):
            db.execute(f"DELETE FROM {table} WHERE record_id = ?", [record_id])
        return db.execute("DELETE FROM records WHERE id = ?", [record_id]).rowcount > 0


def _record_row(entry: Entry, stored: Written, submitted_by: str, submitted_at: str) -> tuple:
    """The row of table `records` for an entry, from what the store writes of its record."""
    return (
        entry.id,
        stored.game,
        stored.event,
        stored.date,
        orjson.dumps(stored.players).decode(),
        entry.report["valid"],
        stored.deals,
        submitted_by,
        submitted_at,
        stored.text,
        stored.round,
        stored.table,
    )


def _among(db, table: str, ids: list[str]) -> set[str]:
    """Those of `ids` that are ids in `table` (records or versions)."""
    return {row[0] for row in _rows_among(db, f"SELECT id FROM {table}", "id", ids)}


def _rows_among(db, select: str, column: str, values: list) -> list:
    """The rows `select` finds whose `column` is one of `values` (none for no values)."""
    if not values:
        return []
    return db.execute(f"{select} WHERE {column} IN ({', '.join('?' * len(values))})", values).fetchall()


@functools.cache
def _opened(path: str, wait: float) -> Store:
    """This process's Store of the file at `path` (Store.__reduce__)."""
    return Store(path, wait)


def _present(text: str) -> dict:
    """The JSON object without the keys whose value is null (absent where SQLite picked them)."""
    return {key: value for key, value in orjson.loads(text).items() if value is not None}


def _said(value) -> str | None:
    """A meta value as the listing shows it: text as written, a number or anything else as JSON."""
    return None if value is None else value if isinstance(value, str) else orjson.dumps(value).decode()


def _where(game=None, event=None, player=None, date=None, valid=None) -> tuple[str, list]:
    """The SQL condition and its parameters for the filters of a record listing."""
    clauses, params = [], []
    for column, value in (("game", game), ("event", event), ("valid", valid)):
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(value)
    if date is not None:
        clauses.append("date LIKE ? || '%' ESCAPE '\\'")  # "2026-05" finds every day of May
        params.append(date.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_"))
    if player is not None:
        clauses.append("id IN (SELECT record_id FROM seats WHERE player = ?)")
        params.append(player)
    return " AND ".join(clauses) or "1", params


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")
