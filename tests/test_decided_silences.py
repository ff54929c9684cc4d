"""The three page silences decided in issue 30: a Gou Ji play of cards the seat does not hold is
`gouji.cards.not_held` even when they would make no set (rules/gouji.md §4.9); a Gou Ji tribute by a
seat that owes none, after the returns too, is `gouji.tribute.payer` (§6.3); a record `totals` or
`levels` that agrees with an incomplete last deal's claimed result carried on is no new finding
(notation §5)."""

import copy

from tests import gouji_builders as gj
from tests.gouji_gen import match_record as gouji_match
from tests.test_gouji_deal import AT, PAID, ordinary, tribute
from tests.test_one_fault import GDY_BASE, GUANDAN_BASE, errors


def test_gouji_cards_not_held_come_first_even_when_they_make_no_set():
    record = gj.record([gj.deal([["3S"], ["4S", "4S", "4S", "4S"]], [gj.play(0, "3S", "4S")])])
    assert gj.findings(record) == [("gouji.cards.not_held", "/deals/0/actions/0")]
    held = gj.record([gj.deal([["3S", "4S"]], [gj.play(0, "3S", "4S")])])  # held, but no set
    assert gj.findings(held) == [("gouji.play.combination", "/deals/0/actions/0")]


def test_a_gouji_tribute_by_a_seat_that_owes_none_after_the_returns_is_tribute_payer():
    assert gj.findings(ordinary(PAID + [tribute(5, "3C")])) == [("gouji.tribute.payer", AT(len(PAID)))]
    assert gj.findings(ordinary(PAID + [tribute(2, "3C")])) == [("gouji.tribute.payer", AT(len(PAID)))]
    assert gj.findings(ordinary(PAID[:3] + [tribute(2, "3C")])) == [("gouji.tribute.payer", AT(3))]


INCOMPLETE = [("notation.result.incomplete", "/deals/1/result")]


def test_guandan_levels_agreeing_with_an_incomplete_last_deals_claim_are_no_new_finding():
    record = copy.deepcopy(GUANDAN_BASE)
    record["deals"][1]["result"] = {"order": [3, 1, 0, 2]}  # a 1-2 finish of team 1: levels 4 and 5
    record["result"] = {"levels": ["4", "5"]}
    assert errors(record) == INCOMPLETE
    record["deals"][1]["result"] = {"levels": ["4", "6"]}
    record["result"] = {"levels": ["4", "6"]}
    assert errors(record) == INCOMPLETE
    record["result"] = {"levels": ["4", "2"]}  # as computed up to the incomplete deal
    assert errors(record) == INCOMPLETE
    record["result"] = {"levels": ["4", "7"]}
    assert errors(record) == INCOMPLETE + [("guandan.match.levels", "/result/levels")]


def test_gandengyan_totals_agreeing_with_an_incomplete_last_deals_claim_are_no_new_finding():
    record = copy.deepcopy(GDY_BASE)
    record["deals"][1]["result"] = {"winner": 0, "scores": [3, -3]}
    record["result"] = {"totals": [8, -8]}
    assert errors(record) == INCOMPLETE
    record["result"] = {"totals": [5, -5]}
    assert errors(record) == INCOMPLETE
    record["result"] = {"totals": [9, -9]}
    assert errors(record) == INCOMPLETE + [("gandengyan.match.totals", "/result/totals")]


def test_gouji_totals_agreeing_with_an_incomplete_last_deals_claim_are_no_new_finding():
    record = gouji_match(5, deals=2)
    assert errors(record) == [] and record["deals"][1]["result"]["scores"] != [0, 0]
    assert record["result"]["winner"] == 1  # with the totals, -2 and 2
    record["deals"][1]["actions"] = record["deals"][1]["actions"][:20]
    assert errors(record) == INCOMPLETE
    del record["deals"][1]["result"]["scores"]  # the claimed order gives the same scores
    assert errors(record) == INCOMPLETE
    record["result"]["totals"][0] += 1
    assert errors(record) == INCOMPLETE + [("gouji.match.totals", "/result/totals")]
