"""The turn order of Gou Ji (§4): NORMAL rotation, duels, Xian Rang Rang, Shao Pai, catching the
wind, the endgame (the page's example: every legal order accepted, every other rejected)."""

from itertools import permutations

import pytest

from referee.replay import replay_steps
from tests.gouji_builders import deal, declare, findings, go_out, passes, play, record, report_of

AT = "/deals/0/actions/{}".format


def one(partial, actions, leader=0, options=None, **extra):
    return record([deal(partial, actions, leader=leader, **extra)], options)


# ---------------------------------------------------------------- §4.1, §4.4 NORMAL


def test_the_leader_must_play():
    assert findings(one([], passes(0))) == [("gouji.lead.pass", AT(0))]


def test_normal_rotation_and_a_seat_out_of_turn():
    rec = one([["3S"], [], ["4S"]], [play(0, "3S"), play(2, "4S")])
    assert findings(rec) == [("gouji.turn", AT(1))]
    assert "only seat 1 could act" in report_of(rec).findings[0].message


def test_a_seat_that_passed_may_not_re_enter_the_trick():
    actions = [play(0, "3S"), *passes(1), play(2, "4S"), *passes(3, 4, 5), play(1, "5S")]
    assert findings(one([["3S"], ["5S"], ["4S"]], actions)) == [("gouji.turn", AT(6))]


def test_the_trick_ends_when_no_seat_is_open_and_its_winner_leads():
    actions = [play(0, "3S"), *passes(1), play(2, "4S"), *passes(3, 4, 5, 0), play(2, "5S")]
    rec = one([["3S"], [], ["4S", "5S"]], actions)
    assert findings(rec) == [] and findings(rec, "warning") == [("notation.deal.incomplete", "/deals/0/actions")]


@pytest.mark.parametrize(
    "top, bad, rule",
    [
        (["7S", "7H"], ["7C", "2D"], "gouji.follow"),  # equal rank never beats (§10.3)
        (["7S", "7H"], ["QS", "QH", "QD"], "gouji.follow"),  # size
        (["7S"], ["8S", "9S"], "gouji.play.combination"),  # two natural ranks
        (["4S"], ["5S", "5C"], "gouji.follow"),
    ],
)
def test_plays_that_may_not_follow_stop_the_deal(top, bad, rule):
    rec = one([top, bad], [play(0, *top), play(1, *bad)])
    assert findings(rec) == [(rule, AT(1))]
    report = report_of(rec)
    assert report.deals[0]["ruling"].startswith("pagat: an infringement makes the offender, seat 1")
    assert report.findings[0].legal["ruling"] == report.deals[0]["ruling"]


def test_a_wrong_as_is_reported_and_the_play_stands():
    rec = one([["QS", "2H", "2D"]], [play(0, "QS", "2H", "2D", **{"as": "set:2"}), play(3, "KS", "KH", "KD")], seed=1)
    rec["deals"][0]["hands"] = deal([["QS", "2H", "2D"], [], [], ["KS", "KH", "KD"]], [])["hands"]
    assert findings(rec) == [("gouji.play.as", AT(0) + "/as")]


def test_cards_not_held_suits_count():
    hands = deal([["7S"]], [], seed=3)["hands"]
    missing = next(c for c in ("7H", "7D", "7C") if c not in hands[0])
    rec = record([{"hands": hands, "leader": 0, "actions": [play(0, missing)]}])
    assert findings(rec) == [("gouji.cards.not_held", AT(0))]


@pytest.mark.parametrize(
    "held, played, said",
    [
        (["KS"], ["KS", "KS"], "does not hold KS (of KS KS)"),  # one copy held, two played
        (["KS", "KS"], ["KS", "KS", "KS"], "does not hold KS (of KS KS KS)"),
        ([], ["KS", "KS"], "does not hold KS KS"),  # none held: the play's cards, with no "of"
    ],
)
def test_cards_not_held_names_only_the_cards_missing(held, played, said):
    hands = deal([], [], seed=3)["hands"]
    while hands[0].count("KS") != len(held):  # swap cards with another seat: the deck stays whole
        give, take = ("KS", "not KS") if hands[0].count("KS") > len(held) else ("not KS", "KS")
        other = next(h for h in hands[1:] if any((c == "KS") == (take == "KS") for c in h))
        mine = next(i for i, c in enumerate(hands[0]) if (c == "KS") == (give == "KS"))
        theirs = next(i for i, c in enumerate(other) if (c == "KS") == (take == "KS"))
        hands[0][mine], other[theirs] = other[theirs], hands[0][mine]
    rec = record([{"hands": hands, "leader": 0, "actions": [play(0, *played)]}])
    finding = report_of(rec).findings[0]
    assert (finding.rule, finding.at) == ("gouji.cards.not_held", AT(0))
    assert finding.message.endswith(said)


# ---------------------------------------------------------------- §4.5 the duel


def test_a_qualifying_set_starts_a_duel_that_only_the_dui_men_answers():
    rec = one([["QS", "2H", "2D"], ["KS", "KH", "KD"]], [play(0, "QS", "2H", "2D"), play(1, "KS", "KH", "KD")])
    assert findings(rec) == [("gouji.turn", AT(1))]
    assert "only seat 3 could act (DUEL 0-3)" in report_of(rec).findings[0].message


def test_the_duel_alternates_and_any_pass_ends_it():
    actions = [
        play(0, "QS", "QH", "QD"),
        play(3, "KS", "KH", "KD"),
        play(0, "AS", "AH", "AD"),
        *passes(3),
        play(0, "3S"),
    ]
    rec = one([["QS", "QH", "QD", "AS", "AH", "AD", "3S"], [], [], ["KS", "KH", "KD"]], actions)
    assert findings(rec) == []


def test_a_dui_men_that_passed_still_duels():
    actions = [
        play(0, "3S", "3H"),
        *passes(1, 2, 3),
        play(4, "AS", "AH"),
        play(1, "2S", "2H"),
        *passes(4),
        play(1, "5S"),
    ]
    rec = one([["3S", "3H"], ["2S", "2H", "5S"], [], [], ["AS", "AH"]], actions)
    assert findings(rec) == []


def test_a_non_duellist_playing_into_a_duel():
    actions = [play(0, "3S", "3H"), *passes(1, 2, 3), play(4, "AS", "AH"), play(5, "2S", "2H")]
    rec = one([["3S", "3H"], [], [], [], ["AS", "AH"], ["2S", "2H"]], actions)
    assert findings(rec) == [("gouji.turn", AT(5))]


@pytest.mark.parametrize("answer, rule", [(["KS", "KH", "BJ"], "gouji.follow"), (["6S", "6H", "RJ"], None)])
def test_a_black_joker_set_needs_as_many_red_jokers(answer, rule):
    rec = one([["5S", "5H", "BJ"], [], [], answer], [play(0, "5S", "5H", "BJ"), play(3, *answer)])
    assert findings(rec) == ([(rule, AT(1))] if rule else [])


def test_a_red_joker_set_can_never_be_followed():
    rec = one([["7S", "7H", "RJ"], ["8S", "8H", "RJ"]], [play(0, "7S", "7H", "RJ"), play(1, "8S", "8H", "RJ")])
    assert findings(rec) == [("gouji.follow", AT(1))]


# ---------------------------------------------------------------- §4.6 Xian Rang Rang

XRR = [play(0, "3S"), *passes(1, 2), play(3, "4S"), declare(0, "xian_rang_rang")]


def test_xian_rang_rang_and_its_lock_keep_shao_pai_out():
    actions = XRR + [*passes(4, 5), play(0, "2S"), declare(1, "shao_pai"), *passes(3), play(0, "5S")]
    rec = one([["3S", "2S", "5S"], [], [], ["4S"]], actions)
    assert findings(rec) == [("gouji.shao_pai.declare", AT(8) + "/declare")]
    assert "locked" in report_of(rec).findings[0].message


def test_xian_rang_rang_declined_by_a_play():
    actions = XRR + [play(4, "5S"), *passes(5), play(0, "6S")]
    assert findings(one([["3S", "6S"], [], [], ["4S"], ["5S"]], actions)) == []


@pytest.mark.parametrize(
    "actions",
    [
        [play(0, "3S"), *passes(1, 2), play(3, "4S"), declare(1, "xian_rang_rang")],  # not the beaten seat
        [play(0, "3S"), *passes(1), play(2, "4S"), play(3, "5S"), declare(0, "xian_rang_rang")],  # a play between
        [play(0, "3S"), *passes(1, 2), play(3, "4S"), *passes(4), declare(0, "xian_rang_rang")],  # not right after
    ],
)
def test_xian_rang_rang_out_of_place(actions):
    rec = one([["3S"], [], ["4S"], ["4S", "5S"]], actions)
    assert findings(rec) == [("gouji.xian_rang_rang", AT(len(actions) - 1) + "/declare")]


# ---------------------------------------------------------------- §4.7 Shao Pai

SHAO_HAND = [r + s for r in "345678" for s in "SHDC"] + ["KS", "KH", "KD", "KC"] + ["BJ", "RJ"] * 4
GOUJI = [play(0, "QS", "QH", "QD"), declare(1, "shao_pai"), play(1, "KS", "KH", "KD")]


def shao(actions, hand=SHAO_HAND, **extra):
    return one([["QS", "QH", "QD", "3S"], hand, ["AS", "AH", "AD", "9S"], [], [], ["2S", "2H", "2D"]], actions, **extra)


def test_a_valid_shao_pai_then_the_declarer_leads_with_jokers():
    actions = GOUJI + [*passes(2, 3, 4, 5, 0), play(1, "3S", "3H", "3D", "3C", "BJ"), *passes(4)]
    rec = shao(actions)
    assert findings(rec) == []
    assert report_of(rec).findings[-1].legal["mode"] == "NORMAL"


def test_a_shao_pai_lead_without_a_joker_is_void_and_the_next_holder_leads():
    actions = GOUJI + [*passes(2, 3, 4, 5, 0), play(1, "4S", "4H", "4D", "4C"), play(2, "9S")]
    rec = shao(actions)
    assert findings(rec) == [("gouji.shao_pai.invalid", AT(8))]
    assert "big loser" in report_of(rec).findings[0].message
    assert _table_after(rec, 8) == [] and _table_after(rec, 9) == [(2, ["9S"])]  # the void lead is on no table


def test_a_play_on_s1_starts_a_new_duel():
    rec = shao(GOUJI + [play(2, "AS", "AH", "AD"), play(3, "2C", "2C", "2C")])
    assert findings(rec) == [("gouji.turn", AT(4))]
    assert "DUEL 2-5" in report_of(rec).findings[0].message
    assert findings(shao(GOUJI + [play(2, "AS", "AH", "AD"), play(5, "2S", "2H", "2D")])) == []


def test_a_false_shao_pai_is_void_and_the_dui_men_answers():
    hand = ["KS", "KH", "KD"] + [r + "S" for r in "3456789TJA"]
    actions = [
        play(0, "QS", "QH", "QD"),
        declare(1, "shao_pai"),
        play(1, "KS", "KH", "KD"),
        *passes(3),
        play(0, "3S"),
        play(2, "9S"),
    ]
    rec = shao(actions, hand=hand)
    assert findings(rec) == [("gouji.shao_pai.invalid", AT(2))]
    assert report_of(rec).findings[-1].legal["seats"] == [3]  # seat 1 left the deal
    assert _table_after(rec, 2) == [(0, ["QS", "QH", "QD"])]  # the void S1 is not on the table


def _table_after(rec, index):
    """The current trick's plays (seat, cards) and passes (seat, None) after the deal's action `index`."""
    _, steps = replay_steps(rec, 0)
    return [(entry["seat"], entry.get("play")) for entry in steps[index + 1]["table"]["table"]]


@pytest.mark.parametrize(
    "actions, rule, at",
    [
        ([play(0, "QS", "QH", "QD"), declare(2, "shao_pai")], "gouji.shao_pai.declare", AT(1) + "/declare"),
        ([play(0, "QS", "QH", "QD"), declare(3, "shao_pai")], "gouji.shao_pai.declare", AT(1) + "/declare"),
        ([play(0, "3S"), declare(1, "shao_pai")], "gouji.shao_pai.declare", AT(1) + "/declare"),
        ([play(0, "QS", "QH", "QD"), declare(1, "shao_pai"), play(3, "KS", "KH", "KC")], "gouji.shao_pai.first", AT(2)),
        ([play(0, "QS", "QH", "QD"), declare(1, "shao_pai"), play(1, "3S", "3H", "3D")], "gouji.shao_pai.first", AT(2)),
    ],
)
def test_shao_pai_out_of_place(actions, rule, at):
    assert findings(shao(actions))[:1] == [(rule, at)]


# ---------------------------------------------------------------- §4.3 catching the wind

LOW = sorted([r + s for r in "3456789" for s in "SHDC"] * 4, key=lambda c: "3456789".index(c[0]))


@pytest.mark.parametrize("catch, leader", [("next_active", 4), ("teammate", 5)])
def test_catching_the_wind(catch, leader):
    actions = go_out(3, LOW[:36], range(6))
    for seat in (4, 5):
        rec = one(
            [[], [], [], LOW[:36], ["TS"], ["TS"]],
            actions + [play(seat, "TS")],
            leader=3,
            options={"catch_wind": catch},
        )
        assert findings(rec) == ([] if seat == leader else [("gouji.turn", AT(len(actions)))])


def test_going_out_in_a_duel_gives_the_other_one_answer():
    gone = ["KS", "KH", "KD", "KC"] * 4 + ["2S", "2H", "2D", "2C"] * 4 + ["BJ"] * 4
    actions = [play(4, *gone), *passes(1), play(5, "3S")]
    rec = one([[], [], [], [], gone, ["3S"]], actions, leader=4)
    assert findings(rec) == []
    assert report_of(rec).findings[-1].legal["mode"] == "NORMAL"


# ---------------------------------------------------------------- §4.8 the endgame

SEAT_4 = ["KS", "KH", "KD", "KC"] * 4 + ["2S", "2H", "2D", "2C"] * 4 + ["BJ"] * 4
SEAT_5 = ["QS", "QH", "QD", "QC"] * 4 + ["RJ"] * 4 + ["JS", "JH", "JD", "JC"] * 4
TO_FOUR = [play(4, *SEAT_4), *passes(1), play(5, *SEAT_5[:20]), *passes(0, 1, 2, 3), play(5, *SEAT_5[20:]), *passes(2)]
SINGLES = ["4S", "5S", "6S", "7S", "8S", "9S", "TS"]


def alternating(actions):
    partial = [["3S"] + SINGLES[3:], SINGLES, SINGLES, SINGLES, SEAT_4, SEAT_5]
    return one(partial, TO_FOUR + [play(0, "3S")] + actions, leader=4)


@pytest.mark.parametrize("order", list(permutations((1, 2, 3))))
def test_pagat_endgame_example_first_circuit(order):
    """0 leads; team 1 sends 1 or 3; then 2 must act, then the other (§4.8)."""
    actions = [play(seat, rank) for seat, rank in zip(order, ["4S", "5S", "6S"])]
    legal = order in ((1, 2, 3), (3, 2, 1))
    start = len(TO_FOUR) + 1
    wrong = next((i for i, seat in enumerate(order) if (i == 1) != (seat == 2)), None)
    assert findings(alternating(actions)) == ([] if legal else [("gouji.turn", AT(start + wrong))])


@pytest.mark.parametrize("order", list(permutations((0, 1, 2, 3))))
def test_pagat_endgame_example_next_circuit(order):
    """In the next circuit team 0 picks 0 or 2, then team 1 picks, and so on."""
    first = [play(s, r) for s, r in zip((3, 2, 1), ["4S", "5S", "6S"])]
    actions = first + [play(seat, rank) for seat, rank in zip(order, ["7S", "8S", "9S", "TS"])]
    legal = [s % 2 for s in order] == [0, 1, 0, 1]
    start = len(TO_FOUR) + 4
    wrong = next((i for i, seat in enumerate(order) if seat % 2 != i % 2), None)
    assert findings(alternating(actions)) == ([] if legal else [("gouji.turn", AT(start + wrong))])


def blocks(actions):
    """Seats 3, 4, 5 go out; holders 0, 1, 2 form the blocks {2, 0} and {1}; seat 0 leads."""
    prefix = (
        go_out(3, LOW[:36], range(6)) + go_out(4, LOW[36:72], (0, 1, 2, 4, 5)) + go_out(5, LOW[72:108], (0, 1, 2, 5))
    )
    partial = [["TS", "QS", "KS", "2S"], ["JS"], ["QS", "KS", "AS"], LOW[:36], LOW[36:72], LOW[72:108]]
    return one(partial, prefix + actions, leader=3), len(prefix)


def test_blocks_after_a_lead_the_other_team_then_the_leaders_block_in_any_order():
    for order in ((0, 2), (2, 0)):
        team0 = [play(seat, card) for seat, card in zip(order, ["QS", "KS"])]
        rec, _ = blocks([play(0, "TS"), play(1, "JS")] + team0)
        assert findings(rec) == []
    rec, start = blocks([play(0, "TS"), play(2, "QS")])
    assert findings(rec) == [("gouji.turn", AT(start + 1))]


def test_blocks_a_lead_by_the_first_of_a_block_hands_the_turn_to_its_team_mate():
    trick = [play(0, "TS"), play(1, "JS"), play(0, "QS"), play(2, "KS"), *passes(1, 0)]
    rec, start = blocks(trick + [play(2, "AS"), play(0, "2S")])
    assert findings(rec) == []
    rec, start = blocks(trick + [play(2, "AS"), *passes(1)])
    assert findings(rec) == [("gouji.turn", AT(start + len(trick) + 1))]


def test_a_stop_says_who_could_act_and_what_they_could_play():
    rec = one(
        [["5S", "5H", "BJ"], [], [], ["KS", "KH", "BJ", "6S", "6H", "RJ"]],
        [play(0, "5S", "5H", "BJ"), play(3, "KS", "KH", "BJ")],
    )
    legal = report_of(rec).findings[0].legal
    assert legal["mode"] == "DUEL 0-3" and legal["seats"] == [3] and legal["top"] == "set:5"
    plays = legal["plays"]["3"]
    assert plays and all(p.endswith("RJ") for p in plays) and any(p.startswith("6") for p in plays)


def test_referee_rules_gouji_lists_every_option():
    from click.testing import CliRunner

    from referee.cli.main import main
    from referee.gouji import OPTIONS

    result = CliRunner().invoke(main, ["rules", "gouji", "--json"])
    assert result.exit_code == 0 and set(__import__("json").loads(result.output)["gouji"]["options"]) == set(OPTIONS)
