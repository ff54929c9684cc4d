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
    seat_2 = [
        ["BJ", "BJ", "RJ", "RJ"],
        [c.replace("3", "7") for c in bombs[0]],
        [c.replace("3", "8") for c in bombs[0]],
        [c.replace("3", "9") for c in bombs[0][:7]],
    ]
    actions = []
    for group in [*bombs, list(triple)]:
        actions += [P(0, *group), *passes(1, 2, 3)]
    for group in seat_2:
        actions += [P(2, *group), *passes(3, 1)]
    del actions[-2:]
    return deal(
        [[c for bomb in bombs for c in bomb] + list(triple), [], [c for group in seat_2 for c in group]], actions
    )


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
    assert report.match["levels"] == ["5", "5"] and report.match["a_attempts"] == [0, 0]


def test_a_later_claim_that_differs_from_both_chains_is_a_new_error():
    report = check_record(outside_engine_match(next_levels=("6", "5"), final=("6", "5")))
    assert errors(report) == [
        ("guandan.result.levels", "/deals/0/result/levels"),
        ("guandan.result.levels", "/deals/1/result/levels"),
    ]


def test_a_final_claim_that_differs_from_both_chains_is_a_new_error():
    report = check_record(outside_engine_match(final=("7", "5")))
    assert errors(report) == [
        ("guandan.result.levels", "/deals/0/result/levels"),
        ("guandan.match.levels", "/result/levels"),
    ]


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
    assert errors(report) == [
        ("guandan.result.levels", "/deals/0/result/levels"),
        ("guandan.match.levels", "/result/levels"),
    ]


# ---------------------------------------------------------------- a wrong score carried into the totals


def gouji_match():
    from tests.gouji_gen import match_record

    return match_record(7, deals=3)  # deal scores [2, -2], [2, -2], [-2, 2]; totals [2, -2], team 0 wins


def gandengyan_match():
    from tests.gandengyan_gen import match_record

    return match_record(7, seats=3, deals=3)  # deal 0 scores [-5, 9, -4]; totals [-17, 19, -2]


def slip(record, deal, delta, carried=False, winner=None):
    """Deal `deal`'s claimed scores moved by `delta` (zero-sum), and with `carried` the record's totals too."""
    scores = record["deals"][deal]["result"]["scores"]
    scores[0] += delta
    scores[1] -= delta
    if carried:
        record["result"]["totals"][0] += delta
        record["result"]["totals"][1] -= delta
    if winner is not None:
        record["result"]["winner"] = winner
    return record


@pytest.mark.parametrize("game, make", [("gouji", gouji_match), ("gandengyan", gandengyan_match)])
def test_a_wrong_score_carried_into_the_totals_is_one_error(game, make):
    report = check_record(slip(make(), 0, 3, carried=True))
    assert errors(report) == [(f"{game}.result.scores", "/deals/0/result/scores")]
    computed = check_record(make()).match["totals"]
    assert report.match["totals"] == computed
    assert report.match["claimed"] == {"totals": [computed[0] + 3, computed[1] - 3, *computed[2:]]}


@pytest.mark.parametrize("game, make", [("gouji", gouji_match), ("gandengyan", gandengyan_match)])
def test_a_slip_in_the_scores_alone_or_the_totals_alone_is_one_error(game, make):
    assert errors(check_record(slip(make(), 1, 3))) == [(f"{game}.result.scores", "/deals/1/result/scores")]
    record = make()
    record["result"]["totals"][0] += 3
    assert errors(check_record(record)) == [(f"{game}.match.totals", "/result/totals")]


@pytest.mark.parametrize("game, make", [("gouji", gouji_match), ("gandengyan", gandengyan_match)])
def test_totals_that_agree_with_neither_chain_are_a_second_error(game, make):
    record = slip(make(), 0, 3, carried=True)
    record["result"]["totals"][0] += 1
    assert errors(check_record(record)) == [
        (f"{game}.result.scores", "/deals/0/result/scores"),
        (f"{game}.match.totals", "/result/totals"),
    ]


def test_a_winner_that_the_claimed_scores_make_is_no_new_finding():
    record = slip(gouji_match(), 2, -4, carried=True, winner=1)  # team 1 ahead on the claimed scores
    assert errors(check_record(record)) == [("gouji.result.scores", "/deals/2/result/scores")]
    record = gouji_match()
    record["result"]["winner"] = 1
    assert errors(check_record(record)) == [("gouji.match.winner", "/result/winner")]


def stop_deal(record, deal):
    """The deal stopped by an out-of-turn pass before its first play."""
    actions = record["deals"][deal]["actions"]
    first = next(k for k, a in enumerate(actions) if "play" in a)
    seats = len(record["players"])
    actions.insert(first, {"seat": (actions[first]["seat"] + 1) % seats, "pass": True})
    return record


@pytest.mark.parametrize("game, make", [("gouji", gouji_match), ("gandengyan", gandengyan_match)])
def test_a_stopped_deal_keeps_the_totals_carried_on_from_a_wrong_score(game, make):
    report = check_record(stop_deal(slip(make(), 0, 3, carried=True), 1))
    assert [rule for rule, _ in errors(report)] == [f"{game}.result.scores", f"{game}.turn"]
    assert report.match["claimed"]["totals"] != report.match["totals"]


def guandan_levels_slip(stop=None, keep_levels=True):
    """A generated match whose deal 0 claims team 0 one level higher, and every later claim follows on."""
    from tests.guandan_gen import match_record

    record = match_record(0, 6)
    for d, played in enumerate(record["deals"]):
        levels = played["result"]["levels"]
        levels[0] = "23456789TJQKA"["23456789TJQKA".index(levels[0]) + 1]
        if d == stop:
            stop_deal(record, d)
            if not keep_levels:
                del played["result"]["levels"]
    final = record["result"]["levels"]
    final[0] = "23456789TJQKA"["23456789TJQKA".index(final[0]) + 1]
    return record


def test_a_stopped_guandan_deal_keeps_the_chain_carried_on_from_a_wrong_levels_claim():
    assert [r for r, _ in errors(check_record(guandan_levels_slip()))] == ["guandan.result.levels"]
    found = errors(check_record(guandan_levels_slip(stop=1, keep_levels=False)))
    assert [r for r, _ in found] == ["guandan.result.levels", "guandan.turn"], found


def test_a_stopped_guandan_deals_levels_claim_that_follows_the_chain_is_no_new_finding():
    """Its claimed levels then set the next deal's levels (notation §9): what follows is judged there."""
    found = errors(check_record(guandan_levels_slip(stop=1)))
    assert [rule for rule, _ in found[:2]] == ["guandan.result.levels", "guandan.turn"]
    assert ("guandan.result.levels", "/deals/1/result/levels") not in found


def test_the_chain_of_a_claim_on_a_deal_that_won_the_match_has_not_won_it():
    from referee.guandan import Combos, GuandanOptions, Match, _follow_levels_claim, fork
    from referee.replay import Context
    from tests.builders import options

    match = Match(Combos(GuandanOptions(**options())), levels=[12, 3], winner=0)
    _follow_levels_claim(Context(), match, {"levels": ["2", "5"]}, {"levels": ["A", "5"]})
    assert match.winner == 0 and match.claimed.winner is None and fork(match).claimed.winner is None
