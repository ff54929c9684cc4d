"""Seams a new user met (issue 31, item 16): exit statuses, messages and numbers that said the wrong
thing, and the API taking the short ids the command line takes."""

import json
from pathlib import Path

from click.testing import CliRunner

from referee.api import create_app
from referee.cli.main import main
from tests.gouji_gen import match_record as gouji_record
from tests.guandan_gen import match_record as guandan_record

SAMPLES = Path(__file__).parent.parent / "samples"
WON = SAMPLES / "guandan" / "match-won-at-a.json"
CAPTURES = Path(__file__).parent / "data" / "captures"


def run(*args, **kwargs):
    return CliRunner().invoke(main, [str(a) for a in args], **kwargs)


def test_a_ruling_that_cannot_be_written_exits_2_not_1():
    result = run("ruling", WON, "-o", "/nonexistent/x.html")
    assert result.exit_code == 2 and "/nonexistent/x.html" in result.output


def test_replay_finding_on_a_record_without_findings_says_so():
    result = run("replay", "--finding", 0, WON)
    assert result.exit_code == 2 and "the record has no findings" in result.output and "-1" not in result.output


def test_explain_a_games_name_lists_its_ids_without_guessing_one():
    result = run("explain", "guandan")
    assert result.exit_code == 2 and "did you mean" not in result.output and "guandan.follow" in result.output
    assert "did you mean guandan.follow?" in run("explain", "guandan.folow").output


def test_a_match_no_one_has_won_shows_its_result_so_far(tmp_path):
    stopped = tmp_path / "stopped.json"
    stopped.write_text(json.dumps(guandan_record(1, max_deals=2)))
    drawn = tmp_path / "drawn.json"
    drawn.write_text(json.dumps(gouji_record(3, deals=2)))
    assert "result so far winner=0" in run("validate", stopped).output
    assert "result so far draw=yes" in run("validate", drawn).output
    assert "winner 0, a attempts 0 0, result winner=0" in run("validate", WON).output


def test_import_validate_counts_every_input_in_its_records(tmp_path):
    lines = (CAPTURES / "wrong-tribute.jsonl").read_text().splitlines(True)
    lines.insert(3, '{"type": "notify", "stage": "handshake"}\n')
    broken = tmp_path / "broken.jsonl"
    broken.write_text("".join(lines))
    result = CliRunner().invoke(
        main,
        [
            "import",
            "--from",
            "competition",
            str(broken),
            str(CAPTURES / "wrong-tribute.jsonl"),
            "--validate",
            "-o",
            str(tmp_path / "out.jsonl"),
        ],
    )
    summary = next(line for line in result.output.splitlines() if line.startswith("Summary"))
    numbers = [int(word) for word in summary.replace(",", " ").split() if word.isdigit()]
    assert numbers[0] == sum(numbers[1:]), summary


def test_store_list_says_valid_as_validate_does(tmp_path):
    db = tmp_path / "r.db"
    assert run("store", "import", "--db", db, WON).exit_code == 0
    listed = run("store", "list", "--db", db).stdout
    assert "  VALID  " in listed and "  valid  " not in listed


def test_the_api_takes_the_short_ids_the_command_line_takes(tmp_path):
    db = tmp_path / "r.db"
    assert run("store", "import", "--db", db, WON).exit_code == 0
    [line] = run("store", "list", "--db", db).stdout.splitlines()
    whole = line.split()[0]
    client = create_app(str(db), read_only=True).test_client()
    for path in ("", "/report", "/deals/0/steps/0"):
        assert client.get(f"/v1/records/{whole[:8]}{path}").status_code == 200, path
    assert client.get(f"/v1/records/{whole[:8]}").get_data() == client.get(f"/v1/records/{whole}").get_data()
    assert client.get(f"/v1/records/{whole[:3]}").status_code == 404  # too short to be meant
    assert run("store", "show", whole[:8], "--db", db).exit_code == 0


def test_a_truncated_json_lines_record_is_placed_on_its_line_of_the_file(tmp_path):
    whole = json.dumps(json.loads(WON.read_text()))
    path = tmp_path / "cut.jsonl"
    path.write_text(whole + "\n" + whole[:300] + "\n")
    result = run("validate", "--json", path)
    cut = json.loads(result.stdout.splitlines()[1])
    assert cut["source"].endswith("cut.jsonl:2")
    assert cut["findings"][0]["message"].startswith("the record is not valid JSON at column 301:"), cut["findings"]
    pretty = tmp_path / "pretty.json"
    pretty.write_text(WON.read_text()[:300])
    assert "at line:column " in json.loads(run("validate", "--json", pretty).stdout)["findings"][0]["message"]
