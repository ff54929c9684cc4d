"""`referee import`: exit status, output written whole, stdin, options."""

import json
from pathlib import Path

from click.testing import CliRunner

from referee.cli.main import main

CAPTURES = Path(__file__).parent / "data" / "captures"
MATCH = str(CAPTURES / "match-several-deals.jsonl.gz")
WRONG = str(CAPTURES / "wrong-tribute.jsonl")


def run(*args, stdin=None):
    return CliRunner().invoke(main, ["import", "--from", "competition", *args], input=stdin)


def test_converted_records_are_written_and_validated(tmp_path):
    out = tmp_path / "out.jsonl"
    result = run(MATCH, "-o", str(out), "--validate")
    assert result.exit_code == 0, result.output
    assert "VALID" in result.stdout and "1 record(s) converted, 0 problem(s)" in result.stderr
    [record] = [json.loads(line) for line in out.read_text().splitlines()]
    assert record["rules"]["options"]["equal_double_tribute"] == "free"
    assert CliRunner().invoke(main, ["validate", str(out)]).exit_code == 0


def test_records_are_written_in_canonical_form(tmp_path):
    out = tmp_path / "out.jsonl"
    assert run(MATCH, "--per", "deal", "-o", str(out)).exit_code == 0
    assert CliRunner().invoke(main, ["fmt", "--check", str(out)]).exit_code == 0


def test_records_go_to_stdout_and_reports_to_stderr_without_output_file():
    result = run(WRONG, "--validate")
    assert result.exit_code == 1
    assert [json.loads(line)["game"] for line in result.stdout.splitlines()] == ["guandan"]
    assert "guandan.tribute.card" in result.stderr


def test_without_validate_a_faulty_game_still_converts_with_status_0():
    assert run(WRONG).exit_code == 0


def test_per_deal_and_rules_override(tmp_path):
    out = tmp_path / "out.jsonl"
    assert (
        run(
            MATCH, "--per", "deal", "--rules", '{"preset": "official", "options": {"max_bomb_size": 8}}', "-o", str(out)
        ).exit_code
        == 0
    )
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 7
    assert {json.dumps(r["rules"]) for r in records} == {'{"preset": "official", "options": {"max_bomb_size": 8}}'}


def test_unconvertible_input_is_named_and_the_rest_is_written(tmp_path):
    lines = (CAPTURES / "wrong-tribute.jsonl").read_text().splitlines(True)
    lines.insert(3, '{"type": "notify", "stage": "handshake"}\n')
    broken = tmp_path / "broken.jsonl"
    broken.write_text("".join(lines))
    out = tmp_path / "out.jsonl"
    result = run(str(broken), str(tmp_path / "missing.jsonl"), "-o", str(out), "--rules", "official")
    assert result.exit_code == 2
    assert f"{broken}:4: unknown message: type 'notify', stage 'handshake'" in result.stderr
    assert f"{tmp_path / 'missing.jsonl'}: cannot read the file" in result.stderr
    [record] = [json.loads(line) for line in out.read_text().splitlines()]
    assert record["start"]["previous_order"] and len(record["deals"]) == 1
    assert "Traceback" not in result.output


def test_standard_input():
    result = run("-", stdin=(CAPTURES / "special-bombs.jsonl").read_bytes())
    assert result.exit_code == 0
    assert json.loads(result.stdout)["meta"]["source"].startswith("competition capture -:1-")


def test_bad_options_are_usage_errors(tmp_path):
    for rules in (
        "nonsense",
        '{"preset": "official", "options": {"max_bomb_size": 99}}',
        "{not json",
        '{"preset": 3}',
        '{"options": 5}',
        "[1]",
    ):
        result = run(MATCH, "--rules", rules)
        assert result.exit_code == 2 and "--rules" in result.output and "Traceback" not in result.output
    assert run(MATCH, "--from", "botzone").exit_code == 2
    result = run(MATCH, "-o", str(tmp_path / "no" / "such" / "dir.jsonl"))
    assert result.exit_code == 2 and "nothing was written" in result.stderr


def test_an_interrupted_run_leaves_the_output_file_as_it_was(tmp_path, monkeypatch):
    out = tmp_path / "out.jsonl"
    out.write_text("earlier records\n")

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("referee.cli.importing.canonical", interrupted)
    result = run(MATCH, "-o", str(out))
    assert result.exit_code != 0
    assert out.read_text() == "earlier records\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.jsonl"]
