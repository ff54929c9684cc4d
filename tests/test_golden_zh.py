"""Golden Chinese reports (issue 22): one disputed sample of each game, validated and replayed at its
finding in Chinese, exactly as an arbiter reads them; a change to a Chinese word shows here."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main

ROOT = Path(__file__).parent.parent
GOLDEN = Path(__file__).parent / "data" / "golden-zh"
SAMPLES = ["guandan/disputed-illegal-follow", "gouji/disputed-wrong-tribute-card", "gandengyan/disputed-two-ranks-higher"]
COMMANDS = {"validate": [], "replay": ["--finding", "1"]}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("sample", SAMPLES)
def test_the_chinese_report_is_the_golden_one(monkeypatch, sample, command):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["--lang", "zh", command, f"samples/{sample}.json", *COMMANDS[command]],
                                env={"COLUMNS": "100"}, terminal_width=100)
    golden = GOLDEN / f"{sample.replace('/', '-')}.{command}.txt"
    assert result.output == golden.read_text(encoding="utf-8")
