"""Each Gan Deng Yan sample record: its verdict and its findings (rule id + pointer), in canonical form."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.batch import check_path
from referee.cli.main import main

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "gandengyan"

EXPECTED = {
    "committed-deal.json": (True, []),
    "pagat-2-players.json": (True, []),
    "pagat-5-players.json": (True, []),
    "wenshan-session.json": (True, []),
    "double-deck.json": (True, []),
    "multipliers.json": (True, []),
    "disputed-two-ranks-higher.json": (False, [("gandengyan.follow", "/deals/0/actions/1")]),
    "disputed-lone-joker-following.json": (False, [("gandengyan.joker.alone", "/deals/0/actions/1")]),
    "disputed-wrong-draw-order.json": (False, [("gandengyan.card.not_held", "/deals/0/actions/4")]),
    # the scorer carried the wrong deal score into the totals: one finding (notation §9)
    "disputed-ace-multiplier-ignored.json": (False, [("gandengyan.result.scores", "/deals/0/result/scores")]),
    "ruled-scores-as-agreed.json": (True, [("gandengyan.result.scores", "/deals/0/result/scores")]),  # decided: info
}


def test_every_sample_is_listed():
    assert sorted(p.name for p in SAMPLES.glob("*.json")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample(name):
    valid, findings = EXPECTED[name]
    [rep] = list(check_path(str(SAMPLES / name)))
    assert rep.valid is valid
    assert [(f.rule, f.at) for f in rep.findings] == findings


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_is_canonical(name):
    assert CliRunner().invoke(main, ["fmt", "--check", str(SAMPLES / name)]).exit_code == 0


def test_samples_show_their_outcomes():
    [rep] = list(check_path(str(SAMPLES / "multipliers.json")))
    assert rep.deals[0]["payments"] == [16, 384, 0]
    assert rep.deals[0]["held"][1] == ["3S", "3H", "3D", "3C", "AS", "BJ"]
    [rep] = list(check_path(str(SAMPLES / "wenshan-session.json")))
    assert all(s >= 0 for d in rep.deals for s in d["scores"])


def test_replay_shows_talon_and_draws():
    out = CliRunner().invoke(main, ["replay", str(SAMPLES / "multipliers.json"), "--deal", "1", "--step", "5"]).output
    assert (
        "talon: 35" in out
        and "bombs played: triplet:7, triplet:8" in out
        and "drawn: seat 2 card KC, seat 0 card 9C, seat 1 card 3C" in out
    )
