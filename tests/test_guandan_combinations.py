"""Guandan §2 combinations and §3 follow relation, from the rules page's tables and examples."""

import pytest

from tests.builders import follows, readings

FOUR_NINES = ["9S", "9S", "9D", "9D"]


@pytest.mark.parametrize(
    "cards, level, expected",
    [
        # §2.1 examples
        (["4H", "4H", "8S", "8D", "9C", "9D"], "4", {"tube:9", "tube:T", "plate:9"}),
        (["9S", "9D", "9C", "4H", "4H"], "4", {"bomb:9", "full_house:9"}),
        (["5S", "6S", "8S", "9S", "7H"], "7", {"straight_flush:9", "straight:9"}),
        (["5S", "6S", "7D", "8C", "7H"], "7", {"straight:8", "straight:9"}),
        # notation §5: only one reading, `as` may be left out
        (["5S", "6S", "8D", "9C", "7H"], "7", {"straight:9"}),
        # §2 table
        (["KS"], "7", {"single:K"}),
        (["BJ"], "7", {"single:BJ"}),
        (["7H"], "7", {"single:7"}),  # §10.6 a lone wild card is a level card
        (["7H", "7H"], "7", {"pair:7"}),  # two wild cards alone: pair of rank L
        (["BJ", "BJ"], "7", {"pair:BJ"}),
        (["RJ", "RJ"], "7", {"pair:RJ"}),
        (["TS", "7H"], "7", {"pair:T"}),
        (["9S", "9D", "9C"], "7", {"triple:9"}),
        (["5S", "5H", "5D", "KC", "KD"], "7", {"full_house:5"}),
        (["5S", "5H", "5D", "BJ", "BJ"], "7", {"full_house:5"}),
        (["AS", "2D", "3C", "4H", "5S"], "7", {"straight:5"}),
        (["TS", "JD", "QC", "KH", "AS"], "7", {"straight:A"}),
        (["AC", "AD", "2C", "2D", "3C", "3H"], "7", {"tube:3"}),
        (["QS", "QD", "KC", "KH", "AS", "AD"], "7", {"tube:A"}),
        (["AS", "AD", "AC", "2S", "2D", "2C"], "7", {"plate:2"}),
        (["KS", "KD", "KC", "AS", "AD", "AC"], "7", {"plate:A"}),
        (["2D", "3D", "4D", "5D", "6D"], "7", {"straight_flush:6"}),  # §10.2 only a straight flush
        (["BJ", "BJ", "RJ", "RJ"], "7", {"joker_bomb:RJ"}),
        (FOUR_NINES, "7", {"bomb:9"}),
        (FOUR_NINES * 2 + ["7H", "7H"], "7", {"bomb:9"}),  # §10.1 ten-card bomb
        (["AS", "2D", "3C", "4H", "5S"], "2", {"straight:5"}),  # §10.14 the 2 stands as a natural 2
    ],
)
def test_readings(cards, level, expected):
    assert readings(cards, level) == expected


@pytest.mark.parametrize(
    "cards, level",
    [
        (["QS", "KD", "AC", "2H", "3S"], "7"),  # no wrap-around
        (["KS", "AD", "2C", "3H", "4S"], "7"),
        (["KS", "KD", "AC", "AH", "2S", "2D"], "7"),
        (["BJ", "RJ"], "7"),  # not a pair
        (["BJ", "7H"], "7"),  # a wild card never stands for a joker
        (["9S", "9D", "9C", "9S", "KS"], "7"),  # four and one
        (["5S", "6D", "7C", "8H"], "3"),  # a straight has five cards
        (["5S", "6D", "7C", "8H", "9S", "TD"], "3"),
        (["5S", "5D", "6C", "6H"], "3"),  # no two pairs
        (["5S", "5D", "5C", "6H"], "3"),  # no triple with a single
        (["BJ", "BJ", "BJ"], "3"),  # no triple of jokers
        (["RJ", "RJ", "RJ", "BJ", "BJ"], "3"),
    ],
)
def test_no_combination(cards, level):
    assert readings(cards, level) == set()


def test_five_equal_cards_are_a_bomb_never_a_full_house():
    assert readings(["9S", "9D", "9C", "9H", "9S"], "3") == {"bomb:9"}


def test_bomb_of_level_rank_has_at_most_eight_cards():
    eights = ["8S", "8S", "8D", "8D", "8C", "8C", "8H", "8H"]
    assert readings(eights, "8") == {"bomb:8"}
    assert readings(eights[:6], "8") == {"bomb:8"}


def test_full_house_joker_pair_option():
    cards = ["5S", "5H", "5D", "RJ", "RJ"]
    assert readings(cards, "7", full_house_joker_pair=False) == set()


def test_max_bomb_size_option():
    ten = FOUR_NINES * 2 + ["7H", "7H"]
    assert readings(ten, "7", max_bomb_size=9) == set()
    assert readings(ten[:9], "7", max_bomb_size=8) == set()
    assert readings(ten[:8], "7", max_bomb_size=8) == {"bomb:9"}


def test_straight_flush_bomb_option():
    assert readings(["2D", "3D", "4D", "5D", "6D"], "7", straight_flush_bomb=False) == {"straight:6"}


def test_ace_low_option():
    assert readings(["AS", "2D", "3C", "4H", "5S"], "7", ace_low=False) == set()
    assert readings(["AC", "AD", "2C", "2D", "3C", "3H"], "7", ace_low=False) == set()
    assert readings(["TS", "JD", "QC", "KH", "AS"], "7", ace_low=False) == {"straight:A"}


def test_level_in_sequences_option():
    assert readings(["5S", "6D", "7C", "8H", "9S"], "7", level_in_sequences=False) == set()
    assert readings(["5S", "6D", "7C", "8H", "9S"], "7") == {"straight:9"}


def test_wild_straight_flush_option():
    assert readings(["5S", "6S", "8S", "9S", "7H"], "7", wild_straight_flush=False) == {"straight:9"}


def test_wild_stands_for_itself_option():
    # 9 9 9 + both wild 4H: as a bomb of 9s the wilds are 9s; as a full house their pair is 4H 4H itself
    assert readings(["9S", "9D", "9C", "4H", "4H"], "4", wild_stands_for_itself=True) == {"full_house:9"}
    # 5H 6H 8H 9H + wild 7H: the straight flush in hearts has the wild as itself
    assert readings(["5H", "6H", "8H", "9H", "7H"], "7", wild_stands_for_itself=True) == {"straight_flush:9"}
    assert readings(["5H", "6H", "8H", "9H", "7H"], "7") == {"straight_flush:9", "straight:9"}
    # two wilds on hearts: one 7H as itself, the other as a non-heart, is a straight that ties
    assert readings(["5H", "6H", "8H", "7H", "7H"], "7", wild_stands_for_itself=True) == {
        "straight_flush:8",
        "straight_flush:9",
        "straight:8",
        "straight:9",
    }


# §3: examples at level 7 (wild cards: the two 7H)
@pytest.mark.parametrize(
    "x, y, x_as, ok",
    [
        (["AD"], ["KS"], None, True),
        (["7C"], ["KS"], None, True),  # level card above A
        (["7H"], ["KS"], None, True),  # a lone wild card is a level card
        (["KH"], ["KS"], None, False),  # equal
        (["TS", "7H"], ["9S", "9D"], "pair:T", True),
        (["BJ", "BJ"], ["9S", "9D"], None, True),
        (["6S", "6H", "6D", "2C", "2D"], ["5S", "5H", "5D", "KC", "KD"], None, True),  # the triple decides
        (["5C", "5S", "5H", "AC", "AD"], ["5S", "5H", "5D", "KC", "KD"], None, False),  # equal triple
        (["TS", "JD", "QC", "KH", "AS"], ["9S", "TD", "JC", "QH", "KS"], None, True),
        (["AS", "2D", "3C", "4H", "5S"], ["9S", "TD", "JC", "QH", "KS"], None, False),  # lowest straight
        (["QS", "QD", "KC", "KH", "AS", "AD"], ["AC", "AD", "2C", "2D", "3C", "3H"], None, True),
        (["2D", "3D", "4D", "5D", "6D"], ["8S", "8S", "8D", "8D", "8C"], None, True),  # SF tops 5-card bombs
        (["9S", "9S", "9D", "9D", "9C"], ["8S", "8S", "8D", "8D", "8C"], None, True),
        (["AS", "AS", "AD", "AD"], ["8S", "8S", "8D", "8D", "8C"], None, False),  # smaller bomb
        (["3C", "4C", "5C", "6C", "7C"], ["2D", "3D", "4D", "5D", "6D"], None, True),  # 7C is a plain 7 here
        (["3S", "3S", "3D", "3D", "3C", "3C"], ["2D", "3D", "4D", "5D", "6D"], None, True),
        (["AS", "AS", "AD", "AD", "AC"], ["2D", "3D", "4D", "5D", "6D"], None, False),
        (["AS", "2S", "3S", "4S", "5S"], ["2D", "3D", "4D", "5D", "6D"], None, False),  # top 5 below 6
        (["3S", "3S", "3D", "3D", "3C"], ["7S", "7S", "7D", "7D"], None, True),
        (["BJ", "BJ", "RJ", "RJ"], ["7S", "7S", "7D", "7D"], None, True),
        (["AS", "AS", "AD", "AD"], ["7S", "7S", "7D", "7D"], None, False),  # 7s are above aces
        (
            ["9S", "9S", "9D", "9D", "9C", "9C", "9H", "9H", "7H", "7H"],
            ["AS", "AS", "AD", "AD", "AC", "AC", "AH", "AH"],
            None,
            True,
        ),
        (
            ["KS", "KS", "KD", "KD", "KC", "KC", "KH", "KH"],
            ["AS", "AS", "AD", "AD", "AC", "AC", "AH", "AH"],
            None,
            False,
        ),
        (["AS", "AS", "AD", "AD", "AC", "AC", "AH", "AH"], ["BJ", "BJ", "RJ", "RJ"], None, False),
        (["3C", "4C", "5C", "6C", "7C"], ["3S", "4S", "5S", "6S", "7S"], None, False),  # §3.5 equal never beats
        (["3S", "3S", "3D", "3D", "3C", "3C"], ["AS", "2S", "3S", "4S", "5S"], None, True),  # §10.15
    ],
)
def test_follow_examples(x, y, x_as, ok):
    assert follows(x, y, "7", x_as=x_as) is ok


def test_level_cards_equal_on_a_level_card():
    assert not follows(["7H"], ["7C"], "7")
    assert not follows(["7S"], ["7C"], "7")


def test_joker_bomb_below_eight():
    jokers = ["BJ", "BJ", "RJ", "RJ"]
    eight = ["AS", "AS", "AD", "AD", "AC", "AC", "AH", "AH"]
    seven = eight[:7]
    assert follows(eight, jokers, "7", joker_bomb_rank="below_eight")
    assert follows(jokers, seven, "7", joker_bomb_rank="below_eight")
    assert not follows(eight, jokers, "7")


def test_straight_and_straight_flush_readings_of_one_play():
    cards = ["5S", "6S", "8S", "9S", "7H"]
    assert follows(cards, ["8S", "8S", "8D", "8D", "8C"], "7", x_as="straight_flush:9")
    assert not follows(cards, ["8S", "8S", "8D", "8D", "8C"], "7", x_as="straight:9")
