"""Gou Ji between deals and around them: deck and start keys (§1), tribute, returns, swap, waiver,
liberation, revolution (§6), scoring and claims (§5), reports (§7)."""

import copy
import json
from pathlib import Path

import pytest

from referee.gouji import GoujiOptions, scores_of
from referee.replay import check_record
from tests.gouji_builders import deal, declare, fill_hands, findings, go_out, play, record, report_of
from tests.gouji_gen import DEFAULTS, match_record

AT = "/deals/0/actions/{}".format
ORDINARY = {"previous_order": [0, 1, 2, 3, 4, 5]}  # o6 = 5 pays o1 = 0 two cards; o5 = 4 pays o2 = 1 one


def tribute(seat, card, **extra):
    return {"seat": seat, "tribute": card, **extra}


def give_back(seat, card, **extra):
    return {"seat": seat, "return": card, **extra}


def ordinary(actions, partial=None, start=ORDINARY, leader=None, options=None):
    partial = partial or [["3S", "3H"], ["3D"], [], [], ["RJ"], ["RJ", "RJ", "3C", "4S"]]
    return record([deal(partial, actions, leader=leader)], options, start=start)


PAID = [
    tribute(5, "RJ"),
    tribute(5, "RJ"),
    tribute(4, "RJ"),
    give_back(0, "3S"),
    give_back(0, "3H"),
    give_back(1, "3D"),
]


# ---------------------------------------------------------------- §1 deck, seats, start, leader


def test_six_seats():
    rec = record([deal([], [])], players=["A", "B", "C", "D"])
    assert findings(rec) == [("gouji.deal.seats", "/players")]


def test_hand_sizes_and_the_deck():
    short = record([deal([], [])])
    short["deals"][0]["hands"][2].pop()
    assert findings(short) == [("gouji.deal.hand_size", "/deals/0/hands/2")]
    five = record([deal([], [])])
    five["deals"][0]["hands"].pop()
    assert findings(five) == [("gouji.deal.hand_size", "/deals/0/hands")]
    wrong = record([deal([], [])])
    wrong["deals"][0]["hands"][0][0] = "RJ" if wrong["deals"][0]["hands"][0][0] != "RJ" else "BJ"
    assert findings(wrong) == [("gouji.deal.deck", "/deals/0/hands")]


def test_a_fresh_game_needs_its_leader():
    assert findings(record([deal([], [], leader=None)])) == [("gouji.leader.missing", "/deals/0/leader")]


@pytest.mark.parametrize(
    "start, at",
    [
        ({"fresh": False}, "/start/fresh"),
        ({"previous_order": [0, 0, 1, 2, 3, 4]}, "/start/previous_order"),
    ],
)
def test_start_previous_order(start, at):
    assert ("gouji.start.previous_order", at) in findings(record([deal([], [])], start=start))


def test_start_totals_are_two_team_numbers():
    assert ("gouji.start.totals", "/start/totals") in findings(record([deal([], [])], start={"totals": [1, 2, 3]}))


def test_an_ordinary_game_is_led_by_the_big_loser_and_a_wrong_leader_is_reported_once():
    assert findings(ordinary(PAID + [play(5, "4S")])) == []
    rec = ordinary(PAID + [play(5, "4S")], leader=3)
    assert findings(rec) == [("gouji.leader", "/deals/0/leader")]  # the big loser leads all the same


def test_a_wrong_leader_leads_nothing_its_play_is_out_of_turn():
    rec = ordinary(PAID + [play(3, "4S")], partial=[["3S", "3H"], ["3D"], [], ["4S"], ["RJ"], ["RJ", "RJ"]], leader=3)
    assert findings(rec) == [("gouji.leader", "/deals/0/leader"), ("gouji.turn", AT(len(PAID)))]


# ---------------------------------------------------------------- §6 tribute and returns


def test_a_tribute_that_is_not_the_highest_card():
    actions = [
        tribute(5, "3C"),
        tribute(5, "RJ"),
        tribute(4, "RJ"),
        give_back(0, "3S"),
        give_back(0, "3H"),
        give_back(1, "3D"),
        play(5, "4S"),
    ]
    rec = ordinary(actions)
    assert findings(rec) == [("gouji.tribute.card", AT(0) + "/tribute")]
    assert "RJ" in report_of(rec).findings[0].message


@pytest.mark.parametrize(
    "actions, rule, index",
    [
        ([tribute(5, "RJ"), give_back(0, "3S")], "gouji.tribute.order", 1),  # a return while tribute is owed
        ([play(5, "4S")], "gouji.tribute.order", 0),  # a play before tribute
        (PAID[:3] + [play(5, "4S")], "gouji.tribute.order", 3),  # a play before the returns
        ([tribute(3, "RJ")], "gouji.tribute.payer", 0),
        (PAID[:3] + [give_back(2, "3S")], "gouji.return.payer", 3),
    ],
)
def test_tribute_out_of_order_or_by_the_wrong_seat(actions, rule, index):
    assert findings(ordinary(actions)) == [(rule, AT(index))]


def test_a_wrong_to_is_reported_and_the_card_goes_where_it_is_owed():
    actions = [tribute(5, "RJ", to=2)] + PAID[1:5] + [give_back(1, "3D", to=3), play(5, "4S")]
    assert findings(ordinary(actions)) == [("gouji.tribute.to", AT(0) + "/to"), ("gouji.return.to", AT(5) + "/to")]


def test_sweep_exchange_and_to_when_a_payer_owes_two_seats():
    sweep = {"previous_order": [0, 2, 4, 1, 3, 5]}  # o4, o5, o6 = 1, 3, 5 give one card to 4, 0, 2
    partial = [["3S"], ["RJ"], [], ["RJ"], [], ["RJ"]]
    actions = [
        tribute(1, "RJ"),
        tribute(3, "RJ"),
        tribute(5, "RJ"),
        give_back(4, "RJ"),
        give_back(0, "RJ"),
        give_back(2, "RJ"),
        play(0, "3S"),
    ]
    assert findings(record([deal(partial, actions, leader=0)], start=sweep)) == []
    add = record(
        [deal([[], [], [], [], [], ["RJ", "RJ", "RJ"]], [tribute(5, "RJ")], leader=0)],
        {"sweep_tribute": "add"},
        start=sweep,
    )
    assert findings(add) == [("gouji.tribute.to", AT(0))]  # o6 owes o1 (0) and his Dui Men (2)


def test_waivers_between_team_mates():
    mates = {"previous_order": [0, 1, 2, 3, 5, 4]}  # 4 owes 0, 5 owes 1: team-mates both times
    actions = [declare(4, "waive_tribute"), declare(1, "waive_tribute"), play(4, "4S")]
    assert findings(ordinary(actions, partial=[[], [], [], [], ["4S"]], start=mates)) == []
    assert findings(ordinary([declare(2, "waive_tribute")], start=mates)) == [
        ("gouji.waive_tribute", AT(0) + "/declare")
    ]
    never = ordinary(
        [play(4, "4S")], partial=[[], [], [], [], ["4S"]], start=mates, options={"same_team_tribute": "never"}
    )
    assert findings(never) == []


def test_the_losers_swap_roles():
    swap = {"previous_order": [0, 2, 1, 4, 3, 5]}  # o5 = 3 and o6 = 5 are team-mates
    partial = [["3S", "3H"], [], ["3D"], ["RJ", "RJ", "4S"], [], ["RJ"]]
    actions = [
        declare(5, "swap_losers"),
        tribute(3, "RJ"),
        tribute(3, "RJ"),
        tribute(5, "RJ"),
        give_back(0, "3S"),
        give_back(0, "3H"),
        give_back(2, "3D"),
        play(3, "4S"),
    ]
    assert findings(record([deal(partial, actions, leader=None)], start=swap)) == []
    assert findings(ordinary([declare(4, "swap_losers")])) == [("gouji.swap_losers", AT(0) + "/declare")]
    late = {"previous_order": [1, 0, 2, 4, 3, 5]}  # o6 = 5 owes o1 = 1, a team-mate
    rec = ordinary([declare(5, "waive_tribute"), declare(3, "swap_losers")], start=late)
    assert findings(rec)[:1] == [("gouji.tribute.order", AT(1) + "/declare")]


def test_liberation_with_four_red_jokers():
    partial = [[], ["3D"], [], [], ["BJ"], ["RJ"] * 4 + ["4S"]]
    actions = [declare(5, "liberation"), tribute(4, "BJ"), give_back(1, "3D"), play(5, "4S")]
    assert findings(ordinary(actions, partial=partial)) == []
    assert findings(ordinary([declare(4, "liberation")])) == [("gouji.liberation", AT(0) + "/declare")]


NATURAL = [r + s for r in "3456789TJQKA" for s in "SHDC"][:36]


def revolution(actions, options=None, result=None, then=None):
    first = {"hands": fill_hands([NATURAL], exclude=("2", "BJ", "RJ")), "leader": 0, "actions": actions}
    if result is not None:
        first["result"] = result
    return record([first] + ([then] if then else []), options)


def test_revolution_voids_the_deal_and_the_next_is_fresh():
    rec = revolution(
        [declare(0, "revolution")],
        result={"scores": [0, 0], "tribute": "revolution"},
        then=deal([], [play(2, "3S")], leader=2, seed=5) | {"hands": fill_hands([[], [], ["3S"]])},
    )
    assert findings(rec) == []
    assert report_of(rec).deals[0]["status"] == "void"
    wrong = revolution([declare(0, "revolution")], result={"order": [0, 1, 2, 3, 4, 5], "scores": [4, -4]})
    assert findings(wrong) == [
        ("gouji.result.order", "/deals/0/result/order"),
        ("gouji.result.scores", "/deals/0/result/scores"),
    ]


def test_revolution_conditions():
    assert findings(revolution([declare(5, "revolution")])) == [("gouji.revolution", AT(0) + "/declare")]
    after = revolution([declare(0, "revolution"), play(0, "3S")])
    assert findings(after) == [("gouji.deal.over", AT(1))]
    late = revolution([play(0, "3S"), declare(0, "revolution")])
    assert findings(late) == [("gouji.tribute.order", AT(1) + "/declare")]
    two = revolution([declare(0, "revolution"), play(0, "3S")], options={"revolution_declarers": 2})
    assert findings(two) == []


# ---------------------------------------------------------------- §2 threes_last, §7 reports


def test_threes_last():
    rec = record([deal([["3S", "3H"]], [play(0, "3S", "3H")])], {"threes_last": True})
    assert findings(rec) == [("gouji.threes_last", AT(0))]


def test_a_report_with_a_wrong_count():
    rec = record([deal([["3S"]], [declare(1, "report", count=36), play(0, "3S"), declare(0, "report", count=36)])])
    assert findings(rec) == [("gouji.report.count", AT(2) + "/count")]


def test_a_seat_that_never_reports_gets_a_warning():
    rec = match_record(4, deals=1, options={"report_at": 10})
    actions = rec["deals"][0]["actions"]
    dropped = next(a for a in actions if a.get("declare") == "report")
    actions.remove(dropped)
    warnings = [(f.rule, f.seat) for f in report_of(rec).findings if f.severity == "warning"]
    assert warnings == [("gouji.report.missing", dropped["seat"])] and findings(rec) == []


# ---------------------------------------------------------------- §5 scoring, claims


@pytest.mark.parametrize(
    "order, scores",
    [
        ([0, 1, 3, 2, 4, 5], [2, -2]),  # places 1, 4, 5
        ([0, 1, 2, 3, 5, 4], [0, 0]),  # places 1, 3, 6
        ([0, 2, 1, 4, 3, 5], [6, -6]),  # places 1, 2, 4
        ([0, 2, 4, 1, 3, 5], [12, -12]),  # a sweep is doubled
        ([1, 3, 5, 0, 2, 4], [-12, 12]),
    ],
)
def test_pagat_scoring_examples(order, scores):
    assert scores_of(order, GoujiOptions(**DEFAULTS)) == scores


def test_winner_only_and_the_variant_points():
    o = GoujiOptions(**dict(DEFAULTS, scoring="winner_only", place_points=[2, 1, 0, 0, -1, -2]))
    assert scores_of([0, 2, 1, 4, 3, 5], o) == [3, 0] and scores_of([1, 0, 3, 2, 5, 4], o) == [0, 1]


def test_a_complete_deal_reports_its_outcome():
    rec = match_record(2, deals=2)
    report = check_record(copy.deepcopy(rec))
    assert report.valid
    for claimed, computed in zip(rec["deals"], report.deals):
        assert computed["order"][:5] == claimed["result"]["order"][:5]
        assert computed["scores"] == claimed["result"]["scores"] and computed["tribute"] == claimed["result"]["tribute"]
    assert report.match["totals"] == rec["result"]["totals"]


def test_claims_of_other_games_and_a_wrong_winner():
    rec = match_record(2, deals=1)
    rec["deals"][0]["result"]["winner"] = 0
    rec["result"] = {"winner": 1 - rec["result"].get("winner", 0), "levels": ["2", "2"]}
    assert sorted(findings(rec)) == [
        ("gouji.match.winner", "/result/winner"),
        ("gouji.result.key", "/deals/0/result/winner"),
        ("gouji.result.key", "/result/levels"),
    ]


def test_an_action_after_the_deal_is_over():
    rec = match_record(3, deals=1)
    rec["deals"][0]["actions"] += [{"seat": 0, "pass": True}]
    assert findings(rec) == [("gouji.deal.over", AT(len(rec["deals"][0]["actions"]) - 1))]
    rec["deals"][0]["actions"][-1] = declare(0, "xian_rang_rang")
    assert findings(rec) == [("gouji.deal.over", AT(len(rec["deals"][0]["actions"]) - 1))]


def test_a_stopped_deal_without_claims_leaves_the_rest_uncheckable():
    rec = match_record(3, deals=2)
    first = rec["deals"][0]
    del first["result"]
    turn = next(i for i, a in enumerate(first["actions"]) if "pass" in a)
    first["actions"][turn]["seat"] = (first["actions"][turn]["seat"] + 3) % 6
    report = report_of(rec)
    assert [(f.rule, f.severity) for f in report.findings if f.rule != "gouji.turn"] == [
        ("gouji.deal.uncheckable", "warning"),
        ("gouji.match.uncheckable", "info"),
    ]


def test_a_stopped_deal_with_claims_lets_the_next_deal_be_checked():
    rec = match_record(3, deals=2)
    first = rec["deals"][0]["actions"]
    turn = next(i for i, a in enumerate(first) if "pass" in a)
    first[turn]["seat"] = (first[turn]["seat"] + 3) % 6
    report = report_of(rec)
    assert [f.rule for f in report.findings if f.severity == "error"] == ["gouji.turn"]
    assert report.deals[1]["status"] == "complete" and report.match["totals"] == rec["result"]["totals"]


def test_a_declaration_gou_ji_does_not_have():
    rec = record([deal([["3S"]], [declare(0, "anti_tribute"), play(0, "3S")])])
    assert findings(rec) == [("gouji.declare", AT(0) + "/declare")]


@pytest.mark.parametrize(
    "options, at",
    [
        ({"duel_thresholds": {"Z": 3}}, "/rules/options/duel_thresholds"),
        ({"duel_thresholds": {"K": 0}}, "/rules/options/duel_thresholds"),
        ({"duel_thresholds": {"K": "2"}}, "/rules/options/duel_thresholds"),  # no int: the compiled build too
        ({"duel_thresholds": {"K": 2.5}}, "/rules/options/duel_thresholds"),
        ({"place_points": [4, 2, 0]}, "/rules/options/place_points"),
        ({"place_points": [4, 2, 0, 0, -2, "-4"]}, "/rules/options/place_points"),
        ({"place_points": [4, 2, 0, 0, -2, -4.5]}, "/rules/options/place_points"),
        ({"sweep_multiplier": 0}, "/rules/options/sweep_multiplier"),
        ({"report_at": 0}, "/rules/options/report_at"),
        ({"catch_wind": "left"}, "/rules/options/catch_wind"),
    ],
)
def test_options_out_of_range(options, at):
    assert findings(record([deal([], [])], options)) == [("notation.rules.option", at)]


def test_the_preset_alias_and_duel_thresholds_as_options():
    actions = [play(0, "9S", "9H", "9D"), play(1, "TS", "TH", "TD")]
    rec = record([deal([["9S", "9H", "9D"], ["TS", "TH", "TD"]], actions)], {"duel_thresholds": {"9": 3}})
    assert findings(rec) == [("gouji.turn", AT(1))]  # three 9s now start a Gou Ji with seat 3
    rec["rules"] = "gouji-pagat"
    assert findings(rec) == [] and report_of(rec).rules["preset"] == "pagat"


def test_end_when_team_out_ranks_the_rest_by_cards_then_from_the_seat_after_the_last_out():
    low = sorted([r + s for r in "3456789" for s in "SHDC"] * 4, key=lambda c: "3456789".index(c[0]))
    partial = [low[:36], [], low[36:72], [], low[72:108]]
    actions = (
        go_out(0, low[:36], range(6))
        + go_out(2, low[36:72], (1, 2, 3, 4, 5))
        + go_out(4, low[72:108], (1, 3, 4, 5))[:-3]
    )
    result = {"order": [0, 2, 4, 5, 1, 3], "scores": [12, -12], "tribute": "none"}
    rec = record(
        [deal(partial, actions, leader=0, result=result)], {"end_when_team_out": True, "catch_wind": "teammate"}
    )
    assert findings(rec) == [] and report_of(rec).deals[0]["status"] == "complete"


@pytest.mark.parametrize("leader, expected", [(None, []), (5, []), (3, [("gouji.leader", "/deals/1/leader")])])
def test_the_leader_of_an_ordinary_deal_voided_by_revolution_is_checked(leader, expected):
    """§1: on a deal voided by revolution `leader` names the seat that would have led: the big
    loser of the previous deal (seat 5, which the claimed order of deal 0 leaves last)."""
    record = json.loads((Path(__file__).parent.parent / "samples" / "gouji" / "revolution.json").read_text())
    record["deals"][1]["leader"] = leader
    if leader is None:
        del record["deals"][1]["leader"]
    assert findings(record) == expected
