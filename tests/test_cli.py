"""The command line: exit codes, JSON Lines reports, replay, fmt, rules."""

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from tests.guandan_gen import match_record

SAMPLES = Path(__file__).parent.parent / "samples" / "guandan"
VALID = str(SAMPLES / "match-won-at-a.json")
DISPUTED = str(SAMPLES / "disputed-illegal-follow.json")


def run(*args, stdin=None):
    return CliRunner().invoke(main, list(args), input=stdin)


def test_validate_exit_codes(tmp_path):
    assert run("validate", VALID).exit_code == 0
    assert run("validate", VALID, DISPUTED).exit_code == 1
    broken = tmp_path / "broken.json"
    broken.write_text('{"cgr": 1, "game": "guandan", "deals": [')
    assert run("validate", VALID, str(broken)).exit_code == 2
    assert run("validate", str(tmp_path / "missing.json")).exit_code == 2


def test_validate_json_reports(tmp_path):
    archive = tmp_path / "archive.jsonl"
    records = [json.dumps(match_record(s, max_deals=1)) for s in (1, 2)]
    archive.write_text(records[0] + "\n\n" + "{not json\n" + records[1] + "\n")
    result = run("validate", "--json", str(archive))
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["source"] for r in reports] == [f"{archive}:1", f"{archive}:3", f"{archive}:4"]
    assert [r["valid"] for r in reports] == [True, False, True]
    assert reports[1]["findings"][0]["rule"] == "notation.json"
    assert result.exit_code == 2


def test_validate_json_finding_fields():
    result = run("validate", "--json", DISPUTED)
    report = json.loads(result.stdout)
    error = next(f for f in report["findings"] if f["severity"] == "error")
    assert set(error) >= {"severity", "rule", "at", "seat", "deal", "action", "message"}
    assert report["valid"] is False and report["rules"]["preset"] == "official"


def test_validate_stdin_and_text_summary():
    result = run("validate", "-", stdin=Path(VALID).read_text())
    assert result.exit_code == 0
    assert "1 valid" in result.output and "<stdin>" in result.output


def test_validate_a_directory():
    result = run("validate", str(SAMPLES))
    assert result.exit_code == 1 and "9 record(s)" in result.output


def test_validate_not_utf8(tmp_path):
    bad = tmp_path / "latin.json"
    bad.write_bytes(b'{"cgr": 1, "players": ["J\xe9r\xf4me"]}')
    result = run("validate", "--json", str(bad))
    assert json.loads(result.stdout)["findings"][0]["rule"] == "notation.encoding"
    assert result.exit_code == 2


def test_replay_step():
    result = run("replay", VALID, "--deal", "2", "--step", "0", "--json")
    frame = json.loads(result.output)
    assert frame["step"] == 0 and frame["action"] is None
    assert [len(h) for h in frame["table"]["hands"]] == [27, 27, 27, 27]
    after = json.loads(run("replay", VALID, "--deal", "2", "--step", "2", "--json").output)
    assert after["table"]["tribute"]["kind"] in ("single", "double") and after["table"]["tribute"]["paid"]


def test_replay_whole_deal_and_text():
    frames = json.loads(run("replay", VALID, "--deal", "1", "--json").output)
    assert len(frames) == len(json.loads(Path(VALID).read_text())["deals"][0]["actions"]) + 1
    assert frames[-1]["outcome"]["status"] == "complete"
    text = run("replay", VALID, "--deal", "1", "--step", "1")
    assert text.exit_code == 0 and "step 1: action 1, seat" in text.output


def test_replay_shows_the_rejected_action_as_the_last_step():
    """Step k is the table after action k (both counted from 1, as reports count them): the disputed
    action 25 (index 24) is step 25, rejected, exit 1."""
    frames = json.loads(run("replay", DISPUTED, "--deal", "1", "--json").output)
    last = frames[-1]
    assert [f["step"] for f in frames] == list(range(26))
    assert last["rejected"] and last["action"] == json.loads(Path(DISPUTED).read_text())["deals"][0]["actions"][24]
    assert [f["rule"] for f in last["findings"]] == ["guandan.follow"] and last["findings"][0]["action"] == 24
    assert frames[24]["findings"] == [] and frames[24]["table"] == last["table"]
    by_action = run("replay", DISPUTED, "--deal", "1", "--action", "25")
    assert by_action.exit_code == 1 and "step 25: action 25" in by_action.output and "REJECTED" in by_action.output
    assert "legal then:" in by_action.output and "bomb 7S 7H 7H 7C, 9H 9D 9C 2H, TH TH TC 2H" in by_action.output
    by_finding = json.loads(run("replay", DISPUTED, "--finding", "1", "--json").output)
    assert by_finding == last
    for beyond in ("26", "0"):
        result = run("replay", DISPUTED, "--deal", "1", "--action", beyond)
        assert result.exit_code == 2 and "deal 1 replays to action 25 at most" in result.output


def test_replay_shows_claims_at_the_end_of_the_deal(tmp_path):
    record = json.loads(Path(VALID).read_text())
    record["deals"][0]["result"] = {"order": [3, 2, 1, 0]}
    path = tmp_path / "claim.json"
    path.write_text(json.dumps(record))
    result = run("replay", str(path), "--deal", "1", "--json")
    frames = json.loads(result.output)
    assert result.exit_code == 1 and frames[0]["findings"] == []
    assert [f["rule"] for f in frames[-1]["findings"]] == ["guandan.result.order"]


@pytest.mark.parametrize("deal", ["99", "0", "-1"])
def test_replay_bad_deal_number(deal):
    result = run("replay", VALID, "--deal", deal)
    assert result.exit_code == 2 and "--deal takes 1 to 11" in result.output


def test_replay_finding_numbers_count_from_1(tmp_path):
    """Issue 35: --finding takes the number validate shows; a record without findings says so."""
    assert "--finding takes 1 to 1" in run("replay", DISPUTED, "--finding", "0").output
    assert "--finding takes 1 to 1" in run("replay", DISPUTED, "--finding", "2").output
    valid = run("replay", VALID, "--finding", "1")
    assert valid.exit_code == 2 and "the record has no findings" in valid.output and "-1" not in valid.output


def test_fmt_resolves_aliases_and_is_stable(tmp_path):
    record = match_record(7, max_deals=1)
    record["deals"][0]["hands"][0] = [c.lower() for c in record["deals"][0]["hands"][0]]
    record["rules"] = "guandan-official"
    source = tmp_path / "r.json"
    source.write_text(json.dumps(record))
    once = run("fmt", str(source)).output
    assert '"official"' in once and "guandan-official" not in once
    again = tmp_path / "again.json"
    again.write_text(once)
    assert run("fmt", str(again)).output == once
    assert run("fmt", "--check", str(again)).exit_code == 0
    assert run("fmt", "--check", str(source)).exit_code == 1


def test_fmt_write_in_place_and_refuses_broken_input(tmp_path):
    target = tmp_path / "r.json"
    target.write_text(json.dumps(match_record(8, max_deals=1)))
    assert run("fmt", "-w", str(target)).exit_code == 0
    assert run("fmt", "--check", str(target)).exit_code == 0
    broken = tmp_path / "b.json"
    broken.write_text('{"cgr": 1, "plya": 2}')
    result = run("fmt", "-w", str(broken))
    assert result.exit_code == 1 and broken.read_text() == '{"cgr": 1, "plya": 2}'


def test_rules():
    result = run("rules", "guandan")
    assert result.exit_code == 0 and "max_bomb_size" in result.output and "pagat" in result.output
    listed = json.loads(run("rules", "guandan", "--json").output)
    assert listed["guandan"]["options"]["one_two_levels"]["default"] == 3
    assert run("rules", "bridge").exit_code == 2


def test_schema_command_prints_the_shipped_schema():
    shipped = json.loads((Path(__file__).parent.parent / "referee" / "schema" / "cgr1.schema.json").read_text())
    assert json.loads(run("schema").output) == shipped


@pytest.mark.parametrize("text", ["", "   ", "[]", "null", "42"])
def test_odd_inputs_never_crash(tmp_path, text):
    path = tmp_path / "odd.json"
    path.write_text(text)
    result = run("validate", "--json", str(path))
    assert result.exit_code in (1, 2)
    assert isinstance(result.exception, SystemExit)  # a clean exit, not a traceback
    assert json.loads(result.stdout.splitlines()[0])["valid"] is False


@pytest.mark.parametrize("path", sorted(str(p) for p in SAMPLES.parent.glob("*/disputed-*.json")))
def test_disputed_samples_replay_to_their_dispute(path):
    """Issue 9: every disputed sample's first error is on the table of its step, exit 1."""
    report = json.loads(run("validate", "--json", path).stdout)
    first = next(f for f in report["findings"] if f["severity"] == "error" and "deal" in f)
    index = report["findings"].index(first)
    shown = run("replay", path, "--finding", str(index + 1))
    assert shown.exit_code == 1 and first["rule"] in shown.output
    step = json.loads(run("replay", path, "--finding", str(index + 1), "--json").output)
    assert first in step["findings"]
    if "action" in first:
        assert step["step"] == first["action"] + 1


def test_the_record_claims_show_after_the_last_deal(tmp_path):
    record = json.loads((SAMPLES.parent / "gandengyan" / "disputed-ace-multiplier-ignored.json").read_text())
    record["result"]["totals"] = [11, -6, -5]  # neither the computed totals nor the claimed scores' sum
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    step = json.loads(run("replay", str(path), "--finding", "2", "--json").output)
    assert [f["rule"] for f in step["findings"]] == ["gandengyan.result.scores", "gandengyan.match.totals"]
    assert step["outcome"]["status"] == "complete"


@pytest.mark.parametrize(
    "game, to_act",
    [("guandan", "to act: seat 2 (Wu Qiang)"), ("gouji", "to act: seat 1 (Li) or seat 3 (Liu) or seat 5 (Yang)")],
)
def test_replay_during_tribute_says_who_owes(game, to_act):
    """Issue 19: the seats that owe a tribute card are the ones to act, not "nobody"."""
    path = str(SAMPLES.parent / game / "disputed-wrong-tribute-card.json")
    shown = run("replay", path, "--deal", "2", "--step", "0")
    assert to_act in shown.output and "to act: nobody" not in shown.output
    table = json.loads(run("replay", path, "--deal", "2", "--step", "0", "--json").output)["table"]
    assert table["turn"] == [int(seat) for seat in re.findall(r"seat (\d)", to_act)]


@pytest.mark.parametrize(
    "args, says",
    [
        (
            ["fmt", "--check", "--diff", "-w", "samples/guandan/match-won-at-a.json"],
            "give one of -w, --check and --diff",
        ),
        (["fmt", "--check", "-w", "samples/guandan/match-won-at-a.json"], "give one of -w, --check and --diff"),
        (
            ["results", "check", "samples/event/sheet.csv", "samples/event", "--csv", "--json"],
            "give one of --csv and --json",
        ),
        (["standings", "samples/event", "--csv", "--json"], "give one of --csv and --json"),
    ],
)
def test_options_that_exclude_each_other_are_refused(args, says, monkeypatch):
    monkeypatch.chdir(SAMPLES.parent.parent)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and says in result.output
