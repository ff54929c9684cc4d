"""The command line follows the conventions of formatters and linters (issue 11): fmt, validate, replay."""

import json
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from referee.cli.main import main
from tests.guandan_gen import match_record

SAMPLES = Path(__file__).parent.parent / "samples" / "guandan"
VALID = SAMPLES / "match-won-at-a.json"
DISPUTED = SAMPLES / "disputed-illegal-follow.json"
ONE_DEAL = match_record(8, max_deals=1)


def run(*args, stdin=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=stdin)


def aliased(record):
    """The record with a preset alias, which fmt rewrites to its canonical name."""
    return dict(record, rules="guandan-official")


# ------------------------------------------------------------------ fmt, as a formatter


@pytest.fixture
def tree(tmp_path):
    """A folder with a canonical record, one to reformat and, in a subfolder, JSON Lines to reformat."""
    (tmp_path / "clean.json").write_text(run("fmt", VALID).stdout)
    (tmp_path / "messy.json").write_text(json.dumps(aliased(ONE_DEAL)))
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "many.jsonl").write_text("\n".join(json.dumps(aliased(ONE_DEAL)) for _ in range(3)) + "\n")
    return tmp_path


def test_check_names_each_file_that_would_change_and_writes_nothing(tree):
    before = {p: p.read_bytes() for p in tree.rglob("*.json*")}
    result = run("fmt", "--check", tree)
    assert result.exit_code == 1
    assert sorted(result.stderr.splitlines()) == [
        f"would reformat {tree / 'messy.json'}",
        f"would reformat {tree / 'sub' / 'many.jsonl'}",
    ]
    assert {p: p.read_bytes() for p in tree.rglob("*.json*")} == before


def test_write_takes_many_files_and_folders_and_json_lines_stay_one_record_a_line(tree):
    result = run("fmt", "-w", tree / "clean.json", tree / "messy.json", tree / "sub")
    assert result.exit_code == 0, result.output
    assert "reformatted" in result.stderr and "clean.json" not in result.stderr
    lines = (tree / "sub" / "many.jsonl").read_text().splitlines()
    assert len(lines) == 3 and all(json.loads(line)["rules"] == "official" for line in lines)
    assert run("fmt", "--check", tree).exit_code == 0


def test_diff_shows_the_change_and_writes_nothing(tree):
    messy = tree / "messy.json"
    before = messy.read_text()
    result = run("fmt", "--diff", messy)
    assert result.exit_code == 1 and messy.read_text() == before
    assert f"--- {messy}" in result.stdout and '+  "rules": "official",' in result.stdout
    assert run("fmt", "--diff", tree / "clean.json").stdout == ""


def test_standard_input_is_dash():
    text = json.dumps(aliased(ONE_DEAL))
    printed = run("fmt", "-", stdin=text)
    assert printed.exit_code == 0 and json.loads(printed.stdout)["rules"] == "official"
    checked = run("fmt", "--check", "-", stdin=text)
    assert checked.exit_code == 1 and "would reformat -" in checked.stderr
    assert run("fmt", "--check", "-", stdin=printed.stdout).exit_code == 0


def test_unreadable_input_is_exit_2_and_the_worst_status_wins(tree):
    (tree / "broken.json").write_text('{"cgr": 1, "game": ')
    result = run("fmt", "--check", tree)
    assert result.exit_code == 2 and "notation.json" in result.stderr and "would reformat" in result.stderr
    assert run("fmt", "--check", tree / "missing.json").exit_code == 2
    assert run("fmt", "--check", tree / "clean.json", tree / "missing.json").exit_code == 2


def test_printing_several_files_is_refused(tree):
    result = run("fmt", tree / "clean.json", tree / "messy.json")
    assert result.exit_code == 2 and "give -w, --check or --diff" in result.stderr


# ------------------------------------------------------------------ validate output


def test_unreadable_input_is_labelled_unreadable(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"cgr": 1,\n  "game" "guandan"}')
    result = run("validate", broken)
    assert result.exit_code == 2
    assert f"{broken}  UNREADABLE" in result.stdout and "unknown game" not in result.stdout
    assert "at line:column 2:10" in result.stdout


def test_quiet_prints_verdict_lines_only(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    result = run("validate", "-q", VALID, DISPUTED, broken)
    assert result.exit_code == 2
    assert result.stdout.splitlines() == [
        f"{VALID}  VALID  guandan (official)",
        f"{DISPUTED}  INVALID  guandan (official)",
        f"{broken}  UNREADABLE",
    ]


def test_color_is_chosen_on_the_command_line():
    coloured = run("validate", "--color", DISPUTED).stdout
    plain = run("validate", "--no-color", DISPUTED).stdout
    assert "\x1b[" in coloured and "\x1b[" not in plain
    assert "\x1b[" not in run("validate", DISPUTED).stdout  # not a terminal


@pytest.mark.parametrize(
    "environ",
    [
        {},
        {"FORCE_COLOR": "1"},
        {"FORCE_COLOR": ""},
        {"TTY_COMPATIBLE": "1"},
        {"TTY_COMPATIBLE": "0"},
        {"NO_COLOR": "1"},
        {"TERM": "dumb"},
    ],
)
@pytest.mark.parametrize("terminal", [True, False])
@pytest.mark.parametrize("color", [True, False, None])
@pytest.mark.parametrize("stderr", [False, True])
def test_validate_writes_text_without_rich_only_where_rich_would_not_colour_it(
    monkeypatch, environ, terminal, color, stderr
):
    from referee.cli.validate import _colourless, _console

    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr("sys.stderr.isatty" if stderr else "sys.stdout.isatty", lambda: terminal, raising=False)
    assert not _colourless(color, stderr) or _console(color, stderr).color_system is None


def test_text_without_colour_is_what_a_console_prints_even_with_tabs_and_control_codes():
    from rich.console import Console

    from referee.cli import plain, render
    from referee.replay import check_record

    record = dict(json.loads(DISPUTED.read_text()), rules="off\ticial\r\a", players=["a\tb", "c\bd", "e", "f"])
    report = check_record(record)
    report.source = "x\ty\v.json"
    console = Console(force_terminal=False, soft_wrap=True, highlight=False)
    with console.capture() as captured:
        render.report(console, report)
        render.summary(console, {"records": 1, "valid": 0, "invalid": 1, "unreadable": 0, "rules": {"a\tb": 2}})
    lines = plain.report_parts(report) + plain.summary_parts(
        {"records": 1, "valid": 0, "invalid": 1, "unreadable": 0, "rules": {"a\tb": 2}}
    )
    assert not any(code in text for parts in lines for text, _style in parts for code in "\v\r\a\b")
    assert "⟨U+000B⟩" in plain.text(lines)  # a record's control codes are shown, not obeyed (issue 31)
    assert "\v" not in captured.get() and "\t" not in captured.get()  # a console removes or expands them
    assert plain.text(lines) == captured.get()


def test_json_mode_keeps_standard_output_json_lines_and_sums_up_on_standard_error():
    result = run("validate", "--json", VALID, DISPUTED)
    assert [json.loads(line)["valid"] for line in result.stdout.splitlines()] == [True, False]
    assert "Summary: 2 record(s): 1 valid, 1 invalid" in result.stderr


def test_a_byte_order_mark_is_read_past_with_an_info_finding(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + VALID.read_bytes())
    result = run("validate", "--json", path)
    report = json.loads(result.stdout)
    assert result.exit_code == 0 and report["valid"] is True
    assert [(f["rule"], f["severity"], f["at"]) for f in report["findings"]] == [("notation.bom", "info", "")]
    lines = tmp_path / "bom.jsonl"
    lines.write_bytes(b"\xef\xbb\xbf" + orjson.dumps(ONE_DEAL) + b"\n" + orjson.dumps(ONE_DEAL) + b"\n")
    reports = [json.loads(line) for line in run("validate", "--json", lines).stdout.splitlines()]
    assert [[f["rule"] for f in r["findings"]] for r in reports] == [["notation.bom"], []]
    unnamed = tmp_path / "bom-lines.json"  # JSON Lines known by their lines, not by the name
    unnamed.write_bytes(lines.read_bytes())
    reports = [json.loads(line) for line in run("validate", "--json", unnamed).stdout.splitlines()]
    assert [[f["rule"] for f in r["findings"]] for r in reports] == [["notation.bom"], []]
    assert run("fmt", "--check", path).exit_code == 1  # fmt drops the mark


# ------------------------------------------------------------------ replay


def test_a_one_deal_record_needs_no_deal(tmp_path):
    path = tmp_path / "one.json"
    path.write_text(json.dumps(ONE_DEAL))
    frames = json.loads(run("replay", path, "--json").stdout)
    assert len(frames) == len(ONE_DEAL["deals"][0]["actions"]) + 1


def test_step_minus_one_is_the_last_step():
    frames = json.loads(run("replay", VALID, "--deal", "1", "--json").stdout)
    last = json.loads(run("replay", VALID, "--deal", "1", "--step", "-1", "--json").stdout)
    assert last == frames[-1] and last["outcome"]["status"] == "complete"
    first = json.loads(run("replay", VALID, "--deal", "1", "--step", str(-len(frames)), "--json").stdout)
    assert first == frames[0]
    too_far = run("replay", VALID, "--deal", "1", "--step", str(-len(frames) - 1))
    assert too_far.exit_code == 2 and "--step -1 is the last step" in too_far.stderr


@pytest.mark.parametrize(
    "content, line, said",
    [
        ("RECORD\n\nRECORD\n", 2, "line 2 of {path} is blank; records stand on lines 1, 3"),
        ("RECORD\nRECORD\n", 7, "{path} has 2 line(s); --line takes 1 to 2"),
        ("RECORD\n[1, 2]\n", 2, "{path}:2: holds a JSON array, not a record (a JSON object)"),
        ('RECORD\n{"cgr": \n', 2, "{path}:2: the record is not valid JSON at column 9"),
        ("RECORD", 1, "{path} is one JSON document, not JSON Lines: leave out --line"),
    ],
)
def test_line_errors_say_what_is_on_that_line(tmp_path, content, line, said):
    path = tmp_path / "archive.jsonl"
    path.write_text(content.replace("RECORD", json.dumps(ONE_DEAL)))
    result = run("replay", path, "--line", line)
    assert result.exit_code == 2 and said.format(path=path) in result.stderr, result.stderr


def test_a_json_lines_file_needs_line_and_says_where_records_are(tmp_path):
    path = tmp_path / "archive.jsonl"
    path.write_text(json.dumps(ONE_DEAL) + "\n" + json.dumps(ONE_DEAL) + "\n")
    result = run("replay", path)
    assert result.exit_code == 2 and "holds 2 records (on lines 1, 2); name one with --line" in result.stderr
    assert run("replay", path, "--line", "2", "--step", "-1").exit_code == 0


# ------------------------------------------------------------------ API conventions

API_TOKEN = "s3cret-token-0123456789"


@pytest.fixture
def client(tmp_path):
    from referee.api import create_app

    return create_app(str(tmp_path / "r.db"), token=API_TOKEN).test_client()


def store(client, body: bytes, content_type="application/json", token=API_TOKEN):
    return client.post(
        "/v1/records", data=body, content_type=content_type, headers={"Authorization": f"Bearer {token}"}
    )


@pytest.mark.parametrize(
    "path, unknown",
    [
        ("/v1/records?gam=guandan&page=2", ["gam"]),
        ("/v1/records/abc?x=1&y=2", ["x", "y"]),
        ("/v1/events/Open/standings?sort=points", ["sort"]),
        ("/v1/records/abc/deals/0/steps?step=1", ["step"]),
    ],
)
def test_unknown_query_parameters_are_named_in_a_400(client, path, unknown):
    response = client.get(path)
    body = response.get_json()
    assert response.status_code == 400 and all(name in body["message"] for name in unknown)
    assert [f["message"] for f in body["findings"]] == [f"{name}: unknown parameter" for name in unknown]
    assert client.post("/v1/validate?infer_rule=1", data=orjson.dumps(ONE_DEAL)).status_code == 400
    assert client.post("/v1/validate?infer_rules=1", data=orjson.dumps(ONE_DEAL)).status_code == 200
    assert (
        client.post("/v1/replay?deal=0", data=orjson.dumps(ONE_DEAL), content_type="application/json").status_code
        == 200
    )
    assert (
        client.post("/v1/replay?dael=0", data=orjson.dumps(ONE_DEAL), content_type="application/json").status_code
        == 400
    )


def test_standings_of_an_unknown_event_are_404(client):
    assert client.get("/v1/events/Nowhere/standings").status_code == 404
    store(client, orjson.dumps(dict(ONE_DEAL, meta={"event": "Open"})))
    assert client.get("/v1/events/Open/standings").status_code == 200


def test_a_wrong_token_is_told_apart_from_a_missing_one(client):
    wrong = store(client, orjson.dumps(ONE_DEAL), token="not-the-token-0123456789")
    assert wrong.status_code == 401 and wrong.get_json()["message"] == "the token is not valid"
    missing = client.post("/v1/records", data=orjson.dumps(ONE_DEAL), content_type="application/json")
    assert missing.status_code == 401 and "Authorization: Bearer" in missing.get_json()["message"]


def test_405_keeps_its_allow_header(client):
    response = client.put("/v1/validate")
    assert response.status_code == 405 and set(response.headers["Allow"].split(", ")) == {"OPTIONS", "POST"}
    assert response.get_json()["code"] == 405


def test_records_take_json_lines_one_result_a_line(client):
    body = orjson.dumps(ONE_DEAL) + b"\n\n" + b'{"cgr": 1}\n' + orjson.dumps(ONE_DEAL) + b"\n"
    response = store(client, body, "application/x-ndjson")
    results = [json.loads(line) for line in response.get_data(as_text=True).splitlines()]
    assert response.status_code == 200 and response.mimetype == "application/x-ndjson"
    assert [(r["line"], r.get("created"), r.get("stored")) for r in results] == [
        (1, True, None),
        (3, None, False),
        (4, False, None),
    ]
    assert results[1]["findings"][0]["rule"] == "notation.key.missing"
    assert client.get("/v1/records").get_json()["total"] == 1
    nothing = store(client, b'{"cgr": 1}\n[2]\n', "application/x-ndjson")
    assert nothing.status_code == 400 and "nothing was stored" in nothing.get_json()["message"]
    assert {f["message"][:7] for f in nothing.get_json()["findings"]} == {"line 1:", "line 2:"}


def test_serve_logs_one_line_per_request(tmp_path, caplog):
    from referee.api import create_app
    from referee.api.access_log import access_logged

    app = create_app(str(tmp_path / "r.db"), read_only=True)
    app.wsgi_app = access_logged(app.wsgi_app)
    with caplog.at_level("INFO", "referee.api.access"):
        app.test_client().get("/v1/records?page=2")
        app.test_client().get("/v1/records/nope%0Afake")
    lines = caplog.messages
    assert len(lines) == 2 and lines[0].endswith("ms") and " GET /v1/records?page=2 200 " in lines[0]
    assert " GET /v1/records/nope\\nfake 404 " in lines[1]


@pytest.mark.parametrize("option, logged", [([], True), (["--no-access-log"], False)])
def test_serve_access_log_can_be_turned_off(tmp_path, monkeypatch, option, logged):
    apps = []

    class Server:
        def run(self):
            apps[0].test_client().get("/v1/records")

    monkeypatch.setattr("referee.api.server.make_server", lambda app, **kwargs: apps.append(app) or Server())
    result = CliRunner().invoke(main, ["serve", "--read-only", "--db", str(tmp_path / "r.db"), *option])
    assert result.exit_code == 0
    assert (" GET /v1/records 200 " in result.stderr) is logged


# ------------------------------------------------------------------ --help and the README


def every_command(command=None, path=("referee",)):
    command = command or main
    yield path, command
    for name, sub in subcommands(command).items():
        yield from every_command(sub, path + (name,))


def subcommands(command) -> dict:
    """A group's commands, those it loads when asked for too."""
    import click

    if not isinstance(command, click.Group):
        return {}
    context = click.Context(command)
    return {name: command.get_command(context, name) for name in command.list_commands(context)}


@pytest.mark.parametrize(
    "path, command", list(every_command()), ids=lambda v: " ".join(v) if isinstance(v, tuple) else ""
)
def test_help_is_complete_and_never_cut(path, command):
    """Even on a narrow terminal: every option's help, and each command's first sentence whole in listings."""
    import click

    shown = CliRunner().invoke(main, [*path[1:], "--help"], terminal_width=40)
    text = "".join(shown.output.split())  # wrapped anywhere, even inside a word: compared without spaces
    assert shown.exit_code == 0
    assert command.help and all(p.help for p in command.params if isinstance(p, click.Option))
    for option in (p for p in command.params if isinstance(p, click.Option)):
        assert "".join(option.help.split()) in text
    for sub in subcommands(command).values():
        assert "".join(sub.get_short_help_str(10_000).split()) in text
    if path != ("referee",):
        assert f"`{' '.join(path)}" in README or f"\n{' '.join(path)} " in README, f"the README lists {path}"


README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


# ------------------------------------------------------------------ one behaviour across commands (issue 19)


@pytest.mark.parametrize(
    "args, meant",
    [
        (["rules", "GUANDAN"], "did you mean guandan?"),
        (["rules", "gouj"], "did you mean gouji?"),
        (["rules", "GUANDNA"], "did you mean guandan?"),
        (["validate", "--rule", "GUANDAN.FOLOW", VALID], "did you mean guandan.follow?"),
        (["explain", "guandan.folow"], "did you mean guandan.follow?"),
        (["validate", "--rule", "guandan.folow", VALID], "did you mean guandan.follow?"),
        (["validate", "--rule", "gandengyan.foll", VALID], "did you mean gandengyan.follow?"),
    ],
)
def test_an_unknown_name_exits_2_with_the_name_probably_meant(args, meant):
    result = run(*args)
    assert result.exit_code == 2 and meant in result.stderr


@pytest.mark.parametrize("rule", ["guandan", "guandan.tribute", "guandan.follow", "notation"])
def test_a_rule_id_or_the_start_of_some_is_a_filter(rule):
    assert run("validate", "--rule", rule, VALID).exit_code == 0


@pytest.mark.parametrize(
    "args",
    [
        ["--deal", "99"],
        ["--deal", "0"],
        ["--deal", "1", "--step", "999"],
        ["--deal", "1", "--action", "999"],
        ["--deal", "1", "--action", "0"],
        ["--finding", "5"],
        ["--finding", "0"],
        ["--step", "0", "--action", "1"],
    ],
)
def test_a_replay_request_for_what_is_not_there_exits_2(args):
    assert run("replay", DISPUTED, *args).exit_code == 2


def test_quiet_and_json_together_are_refused():
    result = run("validate", "-q", "--json", VALID)
    assert result.exit_code == 2 and "-q" in result.stderr and "--json" in result.stderr


def test_an_interrupted_command_exits_130(monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("referee.cli.main.replay_steps", interrupted)
    result = run("replay", VALID, "--deal", "1")
    assert result.exit_code == 130 and "Aborted!" in result.stderr


@pytest.mark.parametrize(
    "command",
    [
        "validate",
        "replay",
        "fmt",
        "rules",
        "explain",
        "import",
        "audit",
        "serve",
        "results check",
        "standings",
        "schema",
        "store import",
        "store show",
        "store list",
        "store report",
        "store export",
        "store delete",
        "store standings",
    ],
)
def test_every_command_states_its_exit_status(command):
    shown = " ".join(run(*command.split(), "--help").stdout.split())
    assert "Exit status" in shown, command


@pytest.mark.parametrize("final_newline", [True, False])
def test_fmt_diff_applies_with_patch(tmp_path, final_newline):
    import shutil
    import subprocess

    if shutil.which("patch") is None:
        pytest.skip("no patch command on this machine")
    path = tmp_path / "messy.json"
    path.write_text(json.dumps(aliased(ONE_DEAL)) + ("\n" if final_newline else ""))
    diff = run("fmt", "--diff", path)
    assert diff.exit_code == 1 and ("\\ No newline at end of file" in diff.stdout) is not final_newline
    applied = subprocess.run(["patch", "-p0", "-s"], input=diff.stdout, text=True, cwd="/", capture_output=True)
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert path.read_text() == run("fmt", path).stdout and run("fmt", "--check", path).exit_code == 0


def test_fmt_leaves_an_empty_json_lines_file_alone(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert run("fmt", "--check", empty).exit_code == 0
    assert run("fmt", "-w", empty).exit_code == 0 and empty.read_text() == ""
    assert run("fmt", empty).stdout == ""


def test_fmt_refuses_a_record_too_big_as_validate_does(tmp_path, monkeypatch):
    monkeypatch.setattr("referee.batch.MAX_RECORD_BYTES", 100)
    big = tmp_path / "big.json"
    big.write_text(json.dumps(ONE_DEAL))
    result = run("fmt", big)
    assert result.exit_code == 2 and "notation.size" in result.stderr
    broken = tmp_path / "broken.json"
    broken.write_text('{"cgr": 1,')
    result = run("fmt", broken)
    assert result.exit_code == 2 and "notation.json" in result.stderr


# ------------------------------------------------------------------ one input reader (issue 19)


@pytest.fixture
def gzipped(tmp_path):
    """A record gzip-compressed in files whose names do not say so, and pretty-printed JSON."""
    import gzip

    record = json.loads(VALID.read_text())
    (tmp_path / "record.dat").write_bytes(gzip.compress(json.dumps(record, indent=2).encode()))
    (tmp_path / "records.jsonl").write_bytes(gzip.compress(((json.dumps(record) + "\n") * 2).encode()))
    (tmp_path / "pretty.json").write_text(json.dumps(record, indent=2))
    return tmp_path


def test_gzip_is_recognised_by_content_in_every_command_that_reads_records(gzipped):
    dat, jsonl = gzipped / "record.dat", gzipped / "records.jsonl"
    assert run("validate", "-q", dat).exit_code == 0 and run("validate", "-q", jsonl).output.count("VALID") == 2
    assert run("validate", "-q", "-", stdin=dat.read_bytes()).exit_code == 0
    assert run("replay", dat, "--deal", "1", "--step", "0").exit_code == 0
    assert run("fmt", "--check", dat).exit_code in (0, 1) and run("fmt", dat).stdout.startswith("{")
    written = run("fmt", "-w", dat)
    assert written.exit_code == 2 and "gzip" in written.stderr and dat.read_bytes()[:2] == b"\x1f\x8b"
    db = gzipped / "store.db"
    assert run("store", "import", "--db", db, dat).exit_code == 0


def test_audit_reads_a_pretty_printed_json_file_as_one_record(gzipped, tmp_path):
    pytest.importorskip("dask")
    out = tmp_path / "out"
    result = run("audit", gzipped / "pretty.json", "-o", out, "--workers", "1")
    lines = [line for path in sorted(out.glob("*.jsonl")) for line in path.read_text().splitlines()]
    assert result.exit_code == 0 and len(lines) == 1 and json.loads(lines[0])["valid"]
