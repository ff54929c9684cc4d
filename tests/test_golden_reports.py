"""Today's referee makes exactly the reports of the golden corpus (tests/golden.py, issue 20): the speed
work changes no verdict, finding, deal or match outcome. Only the keys the golden reports hold are
compared, so that a key added later to a finding (as message templates add) is no change."""

import pytest

from tests.golden import read, report_of

GOLDEN = read()


def as_golden(value, golden):
    """`value` with only the keys `golden` has, at every level."""
    if isinstance(golden, dict) and isinstance(value, dict):
        return {k: as_golden(value[k], golden[k]) if k in value else "<missing>" for k in golden}
    if isinstance(golden, list) and isinstance(value, list) and len(golden) == len(value):
        return [as_golden(v, g) for v, g in zip(value, golden)]
    return value


def test_the_corpus_covers_every_game_and_findings_of_many_rules():
    games = {line["report"]["game"] for line in GOLDEN}
    rules = {f["rule"] for line in GOLDEN for f in line["report"]["findings"]}
    assert {"guandan", "gandengyan", "gouji"} <= games
    assert len(rules) >= 25 and {"guandan.follow", "gouji.follow", "gandengyan.follow"} <= rules
    assert sum(not line["report"]["valid"] for line in GOLDEN) >= 90


@pytest.mark.parametrize("start", range(0, len(GOLDEN), 20))
def test_reports_are_the_golden_ones(start):
    for line in GOLDEN[start : start + 20]:
        golden = line["report"]
        assert as_golden(report_of(line["record"]), golden) == golden


def test_a_changed_finding_is_caught():
    line = next(line for line in GOLDEN if line["report"]["findings"])
    golden = {**line["report"], "findings": [dict(f) for f in line["report"]["findings"]]}
    golden["findings"][0]["message"] += "."
    assert as_golden(report_of(line["record"]), golden) != golden
