"""A claim that differs is one finding (notation §9): later claims that agree with the computed
chain or with the one carried on from the differing claim are no new finding, and a Guandan deal
that breaks a rule at the computed levels but plays through at the claimed ones is judged there."""
import pytest

from referee.replay import check_record
from tests.builders import deal, guandan, quick_deal


def errors(report):
    return [(f.rule, f.at) for f in report.findings if f.severity == "error"]


def infos(report):
    return [(f.rule, f.at) for f in report.findings if f.severity == "info"]


def P(seat, *cards):
    return {"seat": seat, "play": list(cards)}


def passes(*seats):
    return [{"seat": s, "pass": True} for s in seats]


def second_deal(triple=("6S", "6D", "2H")):
    """Seat 2, the last of the first deal, holds both red jokers and resists the tribute; seat 0
    leads three bombs and a triple and goes out, its partner leads on (§4.5) and follows it out (a 1-2 finish)."""
    bombs = [[r + s for s in "SSHHDDCC"] for r in "345"]
    seat_2 = [["BJ", "BJ", "RJ", "RJ"], [c.replace("3", "7") for c in bombs[0]],
              [c.replace("3", "8") for c in bombs[0]], [c.replace("3", "9") for c in bombs[0][:7]]]
    actions = []
    for group in [*bombs, list(triple)]:
        actions += [P(0, *group), *passes(1, 2, 3)]
    for group in seat_2:
        actions += [P(2, *group), *passes(3, 1)]
    del actions[-2:]
    return deal([sum(bombs, []) + list(triple), [], sum(seat_2, [])], actions)


# Team 0 attempts A for the third time and wins the deal with the partner last, which does not win
# the match (§5): official rules keep it at A; the platform, playing three failures to 2, sends it
# back to 2 and the next deal is played at 2, where 2H is wild.
START = {"levels": ["A", "5"], "playing": 0, "a_attempts": [2, 0]}


def outside_engine_match(next_levels=("5", "5"), final=("5", "5")):
    first = dict(quick_deal([0, 1, 3], level="A"), result={"order": [0, 1, 3, 2], "levels": ["2", "5"]})
    second = dict(second_deal(), result={"levels": list(next_levels)})
    return guandan([first, second], start=START, result={"levels": list(final)})


def test_the_wild_card_breaks_the_deal_at_the_computed_level():
    record = outside_engine_match()
    record["deals"][0]["result"]["levels"] = ["A", "5"]
    del record["deals"][1]["result"], record["result"]
    assert [rule for rule, _ in errors(check_record(record))] == ["guandan.play.combination"]


def test_a_team_sent_back_to_two_at_a_is_one_error():
    report = check_record(outside_engine_match())
    assert errors(report) == [("guandan.result.levels", "/deals/0/result/levels")]
    assert infos(report) == [("guandan.levels.from_claim", "/deals/1")]
    assert report.deals[1]["level"] == "2" and report.deals[1]["levels"] == ["5", "5"]
    assert report.deals[0]["levels"] == ["A", "5"] and report.deals[0]["claimed"] == {"levels": ["2", "5"]}
    assert report.match["levels"] == ["5", "5"]


def test_a_later_claim_that_differs_from_both_chains_is_a_new_error():
    report = check_record(outside_engine_match(next_levels=("6", "5"), final=("6", "5")))
    assert errors(report) == [("guandan.result.levels", "/deals/0/result/levels"),
                              ("guandan.result.levels", "/deals/1/result/levels")]


def test_a_final_claim_that_differs_from_both_chains_is_a_new_error():
    report = check_record(outside_engine_match(final=("7", "5")))
    assert errors(report) == [("guandan.result.levels", "/deals/0/result/levels"),
                              ("guandan.match.levels", "/result/levels")]


@pytest.mark.parametrize("claim, final", [(["A", "5"], ["A", "5"]), (None, ["A", "5"]), (None, ["5", "5"])])
def test_a_deal_that_plays_at_both_levels_stays_computed_and_either_chain_agrees(claim, final):
    first = dict(quick_deal([0, 1, 3], level="A"), result={"order": [0, 1, 3, 2], "levels": ["2", "5"]})
    second = dict(second_deal(("6S", "6D", "6C")), **({"result": {"levels": claim}} if claim else {}))
    report = check_record(guandan([first, second], start=START, result={"levels": final}))
    assert errors(report) == [("guandan.result.levels", "/deals/0/result/levels")]
    assert infos(report) == [] and report.deals[1]["level"] == "A" and report.match["winner"] == 0


def test_a_claim_back_in_step_with_the_computation_ends_the_second_chain():
    first = dict(quick_deal([0, 1, 3], level="A"), result={"order": [0, 1, 3, 2], "levels": ["2", "5"]})
    second = dict(second_deal(("6S", "6D", "6C")), result={"levels": ["A", "5"]})
    report = check_record(guandan([first, second], start=START, result={"levels": ["5", "5"]}))
    assert errors(report) == [("guandan.result.levels", "/deals/0/result/levels"),
                              ("guandan.match.levels", "/result/levels")]
