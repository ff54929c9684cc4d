"""Reliability III (issue 18): input nested too deep, arrays of a huge number of wrong items, a
finding after the deal stopped, audit's folders and lines: a finding or a clear error, never a
crash, and memory that stays bounded."""

from __future__ import annotations

import copy
import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from referee.api import create_app
from referee.cli.main import main
from referee.replay import check_record, replay_steps
from tests.builders import guandan, quick_deal
from tests.folders import refuse_listing

ROOT = Path(__file__).parent.parent
BASE = guandan([quick_deal([0, 2])])
TOKEN = "a-token-of-16-chars-or-more"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def run(*args, stdin=None):
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def changed(record, edit):
    record = copy.deepcopy(record)
    edit(record)
    return record


def nested(levels: int) -> list:
    value = []
    for _ in range(levels - 1):
        value = [value]
    return value


def client(tmp_path):
    app = create_app(str(tmp_path / "r.db"), token=TOKEN)
    app.config["PROPAGATE_EXCEPTIONS"] = False  # a crash is a 500 here, as a client sees it
    return app.test_client()


def api_answers(tmp_path, body: bytes) -> dict:
    """The status of each endpoint that takes a record, for `body`."""
    web = client(tmp_path)
    return {
        path: web.post(path, data=body, headers=AUTH, content_type="application/json")
        for path in ("/v1/validate", "/v1/records", "/v1/replay")
    }


# ------------------------------------------------------------------ 1. nesting deeper than the notation needs

DEEP_META = changed(BASE, lambda r: r.update(meta={"event": "x", "x": nested(330)}))
DEEP_ACTION = changed(BASE, lambda r: r["deals"][0]["actions"][0].update({"x-trace": nested(250)}))
DEEP_PLAY = changed(BASE, lambda r: r["deals"][0]["actions"][0].update(play=nested(250)))
DEEP_OPTION = changed(BASE, lambda r: r.update(rules={"preset": "official", "options": {"x": nested(300)}}))


@pytest.mark.parametrize("record", [DEEP_META, DEEP_ACTION, DEEP_PLAY, DEEP_OPTION])
def test_nesting_deeper_than_the_notation_needs_is_a_finding_everywhere(tmp_path, record):
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(record))
    (finding,) = check_record(record).findings
    assert finding.rule == "notation.depth"
    checked = run("validate", "--json", str(path))
    assert checked.exit_code == 1 and json.loads(checked.stdout)["findings"][0]["rule"] == "notation.depth"
    for command in (("fmt",), ("replay",), ("store", "import", "--db", str(tmp_path / "r.db"))):
        result = run(*command, str(path))
        assert result.exit_code in (1, 2) and "notation.depth" in result.output, (command, result.output)
    for where, answer in api_answers(tmp_path, json.dumps(record).encode()).items():
        assert answer.status_code in (200, 400, 422), (where, answer.data[:300])
        assert b"notation.depth" in answer.data, where


def test_shallow_extensions_stay_free():
    record = changed(BASE, lambda r: r["deals"][0]["actions"][0].update({"x-trace": nested(20)}))
    assert check_record(record).valid


def test_a_deep_record_in_an_archive_stops_no_other(tmp_path):
    archive = tmp_path / "a.jsonl"
    lines = [json.dumps(r).encode() for r in [BASE] * 20 + [DEEP_META] + [DEEP_ACTION] * 20]
    archive.write_bytes(b"\n".join(lines) + b"\n")
    for jobs in ("1", "2"):
        result = run("validate", "--json", "-j", jobs, str(archive))
        reports = [json.loads(line) for line in result.stdout.splitlines()]
        assert len(reports) == 41 and result.exit_code == 1
        assert [r["valid"] for r in reports] == [True] * 20 + [False] * 21
    answer = client(tmp_path).post("/v1/validate", data=archive.read_bytes(), content_type="application/x-ndjson")
    assert answer.status_code == 200
    assert [json.loads(line)["valid"] for line in answer.data.splitlines()] == [True] * 20 + [False] * 21


# ------------------------------------------------------------------ 8. a finding after the deal stopped


def test_a_finding_after_the_deal_stopped_is_shown_on_its_last_step(tmp_path):
    record = json.loads((ROOT / "samples" / "guandan" / "disputed-illegal-follow.json").read_text())
    record["deals"][0]["actions"][26]["play"] = ["rj"]  # an alias after the illegal play (action 24)
    report, steps = replay_steps(record, 0)
    alias = next(f for f in report.findings if f.rule == "notation.card.alias")
    assert alias.action == 26 and steps[-1]["rejected"] and steps[-1]["step"] == 25
    assert alias in steps[-1]["findings"]
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    index = report.findings.index(alias)
    for args in ((), ("--finding", str(index + 1)), ("--json",)):
        result = run("replay", str(path), *args)
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    answer = client(tmp_path).post("/v1/replay", data=json.dumps(record), content_type="application/json")
    assert answer.status_code == 200 and answer.get_json()["steps"][-1]["rejected"]


# ------------------------------------------------------------------ 2. findings and memory bounded

MANY = 300_000


def with_many(where: str):
    """BASE with MANY objects where a few values stand."""

    def edit(record):
        deal = record["deals"][0]
        if where == "players":
            record["players"] = [{}] * MANY
        elif where == "hands":
            deal["hands"][0] = [{}] * MANY
        elif where == "meta":
            record["meta"] = {f"k{i}": {} for i in range(MANY)}
        elif where == "levels":
            record["start"] = {"levels": [{}] * MANY}
        elif where == "order":
            deal["result"] = {"order": [7] * MANY}
        elif where == "scores":
            deal["result"] = {"scores": [1e13] * MANY}
        elif where == "actions":
            deal["actions"] = [{}] * MANY
        elif where == "keys":
            record.update({f"k{i}": 0 for i in range(MANY)})
        elif where == "options":
            record["rules"] = {"preset": "official", "options": {f"k{i}": 0 for i in range(MANY)}}

    return changed(BASE, edit)


@pytest.mark.parametrize("where", ["hands", "meta", "levels", "order", "scores", "actions", "keys", "options"])
def test_a_huge_array_of_wrong_items_gets_a_bounded_number_of_findings(where):
    findings = check_record(with_many(where)).findings
    assert 2 <= len(findings) <= 202
    assert findings[-1].rule == "notation.more" and "more" in findings[-1].message


@pytest.mark.parametrize(
    "declare, rule, severity",
    [
        ({"declare": "hello"}, "guandan.declare", "error"),
        ({"declare": "report", "count": 3}, "guandan.report.count", "error"),
    ],
)
def test_a_rule_broken_by_300_000_actions_is_listed_100_times(declare, rule, severity):
    record = changed(BASE, lambda r: r["deals"][0]["actions"].__setitem__(slice(1, 1), [{"seat": 1, **declare}] * MANY))
    findings = check_record(record).findings
    assert [f.rule for f in findings].count(rule) == 100
    assert (findings[-1].rule, findings[-1].severity) == ("notation.more", severity)
    assert findings[-1].message == f"… and {MANY - 100:,} more {rule} findings"


def test_the_findings_past_those_listed_are_counted():
    findings = check_record(changed(BASE, lambda r: r["deals"][0].update(result={"order": [7] * 1000}))).findings
    assert len(findings) == 101 and findings[-1].message == "… and 900 more seats beyond the table"


def limited(args, gib: float, stdin=None) -> subprocess.CompletedProcess:
    """A referee command run in a process that may use at most `gib` GiB of address space."""
    limit = int(gib * 2**30)
    code = (
        f"import resource, sys; resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit})); "
        "from referee.cli.main import main; sys.argv[0] = 'referee'; main()"
    )
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, timeout=300, input=stdin)


@pytest.mark.parametrize("where, rules", [("players", ["notation.players"]), ("actions", ["notation.more"])])
def test_a_huge_array_is_checked_in_bounded_memory(tmp_path, where, rules):
    path = tmp_path / "many.json"
    path.write_bytes(orjson.dumps(with_many(where)))  # the validator's errors, cycles, are not piled up
    result = limited(["validate", "--json", str(path)], 0.5)
    assert result.returncode == 1, result.stderr.decode()[-2000:]
    findings = json.loads(result.stdout)["findings"]
    assert len(findings) in (1, 101) and findings[-1]["rule"] in rules  # players beyond the seats are not read


def players_of(item: bytes, count: int) -> bytes:
    return orjson.dumps(BASE).replace(b'"players":["A","B","C","D"]', b'"players":[' + b",".join([item] * count) + b"]")


def test_a_small_gzip_of_a_60_mib_record_is_answered_in_well_under_2_gib(tmp_path):
    text = players_of(b"{}", 20_000_000)
    path = tmp_path / "bomb.json.gz"
    path.write_bytes(gzip.compress(text, 9))
    assert path.stat().st_size < 100_000 and len(text) > 55 * 2**20
    result = limited(["validate", "--json", str(path)], 1.0)
    assert result.returncode == 2, result.stderr.decode()[-2000:]
    (finding,) = json.loads(result.stdout)["findings"]
    assert finding["rule"] == "notation.size" and "values" in finding["message"]


@pytest.mark.parametrize("item, count", [(b"{}", 999_000), (b'"x"', 1_990_000)])
def test_a_record_just_within_the_values_a_record_may_hold_is_checked_in_1_gib(tmp_path, item, count):
    path = tmp_path / "big.json"
    path.write_bytes(players_of(item, count))  # orjson reserves 256 bytes a value when it writes them
    result = limited(["validate", "--json", str(path)], 1.0)
    assert result.returncode == 1, result.stderr.decode()[-2000:]
    assert json.loads(result.stdout)["findings"][-1]["rule"] == "notation.players"


def test_running_out_of_memory_while_reading_is_a_finding_not_a_500(tmp_path, monkeypatch):
    import referee.notation

    def exhausted(text):
        try:
            raise MemoryError
        except MemoryError as exc:  # what orjson raises when memory runs out
            raise SystemError("<built-in function loads> returned a result with an exception set") from exc

    monkeypatch.setattr(referee.notation.orjson, "loads", exhausted)
    (finding,) = check_one_text(orjson.dumps(BASE).decode())
    assert finding["rule"] == "notation.size"
    for where, answer in api_answers(tmp_path, orjson.dumps(BASE)).items():
        assert answer.status_code == 400 and b"notation.size" in answer.data, where


def test_running_out_of_memory_while_checking_is_a_503_not_a_500(tmp_path, monkeypatch):
    import referee.api.checking

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(referee.api.checking, "check_parsed", exhausted)
    answer = client(tmp_path).post("/v1/validate", data=orjson.dumps(BASE), content_type="application/json")
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
    assert "memory" in answer.get_json()["message"]


def check_one_text(text: str) -> list[dict]:
    from referee.batch import check_one

    return check_one(text, "x").as_dict()["findings"]


@pytest.mark.parametrize("where", ["players", "hands", "meta", "levels", "order", "keys", "options"])
def test_the_api_limits_every_array_and_object(tmp_path, where):
    record = with_many(where)
    for path, answer in api_answers(tmp_path, orjson.dumps(record)).items():
        assert answer.status_code == 422, (path, answer.data[:300])
        assert answer.get_json()["findings"][0]["rule"] == "api.limit"


# ------------------------------------------------------------------ 9. audit: unreadable folders, lines streamed


def audit(*args):
    pytest.importorskip("distributed", reason="referee audit needs the optional dask extra")
    return run("audit", *args)


def test_audit_reports_a_folder_that_cannot_be_listed_and_exits_2(tmp_path, monkeypatch):
    folder = tmp_path / "archive"
    (folder / "locked").mkdir(parents=True)
    (folder / "a.jsonl").write_bytes(orjson.dumps(BASE) + b"\n")
    refuse_listing(monkeypatch)
    out = tmp_path / "out"
    result = audit(str(folder), "-o", str(out), "--workers", "1", "--summary-json", str(tmp_path / "s.json"))
    assert result.exit_code == 2, result.output
    summary = json.loads((tmp_path / "s.json").read_text())
    assert (summary["records"], summary["valid"], summary["unreadable"]) == (2, 1, 1)
    reports = [json.loads(line) for part in sorted(out.glob("part-*.jsonl")) for line in part.read_text().splitlines()]
    (locked,) = [r for r in reports if not r["valid"]]
    assert locked["source"].endswith("locked") and "Permission denied" in locked["findings"][0]["message"]


def test_audit_reads_lines_with_the_cap_of_validate(tmp_path, monkeypatch):
    pytest.importorskip("dask")
    import tracemalloc

    from referee.audit import files_of, report_bag

    monkeypatch.setattr("referee.batch.MAX_RECORD_BYTES", 5000)
    body = orjson.dumps(BASE)
    archive = tmp_path / "a.jsonl"
    archive.write_bytes(body + b"\n" + b"[" * 30_000_000 + b"\n\n" + body + b"\n")
    tracemalloc.start()
    try:
        reports = report_bag(files_of([str(archive)])).compute(scheduler="sync")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 15_000_000  # the 30 MB line is skipped in pieces, never held whole
    assert [r["valid"] for r in reports] == [True, False, True]
    assert reports[1]["findings"][0]["rule"] == "notation.size" and reports[2]["source"] == f"{archive}:4"
    plain = run("validate", "--json", str(archive)).stdout
    assert "".join(orjson.dumps(r).decode() + "\n" for r in reports) == plain


# ------------------------------------------------------------------ 6. a "game" that is no string


@pytest.mark.parametrize("game", [["guandan"], {"a": 1}, 3, True, None])
@pytest.mark.parametrize("twice", [False, True])
def test_a_game_that_is_no_string_is_named_by_no_report(tmp_path, game, twice):
    """The structure check says what is wrong with it; the report names no game (null, as the API's schema
    says a report's game is a string or null), and the text shows "unknown game" rather than crash."""
    text = json.dumps(dict(BASE, game=game))
    path = tmp_path / "r.json"
    path.write_text(text[:-1] + ', "cgr": 1}' if twice else text)
    shown = run("validate", "--no-color", str(path))
    assert shown.exit_code == 1 and "INVALID  unknown game" in shown.stdout
    assert json.loads(run("validate", "--json", str(path)).stdout)["game"] is None
    assert run("validate", "-q", str(path)).stdout == f"{path}  INVALID  unknown game\n"


# ------------------------------------------------------------------ 7. a file name that is not UTF-8


@pytest.mark.parametrize("options", [["--json"], ["--no-color"], ["-q"], ["--json", "-j", "2"]])
def test_a_file_name_that_is_not_utf8_is_shown_escaped(tmp_path, options):
    """Python reads such a name's bytes as lone surrogates, which neither JSON nor a UTF-8 terminal
    can hold: the report names the file with those bytes as \\xNN (as `ls -b` does), and reads it."""
    folder = tmp_path / "names"
    folder.mkdir()
    line = json.dumps(BASE) + "\n"
    for name in (b"bad\xff\xfe.json", b"lines\xe9.jsonl"):
        (folder / os.fsdecode(name)).write_text(line if name.endswith(b".json") else line * 100)
    result = run("validate", *options, str(folder))
    assert result.exit_code == 0, result.output
    result.stdout.encode("utf-8")  # strictly: no surrogate is left
    shown = (
        "\n".join(json.loads(line)["source"] for line in result.stdout.splitlines())
        if "--json" in options
        else result.stdout
    )
    assert f"{folder}/bad\\xff\\xfe.json" in shown and f"{folder}/lines\\xe9.jsonl:100" in shown


# ------------------------------------------------------------------ 8. output that cannot be written


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("command", [["validate", "--json"], ["validate", "--lang", "zh"], ["schema"]])
def test_output_to_a_full_disk_is_a_clear_error_and_status_2(command):
    """Writing standard output fails (no space left): said in a line, exit 2, no traceback."""
    args = command + ([str(ROOT / "samples/guandan/disputed-illegal-follow.json")] if command[0] == "validate" else [])
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "referee.cli.main", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() in ("referee: stopped: No space left on device", "referee: 已停止：设备上没有剩余空间")


@pytest.mark.parametrize(
    "args, status",
    [
        (["validate", "-"], 2),
        (["validate", str(ROOT / "samples/guandan/disputed-illegal-follow.json")], 1),
        (["replay", "-"], 2),
    ],
)
def test_a_closed_standard_stream_is_read_as_empty_and_written_to_nowhere(args, status):
    """`referee validate - <&-`: Python has no sys.stdin then; the command reads nothing rather than crash."""
    stream = "stdin" if "-" in args else "stdout"
    code = (
        f"import sys; sys.{stream} = None; sys.argv = ['referee', *{args!r}]; from referee.cli.main import main; main()"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == status and "Traceback" not in done.stderr


def test_a_pool_bigger_than_any_machine_is_refused_before_forking(monkeypatch):
    """The pool's processes are forked at once (Linux): -j 100000 would fork until the system gave out."""
    monkeypatch.setattr("referee.cli.validate.check_items", lambda *a, **k: pytest.fail("checked"))
    result = run("validate", "-j", "100000", str(ROOT / "samples/guandan/disputed-illegal-follow.json"))
    assert result.exit_code == 2 and "100000 is not in the range 1<=x<=256" in result.output


# ------------------------------------------------------------------ 9. an output that is an input


def _stored(tmp_path) -> str:
    db = str(tmp_path / "s.db")
    assert run("store", "import", "--db", db, str(ROOT / "samples" / "guandan")).exit_code in (0, 1)
    return db


@pytest.mark.parametrize(
    "command",
    [
        lambda t, f, db: ["store", "export", "--db", db, "-o", db],
        lambda t, f, db: ["validate", "--summary-json", f, f],
        lambda t, f, db: ["validate", "--summary-json", f, str(t)],  # in a folder it reads
        lambda t, f, db: ["ruling", f, "-o", f],
        lambda t, f, db: ["import", "--from", "competition", f, "-o", f],
    ],
)
def test_an_output_that_is_an_input_is_refused_and_the_input_kept(tmp_path, command):
    record = tmp_path / "r.json"
    record.write_text(json.dumps(BASE))
    db = _stored(tmp_path)
    before = {path: Path(path).read_bytes() for path in (str(record), db)}
    result = run(*command(tmp_path, str(record), db))
    assert result.exit_code == 2 and "which this command reads: write elsewhere" in result.output
    assert {path: Path(path).read_bytes() for path in before} == before


def test_an_export_that_stops_leaves_the_file_it_would_replace_as_it_was(tmp_path, monkeypatch):
    from referee.api.store import Store

    db = _stored(tmp_path)
    out = tmp_path / "out.jsonl"
    out.write_text("ORIGINAL\n")
    real = Store.texts

    def failing(self, **filters):
        texts = real(self, **filters)
        yield next(texts)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Store, "texts", failing)
    result = run("store", "export", "--db", db, "-o", str(out))
    assert result.exit_code == 2 and "nothing was written" in result.output
    assert out.read_text() == "ORIGINAL\n" and not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize(
    "command",
    [
        ["ruling", "{f}", "-o", "{d}/r.html"],
        ["decide", "{f}", "--finding", "1", "--decision", "stands", "--by", "X", "-o", "{d}/o.json"],
    ],
)
def test_a_record_nested_too_deep_is_a_finding_for_the_commands_that_write_it_again(tmp_path, command):
    """validate reports notation.depth; ruling and decide, which write the record or a document of it, say so
    (exit 2) rather than recursing through it."""
    record = json.loads((ROOT / "samples" / "guandan" / "disputed-illegal-follow.json").read_text())
    text = json.dumps(record).replace('"meta": {', '"x-deep": ' + "[" * 1000 + "]" * 1000 + ', "meta": {', 1)
    path = tmp_path / "deep.json"
    path.write_text(text)
    result = run(*(part.format(f=path, d=tmp_path) for part in command))
    assert result.exit_code == 2 and "notation.depth /x-deep/0/0" in result.output
    assert not isinstance(result.exception, RecursionError) and sorted(p.name for p in tmp_path.iterdir()) == [
        "deep.json"
    ]


@pytest.mark.parametrize("number", ["9" * 400, "-" + "9" * 5000, "1e999", "-2.5e400"])
def test_a_number_beyond_a_doubles_range_is_valid_json_and_checked_where_it_stands(tmp_path, number):
    """A number too large even for a double is read as the largest double of its sign, as orjson reads an integer
    beyond 64 bits as a double: a seat that large is a notation.seat finding (exit 1), not a record that is no JSON
    (exit 2); in an x- value it is kept as that double."""
    text = json.dumps(BASE)
    seat = tmp_path / "seat.json"
    seat.write_text(text.replace('"seat": 0', f'"seat": {number}', 1))
    result = run("validate", "--json", str(seat))
    assert result.exit_code == 1 and json.loads(result.stdout)["findings"][0]["rule"] == "notation.seat"
    free = tmp_path / "free.json"
    free.write_text(text.replace('"cgr": 1', f'"cgr": 1, "x-big": {number}', 1))
    report = json.loads(run("validate", "--json", str(free)).stdout)
    assert report["valid"] is True
    assert run("validate", "--json", str(tmp_path / "missing.json")).exit_code == 2  # the unreadable path still is
    nan = tmp_path / "nan.json"
    nan.write_text(text.replace('"seat": 0', '"seat": NaN', 1))
    assert json.loads(run("validate", "--json", str(nan)).stdout)["findings"][0]["rule"] == "notation.json"


@pytest.mark.parametrize(
    "command",
    [
        ["replay", "{f}"],
        ["ruling", "{f}", "-o", "{d}/r.html"],
        ["decide", "{f}", "--finding", "1", "--decision", "stands", "--by", "X", "-w"],
    ],
)
def test_a_key_written_twice_is_invalid_for_every_command_that_reads_one_record(tmp_path, command):
    """validate says INVALID (notation.key.duplicate); replay, ruling and decide, which read one record, say the
    same finding and exit 1, writing nothing (the parse kept one of the two values, which is not the record)."""
    text = (ROOT / "samples" / "guandan" / "match-won-at-a.json").read_text()
    path = tmp_path / "dup.json"
    path.write_text(text.replace('"game": "guandan"', '"game": "guandan", "game": "guandan"', 1))
    before = path.read_text()
    result = run(*(part.format(f=path, d=tmp_path) for part in command))
    assert (
        result.exit_code == 1
        and 'notation.key.duplicate /game: the key "game" is written more than once' in result.output
    )
    assert path.read_text() == before and sorted(p.name for p in tmp_path.iterdir()) == ["dup.json"]


def test_a_huge_number_does_not_let_in_what_the_parser_refuses(tmp_path):
    """A number beyond a double's range sends the text to the standard library's reader, which takes a lone
    surrogate: the text is still no JSON for the referee (orjson refuses it), as it is without the number."""
    text = json.dumps(BASE)[:-1] + ', "x-big": 1e400, "x-s": "\\ud800"}'
    path = tmp_path / "r.json"
    path.write_text(text)
    result = run("validate", "--json", str(path))
    assert result.exit_code == 2 and json.loads(result.stdout)["findings"][0]["rule"] == "notation.json"
    stored = run("store", "import", "--db", str(tmp_path / "s.db"), str(path))
    assert stored.exit_code == 2 and not isinstance(stored.exception, TypeError)


def test_blank_lines_past_the_size_limit_before_a_document_make_it_too_big(tmp_path, monkeypatch):
    monkeypatch.setattr("referee.batch.MAX_RECORD_BYTES", 5000)
    path = tmp_path / "blank.json"
    path.write_bytes(b"\n" * 6000 + b"x\n")
    result = run("validate", "-j", "1", "--json", str(path))
    assert result.exit_code == 2 and json.loads(result.stdout)["findings"][0]["rule"] == "notation.size"


def test_an_output_read_as_standard_input_is_refused_and_one_the_command_never_reads_is_not(tmp_path):
    record = tmp_path / "r.json"
    record.write_text(json.dumps(BASE))
    before = record.read_bytes()
    with open(record, "rb") as stdin:
        done = subprocess.run(
            [sys.executable, "-m", "referee.cli.main", "ruling", "-", "-o", str(record)],
            stdin=stdin,
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
    assert done.returncode == 2 and "is standard input, which this command reads" in done.stderr
    assert record.read_bytes() == before
    summary = tmp_path / "summary.txt"  # in the folder read, but no file it reads: written, and again
    for _ in range(2):
        assert run("validate", "-q", "--summary-json", str(summary), str(tmp_path)).exit_code == 0
    assert json.loads(summary.read_text())["records"] == 1
