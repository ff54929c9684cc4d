"""Every Guandan sample gets its expected verdict; the disputed ones name the rule and place."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.batch import check_path
from referee.cli.main import main

SAMPLES = Path(__file__).parent.parent / "samples" / "guandan"

EXPECTED = {
    "committed-deal.json": [],
    "match-won-at-a.json": [],
    "double-tribute-and-anti-tribute.json": [],
    "ten-card-bomb-and-wild-straight-flush.json": [],
    "disputed-illegal-follow.json": [("guandan.follow", "/deals/0/actions/24")],
    "ruled-illegal-follow.json": [],  # the same follow, a ruling lets it stand (notation §10)
    "disputed-wrong-tribute-card.json": [("guandan.tribute.card", "/deals/1/actions/0/tribute")],
    "disputed-return-above-ten.json": [("guandan.return.card", "/deals/1/actions/1/return")],
    "disputed-false-level.json": [("guandan.result.levels", "/deals/1/result/levels")],
}


def report_of(name):
    [report] = check_path(str(SAMPLES / name))
    return report


def test_every_sample_has_an_expectation():
    assert sorted(p.name for p in SAMPLES.glob("*.json")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_verdict(name):
    report = report_of(name)
    assert [(f.rule, f.at) for f in report.findings if f.severity == "error"] == EXPECTED[name]
    assert report.valid is (EXPECTED[name] == [])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_samples_are_canonical(name):
    result = CliRunner().invoke(main, ["fmt", "--check", str(SAMPLES / name)])
    assert result.exit_code == 0


def test_match_won_at_a():
    report = report_of("match-won-at-a.json")
    assert report.match["winner"] == 0 and report.match["levels"][0] == "A"
    assert report.deals[-1]["level"] == "A" and report.deals[-1]["declaring"] == 0


def test_double_tribute_and_anti_tribute():
    kinds = [d["tribute"] for d in report_of("double-tribute-and-anti-tribute.json").deals]
    assert "double" in kinds and "resisted" in kinds


def test_big_bombs():
    record_text = (SAMPLES / "ten-card-bomb-and-wild-straight-flush.json").read_text()
    assert '"as": "bomb:9"' in record_text and '"as": "straight_flush:' in record_text
    assert report_of("ten-card-bomb-and-wild-straight-flush.json").valid
