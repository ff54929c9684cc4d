"""Every Gou Ji sample gets its expected verdict; the disputed ones name the rule and place; the
samples are what tests/gouji_gen.py makes (`python -m tests.gouji_gen samples/gouji`)."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.batch import check_path
from referee.canonical import canonical
from referee.cli.main import main
from referee.replay import replay_steps
from tests.gouji_gen import SAMPLES, sample

FOLDER = Path(__file__).parent.parent / "samples" / "gouji"

EXPECTED = {
    "committed-deal.json": [],
    "full-deal-to-last-holder.json": [],
    "session-tribute-and-returns.json": [],
    "duel-won-after-shao-pai.json": [],
    "false-shao-pai.json": [("gouji.shao_pai.invalid", "/deals/0/actions/19")],
    "revolution.json": [],
    "liberation.json": [],
    "endgame-team-chooses-order.json": [],
    "sweep-with-exchange.json": [],
    "disputed-re-entry-after-pass.json": [("gouji.turn", "/deals/0/actions/42")],
    "disputed-non-duellist-plays-into-duel.json": [("gouji.turn", "/deals/0/actions/61")],
    "ruled-offender-big-loser.json": [],  # the same play, scored by a ruling: the offender last
    "disputed-black-joker-beaten-without-red-joker.json": [("gouji.follow", "/deals/0/actions/24")],
    "disputed-wrong-tribute-card.json": [("gouji.tribute.card", "/deals/1/actions/0/tribute")],
    "disputed-wrong-claimed-order.json": [("gouji.result.order", "/deals/1/result/order")],
}


def report_of(name):
    [report] = check_path(str(FOLDER / name))
    return report


def load(name):
    return json.loads((FOLDER / name).read_text())


def test_every_sample_has_an_expectation():
    assert sorted(p.name for p in FOLDER.glob("*.json")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_verdict(name):
    report = report_of(name)
    assert [(f.rule, f.at) for f in report.findings if f.severity == "error"] == EXPECTED[name]
    assert report.valid is (EXPECTED[name] == [])


GENERATED = sorted(set(EXPECTED) - {"committed-deal.json"})  # that one by tests/committed_gen.py


@pytest.mark.parametrize("name", GENERATED)
def test_samples_are_canonical_and_reproducible(name):
    assert CliRunner().invoke(main, ["fmt", "--check", str(FOLDER / name)]).exit_code == 0
    assert canonical(sample(name[:-5])) == load(name)


def test_the_samples_cover_the_issue():
    assert set(SAMPLES) == {name[:-5] for name in GENERATED}


def test_a_full_deal_is_played_to_the_last_holder():
    outcome = report_of("full-deal-to-last-holder.json").deals[0]
    assert outcome["status"] == "complete" and sorted(outcome["order"]) == list(range(6))


def test_the_session_pays_tribute_and_returns():
    record = load("session-tribute-and-returns.json")
    kinds = [d["tribute"] for d in report_of("session-tribute-and-returns.json").deals]
    assert kinds == ["none", "ordinary", "ordinary", "ordinary"]
    verbs = {
        verb for deal in record["deals"][1:] for a in deal["actions"] for verb in ("tribute", "return") if verb in a
    }
    assert verbs == {"tribute", "return"}


def test_shao_pai_then_a_new_duel():
    record = load("duel-won-after-shao-pai.json")
    _, steps = replay_steps(record, 0)
    modes = [step["table"]["mode"] for step in steps]
    after = modes.index(next(m for m in modes if m.startswith("SHAO")))
    assert any(m.startswith("DUEL") for m in modes[after:])


def test_the_false_shao_pai_declarer_is_ranked_big_loser():
    report = report_of("false-shao-pai.json")
    assert report.deals[0]["order"][-1] == report.findings[0].seat == report.deals[0]["penalised"][0]


def test_revolution_voids_the_deal():
    deals = report_of("revolution.json").deals
    assert [d["status"] for d in deals] == ["complete", "void", "complete"] and deals[1]["scores"] == [0, 0]
    assert "leader" in load("revolution.json")["deals"][2]


def test_liberation_cancels_the_big_losers_tribute():
    assert report_of("liberation.json").deals[1]["tribute"] in ("ordinary", "liberation")
    assert any(a.get("declare") == "liberation" for a in load("liberation.json")["deals"][1]["actions"])


def test_in_the_endgame_a_team_chooses_who_acts():
    _, steps = replay_steps(load("endgame-team-chooses-order.json"), 0)
    assert any(step["table"]["mode"].startswith("endgame") and len(step["table"]["turn"]) > 1 for step in steps)


def test_the_sweep_exchange():
    report = report_of("sweep-with-exchange.json")
    assert report.deals[0]["tribute"] == "sweep"
    tributes = [a for a in load("sweep-with-exchange.json")["deals"][0]["actions"] if "tribute" in a]
    assert sorted(a["seat"] for a in tributes) == [1, 3, 5]


def test_replay_shows_the_mode_who_may_act_and_six_hands(tmp_path):
    result = CliRunner().invoke(
        main, ["replay", str(FOLDER / "duel-won-after-shao-pai.json"), "--deal", "1", "--step", "1"]
    )
    assert result.exit_code == 0 and "mode" in result.output and "to act" in result.output
    assert result.output.count("\n") > 6
