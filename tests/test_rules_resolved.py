"""Rules resolved once for all the records that write them alike (rules.resolve, issue 36): a cached reading
never stands for rules that differ, however little, and rules with a problem are resolved anew each time."""

import pytest

from referee import rules
from referee.game import game

GDY = game("gandengyan")


def resolved(raw):
    effective, findings = rules.resolve(GDY, raw)
    return effective, [(f.rule, f.at) for f in findings]


@pytest.mark.parametrize(
    ("good", "bad"),
    [
        ({"options": {"ace_multiplier": 2}}, {"options": {"ace_multiplier": 2.0}}),  # JSON tells 2 from 2.0
        ({"options": {"jokers_wild": True}}, {"options": {"jokers_wild": 1}}),  # and true from 1
        ("wenshan", "wenshen"),
    ],
)
def test_rules_read_alike_are_resolved_alike_and_a_near_miss_is_not_taken_for_them(good, bad):
    first, problems = resolved(good)
    assert problems == [] and resolved(good) == (first, [])
    for _ in range(2):  # a problem is found every time, not once
        _, problems = resolved(bad)
        assert problems and problems[0][0] in ("notation.rules.option", "notation.rules.preset")


def test_the_options_given_are_the_options_resolved_in_either_order():
    one = resolved({"options": {"ace_multiplier": 3, "decks": 2}})[0]["options"]
    other = resolved({"options": {"decks": 2, "ace_multiplier": 3}})[0]["options"]
    assert one == other and one["ace_multiplier"] == 3 and one["decks"] == 2


def test_rules_too_long_to_keep_are_resolved_each_time():
    raw = {"options": {"x-note": "n" * rules.MAX_KEYED_RULES, "ace_multiplier": 4}}
    before = len(rules._RESOLVED)
    assert resolved(raw)[0]["options"]["ace_multiplier"] == 4
    assert len(rules._RESOLVED) == before


def test_a_record_checked_after_another_of_the_same_rules_gets_the_same_rules():
    from referee.replay import check_record
    from tests import gandengyan_gen

    record = gandengyan_gen.match_record(5, seats=3, deals=1)
    record["rules"] = {"preset": "pagat", "options": {"ace_multiplier": 3}}
    first, second = check_record(record), check_record(record)
    assert first.rules == second.rules and first.rules["options"]["ace_multiplier"] == 3
