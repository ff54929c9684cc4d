"""Guandan §1, §4-§7: deck, trick flow, tribute, levels, match, declarations, claims.
Each illegal record is checked for its rule id and JSON Pointer."""

from itertools import permutations

import pytest

from referee.replay import check_record
from tests.builders import deal, findings, guandan, quick_deal


def check(*deals, rules="official", **extra):
    return check_record(guandan(list(deals), rules=rules, **extra))


def P(seat, *cards, **extra):
    return {"seat": seat, "play": list(cards), **extra}


def PASS(seat):
    return {"seat": seat, "pass": True}


# ---------------------------------------------------------------- §1 deck, seats, leader


def test_four_seats():
    record = guandan([quick_deal([0, 2])])
    record["players"] = ["A", "B", "C", "D", "E"]
    assert findings(check_record(record)) == [("guandan.deal.seats", "/players")]


def test_hand_size():
    d = quick_deal([0, 2])
    d["hands"][2].append(d["hands"][1].pop())
    report = check(d)
    assert ("guandan.deal.hand_size", "/deals/0/hands/1") in findings(report)
    assert (report.findings[0].deal, report.findings[0].seat) == (0, 1)


def test_deck_must_be_two_packs():
    d = quick_deal([0, 2])
    d["hands"][3][0] = d["hands"][0][0]
    assert findings(check(d)) == [("guandan.deck", "/deals/0/hands")]


def test_first_deal_needs_leader():
    d = quick_deal([0, 2])
    del d["leader"]
    assert findings(check(d)) == [("guandan.leader.missing", "/deals/0/leader")]


# ---------------------------------------------------------------- §2.1, §3, §4 trick flow


def test_leader_must_play():
    assert findings(check(deal([[]], [PASS(0)], leader=0))) == [("guandan.lead.pass", "/deals/0/actions/0")]


def test_out_of_turn():
    report = check(deal([[]], [P(1, "3S")], leader=0))
    assert findings(report) == [("guandan.turn", "/deals/0/actions/0")]
    assert report.findings[0].legal["seat"] == 0


def test_card_not_held():
    report = check(deal([[], ["AS", "AS"]], [P(0, "AS")], leader=0))
    assert findings(report) == [("guandan.card.not_held", "/deals/0/actions/0")]


def test_no_combination():
    report = check(deal([["5S", "6D"]], [P(0, "5S", "6D")], leader=0))
    assert findings(report) == [("guandan.play.combination", "/deals/0/actions/0")]


def test_weaker_follow_says_what_may_follow():
    report = check(deal([["KS"], ["QS"]], [P(0, "KS"), P(1, "QS")], leader=0))
    assert findings(report) == [("guandan.follow", "/deals/0/actions/1")]
    assert "only a higher single, or a bomb, may follow" in report.findings[0].message
    assert report.findings[0].legal["top"] == "single:K"


def test_as_required_when_two_readings_are_legal():
    hand = [["5S", "6S", "7D", "8C", "2H"]]
    report = check(deal(hand, [P(0, "5S", "6S", "7D", "8C", "2H")], leader=0))
    assert findings(report) == [("guandan.play.as_required", "/deals/0/actions/0")]
    assert (
        "straight:8 or straight:9" in report.findings[0].message
        or "straight:9 or straight:8" in report.findings[0].message
    )


def test_as_chooses_the_reading_and_what_may_follow():
    hand = [["5S", "6S", "7D", "8C", "2H"], ["6D", "7S", "8S", "9D", "TC"]]
    ok = check(
        deal(
            hand,
            [P(0, "5S", "6S", "7D", "8C", "2H", **{"as": "straight:8"}), P(1, "6D", "7S", "8S", "9D", "TC")],
            leader=0,
        )
    )
    assert findings(ok) == []
    stopped = check(
        deal(
            hand,
            [P(0, "5S", "6S", "7D", "8C", "2H", **{"as": "straight:9"}), P(1, "5D", "6D", "7S", "8S", "9D")],
            seed=1,
            leader=0,
        )
    )
    assert ("guandan.follow", "/deals/0/actions/1") in findings(stopped) or (
        "guandan.card.not_held",
        "/deals/0/actions/1",
    ) in findings(stopped)


def test_as_the_cards_cannot_make():
    hand = [["5S", "6S", "7D", "8C", "2H"]]
    report = check(deal(hand, [P(0, "5S", "6S", "7D", "8C", "2H", **{"as": "straight:T"})], leader=0))
    assert findings(report) == [("guandan.play.as", "/deals/0/actions/0")]


def test_as_accepts_rank_aliases():
    hand = [["6S", "7S", "8D", "9C", "2H"]]
    report = check(deal(hand, [P(0, "6S", "7S", "8D", "9C", "2H", **{"as": "straight:10"})], leader=0))
    assert findings(report) == []


def test_trick_ends_when_all_others_pass_and_top_player_leads():
    actions = [P(0, "KS"), PASS(1), PASS(2), PASS(3), P(0, "3S")]
    assert findings(check(deal([["KS", "3S"]], actions, leader=0))) == []
    wrong = [P(0, "KS"), PASS(1), PASS(2), PASS(3), P(1, "4S")]
    assert findings(check(deal([["KS"], ["4S"]], wrong, leader=0))) == [("guandan.turn", "/deals/0/actions/4")]


def test_a_seat_that_passed_may_play_later_in_the_trick():
    actions = [P(0, "5S"), PASS(1), P(2, "9S"), P(3, "JS"), P(0, "QS"), P(1, "AS")]
    hands = [["5S", "QS"], ["AS"], ["9S"], ["JS"]]
    assert findings(check(deal(hands, actions, leader=0))) == []


def test_partner_leads_after_a_player_goes_out():
    d = quick_deal([0, 2])
    # after seat 0's last bomb, seats 1, 2, 3 pass and seat 2 (the partner) leads: 接风
    last = max(i for i, a in enumerate(d["actions"]) if a["seat"] == 0)
    assert [a["seat"] for a in d["actions"][last + 1 : last + 5]] == [1, 2, 3, 2]
    assert findings(check(d)) == []
    d["actions"][last + 4]["seat"] = 1
    assert ("guandan.turn", f"/deals/0/actions/{last + 4}") in findings(check(d))


def test_deal_over_after_one_two_finish():
    d = quick_deal([0, 2])
    d["actions"].append(PASS(3))
    assert findings(check(d)) == [("guandan.deal.over", f"/deals/0/actions/{len(d['actions']) - 1}")]


PLAY_OUT = {"preset": "official", "options": {"play_out_after_one_two": True}}


def test_play_out_after_one_two_a_record_stopping_at_the_one_two_finish_is_incomplete():
    report = check(quick_deal([0, 2]), rules=PLAY_OUT)
    assert report.deals[0]["status"] == "incomplete"
    assert ("notation.deal.incomplete", "/deals/0/actions") in findings(report, "warning")


def played_out(third_leads=3):
    """Seats 0 and 2 go out (1-2), seat 2's last trick is passed out, then the next holder
    after seat 2 (seat 3) leads its whole hand as singles while seat 1 passes (§4.5)."""
    d = quick_deal([0, 2])
    d["actions"] += [PASS(3), PASS(1)]
    singles = d["hands"][third_leads]
    for i, card in enumerate(singles):
        d["actions"].append(P(third_leads, card))
        if i < len(singles) - 1:
            d["actions"].append(PASS((third_leads + 2) % 4))
    return d


@pytest.mark.parametrize("claim", [[0, 2, 3, 1], [0, 2, 1, 3], [0, 2]])
def test_play_out_after_one_two_third_and_fourth_in_either_order(claim):
    d = played_out()
    d["result"] = {"order": claim, "levels": ["5", "2"]}
    report = check(d, rules=PLAY_OUT)
    assert findings(report) == [] and report.deals[0]["order"] == [0, 2, 3, 1]


def test_play_out_after_one_two_trick_led_by_the_next_holder_after_the_winner():
    """Seat 2 wins the trick and its partner is out too: seat 3, next after it, leads; not seat 1."""
    report = check(played_out(third_leads=1), rules=PLAY_OUT)
    first_lead = len(quick_deal([0, 2])["actions"]) + 2
    assert findings(report) == [("guandan.turn", f"/deals/0/actions/{first_lead}")]
    assert report.findings[0].legal["seat"] == 3


# ---------------------------------------------------------------- §5 order, levels, match


@pytest.mark.parametrize(
    "order, levels",
    [
        ([0, 2], ["5", "2"]),
        ([0, 1, 2], ["4", "2"]),
        ([0, 1, 3], ["3", "2"]),
        ([1, 3], ["2", "5"]),
        ([3, 0, 1], ["2", "4"]),
    ],
)
def test_rise(order, levels):
    report = check(quick_deal(order))
    assert report.deals[0]["levels"] == levels


def test_one_two_levels_four_under_pagat():
    assert check(quick_deal([0, 2]), rules="pagat").deals[0]["levels"] == ["6", "2"]


def test_levels_stop_at_a():
    report = check(quick_deal([0, 2], level="Q"), start={"levels": ["Q", "3"], "playing": 0})
    assert report.deals[0]["levels"] == ["A", "3"]


@pytest.mark.parametrize(
    "order, a_win, won",
    [
        ([0, 2], "one_two_or_one_three", True),
        ([0, 1, 2], "one_two_or_one_three", True),
        ([0, 1, 3], "one_two_or_one_three", False),
        ([0, 1, 2], "one_two", False),
        ([0, 1, 3], "any", True),
        ([1, 3], "any", False),
    ],
)
def test_match_win_at_a(order, a_win, won):
    report = check(
        quick_deal(order, level="A"),
        start={"levels": ["A", "5"], "playing": 0},
        rules={"preset": "official", "options": {"a_win": a_win}},
    )
    assert report.match["winner"] == (0 if won else None)


def test_only_the_declaring_team_wins_at_a():
    report = check(quick_deal([1, 3], level="A"), start={"levels": ["A", "A"], "playing": 0})
    assert report.match["winner"] is None
    assert report.match["levels"] == ["A", "A"]


def test_no_deal_after_match_win():
    start = {"levels": ["A", "5"], "playing": 0}
    report = check(quick_deal([0, 2], level="A"), quick_deal([1, 3]), start=start)
    assert findings(report) == [("guandan.match.over", "/deals/1")]


@pytest.mark.parametrize(
    "rule, attempts, order, levels",
    [
        ("none", [2, 0], [0, 1, 3], ["A", "5"]),
        ("three_to_two", [2, 0], [0, 1, 3], ["2", "5"]),
        ("three_to_two", [1, 0], [0, 1, 3], ["A", "5"]),
        ("three_consecutive_to_k", [2, 0], [1, 0, 3], ["K", "7"]),
        ("three_to_opponents_level", [2, 0], [1, 0, 3], ["5", "7"]),
        ("two_consecutive_to_two", [1, 0], [1, 3], ["2", "8"]),
    ],
)
def test_failing_at_a(rule, attempts, order, levels):
    report = check(
        quick_deal(order, level="A"),
        start={"levels": ["A", "5"], "playing": 0, "a_attempts": attempts},
        rules={"preset": "official", "options": {"a_fail_rule": rule}},
    )
    assert report.deals[0]["levels"] == levels


NAMED_AS_PARAMETERS = {
    "none": {},
    "three_to_two": {"a_fail_after": 3, "a_fail_counts": "attempts", "a_fail_to": "2"},
    "three_consecutive_to_k": {"a_fail_after": 3, "a_fail_counts": "consecutive_attempts", "a_fail_to": "K"},
    "three_to_opponents_level": {"a_fail_after": 3, "a_fail_to": "opponents_level"},
    "two_consecutive_to_two": {"a_fail_after": 2, "a_fail_counts": "consecutive_attempts"},
}


@pytest.mark.parametrize(
    "rule, attempts, order, levels",
    [
        ("none", [2, 0], [0, 1, 3], ["A", "5"]),
        ("three_to_two", [2, 0], [0, 1, 3], ["2", "5"]),
        ("three_consecutive_to_k", [2, 0], [1, 0, 3], ["K", "7"]),
        ("three_to_opponents_level", [2, 0], [1, 0, 3], ["5", "7"]),
        ("two_consecutive_to_two", [1, 0], [1, 3], ["2", "8"]),
    ],
)
def test_the_named_a_failure_rules_as_parameters(rule, attempts, order, levels):
    """docs/guandan.md: a_fail_after / a_fail_counts / a_fail_to give the page's four values."""
    report = check(
        quick_deal(order, level="A"),
        start={"levels": ["A", "5"], "playing": 0, "a_attempts": attempts},
        rules={"preset": "official", "options": NAMED_AS_PARAMETERS[rule]},
    )
    assert report.deals[0]["levels"] == levels


@pytest.mark.parametrize(
    "options, playing, attempts, order, levels",
    [
        # a platform's two failures, consecutive or not, back to 2
        ({"a_fail_after": 2}, 0, [1, 0], [0, 1, 3], ["2", "5"]),
        # a failure is any deal begun at A, declared or not: team 1 declares and wins, team 0 fails a third time
        ({"a_fail_after": 3, "a_fail_counts": "deals_at_a"}, 1, [2, 0], [1, 3], ["2", "8"]),
        ({"a_fail_after": 3, "a_fail_counts": "attempts"}, 1, [2, 0], [1, 3], ["A", "8"]),
        # a named rule with one part changed: three consecutive failures, back to J
        ({"a_fail_rule": "three_consecutive_to_k", "a_fail_to": "J"}, 0, [2, 0], [1, 0, 3], ["J", "7"]),
    ],
)
def test_a_failure_variants_of_platforms(options, playing, attempts, order, levels):
    start = {"levels": ["A", "5"], "playing": playing, "a_attempts": attempts}
    report = check(
        quick_deal(order, level="A" if playing == 0 else "5"),
        start=start,
        rules={"preset": "official", "options": options},
    )
    assert findings(report) == [] and report.deals[0]["levels"] == levels


def test_a_fail_after_must_be_positive():
    report = check(quick_deal([0, 2]), rules={"preset": "official", "options": {"a_fail_after": 0}})
    assert findings(report) == [("notation.rules.option", "/rules/options/a_fail_after")]


def test_consecutive_count_restarts_on_a_deal_that_is_not_an_attempt():
    report = check(
        quick_deal([1, 3], level="5"),
        start={"levels": ["A", "5"], "playing": 1, "a_attempts": [2, 0]},
        rules={"preset": "official", "options": {"a_fail_rule": "three_consecutive_to_k"}},
    )
    assert report.deals[0]["a_attempts"] == [0, 0]
    kept = check(
        quick_deal([1, 3], level="5"),
        start={"levels": ["A", "5"], "playing": 1, "a_attempts": [2, 0]},
        rules={"preset": "official", "options": {"a_fail_rule": "three_to_two"}},
    )
    assert kept.deals[0]["a_attempts"] == [2, 0]


def test_ace_finish_to_two():
    ranks = list("3456789TJ") + ["Q", "K", "2", "A"]  # seat 1 ends with a triple of aces
    d = quick_deal([1, 3], level="A", ranks=ranks[:3] + ["A"] + ranks[3:6] + ["Q"])
    options = {"ace_finish_to_two": True}
    report = check(d, start={"levels": ["A", "5"], "playing": 0}, rules={"preset": "official", "options": options})
    assert report.deals[0]["levels"] == ["2", "8"]


# ---------------------------------------------------------------- §6 tribute


def two_deals(first_order, second_partial, actions, rules="official", **extra):
    """A quick first deal, then a second deal with the given partial hands and actions."""
    return check(quick_deal(first_order), deal(second_partial, actions, seed=3, **extra), rules=rules)


# after a 0-2 finish team 0 is at 5: payers 1 (o3 side) and 3; receivers 0 (o1) and 2 (o2)


DOUBLE_NO_ANTI = [["RJ", "RJ", "KS", "4C"], ["BJ", "3C"], ["QS", "5C"], ["BJ", "3D"]]


def test_double_tribute_allocation_and_leader():
    # seat 1 pays RJ, seat 3 pays BJ: the higher goes to o1 (seat 0), and seat 1 leads
    partial = [["RJ", "KS", "4C"], ["RJ", "3C"], ["BJ", "5C"], ["BJ", "3D"]]
    actions = [
        {"seat": 3, "tribute": "BJ"},
        {"seat": 1, "tribute": "RJ", "to": 0},
        {"seat": 2, "return": "5C", "to": 3},
        {"seat": 0, "return": "4C", "to": 1},
        P(1, "3C"),
    ]
    report = two_deals([0, 2], partial, actions)
    assert findings(report) == []
    assert report.deals[1]["tribute"] == "double" and report.deals[1]["leader"] == 1


def test_anti_tribute_when_payers_hold_both_red_jokers():
    report = two_deals([0, 2], [["KS"], ["RJ", "3C"], [], ["RJ"]], [P(0, "KS")])
    assert findings(report) == []
    assert report.deals[1]["tribute"] == "resisted"
    paid = two_deals([0, 2], [["KS"], ["RJ", "3C"], [], ["RJ"]], [{"seat": 1, "tribute": "RJ"}])
    assert findings(paid) == [("guandan.tribute.none", "/deals/1/actions/0")]


def test_single_tribute_anti_tribute():
    report = two_deals([0, 1, 2], [["KS"], [], [], ["RJ", "RJ"]], [P(0, "KS")])
    assert report.deals[1]["tribute"] == "resisted" and findings(report) == []


def test_wrong_tribute_card():
    actions = [{"seat": 3, "tribute": "3D"}]
    report = two_deals([0, 2], DOUBLE_NO_ANTI, actions)
    assert findings(report) == [("guandan.tribute.card", "/deals/1/actions/0/tribute")]
    error = next(f for f in report.findings if f.severity == "error")
    assert "must be a card of the highest rank" in error.message


def test_equal_tributes_clockwise():
    partial = [["RJ", "RJ", "4C"], ["BJ", "3C"], ["5C"], ["BJ", "3D"]]
    good = [
        {"seat": 1, "tribute": "BJ", "to": 0},
        {"seat": 3, "tribute": "BJ", "to": 2},
        {"seat": 0, "return": "4C"},
        {"seat": 2, "return": "5C"},
        P(1, "3C"),
    ]
    assert findings(two_deals([0, 2], partial, good)) == []
    wrong_to = [dict(good[0], to=2), dict(good[1], to=0)] + good[2:]
    assert findings(two_deals([0, 2], partial, wrong_to)) == [
        ("guandan.tribute.to", "/deals/1/actions/0/to"),
        ("guandan.tribute.to", "/deals/1/actions/1/to"),
    ]


def test_equal_tributes_free_need_to_and_leader():
    partial = [["RJ", "RJ", "4C"], ["BJ", "3C"], ["5C"], ["BJ", "3D"]]
    actions = [
        {"seat": 1, "tribute": "BJ", "to": 2},
        {"seat": 3, "tribute": "BJ", "to": 0},
        {"seat": 0, "return": "3D"},
        {"seat": 2, "return": "5C"},
        P(3, "3D"),
    ]
    assert findings(two_deals([0, 2], partial, actions, rules="pagat", leader=3)) == []
    no_leader = two_deals([0, 2], partial, actions, rules="pagat")
    assert findings(no_leader) == [("guandan.leader.missing", "/deals/1/leader")]
    no_to = [{"seat": 1, "tribute": "BJ"}, {"seat": 3, "tribute": "BJ"}]
    assert findings(two_deals([0, 2], partial, no_to, rules="pagat", leader=3)) == [
        ("guandan.tribute.to", "/deals/1/actions/1")
    ]


def test_return_above_ten():
    actions = [{"seat": 3, "tribute": "BJ"}, {"seat": 1, "tribute": "BJ"}, {"seat": 0, "return": "KS"}]
    partial = [["RJ", "RJ", "KS", "4C"], ["BJ", "3C"], ["QS"], ["BJ", "3D"]]
    report = two_deals([0, 2], partial, actions)
    assert findings(report) == [("guandan.return.card", "/deals/1/actions/2/return")]
    uncapped = {"preset": "official", "options": {"return_cap": "none"}}
    assert findings(two_deals([0, 2], partial, actions, rules=uncapped)) == []


def test_return_of_the_level_rank():
    # after 0-2 the deal is at level 5
    actions = [{"seat": 3, "tribute": "BJ"}, {"seat": 1, "tribute": "BJ"}, {"seat": 0, "return": "5S"}]
    partial = [["RJ", "RJ", "5S", "4C"], ["BJ", "3C"], ["QS"], ["BJ", "3D"]]
    assert findings(two_deals([0, 2], partial, actions)) == []
    strict = {"preset": "official", "options": {"return_excludes_level": True}}
    assert findings(two_deals([0, 2], partial, actions, rules=strict)) == [
        ("guandan.return.card", "/deals/1/actions/2/return")
    ]


def test_return_fallback_lowest_card():
    # single tribute after a 0-1-2 finish: seat 3 pays its BJ to seat 0, who holds nothing of 10 or lower
    high = [r + s for r in "JQK" for s in "SSHHDDCC"] + ["AS", "AS", "AD"]
    partial = [high, ["RJ", "RJ"], [], ["BJ", "BJ"]]
    ok = two_deals([0, 1, 2], partial, [{"seat": 3, "tribute": "BJ"}, {"seat": 0, "return": "JS"}])
    assert findings(ok) == []
    bad = two_deals([0, 1, 2], partial, [{"seat": 3, "tribute": "BJ"}, {"seat": 0, "return": "QS"}])
    assert findings(bad) == [("guandan.return.card", "/deals/1/actions/1/return")]
    given_back = two_deals([0, 1, 2], partial, [{"seat": 3, "tribute": "BJ"}, {"seat": 0, "return": "BJ"}])
    assert findings(given_back) == [("guandan.return.card", "/deals/1/actions/1/return")]


def test_return_to_partner_under_ten_to_partner():
    # a 0-1-3 finish: o4 is seat 2, the partner of o1; the return to him is capped at 10
    options = {"preset": "official", "options": {"return_cap": "ten_to_partner"}}
    partial = [["KS", "4C"], [], ["RJ"], []]
    actions = [{"seat": 2, "tribute": "RJ"}, {"seat": 0, "return": "KS", "to": 2}]
    report = check(quick_deal([0, 1, 3]), deal(partial, actions, seed=3), rules=options)
    assert findings(report) == [("guandan.return.card", "/deals/1/actions/1/return")]


def test_return_to_the_wrong_seat():
    actions = [{"seat": 3, "tribute": "BJ"}, {"seat": 1, "tribute": "BJ"}, {"seat": 0, "return": "4C", "to": 3}]
    assert findings(two_deals([0, 2], DOUBLE_NO_ANTI, actions)) == [("guandan.return.to", "/deals/1/actions/2/to")]


def test_return_before_all_tributes():
    actions = [{"seat": 3, "tribute": "BJ"}, {"seat": 2, "return": "QS"}]
    assert findings(two_deals([0, 2], DOUBLE_NO_ANTI, actions)) == [("guandan.tribute.order", "/deals/1/actions/1")]


def test_missing_tribute_reported_at_first_play():
    report = two_deals([0, 2], DOUBLE_NO_ANTI, [P(1, "3C")])
    assert findings(report) == [("guandan.tribute.order", "/deals/1/actions/0")]


def test_tribute_owed_at_the_end_is_incomplete_not_an_error():
    report = two_deals([0, 2], DOUBLE_NO_ANTI, [{"seat": 3, "tribute": "BJ"}])
    assert findings(report) == []
    assert ("notation.deal.incomplete", "/deals/1/actions") in findings(report, "warning")


def test_tribute_by_a_seat_that_owes_none():
    report = two_deals([0, 2], DOUBLE_NO_ANTI, [{"seat": 0, "tribute": "KS"}])
    assert findings(report) == [("guandan.tribute.payer", "/deals/1/actions/0")]


def test_wrong_leader_after_tribute():
    actions = [
        {"seat": 3, "tribute": "BJ"},
        {"seat": 1, "tribute": "BJ"},
        {"seat": 0, "return": "4C"},
        {"seat": 2, "return": "5C"},
    ]
    report = two_deals([0, 2], DOUBLE_NO_ANTI, actions, leader=3)
    assert findings(report) == [("guandan.leader", "/deals/1/leader")]


# ---------------------------------------------------------------- §7 declarations


def test_report_count():
    actions = [P(0, "KS"), {"seat": 2, "declare": "report", "count": 26}, PASS(1)]
    report = check(deal([["KS"]], actions, leader=0))
    assert findings(report) == [("guandan.report.count", "/deals/0/actions/1/count")]


def test_reports_are_transparent():
    actions = [
        {"seat": 3, "declare": "report", "count": 27},
        P(0, "KS"),
        {"seat": 0, "declare": "report", "count": 26},
        PASS(1),
    ]
    assert findings(check(deal([["KS"]], actions, leader=0))) == []


def test_unknown_declaration():
    report = check(deal([["KS"]], [{"seat": 0, "declare": "revolution"}, P(0, "KS")], leader=0))
    assert findings(report) == [("guandan.declare", "/deals/0/actions/0/declare")]


def test_missing_report_is_a_warning_at_the_play():
    d = quick_deal([0, 2])
    report = check(d)
    warnings = findings(report, "warning")
    first_low = next(i for i, a in enumerate(d["actions"]) if a["seat"] == 0 and "play" in a and i > 4)
    assert ("guandan.report.missing", f"/deals/0/actions/{first_low}") in warnings
    assert report.valid
    assert not findings(check(d, rules="pagat"), "warning")  # report_at null


# ---------------------------------------------------------------- claims and start


def test_claims_checked():
    d = quick_deal([0, 2], result={"order": [0, 2, 1, 3], "levels": ["4", "2"], "tribute": "single"})
    assert findings(check(d)) == [
        ("guandan.result.levels", "/deals/0/result/levels"),
        ("guandan.result.tribute", "/deals/0/result/tribute"),
    ]


@pytest.mark.parametrize(
    "claimed, ok", [([0, 2], True), ([0, 2, 1, 3], True), ([0, 2, 3, 1], True), ([2, 0], False), ([0, 2, 1], False)]
)
def test_claimed_order_after_one_two(claimed, ok):
    report = check(quick_deal([0, 2], result={"order": claimed}))
    assert findings(report) == ([] if ok else [("guandan.result.order", "/deals/0/result/order")])


@pytest.mark.parametrize(
    "claimed, ok", [([0, 1, 2], True), ([0, 1, 2, 3], True), ([0, 1], False), ([0, 1, 3, 2], False)]
)
def test_claimed_order(claimed, ok):
    report = check(quick_deal([0, 1, 2], result={"order": claimed}))
    assert findings(report) == ([] if ok else [("guandan.result.order", "/deals/0/result/order")])


def test_record_claims():
    start = {"levels": ["A", "5"], "playing": 0}
    right = check(quick_deal([0, 2], level="A"), start=start, result={"winner": 0, "levels": ["A", "5"]})
    assert findings(right) == []
    wrong = check(quick_deal([0, 1, 3], level="A"), start=start, result={"winner": 0, "levels": ["K", "5"]})
    assert findings(wrong) == [("guandan.match.levels", "/result/levels"), ("guandan.match.winner", "/result/winner")]


def test_result_on_incomplete_deal():
    report = check(deal([["KS"]], [P(0, "KS")], leader=0, result={"order": [0, 1, 2]}))
    assert ("notation.result.incomplete", "/deals/0/result") in findings(report)


def test_only_last_deal_may_be_incomplete():
    report = check(deal([["KS"]], [P(0, "KS")], leader=0), quick_deal([0, 2]))
    assert ("notation.deal.incomplete", "/deals/0/actions") in findings(report)


def test_stopped_deal_continues_from_its_claim():
    stopped = deal([[]], [PASS(0)], leader=0, result={"order": [1, 3]})
    report = check(stopped, deal([[], ["RJ"], [], ["RJ"]], []))
    assert report.deals[0]["levels"] == ["2", "5"] and report.deals[0]["from_claim"]
    assert report.deals[1]["tribute"] == "double" and report.deals[1]["level"] == "5"
    no_claim = check(deal([[]], [PASS(0)], leader=0), quick_deal([0, 2]))
    assert ("guandan.deal.uncheckable", "/deals/1") in findings(no_claim, "warning")


def test_claimed_levels_of_a_stopped_deal_set_the_next_level():
    """Notation §9: the claimed levels set the next deal's levels; levels the claimed order
    does not give (a 1-2 finish from 2 gives 5) are reported as for a complete deal."""
    stopped = deal([[]], [PASS(0)], leader=0, result={"order": [0, 2, 1, 3], "levels": ["7", "2"]})
    resisted = deal([["7H", "KS"], ["RJ"], [], ["RJ"]], [P(0, "7H", "KS")])  # seat 0, the last o1, leads
    report = check(stopped, resisted)
    assert findings(report) == [
        ("guandan.lead.pass", "/deals/0/actions/0"),
        ("guandan.result.levels", "/deals/0/result/levels"),
    ]
    assert report.deals[1]["level"] == "7" and report.deals[1]["tribute"] == "resisted"
    agreed = check(deal([[]], [PASS(0)], leader=0, result={"order": [0, 2, 1, 3], "levels": ["5", "2"]}), resisted)
    assert findings(agreed) == [
        ("guandan.lead.pass", "/deals/0/actions/0"),
        ("guandan.play.combination", "/deals/1/actions/0"),
    ]  # 7H is no wild card at 5


def test_claims_of_other_games_on_a_stopped_deal_are_errors():
    report = check(deal([[]], [PASS(0)], leader=0, result={"order": [1, 3], "scores": [1, 2]}))
    assert ("guandan.result.key", "/deals/0/result/scores") in findings(report)


@pytest.mark.parametrize(
    "start, expected",
    [
        ({"playing": 0}, [("guandan.start.levels", "/start/levels")]),
        ({"levels": ["5", "8"]}, [("guandan.start.playing", "/start/playing")]),
        ({"levels": ["A", "A"]}, [("guandan.start.playing", "/start/playing")]),
        ({"levels": ["5", "5"]}, []),
        (
            {"levels": ["5", "8"], "previous_order": [1, 2, 0], "playing": 0},
            [("guandan.start.playing", "/start/playing")],
        ),
        ({"levels": ["5", "8"], "previous_order": [1, 2]}, [("guandan.start.previous_order", "/start/previous_order")]),
    ],
)
def test_start(start, expected):
    assert findings(check(quick_deal([0, 2], level="8"), start=start))[:1] == expected[:1]


def test_start_previous_order_fixes_tribute():
    start = {"levels": ["5", "8"], "previous_order": [1, 3]}
    report = check(deal([["KS"], ["RJ"], [], ["RJ"]], [P(1, "KS")]), start=start)
    assert findings(report) == [("guandan.tribute.order", "/deals/0/actions/0")]
    assert report.deals[0]["tribute"] == "double" and report.deals[0]["level"] == "8"  # team 1 declares


def test_three_hands():
    d = quick_deal([0, 2])
    d["hands"] = d["hands"][:3]
    assert findings(check(d)) == [("guandan.deal.hands", "/deals/0/hands")]


def test_claims_that_are_not_guandan():
    d = quick_deal([0, 2], result={"scores": [1, -1]})
    assert findings(check(d)) == [("guandan.result.key", "/deals/0/result/scores")]
    totals = check(quick_deal([0, 2]), result={"totals": [3, 0]})
    assert findings(totals) == [("guandan.result.key", "/result/totals")]


def test_return_by_a_seat_that_owes_none():
    actions = [{"seat": 3, "tribute": "BJ"}, {"seat": 1, "tribute": "BJ"}, {"seat": 3, "return": "3D"}]
    assert findings(two_deals([0, 2], DOUBLE_NO_ANTI, actions)) == [("guandan.return.payer", "/deals/1/actions/2")]


def test_a_wild_card_is_never_the_tribute():
    # level 7, seat 3 pays seat 0; all four jokers are with seat 1, so seat 3's highest are its 7s
    start = {"levels": ["7", "2"], "previous_order": [0, 1, 2, 3]}
    partial = [[], ["BJ", "BJ", "RJ", "RJ"], [], ["7S", "7H"]]
    wild = check(deal(partial, [{"seat": 3, "tribute": "7H"}]), start=start)
    assert findings(wild) == [("guandan.tribute.card", "/deals/0/actions/0/tribute")]
    plain = check(deal(partial, [{"seat": 3, "tribute": "7S"}]), start=start)
    assert findings(plain) == []


def test_leader_checked_before_the_tribute_is_done():
    start = {"levels": ["5", "2"], "previous_order": [0, 1, 2, 3]}  # seat 3 pays seat 0 and leads
    report = check(deal([["RJ"], [], [], []], [], leader=1), start=start)
    assert findings(report) == [("guandan.leader", "/deals/0/leader")]


def test_a_report_after_the_deal_ended_is_a_late_action():
    """§4.1, §7, notation §5: reports stand anywhere before the deal ends, not after it."""
    d = quick_deal([0, 2])
    d["actions"].append({"seat": 1, "declare": "report", "count": 27})
    assert findings(check(d)) == [("guandan.deal.over", f"/deals/0/actions/{len(d['actions']) - 1}")]


def test_record_claims_are_checked_after_an_unfinished_last_deal():
    unfinished = deal([[], ["RJ"], [], ["BJ"]], [])
    right = check(quick_deal([0, 2]), unfinished, result={"levels": ["5", "2"]})
    assert findings(right) == [] and "settled" not in right.match
    wrong = check(quick_deal([0, 2]), unfinished, result={"levels": ["6", "2"]})
    assert findings(wrong) == [("guandan.match.levels", "/result/levels")]


def test_what_was_legal_lists_every_kind_of_play_from_the_hand_strongest_last():
    """Issue 9: the legal plays with their cards, grouped by type, strongest last."""
    hand = [
        ["5S", "6S", "7D", "8C", "9H"],
        ["4S", "5D", "6D", "7D", "8D", "TC", "JH", "QC", "KD", "AS", "3H", "3H", "3D", "3C", "9D"],
    ]
    report = check(deal(hand, [P(0, "5S", "6S", "7D", "8C", "9H"), P(1, "4S", "5D", "6D", "7D", "8D")], leader=0))
    legal = report.findings[0].legal
    assert legal["plays"][0].startswith("6D 7D 8D 9D T") and legal["plays"][0].endswith(" as straight:T")
    assert "4S 5D 6D 7D 8D" not in " ".join(legal["plays"])  # the straight to 8 may not follow
    kinds = [play.split(" as ")[1].split(":")[0] for play in legal["plays"]]
    assert "bomb" in kinds and kinds.index("bomb") > max(i for i, k in enumerate(kinds) if k == "straight")
    assert any(play.endswith(" as bomb:3") for play in legal["plays"])
    assert "from its hand: straight 6D 7D 8D 9D T" in legal["may"]


@pytest.mark.parametrize("order", list(permutations(range(4))))
def test_the_previous_order_a_tribute_shows_owes_that_tribute(order):
    """For importers (§6.1, §6.2): the order read back from o1 and the payers owes the same tribute."""
    from referee.guandan import _complete_order, partner, previous_order_shown

    o1, o2, o3, o4 = order
    payers = [o3, o4] if o2 == partner(o1) else [o4]
    shown = _complete_order(previous_order_shown(payers, o1))
    assert shown[0] == o1 and (shown[2:] if len(payers) == 2 else shown[3:]) in (payers, payers[::-1])
    assert (shown[1] == partner(o1)) == (len(payers) == 2)


@pytest.mark.parametrize(
    "cards, level, equal",
    [
        (["5S", "5H"], "2", True),
        (["5S", "6H"], "2", False),
        (["2S", "AH"], "2", False),
        (["AS", "AD"], "2", True),
        (["BJ", "BJ"], "7", True),
        (["BJ", "RJ"], "7", False),
        (["5S"], "2", False),
    ],
)
def test_equal_tributes_are_equal_in_level_order(cards, level, equal):
    from referee.guandan import equal_tributes

    assert equal_tributes(cards, level) is equal
