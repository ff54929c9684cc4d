"""Whole records: the deal check (§1), claims (§5, notation §6), rules (§8, §9), reports (§7),
and every finding id with its JSON Pointer."""

import json
from pathlib import Path

import pytest

from tests.gandengyan_builders import check, deal, errors, found, pas, play, record

# seat 0 deals and goes out at once with a six-card sequence; seat 1 keeps two aces
WIN = [["3S", "4H", "5D", "6C", "7S", "8H"], ["AS", "AH", "9C", "9D", "KD"]]
OUT = play(0, "3S", "4H", "5D", "6C", "7S", "8H")
# seat 1 deals the next hand and goes out the same way
WIN_1 = [["AS", "AH", "9C", "9D", "KD"], ["3S", "4H", "5D", "6C", "7S", "8H"]]
OUT_1 = play(1, "3S", "4H", "5D", "6C", "7S", "8H")


def one_deal(result=None, rules="pagat", actions=(OUT,), **extra):
    d = deal(WIN, list(actions), **({"result": result} if result else {}))
    return record([d], rules=rules, **extra)


@pytest.mark.parametrize(
    "rules, scores",
    [
        ("pagat", [5, -5]),
        ("wenshan", [5, 0]),
        ("gandengyan-catsatcards", [5, -5]),
        ({"preset": "pagat", "options": {"ace_multiplier": 2}}, [20, -20]),
        ({"preset": "wenshan", "options": {"ace_multiplier": 4, "payment_cap": 50}}, [50, 0]),
    ],
)
def test_scores_under_presets_and_options(rules, scores):
    rep = check(one_deal({"winner": 0, "scores": scores}, rules=rules))
    assert rep.valid, errors(rep)
    assert rep.deals[0]["scores"] == scores and rep.match["totals"] == scores


def test_preset_alias_is_reported_by_its_short_name():
    assert check(one_deal(rules="gandengyan-wenshan")).rules["preset"] == "wenshan"


def test_outcome_reports_winner_cards_left_payments():
    rep = check(one_deal(rules={"preset": "pagat", "options": {"ace_multiplier": 2}}))
    d = rep.deals[0]
    assert (d["winner"], d["left"], d["payments"], d["dealer"]) == (0, [0, 5], [0, 20], 0)
    assert d["multipliers"] == ["seat 1 ×4: 2 aces at ×2"]


# (claims on the deal, claims on the record, extra record keys, expected findings)
CLAIMS = [
    ({"winner": 1}, None, {}, [("gandengyan.result.winner", "/deals/0/result/winner")]),
    ({"order": [1]}, None, {}, [("gandengyan.result.order", "/deals/0/result/order/0")]),
    ({"order": [0, 1]}, None, {}, [("gandengyan.result.order", "/deals/0/result/order/1")]),  # info
    ({"scores": [5, -4]}, None, {}, [("gandengyan.result.scores", "/deals/0/result/scores")]),
    ({"levels": ["2", "2"]}, None, {}, [("gandengyan.result.key", "/deals/0/result/levels")]),
    ({"tribute": "none"}, None, {}, [("gandengyan.result.key", "/deals/0/result/tribute")]),
    (None, {"totals": [5, -6]}, {}, [("gandengyan.match.totals", "/result/totals")]),
    (None, {"totals": [15, -15]}, {"start": {"totals": [10, -10]}}, []),
    (None, {"totals": [5, -5]}, {"start": {"totals": [10, -10]}}, [("gandengyan.match.totals", "/result/totals")]),
    (None, {"winner": 1}, {}, [("gandengyan.match.winner", "/result/winner")]),
    (None, {"winner": 0}, {}, []),
    (None, {"winner": 0}, {"start": {"totals": [-5, 5]}}, [("gandengyan.match.winner", "/result/winner")]),  # tie
    (None, {"levels": ["2", "3"]}, {}, [("gandengyan.result.key", "/result/levels")]),
    (None, None, {"start": {"totals": [1, 2, 3]}}, [("gandengyan.start.totals", "/start/totals")]),
    (None, None, {"start": {"dealer": 1}}, [("gandengyan.start.dealer", "/start/dealer")]),
    (None, None, {"start": {"dealer": 0}}, []),
]


@pytest.mark.parametrize("deal_claims, record_claims, extra, expected", CLAIMS)
def test_claims(deal_claims, record_claims, extra, expected):
    rec = one_deal(deal_claims, **extra)
    if record_claims:
        rec["result"] = record_claims
    rep = check(rec)
    assert found(rep) == expected
    assert rep.valid == all(f.severity == "info" for f in rep.findings)


def test_leader_is_checked_against_the_six_card_seat():
    rec = one_deal()
    rec["deals"][0]["leader"] = 1
    assert errors(check(rec)) == [("gandengyan.leader", "/deals/0/leader")]
    rec["deals"][0]["leader"] = 0
    assert check(rec).valid


def test_winner_deals_the_next_hand():
    good = record([deal(WIN, [OUT]), deal(WIN_1, [OUT_1], dealer=1)])
    assert deal(WIN_1, [], dealer=1)["hands"][1] == WIN_1[1]
    assert errors(check(good)) == [("gandengyan.deal.dealer", "/deals/1/hands/1")]
    fine = record([deal(WIN, [OUT]), deal(WIN, [OUT])], result={"totals": [10, -10], "winner": 0})
    assert check(fine).valid
    assert check(dict(good, rules="catsatcards")).valid


def test_totals_run_across_deals():
    rep = check(record([deal(WIN, [OUT]), deal(WIN, [OUT]), deal(WIN, [OUT])], rules="wenshan"))
    assert [d["totals"] for d in rep.deals] == [[5, 0], [10, 0], [15, 0]]


# ---------------------------------------------------------------- the deal itself (§1)


def test_hand_sizes():
    rec = one_deal()
    rec["deals"][0]["hands"][1].append(rec["deals"][0]["talon"].pop())
    assert errors(check(rec)) == [("gandengyan.deal.hand_size", "/deals/0/hands")]
    rec = one_deal()
    rec["deals"][0]["talon"].append(rec["deals"][0]["hands"][1].pop())
    assert errors(check(rec)) == [("gandengyan.deal.hand_size", "/deals/0/hands/1")]


def test_deck_surplus_card_is_pointed_at():
    rec = one_deal()
    talon = rec["deals"][0]["talon"]
    talon[3] = "3S"
    assert errors(check(rec)) == [("gandengyan.deck", "/deals/0/talon/3")]


def test_deck_surplus_in_a_hand_is_pointed_at_where_it_is_first_seen_twice():
    rec = one_deal()
    hands = rec["deals"][0]["hands"]
    hands[1][2] = hands[0][0]
    assert errors(check(rec)) == [("gandengyan.deck", "/deals/0/hands/1/2")]


def test_deck_missing_cards():
    rec = one_deal()
    rec["deals"][0]["talon"].pop()
    assert errors(check(rec)) == [("gandengyan.deck", "/deals/0/talon")]


def test_two_decks():
    d = deal(WIN, [OUT], decks=2)
    assert len(d["talon"]) == 108 - 11
    assert check(record([d], rules={"preset": "pagat", "options": {"decks": 2}})).valid
    assert errors(check(record([d])))[0][0] == "gandengyan.deck"


@pytest.mark.parametrize("seats", [1, 7])
def test_seats(seats):
    rec = one_deal()
    rec["players"] = [f"P{i}" for i in range(seats)]
    assert ("gandengyan.deal.seats", "/players") in errors(check(rec))


# ---------------------------------------------------------------- rules (§9)


@pytest.mark.parametrize(
    "options, expected",
    [
        ({"triplet_sequences": True}, ("gandengyan.rules.conflict", "/rules/options/triplet_sequences")),
        (
            {"max_sequence_ranks": 3, "min_sequence_length": 4},
            ("gandengyan.rules.conflict", "/rules/options/min_sequence_length"),
        ),
        ({"payment_cap": 0}, ("notation.rules.option", "/rules/options/payment_cap")),
        ({"talon_limit_to_win": -1}, ("notation.rules.option", "/rules/options/talon_limit_to_win")),
        ({"report_at": 0}, ("notation.rules.option", "/rules/options/report_at")),
        ({"max_sequence_ranks": 13}, ("notation.rules.option", "/rules/options/max_sequence_ranks")),
        ({"ace_multiplier": 5}, ("notation.rules.option", "/rules/options/ace_multiplier")),
        ({"decks": 3}, ("notation.rules.option", "/rules/options/decks")),
    ],
)
def test_rule_options(options, expected):
    assert errors(check(one_deal(rules={"preset": "pagat", "options": options}))) == [expected]


def test_triplet_sequences_with_ordinary_triplets_is_fine():
    rules = {"preset": "pagat", "options": {"triplet_sequences": True, "triplet_is_bomb": False}}
    assert check(one_deal(rules=rules)).valid


# ---------------------------------------------------------------- actions: every stop has its pointer

THREE = [["3S", "3H", "5S", "5H", "9S", "TS"], ["4C", "4D", "8C", "KC", "QD"], ["6C", "7D", "JH", "2H", "AD"]]


@pytest.mark.parametrize(
    "actions, expected",
    [
        ([play(1, "4C")], ("gandengyan.turn", "/deals/0/actions/0")),
        ([pas(0)], ("gandengyan.lead.pass", "/deals/0/actions/0")),
        ([play(0, "3C")], ("gandengyan.card.not_held", "/deals/0/actions/0")),
        ([play(0, "3S", "5S")], ("gandengyan.play.combination", "/deals/0/actions/0")),
        ([play(0, "3S", "3H"), play(1, "8C", "KC")], ("gandengyan.play.combination", "/deals/0/actions/1")),
        ([play(0, "3S", "3H"), pas(1), play(2, "6C")], ("gandengyan.follow", "/deals/0/actions/2")),
        (
            [
                play(0, "3S", "3H"),
                play(1, "4C", "4D"),
                pas(2),
                play(0, "5S", "5H"),
                pas(1),
                pas(2),
                play(0, "9S"),
                play(1, "TS"),
            ],
            ("gandengyan.card.not_held", "/deals/0/actions/7"),
        ),
    ],
)
def test_stops(actions, expected):
    rep = check(record([deal(THREE, actions, talon_top=["JS", "KH", "KS"])]))
    assert errors(rep) == [expected]
    stop = next(f for f in rep.findings if f.severity == "error")
    assert stop.legal and "may" in stop.legal


def test_action_after_the_deal_ended():
    rep = check(one_deal(actions=[OUT, pas(1)]))
    assert errors(rep) == [("gandengyan.deal.over", "/deals/0/actions/1")]


def test_a_report_after_the_deal_ended_is_a_late_action():
    """Notation §5, §7: reports stand anywhere before the deal ends; after it they are late."""
    rep = check(one_deal(actions=[OUT, {"seat": 1, "declare": "report", "count": 5}]))
    assert errors(rep) == [("gandengyan.deal.over", "/deals/0/actions/1")]
    assert rep.findings[0].action == 1 and rep.findings[0].deal == 0


def test_tribute_in_a_record_is_caught_by_the_structure_with_the_pages_rule_id():
    rec = one_deal(actions=[{"seat": 0, "tribute": "3S"}, OUT])
    assert errors(check(rec)) == [("gandengyan.action.unknown", "/deals/0/actions/0/tribute")]
    rec = one_deal(actions=[{"seat": 0, "return": "3S"}, OUT])
    assert errors(check(rec)) == [("gandengyan.action.unknown", "/deals/0/actions/0/return")]


# a 3-player deal: seat 1 falls to 3 cards at action 1, seat 0 to 2 at action 3; seat 0 goes out after the draw
LOW = [play(0, "3S", "3H"), play(1, "4C", "4D"), pas(2), play(0, "5S", "5H"), pas(1), pas(2), play(0, "9S", "TS", "JS")]
REPORT_AT_3 = {"preset": "pagat", "options": {"report_at": 3}}


def test_report_missing_is_a_warning_at_the_play():
    rep = check(record([deal(THREE, LOW, talon_top=["JS", "KH", "KS"])], rules=REPORT_AT_3))
    assert rep.valid and found(rep, "warning") == [
        ("gandengyan.report.missing", "/deals/0/actions/3"),
        ("gandengyan.report.missing", "/deals/0/actions/1"),
    ]


def test_a_report_with_the_right_count_clears_it():
    actions = (
        LOW[:2]
        + [{"seat": 1, "declare": "report", "count": 3}]
        + LOW[2:4]
        + [{"seat": 0, "declare": "report", "count": 2}]
        + LOW[4:]
    )
    rep = check(record([deal(THREE, actions, talon_top=["JS", "KH", "KS"])], rules=REPORT_AT_3))
    assert rep.valid and found(rep) == []


def test_report_count_counts_the_cards_drawn():
    actions = LOW[:6] + [{"seat": 1, "declare": "report", "count": 4}] + LOW[6:]
    assert check(record([deal(THREE, actions, talon_top=["JS", "KH", "KS"])])).valid
    actions[6]["count"] = 3
    rep = check(record([deal(THREE, actions, talon_top=["JS", "KH", "KS"])]))
    assert errors(rep) == [("gandengyan.report.count", "/deals/0/actions/6/count")]


def test_other_declarations():
    rec = one_deal(actions=[{"seat": 1, "declare": "revolution"}, OUT])
    assert errors(check(rec)) == [("gandengyan.declare", "/deals/0/actions/0/declare")]


# ---------------------------------------------------------------- stopped and incomplete deals (notation §9)


def test_incomplete_last_deal_is_a_warning():
    rep = check(record([deal(THREE, LOW[:3], talon_top=["JS", "KH", "KS"])]))
    assert rep.valid and found(rep) == [("notation.deal.incomplete", "/deals/0/actions")]
    assert rep.deals[0]["status"] == "incomplete" and rep.deals[0]["left"] == [4, 3, 5]


def test_stopped_deal_carries_its_claims():
    bad = deal(WIN, [play(1, "AS")], result={"winner": 0, "scores": [5, -5]})
    rep = check(record([bad, deal(WIN, [OUT])], result={"totals": [10, -10]}))
    assert errors(rep) == [("gandengyan.turn", "/deals/0/actions/0")]
    assert rep.match["totals"] == [10, -10]


def test_stopped_deal_without_claims_makes_totals_uncheckable():
    rep = check(record([deal(WIN, [play(1, "AS")]), deal(WIN_1, [OUT_1], dealer=1)], result={"totals": [0, 0]}))
    assert errors(rep) == [("gandengyan.turn", "/deals/0/actions/0")]  # no dealer error: unknown winner
    assert ("gandengyan.match.uncheckable", "/result/totals") in found(rep, "info")


DATA = Path(__file__).parent / "data"


def test_record_claims_are_checked_after_an_unfinished_last_deal():
    rec = json.loads((DATA / "gandengyan-incomplete-last-deal.json").read_text())
    report = check(rec)
    assert errors(report) == [
        ("gandengyan.match.totals", "/result/totals"),
        ("gandengyan.match.winner", "/result/winner"),
    ]
    assert report.match["totals"] == [5, -5]


def test_as_is_not_needed_when_the_cap_makes_every_reading_score_alike():
    capped = json.loads((DATA / "gandengyan-as-capped-scores.json").read_text())
    assert errors(check(capped)) == []
    uncapped = json.loads((DATA / "gandengyan-as-uncapped-scores.json").read_text())
    assert errors(check(uncapped)) == [("gandengyan.play.as_required", "/deals/0/actions/2")]
