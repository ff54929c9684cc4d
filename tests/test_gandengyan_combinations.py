"""§2 combinations and readings, §3 the follow relation: the page's examples and every option."""

import pytest

from tests.gandengyan_builders import follows, readings

# (cards, option changes, expected readings) — §2, §2.2
READINGS = [
    (["5S"], {}, {"single:5"}),
    (["2H"], {}, {"single:2"}),
    (["BJ"], {}, set()),  # a joker alone is no single (§2.1 leads aside)
    (["5S", "5H"], {}, {"pair:5"}),
    (["5S", "BJ"], {}, {"pair:5"}),
    (["2S", "BJ"], {}, {"pair:2"}),
    (["2S", "BJ"], {"joker_as_two": False}, set()),
    (["5S", "BJ"], {"jokers_wild": False}, set()),
    (["BJ", "RJ"], {}, {"joker_bomb:RJ"}),
    (["BJ", "RJ"], {"jokers_wild": False}, {"joker_bomb:RJ"}),
    (["5S", "BJ", "RJ"], {}, {"triplet:5", "sequence:5", "sequence:6", "sequence:7"}),
    (["9H", "TS", "BJ"], {}, {"sequence:T", "sequence:J"}),
    (["3S", "3H", "BJ", "RJ"], {}, {"four_bomb:3", "double_sequence:4"}),
    (["KS", "AH", "BJ"], {}, {"sequence:A"}),  # aces high only: Q-K-A
    (["KS", "AH", "2D"], {}, set()),
    (["2S", "3H", "4D"], {}, set()),
    (["AS", "2H", "3D"], {}, set()),
    (["3S", "4H", "5D", "6C"], {}, {"sequence:6"}),
    (["3S", "4H", "5D", "6C"], {"max_sequence_ranks": 3}, set()),
    (["3S", "4H", "5D", "6C"], {"min_sequence_length": 5}, set()),
    (["3S", "4H", "5D", "6C", "7C"], {"min_sequence_length": 5}, {"sequence:7"}),
    (["3S", "4H", "5D", "6C", "7C", "8S", "9S", "TS", "JS", "QS", "KS", "AS"], {}, {"sequence:A"}),
    (["3S", "3H", "4D", "4C"], {}, {"double_sequence:4"}),
    (["5S", "5H", "6D", "6C", "7S", "7H"], {"max_sequence_ranks": 3}, {"double_sequence:7"}),
    (["5S", "5H", "6D", "6C", "7S", "7H", "8S", "8H"], {"max_sequence_ranks": 3}, set()),
    (["7S", "7H", "7D"], {}, {"triplet:7"}),
    (["7S", "7H", "7D"], {"triplet_is_bomb": False}, {"triplet:7"}),
    (["3S", "3H", "3D", "4S", "4H", "4D"], {}, set()),
    (
        ["3S", "3H", "3D", "4S", "4H", "4D"],
        {"triplet_is_bomb": False, "triplet_sequences": True},
        {"triplet_sequence:4"},
    ),
    (
        ["3S", "3H", "3D", "4S", "4H", "BJ"],
        {"triplet_is_bomb": False, "triplet_sequences": True},
        {"triplet_sequence:4"},
    ),
    (["9S", "9H", "9D", "9C"], {}, {"four_bomb:9"}),
    (["2S", "2H", "2D", "BJ"], {}, {"four_bomb:2"}),
    (["9S", "9H", "9D", "9C", "9S"], {"decks": 2}, set()),
    (["9S", "9H", "9D", "9C", "9S"], {"decks": 2, "max_bomb_size": 5}, {"bomb:9"}),
    (["9S", "9H", "9D", "9C", "BJ", "RJ"], {"decks": 2, "max_bomb_size": 6}, {"bomb:9"}),
    (["BJ", "BJ"], {"decks": 2}, set()),  # identical jokers are no joker bomb
    (["BJ", "RJ", "RJ"], {"decks": 2}, set()),
    (["5S", "6H"], {}, set()),
]


@pytest.mark.parametrize("cards, changes, expected", READINGS)
def test_readings(cards, changes, expected):
    assert readings(cards, **changes) == expected


# (top cards, top reading, candidate, its reading, option changes, may follow) — §3 and its worked examples
FOLLOWS = [
    (["4S"], "single:4", ["5H"], "single:5", {}, True),
    (["4S"], "single:4", ["2C"], "single:2", {}, True),
    (["4S"], "single:4", ["6H"], "single:6", {}, False),
    (["4S"], "single:4", ["4H", "4D"], "pair:4", {}, False),
    (["4S"], "single:4", ["4H"], "single:4", {}, False),
    (["4S"], "single:4", ["4H"], "single:4", {"follow_equal_rank": True}, True),
    (["2H"], "single:2", ["2C"], "single:2", {}, False),
    (["2H"], "single:2", ["2C"], "single:2", {"follow_equal_rank": True}, False),
    (["2H"], "single:2", ["2C"], "single:2", {"two_on_two": True}, True),
    (["2H"], "single:2", ["3C"], "single:3", {}, False),
    (["2H"], "single:2", ["7S", "7H", "7D"], "triplet:7", {}, True),
    (["AH"], "single:A", ["2C"], "single:2", {}, True),
    (["4S", "4H"], "pair:4", ["5D", "BJ"], "pair:5", {}, True),
    (["4S", "4H"], "pair:4", ["2S", "BJ"], "pair:2", {}, True),
    (["4S", "4H"], "pair:4", ["6S", "6H"], "pair:6", {}, False),
    (["2S", "2H"], "pair:2", ["2D", "2C"], "pair:2", {"two_on_two": True}, True),
    (["4S", "5H", "6D"], "sequence:6", ["5S", "6C", "BJ"], "sequence:7", {}, True),
    (["4S", "5H", "6D"], "sequence:6", ["7S", "8S", "9S"], "sequence:9", {}, False),
    (["4S", "5H", "6D"], "sequence:6", ["5S", "6H", "7D", "8C"], "sequence:8", {}, False),
    (["4S", "5H", "6D"], "sequence:6", ["4C", "5C", "6C"], "sequence:6", {"follow_equal_rank": True}, True),
    (["QS", "KH", "AD"], "sequence:A", ["3S", "3H", "3D"], "triplet:3", {}, True),
    (["3S", "3H", "4D", "4C"], "double_sequence:4", ["4S", "BJ", "5D", "5C"], "double_sequence:5", {}, True),
    (["3S", "3H", "4D", "4C"], "double_sequence:4", ["5S", "5H", "6D", "6C"], "double_sequence:6", {}, False),
    (["7S", "7H", "7D"], "triplet:7", ["8S", "8H", "RJ"], "triplet:8", {}, True),
    (["7S", "7H", "7D"], "triplet:7", ["5S", "5H", "5D", "5C"], "four_bomb:5", {}, True),
    (["7S", "7H", "7D"], "triplet:7", ["BJ", "RJ"], "joker_bomb:RJ", {}, True),
    (["7S", "7H", "7D"], "triplet:7", ["6S", "6H", "6D"], "triplet:6", {}, False),
    (["7S", "7H", "7D"], "triplet:7", ["8S", "9H", "TD"], "sequence:T", {}, False),
    (["7S", "7H", "7D"], "triplet:7", ["KS", "KH", "KD"], "triplet:K", {}, True),  # any higher triplet bomb
    (["AS", "AH", "AD"], "triplet:A", ["2S", "2H", "2D"], "triplet:2", {}, True),  # bomb order: A < 2
    (["AS", "AH", "AD", "AC"], "four_bomb:A", ["2S", "2H", "2D", "BJ"], "four_bomb:2", {}, True),
    (["AS", "AH", "AD", "AC"], "four_bomb:A", ["BJ", "RJ"], "joker_bomb:RJ", {}, True),
    (["AS", "AH", "AD", "AC"], "four_bomb:A", ["KS", "KH", "KD", "KC"], "four_bomb:K", {}, False),
    (["BJ", "RJ"], "joker_bomb:RJ", ["BJ", "RJ"], "joker_bomb:RJ", {"decks": 2}, False),
    (["BJ", "RJ"], "joker_bomb:RJ", ["2S", "2H", "2D", "2C"], "four_bomb:2", {}, False),
    # triplets as ordinary combinations (§3 rule 3, §10.2)
    (["7S", "7H", "7D"], "triplet:7", ["8S", "8H", "8D"], "triplet:8", {"triplet_is_bomb": False}, True),
    (["7S", "7H", "7D"], "triplet:7", ["KS", "KH", "KD"], "triplet:K", {"triplet_is_bomb": False}, False),
    (["7S", "7H", "7D"], "triplet:7", ["2S", "2H", "2D"], "triplet:2", {"triplet_is_bomb": False}, True),
    (["7S", "7H", "7D"], "triplet:7", ["5S", "5H", "5D", "5C"], "four_bomb:5", {"triplet_is_bomb": False}, True),
    (["4S"], "single:4", ["7S", "7H", "7D"], "triplet:7", {"triplet_is_bomb": False}, False),
    (
        ["3S", "3H", "3D", "4S", "4H", "4D"],
        "triplet_sequence:4",
        ["4C", "4S", "4H", "5S", "5H", "5D"],
        "triplet_sequence:5",
        {"triplet_is_bomb": False, "triplet_sequences": True, "decks": 2},
        True,
    ),
    # bombs of five or more (max_bomb_size)
    (
        ["9S", "9H", "9D", "9C", "9S"],
        "bomb:9",
        ["2S", "2H", "2D", "2C"],
        "four_bomb:2",
        {"decks": 2, "max_bomb_size": 5},
        False,
    ),
    (
        ["AS", "AH", "AD", "AC"],
        "four_bomb:A",
        ["3S", "3H", "3D", "3C", "3S"],
        "bomb:3",
        {"decks": 2, "max_bomb_size": 5},
        True,
    ),
]


@pytest.mark.parametrize("y_cards, y_as, x_cards, x_as, changes, expected", FOLLOWS)
def test_follow(y_cards, y_as, x_cards, x_as, changes, expected):
    assert follows(x_cards, x_as, y_cards, y_as, **changes) is expected
