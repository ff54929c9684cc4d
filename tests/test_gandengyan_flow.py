"""§2.1 jokers alone, §2.2 `as`, §4 trick flow, draws, going out, the talon limit, dead deals."""

import pytest

from referee.findings import StopDeal
from tests.gandengyan_builders import act, hand, table


def stop_rule(state, seat, *cards, **kw) -> str:
    with pytest.raises(StopDeal) as caught:
        act(state, seat, *cards, **kw)
    return caught.value.rule


def test_draws_start_with_the_last_player_in_seat_order():
    s = table(
        [["4S", "9H", "9D", "KS", "KH", "QC"], ["5H", "7C", "8C", "JD", "JH"], ["3C", "6D", "TS", "TH", "2C"]],
        talon=["AS", "AH", "AD", "AC"],
    )
    act(s, 0, "4S")
    act(s, 1, "5H")
    act(s, 2)
    act(s, 0)  # every other holder passed: the trick ends
    assert [d["seat"] for d in s.draws] == [1, 2, 0]
    assert [d["card"] for d in s.draws] == ["AS", "AH", "AD"]
    assert s.turn == 1 and s.top is None and s.talon_left == 1
    assert "AS" in hand(s, 1) and "AH" in hand(s, 2) and "AD" in hand(s, 0)


def test_a_short_talon_serves_the_first_seats_only_then_nobody():
    s = table([["4S", "9H"], ["5H", "7C"], ["3C", "6D"]], talon=["AS", "AH"])
    act(s, 0, "4S")
    act(s, 1, "5H")
    act(s, 2)
    act(s, 0)
    assert [(d["seat"], d["card"]) for d in s.draws] == [(1, "AS"), (2, "AH")]
    assert s.talon_left == 0 and len(hand(s, 0)) == 1
    act(s, 1, "7C")
    act(s, 2)
    act(s, 0)
    assert s.draws == [] and s.turn == 1


def test_a_seat_that_passed_may_play_later_in_the_trick():
    s = table([["4S", "6S", "9H"], ["5H", "7C", "KD"], ["3C", "8D", "TH"]], talon=["AS"])
    act(s, 0, "4S")
    act(s, 1, "5H")
    act(s, 2)
    act(s, 0, "6S")
    act(s, 1, "7C")
    act(s, 2, "8D")
    assert s.top_seat == 2 and not s.over


def test_going_out_ends_the_deal_mid_trick_without_a_draw():
    s = table([["4S", "6S"], ["5H"], ["3C", "8D"]], talon=["AS", "AH", "AD"])
    act(s, 0, "4S")
    act(s, 1, "5H")
    assert s.over and s.winner == 1 and s.talon_left == 3 and s.draws == []


def test_turn_skips_nobody_and_out_of_turn_is_caught():
    s = table([["4S", "6S"], ["5H", "9C"], ["3C", "8D"]], talon=["AS"])
    assert stop_rule(s, 1, "5H") == "gandengyan.turn"


def test_cards_not_held():
    s = table([["4S", "6S"], ["5H", "9C"]], talon=["AS"])
    assert stop_rule(s, 0, "4H") == "gandengyan.card.not_held"


def test_the_leader_must_play():
    s = table([["4S", "6S"], ["5H", "9C"]], talon=["AS"])
    assert stop_rule(s, 0) == "gandengyan.lead.pass"


def test_a_weaker_follow_is_caught():
    s = table([["4S", "6S"], ["6H", "9C"]], talon=["AS"])
    act(s, 0, "4S")
    assert stop_rule(s, 1, "6H") == "gandengyan.follow"


def test_no_combination():
    s = table([["4S", "6S"], ["6H", "9C"]], talon=["AS"])
    assert stop_rule(s, 0, "4S", "6S") == "gandengyan.play.combination"
    s = table([["4S", "BJ"], ["6H", "9C"]], talon=["AS"], jokers_wild=False)
    assert stop_rule(s, 0, "4S", "BJ") == "gandengyan.play.combination"


# ---------------------------------------------------------------- §2.1 jokers alone, §4.4, §4.6


def test_lone_joker_lead_wins():
    s = table([["BJ"], ["6H", "9C"]])
    act(s, 0, "BJ")
    assert s.over and s.winner == 0 and s.readings[-1].name == "single:2"


def test_identical_jokers_lead_as_a_pair_with_two_decks():
    s = table([["BJ", "BJ"], ["6H", "9C"]], decks=2)
    act(s, 0, "BJ", "BJ")
    assert s.winner == 0 and s.readings[-1].name == "pair:2"


def test_lone_joker_while_following_is_no_combination():
    s = table([["4S", "6S"], ["BJ"]], talon=["AS"])
    act(s, 0, "4S")
    assert stop_rule(s, 1, "BJ") == "gandengyan.joker.alone"


def test_a_joker_alone_that_is_not_the_whole_hand():
    s = table([["BJ", "6S"], ["4S"]], talon=["AS"])
    assert stop_rule(s, 0, "BJ") == "gandengyan.joker.alone"


def test_three_jokers_alone_are_no_combination():
    s = table([["BJ", "BJ", "RJ"], ["4S"]], decks=2)
    assert stop_rule(s, 0, "BJ", "BJ", "RJ") == "gandengyan.play.combination"


def test_joker_bomb_may_be_led_and_played_on_anything():
    s = table([["4S", "6S"], ["BJ", "RJ", "9C"]], talon=["AS"])
    act(s, 0, "4S")
    act(s, 1, "BJ", "RJ")
    assert s.top.type == "joker_bomb"
    assert stop_rule(s, 0, "6S") == "gandengyan.follow"


def test_no_lone_joker_lead_option_makes_the_leader_pass():
    s = table([["BJ"], ["6H", "9C"]], lone_joker_lead=False)
    assert stop_rule(s, 0, "BJ") == "gandengyan.joker.lone_lead"
    act(s, 0)  # §4.4: he passes, the next holder leads
    assert s.turn == 1 and s.top is None and not s.over
    assert stop_rule(s, 1) == "gandengyan.lead.pass"
    act(s, 1, "6H")
    assert s.top_seat == 1


def test_dead_deal_when_no_holder_can_lead():
    s = table([["BJ"], ["RJ"]], lone_joker_lead=False)
    act(s, 0)
    act(s, 1)
    assert s.over and s.winner is None


def test_lone_joker_lead_that_does_not_end_the_deal_counts_as_a_two():
    s = table([["BJ"], ["2H", "9C"], ["5S", "5H", "5D"]], talon=["AS", "AH"], talon_limit_to_win=0)
    act(s, 0, "BJ")  # talon 2 > 0: the deal goes on
    assert not s.over and s.turn == 1
    assert stop_rule(s, 1, "2H") == "gandengyan.follow"
    act(s, 1)
    act(s, 2, "5S", "5H", "5D")  # a bomb may follow the "single 2"


# ---------------------------------------------------------------- §4.3 talon limit


def test_going_out_with_a_big_talon_goes_on_and_the_empty_seat_draws_first():
    talon = ["AS", "AH", "AD", "AC", "KS", "KH"]
    s = table([["4S"], ["5H", "9C"], ["3C", "8D"]], talon=talon, talon_limit_to_win=5)
    act(s, 0, "4S")
    assert not s.over and s.turn == 1
    act(s, 1)
    act(s, 2)
    assert [(d["seat"], d["card"]) for d in s.draws] == [(0, "AS"), (1, "AH"), (2, "AD")]
    assert s.turn == 0


def test_going_out_with_the_talon_at_the_limit_wins():
    s = table([["4S"], ["5H", "9C"]], talon=["AS", "AH", "AD", "AC", "KS"], talon_limit_to_win=5)
    act(s, 0, "4S")
    assert s.over and s.winner == 0


def test_empty_seat_skipped_on_turns():
    s = table([["4S", "6S", "KD"], ["5H"], ["3C", "9D"], ["3D", "9C"]], talon=["AS", "AH"], talon_limit_to_win=0)
    act(s, 0, "4S")
    act(s, 1, "5H")  # out with 2 cards in the talon: goes on
    act(s, 2)
    act(s, 3)
    act(s, 0, "6S")
    assert s.turn == 2  # seat 1 is skipped, no pass recorded for it
    act(s, 2)
    act(s, 3)  # trick ends; the draw from seat 0: 0, 1 draw
    assert [d["seat"] for d in s.draws] == [0, 1] and s.turn == 0


def test_empty_seat_left_without_a_card_after_the_draw_wins():
    s = table([["4S"], ["5H", "2C", "9C"], ["3C", "8D"]], talon=["AS"], talon_limit_to_win=0)
    act(s, 0, "4S")  # talon 1 > 0: goes on
    act(s, 1, "2C")
    act(s, 2)  # trick ends: seat 1 draws the last card
    assert s.over and s.winner == 0


# ---------------------------------------------------------------- §2.2 `as`


def test_as_required_when_two_readings_are_legal():
    s = table([["9H", "TS", "BJ", "4C"], ["5H", "9C"]], talon=["AS"])
    assert stop_rule(s, 0, "9H", "TS", "BJ") == "gandengyan.play.as_required"
    act(s, 0, "9H", "TS", "BJ", as_="sequence:J")
    assert s.top.name == "sequence:J"


def test_as_that_the_cards_cannot_make():
    s = table([["9H", "TS", "BJ", "4C"], ["5H", "9C"]], talon=["AS"])
    assert stop_rule(s, 0, "9H", "TS", "BJ", as_="sequence:Q") == "gandengyan.play.as"


def test_as_that_is_a_reading_but_cannot_follow():
    s = table([["4S", "5S", "6D", "KC"], ["5H", "6C", "BJ"]], talon=["AS"])
    act(s, 0, "4S", "5S", "6D")
    assert stop_rule(s, 1, "5H", "6C", "BJ", as_="sequence:6") == "gandengyan.follow"


def test_as_may_be_left_out_when_one_reading_is_legal():
    s = table([["4S", "5S", "6D", "KC"], ["5H", "6C", "BJ"]], talon=["AS"])
    act(s, 0, "4S", "5S", "6D")
    act(s, 1, "5H", "6C", "BJ")
    assert s.winner == 1  # only sequence:7 may follow
    s = table([["4S", "5S", "6D", "KC"], ["5H", "6C", "BJ", "QC"]], talon=["AS"])
    act(s, 0, "4S", "5S", "6D")
    act(s, 1, "5H", "6C", "BJ")
    assert s.top.name == "sequence:7"


@pytest.mark.parametrize("changes, needs_as", [({}, False), ({"public_multipliers": True}, True)])
def test_as_on_the_last_play_only_when_readings_score_differently(changes, needs_as):
    s = table([["5S", "BJ", "RJ"], ["6H", "9C"]], **changes)
    if needs_as:
        assert stop_rule(s, 0, "5S", "BJ", "RJ") == "gandengyan.play.as_required"
    else:
        act(s, 0, "5S", "BJ", "RJ")
        assert s.winner == 0


def test_tribute_is_no_gan_deng_yan_action():
    s = table([["5S", "BJ"], ["6H", "9C"]])
    assert stop_rule(s, 0, "5S", verb="tribute") == "gandengyan.action.unknown"


def test_what_was_legal_lists_the_plays_from_the_hand():
    from referee.gandengyan import legal

    s = table([["4S", "4H", "KC"], ["5C", "BJ", "2D", "9S", "9H", "9D"]], talon=["AS"])
    act(s, 0, "4S", "4H")
    shown = legal(s)
    assert shown["top"] == "pair:4"
    assert shown["plays"] == [
        "5C BJ as pair:5",
        "2D BJ as pair:2",
        "9S 9H 9D as triplet:9",  # strongest last
        "9S 9H BJ as triplet:9",
        "9S 9H 9D BJ as four_bomb:9",
    ]
    assert "from its hand: pair 5C BJ, 2D BJ; triplet 9S 9H 9D, 9S 9H BJ; four bomb 9S 9H 9D BJ" in shown["may"]
    assert shown["may"].startswith("seat 1 passes, or plays on a pair of 4s: only a pair of 5s, a pair of 2s or a bomb")
