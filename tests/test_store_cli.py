"""`referee store`: list, show, report, export, delete and standings over a store that import filled."""

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import main

SAMPLES = Path(__file__).parent.parent / "samples"
VALID = str(SAMPLES / "guandan" / "match-won-at-a.json")
DISPUTED = str(SAMPLES / "guandan" / "disputed-illegal-follow.json")
GDY = str(SAMPLES / "gandengyan" / "pagat-5-players.json")


def run(*args, stdin=None):
    return CliRunner().invoke(main, list(args), input=stdin)


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "store.db")
    result = run("store", "import", "--db", path, VALID, DISPUTED, GDY)
    assert result.exit_code == 1, result.output  # one stored record is invalid
    assert "3 new, 0 already in the store, 0 rejected; 1 invalid" in result.output
    return path


def _ids(db, *filters):
    listing = json.loads(run("store", "list", "--db", db, "--json", *filters).output)
    return [item["id"] for item in listing["items"]], listing["total"]


def test_list_filters_as_the_api_does(db):
    assert _ids(db)[1] == 3
    assert _ids(db, "--game", "gandengyan")[1] == 1
    assert _ids(db, "--invalid")[1] == 1
    assert _ids(db, "--valid", "--game", "guandan")[1] == 1
    assert (
        _ids(db, "--per-page", "2", "--page", "2")[1] == 3 and len(_ids(db, "--per-page", "2", "--page", "2")[0]) == 1
    )
    text = run("store", "list", "--db", db, "--invalid").output
    assert "INVALID" in text and "guandan" in text


def test_show_report_and_delete(db):
    (invalid,), _ = _ids(db, "--invalid")
    shown = json.loads(run("store", "show", invalid, "--db", db).output)
    assert shown["game"] == "guandan"
    readable = run("store", "report", invalid, "--db", db)
    assert readable.exit_code == 1 and "guandan.follow" in readable.output and invalid in readable.output
    assert json.loads(run("store", "report", invalid, "--db", db, "--json").output)["valid"] is False
    assert run("store", "delete", invalid, "--db", db, "--yes").exit_code == 0
    assert _ids(db)[1] == 2
    missing = run("store", "show", invalid, "--db", db)
    assert missing.exit_code == 2 and "no record has the id" in missing.output


def test_delete_asks_first(db):
    (invalid,), _ = _ids(db, "--invalid")
    assert run("store", "delete", invalid, "--db", db, stdin="n\n").exit_code != 0
    assert _ids(db)[1] == 3


def test_export_writes_json_lines_that_import_again(db, tmp_path):
    out = tmp_path / "all.jsonl"
    assert run("store", "export", "--db", db, "-o", str(out)).exit_code == 0
    lines = out.read_text().split("\n")
    assert len(lines) == 4 and lines[-1] == ""
    again = run("store", "import", "--db", str(tmp_path / "other.db"), str(out))
    assert "3 new," in again.output
    assert _ids(str(tmp_path / "other.db"))[0] == _ids(db)[0]


def test_standings_of_an_event(db):
    event = json.loads(Path(VALID).read_text())["meta"]["event"]
    table = json.loads(run("store", "standings", event, "--db", db, "--json").output)
    assert table["event"] == event and table["standings"]
    assert "match(es) counted" in run("store", "standings", event, "--db", db).output
    assert run("store", "standings", "no such event", "--db", db).exit_code == 2


def test_a_missing_store_is_an_error_not_a_new_file(tmp_path):
    result = run("store", "list", "--db", str(tmp_path / "none.db"))
    assert result.exit_code == 2 and "no record store" in result.output
    assert not (tmp_path / "none.db").exists()


def test_show_prints_the_layout_fmt_writes_and_takes_a_unique_start_of_the_id(db, tmp_path):
    """Issue 19: `fmt --check` agrees with what `store show` prints; ids as short as git takes them."""
    (invalid,), _ = _ids(db, "--invalid")
    shown = run("store", "show", invalid[:8], "--db", db)
    assert shown.exit_code == 0 and json.loads(shown.output)["game"] == "guandan"
    printed = tmp_path / "shown.json"
    printed.write_text(shown.output)
    assert run("fmt", "--check", str(printed)).exit_code == 0
    assert run("store", "report", invalid[:6], "--db", db, "--json").exit_code == 1


def test_an_ambiguous_or_too_short_start_of_an_id_is_refused(db, monkeypatch):
    from referee.api.store import Store

    ids, _ = _ids(db)
    assert Store(db).ids_starting(ids[0][:4], limit=5)[0] <= ids[0] and ids[0] in Store(db).ids_starting(ids[0][:4], 5)
    short = run("store", "show", ids[0][:3], "--db", db)
    assert short.exit_code == 2 and "no record has the id" in short.stderr
    monkeypatch.setattr(Store, "ids_starting", lambda self, prefix, limit=2: [prefix + "1", prefix + "2"])
    ambiguous = run("store", "show", "abcd", "--db", db)
    assert ambiguous.exit_code == 2 and "more than one record id starts with abcd: abcd1, abcd2" in ambiguous.stderr


def test_delete_takes_a_unique_start_of_the_id_and_asks_only_about_a_record_it_has(db):
    (invalid,), _ = _ids(db, "--invalid")
    missing = run("store", "delete", "ffffffff", "--db", db, stdin="y\n")
    assert missing.exit_code == 2 and "delete record" not in missing.output
    declined = run("store", "delete", invalid[:6], "--db", db, stdin="n\n")
    assert declined.exit_code == 1 and "nothing was deleted" in declined.stderr and _ids(db)[1] == 3
    deleted = run("store", "delete", invalid[:6].upper(), "--db", db, "--yes")
    assert deleted.exit_code == 0 and f"{invalid} deleted" in deleted.output and _ids(db)[1] == 2


def test_a_file_imported_again_is_found_stored_by_its_text_without_a_check(tmp_path, monkeypatch):
    """Issue 36: records already stored are known by their text's hash before any check."""
    from tests.guandan_gen import match_record

    archive = tmp_path / "a.jsonl"
    archive.write_text("".join(json.dumps(match_record(seed, max_deals=1)) + "\n" for seed in range(70)))
    path = str(tmp_path / "store.db")
    first = run("store", "import", "--db", path, str(archive))
    assert "70 new, 0 already in the store, 0 rejected; 0 invalid" in first.output
    checks = []
    monkeypatch.setattr("referee.api.store.check_record", lambda record, **options: checks.append(record))
    monkeypatch.setattr("referee.api.store.structure_findings", lambda record: checks.append(record))
    again = run("store", "import", "--db", path, str(archive))
    assert "0 new, 70 already in the store, 0 rejected; 0 invalid" in again.output and checks == []
    assert again.output.count("already stored") == 70 and again.exit_code == 0


def test_a_store_of_schema_version_1_gains_the_text_hashes(tmp_path):
    import sqlite3

    from referee.api.store import Store

    path = str(tmp_path / "old.db")
    run("store", "import", "--db", path, VALID)
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE sources")
        conn.execute("DROP TABLE versions")
        conn.execute("ALTER TABLE records DROP COLUMN meta_round")
        conn.execute("ALTER TABLE records DROP COLUMN meta_table")
        conn.execute("DELETE FROM migrations WHERE version >= 2")
    assert Store(path).version() == 5
    result = run("store", "import", "--db", path, VALID)
    assert "0 new, 1 already in the store" in result.output  # found by its id, and its text kept
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM sources").fetchone()[0] == 1


def test_a_record_s_current_version_shares_its_texts_and_a_version_4_store_keeps_its_own(db):
    """Issue 36: from schema version 5 an import writes a record's text once (table `records`), its current version
    none of its own; a store that version 4 wrote, every version with its texts, answers as before."""
    from referee.api.store import Store

    with sqlite3.connect(db) as conn:
        assert (
            conn.execute("SELECT count(*) FROM versions WHERE record IS NOT NULL OR report IS NOT NULL").fetchone()[0]
            == 0
        )
    new = {i: Store(db).versions(i) for i in _ids(db)[0]}
    with sqlite3.connect(db) as conn:  # the store as version 4 wrote it
        conn.execute(
            "UPDATE versions SET record = (SELECT record FROM records WHERE id = versions.id), "
            "report = (SELECT report FROM reports WHERE record_id = versions.id)"
        )
        conn.execute("DELETE FROM migrations WHERE version = 5")
    old = Store(db)
    assert old.version() == 5 and {i: old.versions(i) for i in new} == new
    assert _ids(db)[1] == 3 and json.loads(run("store", "show", "--db", db, next(iter(new))).output)


def test_a_record_stored_from_another_text_is_found_by_its_id_without_a_check(tmp_path, monkeypatch):
    """Issue 36: the same records written otherwise (spaced, keys in another order) have the same ids: found
    stored by their ids, their stored reports kept, none checked again."""
    from tests.guandan_gen import match_record

    records = [match_record(seed, max_deals=1) for seed in range(5)]
    compact, spaced = tmp_path / "compact.jsonl", tmp_path / "spaced.jsonl"
    compact.write_text("".join(json.dumps(r) + "\n" for r in records))
    spaced.write_text(
        "".join(json.dumps(dict(reversed(r.items())), indent=None, separators=(", ", ": ")) + "\n" for r in records)
    )
    path = str(tmp_path / "store.db")
    first = run("store", "import", "--db", path, str(compact))
    assert "5 new, 0 already in the store" in first.output
    checks = []
    monkeypatch.setattr("referee.api.store.check_record", lambda record, **options: checks.append(record))
    again = run("store", "import", "--db", path, str(spaced))
    assert "0 new, 5 already in the store, 0 rejected; 0 invalid" in again.output and checks == []
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM sources").fetchone()[0] == 10  # both texts known from now on


def test_an_import_killed_midway_leaves_the_store_whole(tmp_path):
    """Each batch is one transaction: an import killed between or inside them leaves every record stored with
    its report, findings, deals, seats, version and text hash, or not at all; importing again completes it."""
    import os
    import signal
    import subprocess
    import sys

    from tests.guandan_gen import match_record

    archive = tmp_path / "a.jsonl"
    archive.write_text("".join(json.dumps(match_record(seed, max_deals=2)) + "\n" for seed in range(300, 500)))
    path = str(tmp_path / "store.db")
    command = [sys.executable, "-m", "referee.cli.main", "store", "import", "--db", path, str(archive)]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env) as importing:
        assert b"stored" in importing.stdout.readline()  # the first batch is committed
        importing.send_signal(signal.SIGKILL)
        killed = importing.wait() == -signal.SIGKILL
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        stored = conn.execute("SELECT count(*) FROM records").fetchone()[0]
        assert 0 < stored < 200 or not killed  # (unless it ended first)
        for column, table in (("record_id", "reports"), ("id", "versions"), ("record_id", "sources")):
            assert conn.execute(f"SELECT count(DISTINCT {column}) FROM {table}").fetchone()[0] == stored
        assert conn.execute("SELECT count(*) FROM seats").fetchone()[0] == 4 * stored
        assert (
            conn.execute("SELECT count(*) FROM deals").fetchone()[0]
            == conn.execute("SELECT sum(deals) FROM records").fetchone()[0]
        )
    again = run("store", "import", "--db", path, str(archive))
    assert f"{200 - stored} new, {stored} already in the store, 0 rejected; 0 invalid" in again.output


# `store import` command lines that cli/start.py reads without click, and some it leaves to click
QUICK_IMPORTS = [
    ["store", "import", VALID],
    ["store", "import", "--db", "s.db", VALID, DISPUTED],
    ["store", "import", "--db=s.db", "--submitter", "me", VALID],
    ["store", "import", VALID, "--submitter=me", "--db", "s.db", "--db", "t.db"],
    ["store", "import", "--lang", "zh", VALID],
    ["store", "import", "--lang=en", "--", "--db", VALID],
    ["store", "import", "-"],
]
TO_CLICK = [
    ["store", "import"],
    ["store", "import", "--db", "s.db"],
    ["store", "import", "--help"],
    ["store", "import", VALID, "-h"],
    ["store", "import", "--db", VALID],
    ["store", "import", VALID, "--db"],
    ["store", "import", "--db=", VALID],
    ["store", "import", "--db", "-x", VALID],
    ["store", "import", "--submiter", "me", VALID],
    ["store", "import", "--lang", "xx", VALID],
    ["store", "import", "--lang", "zh", "--lang", "en", VALID],
    ["store", "--lang", "zh", "import", VALID],
    ["store", "list"],
]


@pytest.mark.parametrize("args", QUICK_IMPORTS + TO_CLICK)
def test_a_store_import_line_read_without_click_is_read_as_click_reads_it(monkeypatch, args):
    """What cli/start.py makes of a `store import` line, if it reads it, is what click gives the command's function
    (cli/storing.py's import_files), in the same language."""
    from referee.cli import start, storing
    from referee.messages import chosen_language, language

    monkeypatch.setenv("REFEREE_LANG", "en")
    given = []
    monkeypatch.setattr(
        storing,
        "import_files",
        lambda *values: given.append((dict(zip(("files", "db_path", "submitter"), values)), language())),
    )
    quick = start.quick_store_import(args)
    assert (quick is not None) == (args in QUICK_IMPORTS)
    run(*args)
    if quick is not None:
        values, lang = quick
        assert given == [(values, chosen_language(lang) if lang is not None else "en")]


@pytest.mark.parametrize(
    "args",
    [
        [VALID, DISPUTED, GDY],
        [VALID, "--lang", "zh", "no-such-file.json"],
        ["BROKEN"],
        ["-"],
    ],
)
def test_a_store_import_run_without_click_runs_as_click_runs_it(tmp_path, args):
    """The same output, errors, exit status and store, from cli/start.py's run as from click's (BROKEN: a file of
    records, a duplicate, a line that is no JSON, one that is no CGR/1 record, and a name with an escape sequence)."""
    import os
    import subprocess
    import sys

    broken = tmp_path / "broken\x1b[31m.jsonl"
    record = json.dumps(json.loads(Path(VALID).read_text()))
    broken.write_text(f'{record}\n{record}\n{{not json\n{{"cgr": 1}}\n')
    args = [str(broken) if arg == "BROKEN" else arg for arg in args]

    def run_in(module):
        folder = tmp_path / module
        folder.mkdir()
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                f"import sys; sys.argv[0] = 'referee'; from referee.cli.{module} import main; main()",
                "store",
                "import",
                "--db",
                str(folder / "s.db"),
                *args,
            ],
            input=Path(VALID).read_bytes(),
            capture_output=True,
            env={**os.environ, "REFEREE_LANG": "en"},
        )
        with sqlite3.connect(folder / "s.db") as conn:
            stored = conn.execute("SELECT id, record, report FROM records JOIN reports ON id = record_id").fetchall()
        return done.returncode, done.stdout, done.stderr, sorted(stored)

    assert run_in("start") == run_in("main")


def test_the_store_file_alone_holds_what_a_command_wrote(tmp_path):
    """store import and the commands that write a stored record leave no write-ahead log behind: a copy of the
    store's file made without its -wal file holds every record (an import used to end with its records in the
    log alone, the file a bare schema)."""
    import contextlib
    import shutil
    import subprocess
    import sys

    path = tmp_path / "store.db"
    referee = [sys.executable, "-m", "referee.cli.main", "store"]

    def copied_ids() -> set:
        assert not (tmp_path / "store.db-wal").exists() or not (tmp_path / "store.db-wal").stat().st_size
        shutil.copy(path, tmp_path / "copy.db")
        with contextlib.closing(sqlite3.connect(tmp_path / "copy.db")) as copy:
            return {row[0] for row in copy.execute("SELECT id FROM records")}

    subprocess.run([*referee, "import", "--db", str(path), VALID, DISPUTED, GDY], capture_output=True, check=False)
    stored = copied_ids()
    assert len(stored) == 3
    deleted = min(stored)
    subprocess.run([*referee, "delete", "--db", str(path), "--yes", deleted], capture_output=True, check=True)
    assert copied_ids() == stored - {deleted}
