"""Rulings (notation §10): each decision's effect on the replay in every game, the checks on the rulings, and
the report as ruled, in English and Chinese."""

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from referee.replay import check_record, replay_steps

SAMPLES = Path(__file__).parent.parent / "samples"


def sample(path: str) -> dict:
    return json.loads((SAMPLES / path).read_text())


def ruled(record: dict, *rulings: dict) -> dict:
    out = copy.deepcopy(record)
    out["rulings"] = [dict({"by": "Li Wei, chief arbiter"}, **r) for r in rulings]
    return out


def found(report, severity=None) -> list[tuple]:
    return [(f.severity, f.rule, f.at, f.ruling) for f in report.findings if severity in (None, f.severity)]


def cut_after(record: dict, deal: int, action: int) -> dict:
    """The record with deal `deal`'s actions up to `action` only (the rest of that deal not transcribed)."""
    out = copy.deepcopy(record)
    out["deals"][deal]["actions"] = out["deals"][deal]["actions"][: action + 1]
    out["deals"][deal].pop("result", None)
    return out


def with_start(record: dict, first: int, **start) -> dict:
    """The record from deal `first` on, begun mid-match from `start` (notation §7)."""
    out = copy.deepcopy(record)
    out["deals"] = out["deals"][first:]
    out["start"] = start
    out.pop("rulings", None)
    return out


def shifted(report, by: int) -> list[tuple]:
    """The findings of the deals, as (severity, rule, place) with the deal numbers moved down by `by`."""

    def place(at):
        parts = at.split("/")
        return "/".join(parts[:2] + [str(int(parts[2]) - by)] + parts[3:])

    return [(f.severity, f.rule, place(f.at)) for f in report.findings if f.deal is not None and f.deal >= by]


# ---------------------------------------------------------------- stands


def test_guandan_follow_stands_and_the_table_goes_on_from_the_play():
    record = ruled(
        sample("guandan/disputed-illegal-follow.json"),
        {
            "rule": "guandan.follow",
            "at": "/deals/0/actions/24",
            "decision": "stands",
            "reason": "not challenged before the next play",
        },
    )
    report = check_record(record)
    assert report.valid and report.rulings == 1
    assert found(report) == [
        ("info", "guandan.follow", "/deals/0/actions/24", 0),
        ("warning", "notation.deal.incomplete", "/deals/0/actions", None),
    ]
    assert report.as_dict()["rulings"] == 1 and report.as_dict()["findings"][0]["ruling"] == 0
    _, steps = replay_steps(record, 0)
    after = steps[25]["table"]  # the play stood: the trick's latest play, the turn from its seat on
    assert after["table"][-1]["seat"] == 0 and after["table"][-1]["play"] == ["QS"]
    assert after["turn"] == 1 and len(steps) == 29  # every later action was replayed


def test_without_the_ruling_the_same_record_stops_there():
    report = check_record(sample("guandan/disputed-illegal-follow.json"))
    assert not report.valid and report.rulings is None and "rulings" not in report.as_dict()


def test_gouji_turn_stands_and_the_deal_plays_to_its_end():
    record = ruled(
        sample("gouji/disputed-non-duellist-plays-into-duel.json"),
        {"rule": "gouji.turn", "at": "/deals/0/actions/61", "decision": "stands"},
    )
    report = check_record(record)
    assert report.valid and found(report) == [("info", "gouji.turn", "/deals/0/actions/61", 0)]
    assert report.deals[0]["status"] == "complete" and report.deals[0]["order"] == [5, 1, 2, 3, 4, 0]


def test_gandengyan_follow_stands():
    record = ruled(
        sample("gandengyan/disputed-two-ranks-higher.json"),
        {"rule": "gandengyan.follow", "at": "/deals/0/actions/1", "decision": "stands"},
    )
    report = check_record(record)
    assert report.valid and found(report, "info") == [("info", "gandengyan.follow", "/deals/0/actions/1", 0)]
    _, steps = replay_steps(record, 0)
    assert steps[2]["table"]["turn"] == 2  # the turn passes on from the seat that played


@pytest.mark.parametrize(
    "path, rule, at",
    [
        ("guandan/disputed-wrong-tribute-card.json", "guandan.tribute.card", "/deals/1/actions/0/tribute"),
        ("gouji/disputed-wrong-tribute-card.json", "gouji.tribute.card", "/deals/1/actions/0/tribute"),
    ],
)
def test_a_wrong_tribute_card_stands(path, rule, at):
    report = check_record(ruled(sample(path), {"rule": rule, "at": at, "decision": "stands"}))
    assert report.valid and ("info", rule, at, 0) in found(report)


def test_gouji_tribute_to_the_wrong_seat_stands_and_the_card_moves_to_that_seat():
    record = sample("gouji/disputed-wrong-tribute-card.json")
    record["deals"][1]["actions"][1]["to"] = 2  # seat 1's red joker is owed to seat 4
    _, steps = replay_steps(record, 1)
    jokers = [hand.count("RJ") for hand in steps[1]["table"]["hands"]]
    assert [hand.count("RJ") for hand in steps[2]["table"]["hands"]] == [
        n + (seat == 4) - (seat == 1) for seat, n in enumerate(jokers)
    ]  # unruled: to the seat owed
    record = ruled(
        record,
        {"rule": "gouji.tribute.card", "at": "/deals/1/actions/0/tribute", "decision": "stands"},
        {"rule": "gouji.tribute.to", "at": "/deals/1/actions/1/to", "decision": "stands"},
    )
    report, steps = replay_steps(record, 1)
    assert ("info", "gouji.tribute.to", "/deals/1/actions/1/to", 1) in found(report)
    assert [hand.count("RJ") for hand in steps[2]["table"]["hands"]] == [
        n + (seat == 2) - (seat == 1) for seat, n in enumerate(jokers)
    ]  # as ruled: to the seat given


@pytest.mark.parametrize(
    "path, rule, skipped, play",
    [
        ("guandan/disputed-wrong-tribute-card.json", "guandan.tribute.order", 1, 2),  # seat 0's return
        ("gouji/disputed-wrong-tribute-card.json", "gouji.tribute.order", 5, 6),  # seat 0's return
    ],
)
def test_a_play_while_a_return_is_owed_stands_and_play_goes_on_as_after_that_play(path, rule, skipped, play):
    original = sample(path)
    record = copy.deepcopy(original)
    del record["deals"][1]["actions"][skipped]
    at = f"/deals/1/actions/{play - 1}"
    report, steps = replay_steps(ruled(record, {"rule": rule, "at": at, "decision": "stands"}), 1)
    assert ("info", rule, at, 0) in found(report)
    assert not [f for f in report.findings if f.rule == rule and f.at != at]  # the owed return lapsed
    after, expected = steps[play]["table"], replay_steps(original, 1)[1][play + 1]["table"]
    assert after["owed"] is None and (after["turn"], after["table"]) == (expected["turn"], expected["table"])


def test_an_action_that_cannot_stand_is_an_error_and_its_finding_stays_one():
    record = ruled(
        sample("gandengyan/disputed-wrong-draw-order.json"),
        {"rule": "gandengyan.card.not_held", "at": "/deals/0/actions/4", "decision": "stands"},
    )
    report = check_record(record)
    assert found(report, "error") == [
        ("error", "gandengyan.card.not_held", "/deals/0/actions/4", None),
        ("error", "notation.ruling.cannot_stand", "/rulings/0", None),
    ]
    assert report.rulings == 0 and "seat 1 does not hold QD" in report.findings[-1].message


# ---------------------------------------------------------------- score


def test_guandan_score_ends_the_deal_with_the_ruled_order_and_levels():
    record = ruled(
        cut_after(sample("guandan/disputed-illegal-follow.json"), 0, 24),
        {"rule": "guandan.follow", "at": "/deals/0/actions/24", "decision": "score", "result": {"order": [1, 3, 0, 2]}},
    )
    report = check_record(record)
    assert report.valid
    assert report.deals[0]["status"] == "scored" and report.deals[0]["by_ruling"] == 0
    assert report.deals[0]["order"] == [1, 3, 0, 2] and report.match["levels"] == ["2", "5"]


def test_a_scored_deal_has_no_later_actions():
    record = ruled(
        sample("guandan/disputed-illegal-follow.json"),
        {"rule": "guandan.follow", "at": "/deals/0/actions/24", "decision": "score", "result": {"order": [1, 3, 0, 2]}},
    )
    assert found(check_record(record), "error") == [("error", "guandan.deal.over", "/deals/0/actions/25", None)]


def test_gouji_penalty_order_scores_the_deal_and_the_deal_claims_are_checked_against_it():
    from referee.gouji import GoujiOptions, scores_of

    record = ruled(
        cut_after(sample("gouji/disputed-non-duellist-plays-into-duel.json"), 0, 61),
        {
            "rule": "gouji.turn",
            "at": "/deals/0/actions/61",
            "decision": "score",
            "result": {"order": [0, 3, 4, 1, 5, 2]},
            "reason": "the offender becomes the big loser",
        },
    )
    record.pop("result")
    report = check_record(record)
    scores = scores_of([0, 3, 4, 1, 5, 2], GoujiOptions(**report.rules["options"]))
    assert report.valid and report.deals[0]["scores"] == scores and report.match["totals"] == scores
    record["deals"][0]["result"] = {"scores": [3, -3]}
    assert found(check_record(record), "error") == [("error", "gouji.result.scores", "/deals/0/result/scores", None)]


@pytest.mark.parametrize(
    "path, order",
    [
        ("guandan/disputed-wrong-tribute-card.json", [1, 2, 3, 0]),
        ("gouji/disputed-wrong-claimed-order.json", [0, 1, 2, 4, 3, 5]),
    ],
)
def test_the_next_deal_goes_on_from_a_scored_order_as_from_that_finishing_order(path, order):
    """A deal scored by a ruling, against the next deal begun mid-match from the ruled order."""
    record = sample(path)
    extra = len(record["deals"][0]["actions"])
    record["deals"][0]["actions"].append({"seat": 0, "pass": True})  # an action after the deal's end
    record["deals"][0].pop("result", None)
    record.pop("result", None)
    at = f"/deals/0/actions/{extra}"
    report = check_record(
        ruled(
            record, {"rule": f"{record['game']}.deal.over", "at": at, "decision": "score", "result": {"order": order}}
        )
    )
    levels = report.deals[0].get("levels")
    start = {"previous_order": order, **({"levels": levels} if levels else {"totals": report.deals[0]["totals"]})}
    alone = check_record(with_start(record, 1, **start))
    assert report.deals[0]["status"] == "scored" and report.deals[0]["order"] == order
    assert shifted(report, 1) == shifted(alone, 0)
    assert {k: v for k, v in report.deals[1].items() if k != "deal"} == {
        k: v for k, v in alone.deals[0].items() if k != "deal"
    }


def test_gandengyan_score_gives_the_winner_and_every_seats_scores():
    record = ruled(
        cut_after(sample("gandengyan/disputed-two-ranks-higher.json"), 0, 1),
        {
            "rule": "gandengyan.follow",
            "at": "/deals/0/actions/1",
            "decision": "score",
            "result": {"winner": 0, "scores": [4, -2, -2]},
        },
    )
    report = check_record(record)
    assert report.valid and report.deals[0]["winner"] == 0 and report.match["totals"] == [4, -2, -2]


GUANDAN_SCORE = {"rule": "guandan.follow", "at": "/deals/0/actions/24", "decision": "score"}
GOUJI_SCORE = {"rule": "gouji.turn", "at": "/deals/0/actions/61", "decision": "score"}
GANDENGYAN_SCORE = {"rule": "gandengyan.follow", "at": "/deals/0/actions/1", "decision": "score"}


def _scored(game: str, result: dict) -> dict:
    if game == "guandan":
        return ruled(
            cut_after(sample("guandan/disputed-illegal-follow.json"), 0, 24), dict(GUANDAN_SCORE, result=result)
        )
    if game == "gouji":
        return ruled(sample("gouji/ruled-offender-big-loser.json") | {"rulings": []}, dict(GOUJI_SCORE, result=result))
    record = cut_after(sample("gandengyan/disputed-two-ranks-higher.json"), 0, 1)
    return ruled(record, dict(GANDENGYAN_SCORE, result=result))


@pytest.mark.parametrize(
    "game, result, finding",
    [  # what a score ruling's result claims beside its decision is checked as a deal's claims are (§6, §9)
        ("guandan", {"order": [0, 2, 1, 3], "levels": ["4", "2"]}, ("guandan.result.levels", "levels")),
        ("guandan", {"order": [0, 2, 1, 3], "tribute": "double"}, ("guandan.result.tribute", "tribute")),
        ("guandan", {"order": [0, 2, 1, 3], "scores": [1, 2]}, ("guandan.result.key", "scores")),
        ("guandan", {"order": [0, 2, 1, 3], "winner": 0}, ("guandan.result.key", "winner")),
        ("gouji", {"order": [3, 0, 5, 4, 1, 2], "scores": [5, -5]}, ("gouji.result.scores", "scores")),
        ("gouji", {"order": [3, 0, 5, 4, 1, 2], "levels": ["2", "3"]}, ("gouji.result.key", "levels")),
        ("gandengyan", {"winner": 0, "scores": [4, -2, -2], "levels": ["2", "2"]}, ("gandengyan.result.key", "levels")),
        ("gandengyan", {"winner": 0, "scores": [4, -2, -2], "order": [1]}, ("gandengyan.result.order", "order/0")),
    ],
)
def test_what_a_score_rulings_result_claims_besides_its_decision_is_checked(game, result, finding):
    report = check_record(_scored(game, result))
    rule, key = finding
    assert found(report, "error") == [("error", rule, f"/rulings/0/result/{key}", None)]


@pytest.mark.parametrize(
    "game, result",
    [
        ("guandan", {"order": [0, 2, 1, 3], "levels": ["5", "2"], "tribute": "none"}),
        ("gouji", {"order": [3, 0, 5, 4, 1, 2]}),
        ("gandengyan", {"winner": 0, "scores": [4, -2, -2], "order": [0]}),
    ],
)
def test_a_score_rulings_result_that_claims_what_it_computes_is_valid(game, result):
    report = check_record(_scored(game, result))
    assert report.valid, found(report, "error")


@pytest.mark.parametrize(
    "rules, scores, fits",
    [  # rules/gandengyan.md §5: zero_sum, each loser -p and the winner the sum; winner_only, losers 0
        ("pagat", [4, -2, -2], True),
        ("pagat", [0, 0, 0], True),  # a dead deal's
        ("pagat", [10, -5, -5][::-1], False),  # the winner (seat 0) losing
        ("pagat", [10, 5, -5], False),  # a loser gaining
        ("pagat", [10, -2, -2], False),  # not zero-sum
        ("wenshan", [4, 0, 0], True),
        ("wenshan", [4, -2, -2], False),
    ],
)
def test_gandengyan_score_takes_scores_only_in_the_form_the_rules_scoring_gives(rules, scores, fits):
    record = _scored("gandengyan", {"winner": 0, "scores": scores})
    record["rules"] = rules
    report = check_record(record)
    unfit = ("error", "notation.ruling.decision", "/rulings/0/decision", None)
    assert (unfit in found(report, "error")) is not fits
    if not fits:
        assert "as the rules' scoring gives them" in report.findings[-1].message


@pytest.mark.parametrize("result", [{}, {"order": [1, 3, 0]}, {"order": [1, 3, 0, 0]}, {"winner": 1}])
def test_score_without_a_complete_result_does_not_fit(result):
    record = ruled(
        sample("guandan/disputed-illegal-follow.json"),
        {"rule": "guandan.follow", "at": "/deals/0/actions/24", "decision": "score", "result": result},
    )
    report = check_record(record)
    assert found(report, "error") == [
        ("error", "guandan.follow", "/deals/0/actions/24", None),
        ("error", "notation.ruling.decision", "/rulings/0/decision", None),
    ]
    assert "the finishing order of every seat" in report.findings[-1].message


# ---------------------------------------------------------------- void


@pytest.mark.parametrize(
    "path",
    [
        "guandan/disputed-wrong-tribute-card.json",
        "gouji/disputed-wrong-claimed-order.json",
        "gandengyan/wenshan-session.json",
    ],
)
def test_a_voided_deal_counts_for_nothing_and_the_next_is_a_redeal(path):
    record = sample(path)
    record.pop("result", None)
    report = check_record(ruled(record, {"at": "/deals/0", "decision": "void", "reason": "a card was exposed"}))
    alone = check_record(with_start(record, 1))
    assert report.deals[0] == {"deal": 0, "status": "void", "by_ruling": 0}
    assert shifted(report, 1) == shifted(alone, 0)
    assert report.match == alone.match


@pytest.mark.parametrize(
    "winner, errors",
    [(0, [("error", "gandengyan.match.winner", "/result/winner", None)]), (1, [])],
)
def test_a_claimed_winner_is_checked_against_the_ruled_totals(winner, errors):
    """Notation §10: the match goes on from the ruled claim alone; a winner agreeing only with the computed totals
    (30 -20 -10: seat 0) is an error, one agreeing with the ruled ones (seat 1) none."""
    record = sample("gandengyan/disputed-ace-multiplier-ignored.json")
    del record["deals"][0]["result"]
    record["result"] = {"totals": [-5, 10, -5], "winner": winner}
    report = check_record(
        ruled(record, {"rule": "gandengyan.match.totals", "at": "/result/totals", "decision": "claim"})
    )
    assert found(report, "error") == errors and report.match["winner"] == 1


@pytest.mark.parametrize(
    "path, totals",
    [
        ("gandengyan/disputed-ace-multiplier-ignored.json", [0, 0, 0, 10]),  # 3 seats
        ("gouji/disputed-wrong-claimed-order.json", [5]),  # 2 teams
        ("gouji/disputed-wrong-claimed-order.json", []),
    ],
)
def test_ruled_totals_that_are_not_one_for_each_entrant_make_no_winner_and_no_result(path, totals):
    record = sample(path)
    record["result"] = {"totals": totals}
    game = record["game"]
    report = check_record(ruled(record, {"rule": f"{game}.match.totals", "at": "/result/totals", "decision": "claim"}))
    assert report.match["totals"] == totals and report.match["winner"] is None and report.match["result"] is None


def test_a_claim_in_a_voided_last_deal_stands_for_nothing():
    record = sample("gandengyan/disputed-ace-multiplier-ignored.json")
    record["deals"][0]["result"] = {"winner": 0, "scores": [10, -5, -5]}
    report = check_record(
        ruled(
            record,
            {"rule": "gandengyan.result.scores", "at": "/deals/0/result/scores", "decision": "claim"},
            {"at": "/deals/0", "decision": "void"},
        )
    )
    assert report.deals[0]["status"] == "void" and "computed" not in report.match


@pytest.mark.parametrize("lang, says", [("en", "deal 1: void, by ruling 1"), ("zh", "第 1 局：作废、依据裁决 1")])
def test_the_deal_line_counts_the_ruling_from_1_as_findings_do(tmp_path, lang, says):
    path = tmp_path / "voided.json"
    path.write_text(
        json.dumps(ruled(sample("guandan/disputed-illegal-follow.json"), {"at": "/deals/0", "decision": "void"}))
    )
    shown = CliRunner().invoke(main, ["validate", str(path), "--lang", lang])
    assert says in shown.output


def test_void_on_an_error_makes_every_finding_of_the_deal_info():
    record = ruled(
        sample("guandan/disputed-return-above-ten.json"),
        {"rule": "guandan.return.card", "at": "/deals/1/actions/1/return", "decision": "void"},
    )
    report = check_record(record)
    assert report.valid and report.rulings == 1
    assert [(f.severity, f.rule, f.ruling) for f in report.findings if f.deal == 1] == [
        ("info", "guandan.return.card", 0),
        ("info", "notation.deal.incomplete", 0),
    ]
    assert report.deals[1]["status"] == "void"


def test_voiding_a_deal_that_is_not_there_is_unmatched():
    report = check_record(ruled(sample("guandan/disputed-illegal-follow.json"), {"at": "/deals/4", "decision": "void"}))
    assert ("error", "notation.ruling.unmatched", "/rulings/0", None) in found(report)
    assert "/deals/4, which is no deal" in report.findings[-1].message


# ---------------------------------------------------------------- claim


def test_guandan_claim_stands_and_the_match_goes_on_from_it_alone():
    record = ruled(
        sample("guandan/disputed-false-level.json"),
        {"rule": "guandan.result.levels", "at": "/deals/1/result/levels", "decision": "claim"},
    )
    report = check_record(record)
    assert report.deals[1]["levels"] == ["A", "3"] and report.deals[1]["computed"] == {"levels": ["4", "3"]}
    assert report.match["levels"] == ["A", "3"]
    # the record's final levels agree with the computed value only, which is no candidate any more
    assert found(report, "error") == [("error", "guandan.match.levels", "/result/levels", None)]
    record["result"]["levels"] = ["A", "3"]
    assert check_record(record).valid


def test_a_ruled_claim_is_the_match_restarted_from_the_claim():
    record = ruled(
        sample("guandan/disputed-false-level.json"),
        {"rule": "guandan.result.levels", "at": "/deals/1/result/levels", "decision": "claim"},
    )
    record["result"]["levels"] = ["A", "3"]
    restarted = with_start(record, 2, levels=["A", "3"], previous_order=check_record(record).deals[1]["order"])
    restarted["deals"] = [record["deals"][0]]  # any next deal: it is judged alike from both
    restarted["deals"][0]["leader"] = 0
    as_ruled = copy.deepcopy(record)
    as_ruled["deals"].append(restarted["deals"][0])
    as_ruled.pop("result")
    assert shifted(check_record(as_ruled), 2) == shifted(check_record(restarted), 0)


def test_guandan_order_claim_stands_and_the_levels_and_tribute_go_on_from_the_claimed_order():
    record = sample("guandan/ten-card-bomb-and-wild-straight-flush.json")
    record["deals"][0]["result"] = {"order": [1, 3, 0, 2]}  # computed: 0, 1, 3, 2
    record.pop("result")
    record = ruled(record, {"rule": "guandan.result.order", "at": "/deals/0/result/order", "decision": "claim"})
    report = check_record(record)
    # from 2 and 2, team 1 finishing first and second rises three levels (guandan §5): 2 and 5
    assert report.deals[0]["levels"] == ["2", "5"] and report.deals[0]["order"] == [1, 3, 0, 2]
    assert report.deals[0]["computed"] == {"order": [0, 1, 3, 2], "levels": ["3", "2"]}
    restarted = with_start(record, 1, levels=["2", "5"], previous_order=[1, 3, 0, 2])
    assert shifted(report, 1) == shifted(check_record(restarted), 0)


@pytest.mark.parametrize(
    "path, rule, at, totals",
    [
        (
            "gandengyan/disputed-ace-multiplier-ignored.json",
            "gandengyan.result.scores",
            "/deals/0/result/scores",
            [10, -5, -5],
        ),
    ],
)
def test_a_scores_claim_stands_and_the_totals_go_on_from_it(path, rule, at, totals):
    report = check_record(ruled(sample(path), {"rule": rule, "at": at, "decision": "claim"}))
    assert report.valid and report.match["totals"] == totals and report.deals[0]["scores"] == totals


def test_gouji_order_claim_stands():
    record = ruled(
        sample("gouji/disputed-wrong-claimed-order.json"),
        {"rule": "gouji.result.order", "at": "/deals/1/result/order", "decision": "claim"},
    )
    report = check_record(record)
    assert report.valid and found(report) == [("info", "gouji.result.order", "/deals/1/result/order", 0)]


def test_a_record_claim_stands_in_the_match_outcome():
    record = sample("gandengyan/disputed-ace-multiplier-ignored.json")
    del record["deals"][0]["result"]
    record["result"] = {"totals": [10, -5, -5]}
    report = check_record(
        ruled(record, {"rule": "gandengyan.match.totals", "at": "/result/totals", "decision": "claim"})
    )
    assert report.valid and found(report) == [("info", "gandengyan.match.totals", "/result/totals", 0)]
    assert report.match["totals"] == [10, -5, -5] and report.match["computed"] == {"totals": [30, -20, -10]}
    assert report.match["result"] == {"winner": 0, "margin": 15}


@pytest.mark.parametrize(
    "claimed, levels, result",
    [
        (["2", "6"], ["2", "6"], {"winner": 1, "margin": 4}),  # computed 6 5: the ruled levels turn the result
        (["t", "2"], ["T", "2"], {"winner": 0, "margin": 8}),  # an alias, written as computed levels are
    ],
)
def test_a_ruled_levels_claim_makes_the_match_result(claimed, levels, result):
    """Notation §10: the outcome reported is the outcome as ruled; the results sheet's margin is the level
    difference."""
    record = sample("event/r1-t1.json")
    record["result"] = {"levels": claimed}
    report = check_record(ruled(record, {"rule": "guandan.match.levels", "at": "/result/levels", "decision": "claim"}))
    assert report.valid and report.match["computed"] == {"levels": ["6", "5"]}
    assert report.match["levels"] == levels and report.match["result"] == result


def test_ruled_totals_make_the_winner():
    record = sample("gandengyan/disputed-ace-multiplier-ignored.json")
    del record["deals"][0]["result"]
    record["result"] = {"totals": [-5, 10, -5]}  # computed 30 -20 -10: seat 0 wins
    report = check_record(
        ruled(record, {"rule": "gandengyan.match.totals", "at": "/result/totals", "decision": "claim"})
    )
    assert report.match["winner"] == 1 and report.match["result"] == {"winner": 1, "margin": 15}


@pytest.mark.parametrize(
    "game_path, claimed, rule, result",
    [
        (
            "gandengyan/disputed-ace-multiplier-ignored.json",
            {"winner": 2},
            "gandengyan.match.winner",
            {"winner": 2, "margin": -40},
        ),
        ("gandengyan/disputed-ace-multiplier-ignored.json", {"winner": 9}, "gandengyan.match.winner", None),
        ("gandengyan/disputed-ace-multiplier-ignored.json", {"totals": [5]}, "gandengyan.match.totals", None),
        ("event/r1-t1.json", {"winner": 1}, "guandan.match.winner", {"winner": 1, "margin": -1}),
        ("event/r1-t1.json", {"winner": 7}, "guandan.match.winner", None),
    ],
)
def test_a_ruled_winner_wins_and_a_claim_that_makes_no_result_makes_none(game_path, claimed, rule, result):
    record = sample(game_path)  # Gan Deng Yan's: totals 30 -20 -10, seat 0 wins; Guandan's: levels 6 5, no winner
    record["deals"][0].pop("result", None)
    record["result"] = claimed
    key = next(iter(claimed))
    report = check_record(ruled(record, {"rule": rule, "at": f"/result/{key}", "decision": "claim"}))
    assert report.valid and report.match[key] == claimed[key] and report.match["result"] == result


def test_stands_on_a_scores_claim_does_not_fit():
    report = check_record(
        ruled(
            sample("gandengyan/disputed-ace-multiplier-ignored.json"),
            {"rule": "gandengyan.result.scores", "at": "/deals/0/result/scores", "decision": "stands"},
        )
    )
    assert ("error", "notation.ruling.decision", "/rulings/0/decision", None) in found(report)


# ---------------------------------------------------------------- the checks on the rulings


@pytest.mark.parametrize(
    "ruling, rule, at, says",
    [
        (
            {"rule": "guandan.follow", "at": "/deals/0/actions/23", "decision": "stands"},
            "notation.ruling.unmatched",
            "/rulings/0",
            "no error guandan.follow at /deals/0/actions/23",
        ),
        (
            {"rule": "guandan.follow", "at": "/deals/0/actions/24", "decision": "claim"},
            "notation.ruling.decision",
            "/rulings/0/decision",
            "is no such claim",
        ),
    ],
)
def test_a_ruling_that_decides_nothing(ruling, rule, at, says):
    report = check_record(ruled(sample("guandan/disputed-illegal-follow.json"), ruling))
    assert not report.valid and (rule, at) in [(f.rule, f.at) for f in report.findings]
    assert ("error", "guandan.follow", "/deals/0/actions/24", None) in found(report)
    assert says in next(f.message for f in report.findings if f.rule == rule)


def test_stands_on_a_claim_does_not_fit():
    report = check_record(
        ruled(
            sample("guandan/disputed-false-level.json"),
            {"rule": "guandan.result.levels", "at": "/deals/1/result/levels", "decision": "stands"},
        )
    )
    assert ("error", "notation.ruling.decision", "/rulings/0/decision", None) in found(report)
    assert "is not about an action" in report.findings[-1].message


def test_void_on_a_record_claim_does_not_fit():
    record = sample("gandengyan/disputed-ace-multiplier-ignored.json")
    record["result"] = {"totals": [1, 2, 3]}
    report = check_record(
        ruled(record, {"rule": "gandengyan.match.totals", "at": "/result/totals", "decision": "void"})
    )
    assert ("error", "notation.ruling.decision", "/rulings/0/decision", None) in found(report)


def test_a_second_ruling_on_the_same_finding():
    one = {"rule": "guandan.follow", "at": "/deals/0/actions/24", "decision": "stands"}
    report = check_record(ruled(sample("guandan/disputed-illegal-follow.json"), one, dict(one, decision="void")))
    assert found(report, "error") == [("error", "notation.ruling.twice", "/rulings/1", None)]
    assert report.rulings == 1 and "/rulings/0" in report.findings[-1].message


def test_a_ruling_without_by():
    record = ruled(
        sample("guandan/disputed-illegal-follow.json"),
        {"rule": "guandan.follow", "at": "/deals/0/actions/24", "decision": "stands"},
    )
    del record["rulings"][0]["by"]
    report = check_record(record)
    assert found(report, "error") == [("error", "notation.ruling.by", "/rulings/0/by", None)]


@pytest.mark.parametrize(
    "rulings, rule, at",
    [
        ([{"at": "/deals/0", "decision": "overrule", "by": "x"}], "notation.structure", "/rulings/0/decision"),
        ([{"decision": "void", "by": "x"}], "notation.key.missing", "/rulings/0/at"),
        # notation §10: every ruling names its rule but a void of a deal itself
        ([{"at": "/deals/0/actions/24", "decision": "stands", "by": "x"}], "notation.key.missing", "/rulings/0/rule"),
        ([{"at": "/deals/0/actions/24", "decision": "void", "by": "x"}], "notation.key.missing", "/rulings/0/rule"),
        ([{"at": "/result/levels", "decision": "claim", "by": "x"}], "notation.key.missing", "/rulings/0/rule"),
        ([{"at": "/deals/0\n", "decision": "void", "by": "x"}], "notation.key.missing", "/rulings/0/rule"),  # no deal
        ([{"at": "/deals/0", "decision": "void", "by": "x", "plya": 1}], "notation.key.unknown", "/rulings/0/plya"),
        ({"at": "/deals/0"}, "notation.structure", "/rulings"),
        (
            [
                {
                    "rule": "guandan.follow",
                    "at": "/deals/0",
                    "decision": "score",
                    "by": "x",
                    "result": {"order": [9, 0, 1, 2]},
                }
            ],
            "notation.seat",
            "/rulings/0/result/order/0",
        ),
        (
            [
                {
                    "rule": "guandan.follow",
                    "at": "/deals/0",
                    "decision": "score",
                    "by": "x",
                    "result": {"scores": [1e15]},
                }
            ],
            "notation.number",
            "/rulings/0/result/scores/0",
        ),
    ],
)
def test_malformed_rulings_are_structural_errors(rulings, rule, at):
    record = sample("guandan/disputed-illegal-follow.json")
    record["rulings"] = rulings
    assert (rule, at) in [(f.rule, f.at) for f in check_record(record).findings]


def test_stop_at_error_sees_the_record_as_ruled():
    record = ruled(
        sample("guandan/disputed-return-above-ten.json"),
        {"rule": "guandan.return.card", "at": "/deals/1/actions/1/return", "decision": "void"},
    )
    assert check_record(record, stop_at_error=True).valid
    record["rulings"][0]["at"] = "/deals/1/actions/0/tribute"
    assert not check_record(record, stop_at_error=True).valid


# ---------------------------------------------------------------- the report, in English and Chinese


@pytest.mark.parametrize(
    "lang, verdict, decided",
    [
        ("en", "VALID as ruled (1 ruling)", "decided by ruling 1"),
        ("zh", "按裁决有效（1 条裁决）", "已由裁决 1 裁定"),
    ],
)
def test_the_text_report_as_ruled(tmp_path, lang, verdict, decided):
    path = tmp_path / "ruled.json"
    path.write_text(
        json.dumps(
            ruled(
                sample("guandan/disputed-illegal-follow.json"),
                {"rule": "guandan.follow", "at": "/deals/0/actions/24", "decision": "stands"},
            )
        )
    )
    shown = CliRunner().invoke(main, ["validate", str(path), "--lang", lang])
    assert shown.exit_code == 0 and verdict in shown.output and decided in shown.output


def test_the_json_report_as_ruled(tmp_path):
    path = tmp_path / "ruled.json"
    path.write_text(
        json.dumps(
            ruled(
                sample("gandengyan/disputed-two-ranks-higher.json"),
                {"rule": "gandengyan.follow", "at": "/deals/0/actions/1", "decision": "stands"},
            )
        )
    )
    shown = CliRunner().invoke(main, ["validate", "--json", str(path)])
    report = json.loads(shown.stdout.splitlines()[0])
    assert shown.exit_code == 0 and report["valid"] and report["rulings"] == 1
    assert report["findings"][0]["severity"] == "info" and report["findings"][0]["ruling"] == 0


# ---------------------------------------------------------------- referee decide


def decide(*args, lang="en"):
    return CliRunner().invoke(main, ["decide", *map(str, args), "--lang", lang])


def disputed(tmp_path, name="guandan/disputed-illegal-follow.json"):
    path = tmp_path / "record.json"
    path.write_text((SAMPLES / name).read_text())
    return path


def test_decide_writes_the_ruling_in_canonical_form_and_prints_the_report_as_ruled(tmp_path):
    path = disputed(tmp_path)
    shown = decide(
        path,
        "--finding",
        1,
        "--decision",
        "stands",
        "--by",
        "Li Wei",
        "--reason",
        "not challenged",
        "--date",
        "2026-05-02T15:40+08:00",
        "-w",
    )
    assert shown.exit_code == 0, shown.output
    assert "VALID as ruled (1 ruling)" in shown.output and "decided by ruling 1" in shown.output
    record = json.loads(path.read_text())
    assert record["rulings"] == [
        {
            "rule": "guandan.follow",
            "at": "/deals/0/actions/24",
            "decision": "stands",
            "by": "Li Wei",
            "date": "2026-05-02T15:40+08:00",
            "reason": "not challenged",
        }
    ]
    assert CliRunner().invoke(main, ["fmt", "--check", str(path)]).exit_code == 0
    assert CliRunner().invoke(main, ["validate", str(path)]).exit_code == 0


def test_decide_voids_a_deal_that_no_finding_names(tmp_path):
    """Notation §10: `void` on a deal itself (a misdeal, an exposed card) names no rule."""
    path = tmp_path / "record.json"
    path.write_text((SAMPLES / "gandengyan/multipliers.json").read_text())
    shown = decide(path, "--deal", 1, "--decision", "void", "--by", "Li Wei", "--reason", "misdeal", "-w")
    assert shown.exit_code == 1, shown.output  # written; the match's claimed totals no longer hold
    assert (
        "deal 1: void, by ruling 1" in shown.output
        and "claimed totals -16, -384, 400, computed 0, 0, 0" in shown.output
    )
    assert json.loads(path.read_text())["rulings"] == [
        {"at": "/deals/0", "decision": "void", "by": "Li Wei", "reason": "misdeal"}
    ]
    again = decide(path, "--deal", 1, "--decision", "void", "--by", "Li Wei", "-w")
    assert again.exit_code == 2 and "a finding is decided once" in again.output


def test_decide_a_penalty_order_to_another_file(tmp_path):
    path = disputed(tmp_path, "gouji/disputed-non-duellist-plays-into-duel.json")
    out = tmp_path / "ruled.json"
    shown = decide(
        path, "--finding", 1, "--decision", "score", "--order", "0,3,4,1,5,2", "--by", "Zhang Min", "-o", out
    )
    assert shown.exit_code == 1  # the record goes on after the decided action: those actions are errors
    assert "gouji.deal.over" in shown.output and "scored" in shown.output
    assert json.loads(out.read_text())["rulings"][0]["result"] == {"order": [0, 3, 4, 1, 5, 2]}
    assert "rulings" not in json.loads(path.read_text())


@pytest.mark.parametrize(
    "date, iso",
    [
        ("2026-05-02", True),
        ("2026-05-02T15:40+08:00", True),
        ("2026-05-02T15:40:05Z", True),
        ("20260502", True),  # the basic format
        ("2026-123", True),  # an ordinal date
        ("2026-W18-6", True),  # a week date
        ("2026-05", True),  # reduced precision
        ("2026", True),
        ("2026-05-02T24:00", True),  # the end of the day
        ("+002026-05-02", True),  # an expanded year
        ("2026-05-02 15:40", True),  # RFC 3339's space
        ("2026-02-30", False),  # no such day
        ("2026-05-02T25:00", False),
        ("yesterday", False),
        ("2026-13-01", False),
        ("02/05/2026", False),
        ("", False),
    ],
)
def test_a_rulings_date_is_iso_8601(date, iso):
    """Notation §10: `date`, when given, is ISO 8601; another is an error, and the ruling applies all the same."""
    record = ruled(
        sample("guandan/disputed-illegal-follow.json"),
        {"rule": "guandan.follow", "at": "/deals/0/actions/24", "decision": "stands", "date": date},
    )
    report = check_record(record)
    assert found(report, "error") == ([] if iso else [("error", "notation.ruling.date", "/rulings/0/date", None)])
    assert report.findings[0].ruling == 0


@pytest.mark.parametrize(
    "args, says",
    [
        (["--finding", 1, "--decision", "claim", "--by", "x", "-w"], "is no such claim"),
        (["--finding", 1, "--decision", "score", "--by", "x", "-w"], "complete result"),
        (["--finding", 2, "--decision", "stands", "--by", "x", "-w"], "--finding takes 1 to 1"),
        (["--finding", 1, "--decision", "stands", "--by", "x"], "give one of -o OUT and -w"),
        (["--finding", 1, "--decision", "void", "--order", "1,3,0,2", "--by", "x", "-w"], "go with --decision score"),
        (["--finding", 1, "--decision", "score", "--order", "1,x", "--by", "x", "-w"], "not a comma-separated list"),
        (["--finding", 1, "--decision", "overrule", "--by", "x", "-w"], "overrule"),
        (["--finding", 1, "--decision", "stands", "--by", "x", "--date", "yesterday", "-w"], "no ISO 8601 date"),
        (["--deal", 2, "--decision", "void", "--by", "x", "-w"], "--deal takes 1 to 1"),
        (["--deal", 1, "--decision", "stands", "--by", "x", "-w"], "--deal goes with --decision void"),
        (
            ["--deal", 1, "--finding", 1, "--decision", "void", "--by", "x", "-w"],
            "give one of --finding N and --deal N",
        ),
        (["--decision", "void", "--by", "x", "-w"], "give one of --finding N and --deal N"),
    ],
)
def test_decide_refuses_and_writes_nothing(tmp_path, args, says):
    path = disputed(tmp_path)
    before = path.read_text()
    shown = decide(path, *args)
    assert shown.exit_code == 2 and says in shown.output
    assert path.read_text() == before


def test_decide_refuses_a_warning(tmp_path):
    shown = decide(
        disputed(tmp_path, "guandan/disputed-return-above-ten.json"),
        "--finding",
        2,
        "--decision",
        "stands",
        "--by",
        "x",
        "-w",
    )
    assert shown.exit_code == 2 and "only an error is decided; this finding is a warning" in shown.output


def test_decide_refuses_in_chinese(tmp_path):
    shown = decide(disputed(tmp_path), "--finding", 1, "--decision", "claim", "--by", "x", "-w", lang="zh")
    assert shown.exit_code == 2 and "裁决被驳回" in shown.output


# ---------------------------------------------------------------- the round trip: decide, validate, standings, results


@pytest.mark.parametrize(
    "lang, invalid, as_ruled, agrees",
    [
        (
            "en",
            "invalid: ",
            "as ruled: round 1, table 1: ",
            "(as ruled: the action stands, by Li Wei (guandan.follow at /deals/0/actions/24))",
        ),
        ("zh", "无效", "按裁决", "该动作成立"),
    ],
)
def test_the_arbiters_round_trip(tmp_path, lang, invalid, as_ruled, agrees):
    record = json.loads((SAMPLES / "guandan/disputed-illegal-follow.json").read_text())
    record["meta"] = dict(record.get("meta") or {}, event="Desk Cup", round="1", table="1")
    path = tmp_path / "r1-t1.json"
    path.write_text(json.dumps(record))
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("event,round,table,winner,levels\nDesk Cup,1,1,draw,2/2\n")

    def run(*args):
        return CliRunner().invoke(main, [*map(str, args), "--lang", lang])

    before = run("standings", path)
    assert invalid in before.output and "0 of 1" in before.stderr if lang == "en" else invalid in before.output
    assert run("results", "check", sheet, path).exit_code == 1
    assert run("decide", path, "--finding", 1, "--decision", "stands", "--by", "Li Wei", "-w").exit_code == 0
    assert run("validate", path).exit_code == 0
    after = run("standings", path)
    assert after.exit_code == 0 and as_ruled in after.output and invalid not in after.output
    standings = json.loads(run("standings", path, "--json").stdout)
    assert standings["counted"] == 1 and standings["results"][0]["rulings"][0]["by"] == "Li Wei"
    checked = run("results", "check", sheet, path)
    assert checked.exit_code == 0 and agrees in checked.output
    assert (
        json.loads(run("results", "check", sheet, path, "--json").stdout.splitlines()[0])["rulings"][0]["decision"]
        == "stands"
    )


# ---------------------------------------------------------------- the ruling document


def test_the_ruling_document_has_a_blank_decision_for_an_error_none_decides():
    from referee.ruling import ruling as ruling_html

    html = ruling_html(sample("guandan/disputed-illegal-follow.json"), "id")
    block = html[html.index('<div class="decision blank">') :]
    block = block[: block.index("</div>")]
    assert [
        b in block
        for b in (
            "☐ the action stands",
            "☐ the deal is scored as decided",
            "☐ the deal is void",
            "☐ the claim stands",
            "arbiter",
            "date",
            "signature",
        )
    ] == [True] * 7
    assert 'class="decision decided"' not in html


@pytest.mark.parametrize(
    "lang, says",
    [
        (
            "en",
            [
                "VALID as ruled (1 ruling)",
                "<dd>the action stands</dd>",
                "<dd>Li Wei, chief arbiter</dd>",
                "<dd>2026-05-02T15:40+08:00</dd>",
                "<dd>not challenged in time</dd>",
            ],
        ),
        ("zh", ["按裁决有效（1 条裁决）", "<dd>该动作成立</dd>", "<dd>Li Wei, chief arbiter</dd>"]),
    ],
)
def test_the_ruling_document_states_the_decision(lang, says):
    from referee.ruling import ruling as ruling_html

    record = ruled(
        sample("guandan/disputed-illegal-follow.json"),
        {
            "rule": "guandan.follow",
            "at": "/deals/0/actions/24",
            "decision": "stands",
            "date": "2026-05-02T15:40+08:00",
            "reason": "not challenged in time",
        },
    )
    html = ruling_html(record, "id", lang)
    assert [text in html for text in says] == [True] * len(says)
    assert 'class="decision blank"' not in html


@pytest.mark.parametrize(
    "path, cut, passes, rule, turn",
    [
        # seat 0 was to follow seat 3's KC; seat 1 passed in its place, then seat 2: seat 0, skipped, acts next
        ("guandan/disputed-illegal-follow.json", 24, [1, 2], "guandan.turn", 0),
        # seat 1 was to follow seat 0's pair; seat 2 passed in its place: seat 1 acts next, the trick goes on
        ("gandengyan/disputed-two-ranks-higher.json", 1, [2], "gandengyan.turn", 1),
    ],
)
def test_a_pass_out_of_turn_that_stands_leaves_the_skipped_seats_to_act(path, cut, passes, rule, turn):
    record = sample(path)
    deal = record["deals"][0]
    deal["actions"] = deal["actions"][:cut] + [{"seat": seat, "pass": True} for seat in passes]
    record = ruled(record, {"rule": rule, "at": f"/deals/0/actions/{cut}", "decision": "stands"})
    report, steps = replay_steps(record, 0)
    assert report.valid and steps[-1]["table"]["turn"] == turn
    assert [entry["seat"] for entry in steps[-1]["table"]["table"]][-len(passes) :] == passes  # the trick goes on


@pytest.mark.parametrize("levels, differs", [(["7", "2"], False), (["8", "2"], False), (["9", "2"], True)])
def test_a_score_rulings_levels_may_follow_an_earlier_differing_claim(levels, differs):
    """Notation §9: a later claim that agrees with the computed levels or with those an earlier differing claim
    carries on is no new finding; a score ruling's `levels` is such a claim (deal 0 claims 6 2, computed 5 2)."""
    record = sample("guandan/double-tribute-and-anti-tribute.json")
    record["deals"], record["deals"][0]["result"]["levels"] = record["deals"][:2], ["6", "2"]
    record.pop("result")
    late = record["deals"][1]
    late["actions"] = late["actions"][:4] + [{"seat": (late["actions"][4]["seat"] + 1) % 4, "pass": True}]
    late.pop("result")
    score = {"rule": "guandan.turn", "at": "/deals/1/actions/4", "decision": "score"}
    report = check_record(ruled(record, dict(score, result={"order": [2, 1, 0, 3], "levels": levels})))
    assert (("error", "guandan.result.levels", "/rulings/0/result/levels", None) in found(report)) is differs
