"""Gou Ji sets (§2) and the follow relation (§3): every row of the page's table, and §10.2."""

import pytest

from referee.cards import parse_card
from referee.gouji import BLACK, OPTIONS, RED, TWO, GoujiOptions, follows, qualifies, read_set, set_name

PAGAT = {name: option.default for name, option in OPTIONS.items()}
assert (
    PAGAT["duel_thresholds"] == {"T": 5, "J": 4, "Q": 3, "K": 2, "A": 2}
    and PAGAT["pure_twos_qualify"]
    and PAGAT["black_joker_qualifies"]
)
THRESHOLDS = tuple({8: 5, 9: 4, 10: 3, 11: 2, 12: 2}.get(r, 10**9) for r in range(16))


def s(*codes):
    return read_set([parse_card(c) for c in codes])


# §3 table: (top, may follow, may not follow)
FOLLOW_TABLE = [
    (("7S", "7H"), [("8S", "8D")], [("7C", "2D"), ("QS", "QH", "QD")]),
    (("6S", "6H", "2C", "2D"), [("7S", "7H", "7D", "2S")], [("6C", "6D", "6S", "6H")]),
    (("TS", "TH", "TD", "TC", "2S"), [("JS", "JH", "JD", "JC", "2H")], [("TS", "TH", "TD", "TC", "RJ")]),
    (("6S", "BJ", "BJ"), [("7S", "RJ", "RJ")], [("7S", "7H", "RJ")]),
    (("5S", "5H", "BJ"), [("6S", "6H", "RJ")], [("KS", "KH", "BJ")]),
    (("7S", "7H", "RJ"), [], [("8S", "8H", "RJ"), ("RJ", "RJ", "RJ"), ("AS", "AH", "AD")]),
    (("AS",), [("2H",), ("BJ",), ("RJ",)], [("KS",)]),
    (("2S", "2H"), [("BJ", "BJ"), ("BJ", "RJ")], [("AS", "AH")]),
    (("2S", "BJ"), [("BJ", "RJ")], [("BJ", "BJ")]),
]


@pytest.mark.parametrize("top, good, bad", FOLLOW_TABLE)
def test_follow_table(top, good, bad):
    for x in good:
        assert follows(s(*x), s(*top)), x
    for x in bad:
        assert not follows(s(*x), s(*top)), x


@pytest.mark.parametrize(
    "cards, size, rank, black, red",
    [
        (("6S", "6H", "2C", "2D"), 4, 4, 0, 0),  # 2s add size only: four sixes
        (("2S", "2H"), 2, TWO, 0, 0),
        (("2S", "BJ"), 2, TWO, 1, 0),  # §10.2: 2s and jokers rank 2
        (("BJ", "RJ"), 2, BLACK, 1, 1),  # §10.2: BJ RJ ranks BJ
        (("RJ", "RJ"), 2, RED, 0, 2),
        (("TS", "TH", "TD", "TC", "RJ"), 5, 8, 0, 1),
    ],
)
def test_rank_of_a_set(cards, size, rank, black, red):
    x = s(*cards)
    assert (x.size, x.rank, x.black, x.red) == (size, rank, black, red)


def test_two_natural_ranks_are_no_set():
    assert s("7S", "8S") is None and s("7S", "2S", "8H") is None


def test_set_names_for_as():
    assert set_name(s("QS", "2H", "2D")) == "set:Q" and set_name(s("BJ", "RJ")) == "set:BJ"


@pytest.mark.parametrize(
    "cards, starts",
    [
        (("QS", "2H", "2D"), True),
        (("KS", "KH", "2S"), True),
        (("AS", "AH", "BJ"), True),  # §10.1 examples
        (("TS", "TH", "TD", "TC", "TS"), True),
        (("KS", "KH"), True),
        (("TS", "TH", "TD", "TC"), False),
        (("JS", "JH", "JD"), False),
        (("QS", "QH"), False),
        (("AS",), False),
        (("9S", "9H", "9D", "9C", "2S", "2H", "2D", "2C"), False),  # unlisted ranks never qualify by size
        (("5S", "BJ"), True),  # a black joker qualifies
        (("2S",), True),  # pure twos qualify
        (("AS", "AH", "RJ"), False),
        (("BJ", "RJ"), False),  # a red joker never qualifies
    ],
)
def test_qualifying_sets(cards, starts):
    assert bool(qualifies(s(*cards), THRESHOLDS, GoujiOptions(**PAGAT))) is starts


def test_options_turn_off_black_jokers_and_pure_twos():
    o = GoujiOptions(**dict(PAGAT, pure_twos_qualify=False, black_joker_qualifies=False))
    assert not qualifies(s("5S", "BJ"), THRESHOLDS, o) and not qualifies(s("2S"), THRESHOLDS, o)
    assert qualifies(s("AS", "AH", "BJ"), THRESHOLDS, o)  # still by size
