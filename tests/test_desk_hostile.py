"""The tournament desk under hostile sheets and records (issue 31): no traceback, time linear (or
n log n) in the input, numbers and text that cannot leave as they came refused or shown escaped.
Times are CPU seconds with generous bounds (the quadratic readings these replace took 15-60 s);
the speed itself is measured in benchmarks/desk.py."""

import contextlib
import csv
import io
import json
import resource

import pytest
from click.testing import CliRunner

from referee.cli.common import spreadsheet_text, visible
from referee.cli.main import main
from referee.results import Played, check_sheet, loose_key, played
from referee.sheet import read_sheet
from referee.standings import standings
from tests.guandan_gen import match_record as guandan_record
from tests.test_results import with_meta, write_records, write_sheet

GUANDAN = with_meta(guandan_record(1, max_deals=2), 1, 1)  # levels 5 2: team 0 ahead


def run(*args, **kwargs):
    return CliRunner().invoke(main, [str(a) for a in args], **kwargs)


def cpu_seconds(function, *args):
    """What `function(*args)` costs in CPU seconds, and what it returns."""

    def now():
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    began = now()
    value = function(*args)
    return now() - began, value


def two_player(number: int, event="Cup", round_=None) -> Played:
    """A Gan Deng Yan match of two players as the desk reads it, each match with players of its own."""
    record = {
        "game": "gandengyan",
        "players": [f"p{number}a", f"p{number}b"],
        "deals": 1,
        "meta": {"event": event, "round": str(round_ or number), "table": "1"},
    }
    return Played(f"r{number}", record, {"findings": [], "match": {"totals": [number % 3, -(number % 3)]}})


# ---------------------------------------------------------------- 1. records of any shape


@pytest.mark.parametrize("meta", [["Open", "1"], "Open", 7, None])
@pytest.mark.parametrize("drop_game", [False, True])
def test_a_record_whose_meta_is_no_object_or_without_game_is_a_finding_not_a_traceback(tmp_path, meta, drop_game):
    good = dict(GUANDAN, meta={"round": "1", "table": "1"})  # both of no event
    broken = dict(GUANDAN, meta=meta)
    if drop_game:
        del broken["game"]
    records = write_records(tmp_path, good, broken)
    checked = run("results", "check", write_sheet(tmp_path, "1,1,0", header="round,table,winner"), records)
    assert checked.exception is None or isinstance(checked.exception, SystemExit), checked.exception
    assert checked.exit_code == 1 and "no row names it" in checked.stdout
    for options in ([], ["--count-invalid"], ["--json"], ["--csv"]):
        table = run("standings", records, *options)
        assert table.exception is None or isinstance(table.exception, SystemExit), (options, table.exception)
        assert table.exit_code == 0, (options, table.output)


def test_standings_look_at_a_records_errors_before_computing_its_result():
    broken = (
        "r1",
        {"players": "Ann", "meta": {"event": "Cup", "round": "1", "table": "1"}},
        {
            "findings": [{"severity": "error", "rule": "notation.schema", "at": "/game", "message": "no game"}],
            "match": None,
        },
    )
    table = standings([broken], "Cup")
    assert table["invalid"][0]["reason"] == "notation.schema: no game" and table["standings"] == []
    counted = standings([broken], "Cup", count_invalid=True)
    assert counted["counted"] == 0 and counted["not_counted"][0]["reason"] == "its result could not be computed"


# ---------------------------------------------------------------- 2, 3, 7. cells


@pytest.mark.parametrize("winner", ["team" + "1" * 5000, "9" * 5000, "seat " + "0" * 5000 + "7"])
def test_a_winner_of_thousands_of_digits_names_no_team(tmp_path, winner):
    records = write_records(tmp_path, GUANDAN)
    result = run("results", "check", write_sheet(tmp_path, f"Open,1,1,,,{winner},,,"), records)
    assert result.exit_code == 1 and "names no team" in result.stdout, result.output


def test_a_cell_longer_than_csvs_limit_is_read(tmp_path):
    records = write_records(tmp_path, GUANDAN)
    result = run("results", "check", write_sheet(tmp_path, "Open,1,1,,," + "x" * 200_000 + ",,,"), records)
    assert result.exit_code == 1 and "line 2, column winner" in result.stdout and "names no team" in result.stdout


def test_a_round_of_many_zeros_is_read_in_linear_time():
    spent, key = cpu_seconds(loose_key, "0" * 30_000 + "x")
    assert spent < 2 and key == "0" * 30_000 + "x"
    assert loose_key("Round 003") == loose_key("第3轮") == "3" and loose_key("000") == "0"
    spent, _ = cpu_seconds(lambda: [loose_key("r" + "0" * 20_000 + "x") for _ in range(5)])
    assert spent < 2


# ---------------------------------------------------------------- 4, 5, 6. time linear in the input


def test_a_long_line_is_no_quadratic_separator_guess():
    spent, sheet = cpu_seconds(read_sheet, b"round,table," + b" 'a" * 20_000)
    assert spent < 3 and sheet.delimiter == ","


def test_each_row_is_looked_up_not_compared_with_every_match():
    records = [two_player(n) for n in range(8000)]
    rows = "\n".join(f"Cup,{n},1" for n in range(8000))
    spent, entries = cpu_seconds(
        lambda: list(check_sheet(read_sheet(f"event,round,table\n{rows}\n".encode()), records))
    )
    assert spent < 10 and len(entries) == 8000 and {e["status"] for e in entries} == {"agrees"}


def test_standings_of_thousands_of_entrants_in_n_log_n():
    spent, table = cpu_seconds(standings, [two_player(n) for n in range(4000)], "Cup")
    assert spent < 10 and len(table["standings"]) == 8000
    assert table["standings"][0]["tie_break"] == "name"  # level with the others who won by 2


def test_match_points_beyond_what_totals_can_carry_are_refused_where_they_enter(tmp_path):
    records = write_records(tmp_path, GUANDAN)
    for points in ("2,1," + "9" * 5000, f"{2**62},1,0", "1000001,1,0"):
        result = run("standings", records, "--points", points)
        assert result.exit_code == 2 and "at most 10^6" in result.output, points
    assert run("standings", records, "--points", "1000000,1,-1000000").exit_code == 0


# ---------------------------------------------------------------- 11. CSV injection

FORMULAS = ['=HYPERLINK("http://x","y")', "@SUM(A1)", "+1+1", "-2+3", "\tx", "\rx"]


@pytest.mark.parametrize("formula", FORMULAS)
def test_csv_cells_a_spreadsheet_would_evaluate_are_text(tmp_path, formula):
    record = with_meta(GUANDAN, 1, 1, event=formula)
    record["players"] = [formula, "Bo", "Cy", "Di"]
    records = write_records(tmp_path, record)
    checked = run("results", "check", write_sheet(tmp_path, "1,2", header="round,table"), records, "--csv")
    table = run("standings", records, "--csv")
    for output in (checked.stdout, table.stdout):
        for row in csv.reader(io.StringIO(output, newline="")):
            assert not [
                cell for cell in row if cell[:1] and cell[0] in "=+-@\t\r" and not cell.lstrip("-").isdigit()
            ], row
    shown = visible(formula)  # a bare carriage return is shown as its marker, as in the text output
    assert [spreadsheet_text(shown)] == [
        cell for row in csv.reader(io.StringIO(checked.stdout, newline="")) for cell in row if shown in cell
    ]
    margins = [row["margin"] for row in csv.DictReader(io.StringIO(table.stdout, newline=""))]
    assert sorted(margins) == ["-3", "3"]  # numbers stay numbers


# ---------------------------------------------------------------- 12. terminal controls

CONTROLS = ["\x1b]52;c;ZXZpbA==\x07", "\x1b[2J", "x\ry", "\x9b2J"]


@pytest.mark.parametrize("control", CONTROLS)
def test_terminal_controls_from_a_record_are_shown_escaped(tmp_path, control):
    record = with_meta(GUANDAN, 1, 1, event="Open" + control)
    record["players"] = ["Ann" + control, "Bo", "Cy", "Di"]
    records = write_records(tmp_path, record)
    unknown = write_records(tmp_path, dict(record, rules={"options": {"x" + control: 1}}), name="unknown.jsonl")
    outputs = [
        run("results", "check", write_sheet(tmp_path, "1,1,x", header="round,table,players"), records).output,
        run("standings", records).output,
        run("validate", unknown).output,
        run("replay", records, "--step", 0).output,
    ]
    for output in outputs:
        assert "\x1b" not in output and "\x9b" not in output and "\r" not in output and "\x07" not in output
        assert "⟨U+" in output


# ---------------------------------------------------------------- 13. memory


def test_the_sheets_rows_are_read_as_they_are_asked_for(tmp_path):
    sheet = read_sheet(io.BytesIO(b"round,table\n1,1\n2,2\n"))
    assert not isinstance(sheet.rows, list)
    assert [row.cells for row in sheet.rows] == [{"round": "1", "table": "1"}, {"round": "2", "table": "2"}]


# ---------------------------------------------------------------- the fuzz test


def _fuzz():
    from hypothesis import HealthCheck, given, settings, strategies as st

    text = st.text(alphabet=st.characters(codec="utf-8"), max_size=40) | st.sampled_from(
        ["0", "1", "draw", "team 1", "A/7", "5/2", "-1", "9" * 40, "第3轮", "=1+1", "'", '"', "\x1b[2J"]
    )
    json_value = st.recursive(
        st.none() | st.booleans() | st.integers() | text,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
        max_leaves=8,
    )
    record = st.fixed_dictionaries(
        {},
        optional={
            "cgr": st.just(1) | json_value,
            "game": st.sampled_from(["guandan", "gouji", "gandengyan"]) | json_value,
            "players": st.lists(text, max_size=7) | json_value,
            "deals": st.just([]) | json_value,
            "meta": st.fixed_dictionaries({}, optional={"event": text, "round": text, "table": text, "date": text})
            | json_value,
            "start": json_value,
            "result": json_value,
        },
    )
    rows = st.lists(st.lists(text, max_size=10), max_size=6)

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        rows=rows,
        header=st.lists(text, max_size=10)
        | st.just(["event", "round", "table", "game", "players", "winner", "levels", "totals", "deals"]),
        records=st.lists(record | json_value, max_size=5),
        separator=st.sampled_from(",;\t"),
    )
    def fuzz(rows, header, records, separator):
        out = io.StringIO()
        csv.writer(out, delimiter=separator).writerows([header] + rows)
        items = [(f"r{n}", json.dumps(value)) for n, value in enumerate(records)]
        spent, _ = cpu_seconds(_desk, out.getvalue().encode(), items)
        assert spent < 5

    return fuzz


def _desk(sheet_bytes: bytes, items):
    from referee.sheet import SheetError
    from referee.standings import StandingsError

    checked, _ = played(items)
    try:
        entries = list(check_sheet(read_sheet(sheet_bytes), checked))
        json.dumps(entries)
    except SheetError:
        pass
    for invalid in (False, True):
        with contextlib.suppress(StandingsError):
            json.dumps(standings(checked, None, count_invalid=invalid))


test_hostile_sheets_and_records_never_raise_and_take_bounded_time = _fuzz()


# ---------------------------------------------------------------- the API: 6 (its budget) and 14


def _stored_event(tmp_path, event: str):
    from pathlib import Path

    records = write_records(
        tmp_path,
        *[
            json.loads(p.read_text())
            for p in sorted((Path(__file__).parent.parent / "samples" / "event").glob("*.json"))
        ],
    )
    lines = [
        dict(json.loads(line), meta=dict(json.loads(line)["meta"], event=event))
        for line in records.read_text().splitlines()
    ]
    db = tmp_path / "store.db"
    assert run("store", "import", "--db", db, write_records(tmp_path, *lines, name="renamed.jsonl")).exit_code == 0
    return db


def test_an_event_whose_name_holds_a_slash_has_standings(tmp_path):
    from referee.api import create_app

    client = create_app(str(_stored_event(tmp_path, "Spring/Summer Cup")), read_only=True).test_client()
    for path in ("/v1/events/Spring/Summer Cup/standings", "/v1/events/Spring%2FSummer%20Cup/standings"):
        answer = client.get(path)
        assert answer.status_code == 200 and answer.get_json()["event"] == "Spring/Summer Cup", path


def test_the_api_stops_standings_when_the_requests_time_is_up_during_the_work(tmp_path, monkeypatch):
    import time

    import referee.standings
    from referee.api import create_app
    from referee.api.limits import Limits

    counted = referee.standings._count

    def slowly(*args):
        time.sleep(0.3)
        return counted(*args)

    monkeypatch.setattr(referee.standings, "_count", slowly)
    client = create_app(str(_stored_event(tmp_path, "Cup")), read_only=True, limits=Limits(seconds=0.5)).test_client()
    began = time.monotonic()
    answer = client.get("/v1/events/Cup/standings")
    assert answer.status_code == 422 and answer.get_json()["findings"][0]["rule"] == "api.limit"
    assert time.monotonic() - began < 1.5  # 8 matches would take 2.4 s


def test_a_sheet_from_a_pipe_is_still_read(tmp_path):
    import os
    import threading

    records = write_records(tmp_path, GUANDAN)
    pipe = tmp_path / "sheet.fifo"
    os.mkfifo(pipe)
    writer = threading.Thread(target=lambda: pipe.write_bytes(b"round,table,winner\n1,1,0\n"))
    writer.start()
    result = run("results", "check", pipe, records)
    writer.join(10)
    assert result.exit_code == 0 and "agrees  winner" in result.stdout, result.output
