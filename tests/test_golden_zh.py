"""Golden Chinese reports (issue 22): one disputed sample of each game, validated and replayed at its
finding in Chinese, exactly as an arbiter reads them; a change to a Chinese word shows here. A change
made on purpose (issue 34: the players' words) is written anew with `python -m tests.test_golden_zh`
(tests/golden.py documents the English corpus)."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import main

ROOT = Path(__file__).parent.parent
GOLDEN = Path(__file__).parent / "data" / "golden-zh"
SAMPLES = [
    "guandan/disputed-illegal-follow",
    "gouji/disputed-wrong-tribute-card",
    "gandengyan/disputed-two-ranks-higher",
]
COMMANDS = {"validate": [], "replay": ["--finding", "1"]}


def chinese_report(sample: str, command: str) -> str:
    result = CliRunner().invoke(
        main,
        ["--lang", "zh", command, f"samples/{sample}.json", *COMMANDS[command]],
        env={"COLUMNS": "100"},
        terminal_width=100,
    )
    return result.output


def golden(sample: str, command: str) -> Path:
    return GOLDEN / f"{sample.replace('/', '-')}.{command}.txt"


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("sample", SAMPLES)
def test_the_chinese_report_is_the_golden_one(monkeypatch, sample, command):
    monkeypatch.chdir(ROOT)
    assert chinese_report(sample, command) == golden(sample, command).read_text(encoding="utf-8")


if __name__ == "__main__":
    import os

    os.chdir(ROOT)
    for name in SAMPLES:
        for verb in COMMANDS:
            golden(name, verb).write_text(chinese_report(name, verb), encoding="utf-8")
