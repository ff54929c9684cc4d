"""What a record brings in is bounded where it enters (issue 31): option numbers a 64-bit total can
carry, as many players as the game has seats; the command line's output whatever the terminal's
encoding, and a damaged catalogue."""

import json

import pytest
from click.testing import CliRunner

from referee.api import create_app
from referee.cli.main import main
from referee.replay import check_record
from tests.gouji_gen import match_record as gouji_record
from tests.test_desk_hostile import cpu_seconds

GOUJI = gouji_record(2, deals=2)  # a valid match: totals -18 18


def unclaimed(record: dict, options: dict) -> dict:
    """The record under other options, claiming no scores or totals."""
    deals = [{key: value for key, value in deal.items() if key != "result"} for deal in record["deals"]]
    return dict(
        {key: value for key, value in record.items() if key != "result"}, deals=deals, rules={"options": options}
    )


def run(*args, **kwargs):
    return CliRunner().invoke(main, [str(a) for a in args], **kwargs)


# ---------------------------------------------------------------- 8. numbers JSON cannot carry

BIG_OPTIONS = [
    {"place_points": [2**62] * 3 + [-(2**62)] * 3},
    {"sweep_multiplier": 2**62},
    {"place_points": [4, 2, 0, 0, -2, -(10**7)]},
]


@pytest.mark.parametrize("options", BIG_OPTIONS, ids=["place_points", "sweep_multiplier", "one place"])
def test_option_numbers_beyond_what_totals_can_carry_are_refused_where_they_enter(tmp_path, options):
    record = unclaimed(GOUJI, options)
    [name] = options
    findings = check_record(record).findings
    assert [(f.rule, f.at) for f in findings] == [("notation.rules.option", f"/rules/options/{name}")]
    assert "10^6" in findings[0].message
    path = tmp_path / "big.jsonl"
    path.write_text(json.dumps(GOUJI) + "\n" + json.dumps(record) + "\n")
    validated = run("validate", "--json", path)
    assert validated.exception is None or isinstance(validated.exception, SystemExit), validated.exception
    assert validated.exit_code == 1 and len(validated.stdout.splitlines()) == 2
    for command in (["store", "import", "--db", tmp_path / "r.db", path], ["audit", path, "-o", tmp_path / "audit"]):
        done = run(*command)
        assert isinstance(done.exception, SystemExit) and done.exit_code in (0, 1), (command, done.exception)
    answer = create_app(str(tmp_path / "api.db")).test_client().post("/v1/validate", json=record)
    assert answer.status_code == 200 and answer.get_json()["findings"][0]["rule"] == "notation.rules.option"


def test_option_numbers_within_bounds_still_count():
    report = check_record(unclaimed(GOUJI, {"place_points": [10**6, 2, 0, 0, -2, -(10**6)], "sweep_multiplier": 10**6}))
    assert report.valid and max(map(abs, report.match["totals"])) >= 10**6


# ---------------------------------------------------------------- 9. players beyond the game's seats


def crowded(game_record, n=1_900_000):
    """A record of millions of players, the last no name (a structure error the schema would look for)."""
    return dict(game_record, players=["a"] * n + [1])


def test_players_far_beyond_the_games_seats_are_refused_unread():
    assert check_record(dict(GOUJI, players=[f"p{n}" for n in range(6)])).valid
    assert "notation.players" not in [f.rule for f in check_record(dict(GOUJI, players=["p"] * 64)).findings]
    findings = check_record(dict(GOUJI, players=[f"p{n}" for n in range(65)])).findings
    assert [(f.rule, f.at) for f in findings] == [("notation.players", "/players")]
    assert "at most 6 seats" in findings[0].message and "65 players" in findings[0].message
    spent, report = cpu_seconds(check_record, crowded(GOUJI))
    assert spent < 3 and [f.rule for f in report.findings] == ["notation.players"]


def test_a_ruling_of_millions_of_players_names_only_the_seats(tmp_path):
    path = tmp_path / "crowded.json"
    path.write_text(json.dumps(crowded(GOUJI)))
    spent, result = cpu_seconds(run, "ruling", path, "-o", tmp_path / "r.html")
    assert result.exit_code == 0 and spent < 6
    assert (tmp_path / "r.html").stat().st_size < 1_000_000


# ---------------------------------------------------------------- 10. an output that is not UTF-8


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_every_command_speaks_chinese_to_an_output_that_cannot_encode_it(tmp_path, encoding):
    import os
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    samples = Path(__file__).parent.parent / "samples"
    chinese = tmp_path / "对局.json"
    shutil.copy(samples / "guandan" / "match-won-at-a.json", chinese)
    commands = [
        (["validate", chinese], 0),
        (["validate", "--lang", "zh", chinese], 0),
        (["validate", "--lang", "zh", "--json", chinese], 0),
        (["replay", "--lang", "zh", chinese], 0),
        (["standings", "--lang", "zh", samples / "event"], 0),
        (["explain", "--lang", "zh", "guandan.follow"], 0),
        (["results", "check", "--lang", "zh", samples / "event" / "sheet.csv", samples / "event"], 1),
        (["validate", "--lang", "zh", tmp_path / "无.json"], 2),
    ]
    for args, status in commands:
        done = subprocess.run(
            [sys.executable, "-m", "referee.cli.main", *map(str, args)],
            capture_output=True,
            env=dict(os.environ, PYTHONIOENCODING=encoding),
            cwd=Path(__file__).parent.parent,
        )
        assert b"Traceback" not in done.stderr and done.returncode == status, (args, done.stderr[-600:])
        assert done.stdout or done.stderr


# ---------------------------------------------------------------- 15. a damaged catalogue


@pytest.mark.parametrize("damage", ["cut short", "a folder", "empty"])
def test_a_damaged_mo_catalogue_falls_back_to_its_po(tmp_path, monkeypatch, damage):
    import gettext
    import shutil
    from pathlib import Path

    import referee.cli.language
    import referee.messages

    locale = tmp_path / "locale"
    shutil.copytree(referee.messages.LOCALE_DIR, locale)
    for mo in (locale / "zh" / "LC_MESSAGES").glob("*.mo"):
        data = mo.read_bytes()
        mo.unlink()
        if damage == "a folder":
            mo.mkdir()
        else:
            mo.write_bytes(data[:100] if damage == "cut short" else b"")
        (mo.with_suffix(".po")).touch()
        import os

        os.utime(mo, (1e9, 2e9))  # newer than its .po: the .mo would be read first
    monkeypatch.setattr(referee.messages, "LOCALE_DIR", str(locale))
    monkeypatch.setattr(referee.cli.language, "LOCALE_DIR", str(locale))
    monkeypatch.setattr(gettext, "_translations", {})
    referee.messages.translations.cache_clear()
    referee.cli.language._readable_cli_catalogue.cache_clear()
    try:
        sample = Path(__file__).parent.parent / "samples" / "guandan" / "match-won-at-a.json"
        done = run("validate", "--lang", "zh", sample)
        assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
        assert done.exit_code == 0 and "有效" in done.output
        assert done.output.count("cli.mo") == 1  # said once (in Chinese: the referee's words come from the .po)
        assert run("--lang", "zh", "nosuchcommand").exit_code == 2
    finally:
        referee.messages.translations.cache_clear()
        referee.cli.language._readable_cli_catalogue.cache_clear()
