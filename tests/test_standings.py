"""Standings (docs/formats/results-sheet.md): match points, margin, the results between the tied,
name; invalid matches apart; the command line and the API give the same numbers."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.api import create_app
from referee.cli.main import main
from referee.standings import StandingsError, standings

EVENT = Path(__file__).parent.parent / "samples" / "event"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def guandan(round_, table, teams, levels, winner=None, error=None):
    """A Guandan match as the standings read it: (source, record, report)."""
    (a, c), (b, d) = teams
    record = {
        "game": "guandan",
        "players": [a, b, c, d],
        "deals": [{}],
        "meta": {"event": "Cup", "round": str(round_), "table": str(table)},
    }
    findings = [{"severity": "error", "rule": error, "at": "/deals/0", "message": "wrong"}] if error else []
    return f"r{round_}t{table}", record, {"findings": findings, "match": {"levels": levels, "winner": winner}}


A, B, C, D, E, F = ("A1", "A2"), ("B1", "B2"), ("C1", "C2"), ("D1", "D2"), ("E1", "E2"), ("F1", "F2")


def rows(table):
    return [(row["entrant"], row["match_points"], row["margin"], row["tie_break"]) for row in table["standings"]]


def test_margin_then_the_results_between_the_tied_then_name():
    entries = [
        guandan(1, 1, (A, B), ["5", "3"]),  # A beats B by 2
        guandan(1, 2, (C, D), ["4", "6"]),  # D beats C by 2
        guandan(1, 3, (E, F), ["7", "7"]),  # E and F draw
        guandan(2, 1, (A, D), ["2", "4"]),  # D beats A by 2
        guandan(2, 2, (B, C), ["8", "6"]),
    ]  # B beats C by 2
    assert rows(standings(entries)) == [
        ("D1 & D2", 4, 4, None),
        ("A1 & A2", 2, 0, "head-to-head"),  # level with B on points and margin; beat B
        ("B1 & B2", 2, 0, "head-to-head"),
        ("E1 & E2", 1, 0, "name"),  # level with F on everything
        ("F1 & F2", 1, 0, "name"),
        ("C1 & C2", 0, -4, None),
    ]


def test_margin_breaks_a_tie_on_match_points_and_points_are_the_desks():
    entries = [guandan(1, 1, (A, B), ["9", "3"]), guandan(1, 2, (C, D), ["4", "3"])]
    table = standings(entries, points=(3, 1, 0))
    assert rows(table) == [
        ("A1 & A2", 3, 6, "margin"),
        ("C1 & C2", 3, 1, "margin"),
        ("D1 & D2", 0, -1, "margin"),
        ("B1 & B2", 0, -6, "margin"),
    ]
    assert [row["rank"] for row in table["standings"]] == [1, 2, 3, 4]


def test_a_team_past_a_wins_even_at_equal_levels_and_draws_count_one_point():
    entries = [guandan(1, 1, (A, B), ["A", "A"], winner=1), guandan(1, 2, (C, D), ["T", "T"])]
    table = {row["entrant"]: row for row in standings(entries)["standings"]}
    assert (table["B1 & B2"]["won"], table["A1 & A2"]["lost"]) == (1, 1)
    assert table["C1 & C2"]["drawn"] == table["D1 & D2"]["drawn"] == 1 and table["C1 & C2"]["match_points"] == 1


def test_an_invalid_match_is_listed_apart_and_counted_only_when_asked():
    entries = [guandan(1, 1, (A, B), ["5", "3"]), guandan(1, 2, (C, D), ["5", "3"], error="guandan.follow")]
    table = standings(entries)
    assert [row["entrant"] for row in table["standings"]] == ["A1 & A2", "B1 & B2"]
    assert table["invalid"] == [
        {
            "id": "r1t2",
            "records": ["r1t2"],
            "game": "guandan",
            "round": "1",
            "table": "2",
            "reason": "guandan.follow: wrong",
            "counted": False,
            "why": {"template": "{rule}: {message}", "params": {"rule": "guandan.follow", "message": "wrong"}},
        }
    ]
    counted = standings(entries, count_invalid=True)
    assert len(counted["standings"]) == 4 and counted["invalid"][0]["counted"] and counted["counted"] == 2


def test_records_of_several_events_need_the_event():
    other = guandan(1, 1, (C, D), ["5", "3"])
    other[1]["meta"]["event"] = "Open"
    with pytest.raises(StandingsError, match="choose one with --event"):
        standings([guandan(1, 1, (A, B), ["5", "3"]), other])
    assert rows(standings([guandan(1, 1, (A, B), ["5", "3"]), other], "open"))[0][0] == "C1 & C2"


def test_the_sample_event():
    result = run("standings", EVENT)
    assert result.exit_code == 0
    table = json.loads(run("standings", EVENT, "--json").stdout)
    first = table["standings"][0]
    assert (first["game"], first["entrant"], first["won"], first["match_points"], first["margin"]) == (
        "gandengyan",
        "Lin",
        2,
        4,
        36,
    )  # round 2 was recorded in two parts: one match
    guandan_rows = [row for row in table["standings"] if row["game"] == "guandan"]
    assert [(r["entrant"], r["won"], r["drawn"], r["lost"], r["tie_break"]) for r in guandan_rows[:2]] == [
        ("Fay & Hal", 1, 1, 0, "margin"),
        ("Eve & Gus", 1, 1, 0, "margin"),
    ]
    assert table["matches"] == 8 and table["records"] == 9
    csv_rows = run("standings", EVENT, "--csv").stdout.splitlines()
    assert csv_rows[0] == "rank,game,entrant,played,won,drawn,lost,match_points,margin,tie_break"
    assert csv_rows[1] == "1,gandengyan,Lin,2,2,0,0,4,36,"


def test_options_and_inputs_that_are_wrong():
    assert run("standings", EVENT, "--points", "2,1").exit_code == 2
    assert run("standings", EVENT, "--event", "Nobody").exit_code == 2
    assert run("standings").exit_code == 2
    assert run("standings", EVENT / "sheet.csv").exit_code == 2  # a file that holds no record
    assert run("standings", EVENT.parent / "guandan" / "no-such-folder").exit_code == 2


def test_the_cli_and_the_api_give_the_same_standings(tmp_path):
    db = tmp_path / "store.db"
    assert run("store", "import", "--db", db, EVENT).exit_code == 0
    cli = json.loads(run("standings", "--db", db, "--event", "Desk Cup 2026", "--json").stdout)
    api = create_app(str(db), read_only=True).test_client().get("/v1/events/Desk Cup 2026/standings").get_json()
    files = json.loads(run("standings", EVENT, "--json").stdout)
    assert cli == api
    assert cli["standings"] == files["standings"] and cli["counted"] == files["counted"] == 8
    assert json.loads(run("store", "standings", "Desk Cup 2026", "--db", db, "--json").stdout) == api
