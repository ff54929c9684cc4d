"""`referee results check`: a results sheet against the records (docs/formats/results-sheet.md)."""

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from tests.event_gen import in_parts
from tests.gandengyan_gen import match_record as gdy_record
from tests.gouji_gen import match_record as gouji_record
from tests.guandan_gen import match_record as guandan_record

SAMPLES = Path(__file__).parent.parent / "samples"
HEADER = "event,round,table,game,players,winner,levels,totals,deals"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def with_meta(record, round_, table, event="Open", **more):
    record = copy.deepcopy(record)
    record["meta"] = dict(event=event, round=str(round_), table=str(table), **more)
    return record


def write_records(folder, *records, name="event.jsonl"):
    path = folder / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def write_sheet(folder, *rows, header=HEADER, name="sheet.csv", encoding="utf-8"):
    path = folder / name
    path.write_bytes(("\n".join((header,) + rows) + "\n").encode(encoding))
    return path


GUANDAN = guandan_record(1, max_deals=2)  # stops before it is won: levels 5 2, team 0 ahead
GDY = gdy_record(2, seats=4, deals=3)  # totals -14 26 0 -12: P1 ahead
GOUJI = gouji_record(2, deals=2)  # totals -18 18: team 1 ahead
GOUJI_DRAW = gouji_record(3, deals=2)  # totals 0 0: a draw


@pytest.fixture
def event(tmp_path):
    return write_records(
        tmp_path, with_meta(GUANDAN, 1, 1), with_meta(GDY, 1, 2), with_meta(GOUJI, 1, 3), with_meta(GOUJI_DRAW, 2, 3)
    )


def check(tmp_path, event, *rows, options=()):
    result = run("results", "check", write_sheet(tmp_path, *rows), event, "--json", *options)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    return result.exit_code, lines


AGREEING = [
    "Open,1,1,guandan,Ann/Bo/Cy/Di,0,5/2,,2",
    "Open,1,1,掼蛋,,Ann/Cy,5/2,,",
    "Open,1,2,gandengyan,P0/P1/P2/P3,P1,,-14/26/0/-12,3",
    "Open,1,3,gouji,Ann/Bo/Cy/Di/Ed/Flo,1,,-18/18,2",
    "Open,1,3,,,Bo/Di/Flo,,,",
    "Open,2,3,gouji,,draw,,0/0,2",
]


@pytest.mark.parametrize("row", AGREEING)
def test_every_cell_kind_agrees_for_each_game(tmp_path, event, row):
    _, lines = check(tmp_path, event, row)
    assert lines[0]["status"] == "agrees" and lines[0]["problems"] == [], lines[0]
    assert all(cell["agrees"] for cell in lines[0]["cells"].values())


DIFFERING = [
    ("Open,1,1,gouji,,,,,", "game", "guandan"),
    ("Open,1,1,,Ann/Cy/Bo/Di,,,,", "players", "Ann/Bo/Cy/Di"),
    ("Open,1,1,,,1,,,", "winner", "0 (Ann/Cy)"),
    ("Open,1,1,,,draw,,,", "winner", "0 (Ann/Cy)"),
    ("Open,1,1,,,,5/3,,", "levels", "5/2"),
    ("Open,1,1,,,,,,3", "deals", "2"),
    ("Open,1,2,,,P2,,,", "winner", "P1"),
    ("Open,1,2,,,,,-14/26/-12/0,", "totals", "-14/26/0/-12"),
    ("Open,1,2,,,,,,2", "deals", "3"),
    ("Open,1,3,,,0,,,", "winner", "1 (Bo/Di/Flo)"),
    ("Open,1,3,,,,,18/-18,", "totals", "-18/18"),
    ("Open,1,3,,Ann/Bo,,,,", "players", "Ann/Bo/Cy/Di/Ed/Flo"),
    ("Open,2,3,,,1,,,", "winner", "draw"),
    ("Open,1,2,guandan,,,,,", "game", "gandengyan"),
    ("Open,1,2,,P0/P1/P3/P2,,,,", "players", "P0/P1/P2/P3"),
    ("Open,1,3,gandengyan,,,,,", "game", "gouji"),
    ("Open,1,3,,,,,,3", "deals", "2"),
]


@pytest.mark.parametrize("row, column, computed", DIFFERING)
def test_every_cell_kind_differs_for_each_game(tmp_path, event, row, column, computed):
    status, lines = check(tmp_path, event, row)
    assert status == 1
    assert lines[0]["status"] == "differs"
    wrong = {name: cell["computed"] for name, cell in lines[0]["cells"].items() if not cell["agrees"]}
    assert wrong == {column: computed}


def test_the_text_names_the_cell_with_both_values_and_the_exit_status_is_1(tmp_path, event):
    sheet = write_sheet(tmp_path, *AGREEING[:1], "Open,1,2,,,,,-14/26/0/-11,")
    result = run("results", "check", sheet, event)
    assert result.exit_code == 1
    assert (
        "line 3  event Open, round 1, table 2  differs  totals: sheet -14/26/0/-11, computed -14/26/0/-12"
        in result.stdout
    )
    assert "Summary: 2 row(s): 1 agree, 1 differ" in result.output


def test_all_agreeing_exits_0_and_a_record_no_row_names_exits_1(tmp_path, event):
    sheet = write_sheet(tmp_path, "Open,1,1,,,0,,,", "Open,1,2,,,P1,,,", "Open,1,3,,,1,,,", "Open,2,3,,,draw,,,")
    assert run("results", "check", sheet, event).exit_code == 0
    status, lines = check(tmp_path, event, "Open,1,1,,,0,,,", "Open,1,2,,,P1,,,", "Open,1,3,,,1,,,")
    assert status == 1
    assert lines[-1] == {"status": "no_row", "source": f"{event}:4", "event": "Open", "round": "2", "table": "3"}


def test_a_row_without_a_record_and_an_invalid_record(tmp_path):
    broken = with_meta(GDY, 1, 2)
    broken["deals"][1]["result"]["scores"] = [0, 0, 0, 0]
    event = write_records(tmp_path, with_meta(GUANDAN, 1, 1), broken)
    status, lines = check(tmp_path, event, "Open,1,1,,,0,,,", "Open,1,2,,,P1,,,", "Open,9,9,,,0,,,")
    assert status == 1
    assert [line["status"] for line in lines] == ["agrees", "invalid", "no_record"]
    assert lines[1]["error"]["rule"] == "gandengyan.result.scores" and lines[1]["error"]["source"] == f"{event}:2"


def test_two_events_with_the_same_round_and_table_are_ambiguous_without_the_event(tmp_path):
    event = write_records(tmp_path, with_meta(GUANDAN, 1, 1), with_meta(GDY, 1, 1, event="Cup"))
    sheet = write_sheet(tmp_path, "1,1,0", header="round,table,winner")
    result = run("results", "check", sheet, event, "--json")
    line = json.loads(result.stdout.splitlines()[0])
    assert line["status"] == "ambiguous" and len(line["records"]) == 2 and '"Cup"' in line["reason"]
    status, lines = check(tmp_path, event, "Open,1,1,,,0,,,", "Cup,1,1,,,P1,,,")
    assert status == 0 and [line["status"] for line in lines] == ["agrees", "agrees"]


def test_records_of_one_table_with_different_players_are_ambiguous(tmp_path):
    other = with_meta(GUANDAN, 1, 1)
    other["players"] = ["W", "X", "Y", "Z"]
    event = write_records(tmp_path, with_meta(GUANDAN, 1, 1), other)
    _, lines = check(tmp_path, event, "Open,1,1,,,0,,,")
    assert lines[0]["status"] == "ambiguous" and "different games or players" in lines[0]["reason"]


@pytest.mark.parametrize("chained", [True, False])
def test_a_match_in_parts_is_one_match(tmp_path, chained):
    first, second = in_parts(with_meta(GDY, 1, 2), 1, chained)
    second["meta"]["date"], first["meta"]["date"] = "2026-05-01T15:00", "2026-05-01T14:00"
    event = write_records(tmp_path, second, first)  # the dates put them in order
    status, lines = check(tmp_path, event, "Open,1,2,,,P1,,-14/26/0/-12,3")
    assert status == 0, lines
    assert lines[0]["records"] == [f"{event}:2", f"{event}:1"]


@pytest.mark.parametrize(
    "claim, row",
    [  # notation §10: the outcome as ruled, which `validate` reports too
        ({"winner": 0}, "Open,1,2,,,P0,,-14/26/0/-12,"),
        ({"totals": [30, 0, -10, -20]}, "Open,1,2,,,P0,,30/0/-10/-20,"),
    ],
)
def test_a_claim_a_ruling_let_stand_decides_the_winner(tmp_path, claim, row):
    record = with_meta(GDY, 1, 2)
    key = next(iter(claim))
    record["result"] = claim
    record["rulings"] = [{"rule": f"gandengyan.match.{key}", "at": f"/result/{key}", "decision": "claim", "by": "x"}]
    event = write_records(tmp_path, record)
    status, lines = check(tmp_path, event, row)
    assert status == 0, lines


@pytest.mark.parametrize("chained", [True, False])
def test_a_ruled_winner_of_an_earlier_part_does_not_end_the_match(tmp_path, chained):
    first, second = in_parts(with_meta(GDY, 1, 2), 1, chained)
    first["result"] = {"winner": 0}
    first["rulings"] = [{"rule": "gandengyan.match.winner", "at": "/result/winner", "decision": "claim", "by": "x"}]
    event = write_records(tmp_path, first, second)
    status, lines = check(tmp_path, event, "Open,1,2,,,P1,,-14/26/0/-12,3")
    assert status == 0, lines


def test_ruled_totals_that_are_not_one_for_each_entrant_count_no_match(tmp_path):
    record = with_meta(GDY, 1, 2)
    record["result"] = {"totals": [0, 0, 0, 0, 10]}
    record["rulings"] = [{"rule": "gandengyan.match.totals", "at": "/result/totals", "decision": "claim", "by": "x"}]
    event = write_records(tmp_path, record)
    shown = run("standings", event)
    assert shown.exit_code == 0 and "0 of 1 match(es) counted" in shown.output


def test_the_sheets_own_problems_are_named_by_line_and_column(tmp_path, event):
    sheet = write_sheet(
        tmp_path,
        "Open,1,1,,,,Z/2,,",
        "Open,1,2,,,P9,,x/1,",
        "Open,1,1,,,0,,,",
        "Open,,3,,,,,,",
        "Open,1,2,,,,5/2,,",
        "Open,2,3,,,draw,,,,2",
    )
    result = run("results", "check", sheet, event)
    assert result.exit_code == 1
    for expected in [
        'line 2, column levels: "Z/2" is not two levels',
        'line 3, column totals: "x" is not a list',
        'line 3, column winner: "P9" names no player',
        "line 4, column table: the same match as line 2",
        "line 5, column round: empty",
        "line 6, column levels: gandengyan has no levels",
        "line 7, column #10: 1 filled cell(s) past the header's 9 columns",
    ]:
        assert expected in result.stdout


@pytest.mark.parametrize(
    "header, twice",
    [
        ("event,round,table,round", '"round" and "round"'),
        ("event,Round,table,rnd", '"Round" and "rnd"'),
        ("event,round,table,table", '"table" and "table"'),
    ],
)
def test_a_column_named_twice_is_the_sheets_problem_exit_2(tmp_path, event, header, twice):
    """Which of two cells holds a column's value is anyone's guess: named twice, the column is refused."""
    result = run("results", "check", write_sheet(tmp_path, "Open,1,1,2", header=header), event)
    assert result.exit_code == 2 and "line 1: the column" in result.output and twice in result.output


def test_a_sheet_without_a_round_column_or_a_record_that_cannot_be_read_exit_2(tmp_path, event):
    sheet = write_sheet(tmp_path, "1,0", header="table,winner")
    result = run("results", "check", sheet, event)
    assert result.exit_code == 2 and "line 1: no column round" in result.output
    (tmp_path / "bad.json").write_text("{not json")
    good = write_sheet(tmp_path, "Open,1,1,,,0,,,")
    result = run("results", "check", good, event, tmp_path / "bad.json")
    assert result.exit_code == 2 and "cannot read" in result.output
    assert run("results", "check", tmp_path / "none.csv", event).exit_code == 2
    (tmp_path / "empty").mkdir()
    assert run("results", "check", good, tmp_path / "empty").exit_code == 2  # a folder holding no record


def test_the_sheets_own_problem_is_said_in_chinese(tmp_path, event):
    sheet = write_sheet(tmp_path, "x,1,1,0", header="event,round,tabel,winner")
    shown = run("--lang", "zh", "results", "check", sheet, event)
    assert shown.exit_code == 2 and "第 1 行" in shown.output and "line 1" not in shown.output, shown.output


def test_csv_output_one_row_per_sheet_row(tmp_path, event):
    sheet = write_sheet(tmp_path, "Open,1,1,,,1,,,")
    result = run("results", "check", sheet, event, "--csv")
    rows = result.stdout.splitlines()
    assert rows[0] == "line,status,event,round,table,game,detail"
    assert rows[1] == '2,differs,Open,1,1,guandan,"winner: sheet 1, computed 0 (Ann/Cy)"'
    assert rows[2].startswith(",no_row,Open,1,2,") and len(rows) == 5


def test_csv_output_shows_the_controls_a_cell_holds_as_markers(tmp_path, event):
    """An escape sequence in a sheet's cell (a terminal title, a bell) is shown as the text output shows it, in
    every cell it reaches (the event, the detail quoting the sheet), never passed on to the terminal."""
    sheet = write_sheet(tmp_path, "\x1b]0;pwned\x07Open,1,1,,,7,,,")
    result = run("results", "check", sheet, event, "--csv")
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "⟨U+001B⟩]0;pwned⟨U+0007⟩Open" in result.stdout


def test_the_store_is_read_with_db(tmp_path, event):
    db = tmp_path / "store.db"
    assert run("store", "import", "--db", db, event).exit_code == 0
    sheet = write_sheet(tmp_path, "Open,1,1,,,0,,,", "Open,1,2,,,P1,,,", "Open,1,3,,,1,,,", "Open,2,3,,,1,,,")
    result = run("results", "check", sheet, "--db", db)
    assert (
        result.exit_code == 1
        and "line 5  event Open, round 2, table 3  differs  winner: sheet 1, computed draw" in result.stdout
    )


# ---------------------------------------------------------------- input conventions


@pytest.mark.parametrize(
    "data, row, how",
    [
        (
            "\ufeffRound;Table No;WINNER;Totals\n1;2;P1;-14/26/0/-12\n".encode("utf-8"),
            "line 2  round 1, table 2  agrees  winner, totals",
            "the sheet read as UTF-8 with BOM, separated by semicolons",
        ),
        (
            "赛事,轮次,桌号,胜方,级数,局数,备注\nOpen,1,1,Ann/Cy,5/3,2,好\n".encode("gbk"),
            "line 2  event Open, round 1, table 1  differs  levels: sheet 5/3, computed 5/2",
            "the sheet read as GB18030, separated by commas; columns not checked: 备注",
        ),
    ],
    ids=["utf-8 with BOM, semicolons", "Chinese headers in GBK"],
)
def test_encodings_separators_and_headers_are_read_and_said(tmp_path, event, data, row, how):
    sheet = tmp_path / "sheet.csv"
    sheet.write_bytes(data)
    result = run("results", "check", sheet, event)
    assert row in result.stdout and how in result.stdout


def test_tabs_and_columns_renamed_with_columns(tmp_path, event):
    sheet = tmp_path / "tabs.csv"
    sheet.write_text("Rd\tTbl\tW\n1\t1\t0\n1\t3\t0\n")
    result = run(
        "results", "check", sheet, event, "--columns", "Rd=round, tbl=table", "--columns", "W=winner", "--json"
    )
    assert [json.loads(line)["status"] for line in result.stdout.splitlines()[:2]] == ["agrees", "differs"]
    assert "the sheet read as UTF-8, separated by tabs" in result.stderr
    assert run("results", "check", sheet, event).exit_code == 2
    bad = run("results", "check", sheet, event, "--columns", "Rd")
    assert bad.exit_code == 2 and "HEADER=COLUMN" in bad.output
    wrong = run("results", "check", sheet, event, "--columns", "Rd=rounds")
    assert wrong.exit_code == 2 and "names no column rounds" in wrong.output


def test_a_sheet_in_no_known_encoding_exits_2(tmp_path, event):
    sheet = tmp_path / "binary.csv"
    sheet.write_bytes(b"round,table\n1,1\n\x81\x30\xff\xff\n")
    result = run("results", "check", sheet, event)
    assert result.exit_code == 2 and "neither UTF-8 nor GB18030" in result.output


# ---------------------------------------------------------------- the sample event


def test_the_sample_event_is_reproducible(tmp_path):
    from referee.canonical import canonical, dumps
    from tests.event_gen import SHEET, records

    folder = SAMPLES / "event"
    assert sorted(p.name for p in folder.glob("*.json")) == sorted(records())
    for name, record in records().items():
        assert (folder / name).read_text() == dumps(canonical(record)) + "\n", name
    assert (folder / "sheet.csv").read_text() == SHEET


def test_the_sample_sheet_has_one_wrong_row_and_the_check_finds_only_it():
    result = run("results", "check", SAMPLES / "event" / "sheet.csv", SAMPLES / "event", "--json")
    assert result.exit_code == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(line["line"], line["status"]) for line in lines if line["status"] != "agrees"] == [(6, "differs")]
    assert lines[4]["cells"]["levels"] == {"sheet": "2/8", "computed": "2/7", "agrees": False}
    assert len(lines) == 8


def test_quoted_cells_apostrophes_and_windows_line_ends(tmp_path):
    event = write_records(
        tmp_path, with_meta(GUANDAN, 1, 1, event="Huai'an Open"), with_meta(GDY, 1, 2, event="Huai'an Open")
    )
    sheet = tmp_path / "excel.csv"
    sheet.write_bytes(
        b"event,round,table,winner,notes\r\nHuai'an Open,1,1,0,\"two\r\nlines\"\r\nHuai'an Open,1,2,P2,'x'\r\n"
    )
    result = run("results", "check", sheet, event)
    assert result.stdout.splitlines()[:2] == [
        "line 2  event Huai'an Open, round 1, table 1  agrees  winner",
        "line 4  event Huai'an Open, round 1, table 2  differs  winner: sheet P2, computed P1",
    ]


@pytest.mark.parametrize("value, shown", [({"a": 1}, '{"a": 1}'), (True, "true"), ([1], "[1]")])
def test_a_meta_value_that_is_no_string_is_shown_as_its_json(tmp_path, value, shown):
    """meta values are free strings: another is a structure error, and where the desk shows it, it is its JSON,
    never as Python writes it ({'a': 1}, True)."""
    record = copy.deepcopy(GUANDAN)
    record["meta"] = {"event": "Open", "round": value, "table": "1"}
    sheet, records = write_sheet(tmp_path, "Open,1,1,guandan,,,,,"), write_records(tmp_path, record)
    text = run("results", "check", sheet, records).stdout
    assert f"round {shown}, table 1  no row names it" in text
    unnamed = [json.loads(line) for line in run("results", "check", sheet, records, "--json").stdout.splitlines()]
    assert unnamed[-1]["status"] == "no_row" and unnamed[-1]["round"] == shown


def test_records_given_neither_way_and_a_missing_folder_are_said_plainly(tmp_path, event):
    sheet = write_sheet(tmp_path, "Open,1,1,,,0,,,")
    neither = run("results", "check", sheet)
    assert neither.exit_code == 2 and "give the records: files or folders of them, or --db STORE" in neither.output
    assert "not both" not in neither.output
    missing = run("results", "check", sheet, tmp_path / "nonexist")
    assert missing.exit_code == 2 and missing.output.count("cannot read") == 1
