"""The hand of a two-pack game (cards.TwoPackHand, Guandan's and Gan Deng Yan's): cards added, counted, held,
taken and listed, a card held twice among them; and the marks of a play, one listing a card three times."""

import pytest

from referee.cards import CODES, THRICE, TwoPackHand, marks, parse_card


def ids(codes: str) -> list[int]:
    return [parse_card(c) for c in codes.split()]


def codes(cards: list[int]) -> str:
    return " ".join(CODES[c] for c in cards)


@pytest.mark.parametrize(
    "dealt, counts",
    [
        ("", {"AS": 0}),
        ("AS", {"AS": 1, "AH": 0}),
        ("AS AS", {"AS": 2}),
        ("3D AS BJ AS RJ RJ", {"3D": 1, "AS": 2, "BJ": 1, "RJ": 2, "2S": 0}),
    ],
)
def test_a_hand_counts_each_card_it_was_dealt(dealt, counts):
    hand = TwoPackHand(ids(dealt))
    assert hand.size == len(ids(dealt))
    assert {code: hand.count(parse_card(code)) for code in counts} == counts


@pytest.mark.parametrize(
    "dealt, added, held",
    [
        ("", "5C", "5C"),
        ("5C", "5C", "5C 5C"),
        ("KH 2S", "TD", "2S TD KH"),
    ],
)
def test_a_card_added_is_held_in_card_order(dealt, added, held):
    hand = TwoPackHand(ids(dealt))
    hand.add(parse_card(added))
    assert codes(hand.cards()) == held and hand.size == len(ids(held))


@pytest.mark.parametrize(
    "play, listed, again",
    [
        ("", "", ""),
        ("7H", "7H", ""),
        ("7H 7H", "7H", "7H"),
        ("7H 8S 7H RJ", "7H 8S RJ", "7H"),
    ],
)
def test_a_plays_marks_are_a_bit_for_each_card_and_one_for_each_listed_twice(play, listed, again):
    def mask(cards: str) -> int:
        return sum(1 << c for c in set(ids(cards)))

    assert marks(tuple(ids(play))) == (mask(listed), mask(again))


def test_a_play_listing_a_card_three_times_is_marked_thrice_and_held_by_no_hand():
    play = tuple(ids("7H 7H 7H"))
    assert marks(play)[1] == THRICE
    hand = TwoPackHand(ids("7H 7H 8S"))
    assert not hand.holds(*marks(play))
    assert hand.lacking(play) == ids("7H")


@pytest.mark.parametrize(
    "dealt, play, holds, left, lacking",
    [
        ("3S 4S", "3S", True, "4S", ""),
        ("3S 3S 4S", "3S", True, "3S 4S", ""),
        ("3S 3S 4S", "3S 3S", True, "4S", ""),
        ("3S 3S 4S", "3S 3S 4S", True, "", ""),
        ("3S 4S", "3S 3S", False, None, "3S"),
        ("3S 4S", "5S 3S 6D", False, None, "5S 6D"),
        ("BJ RJ RJ", "RJ BJ", True, "RJ", ""),
    ],
)
def test_a_hand_holds_a_play_and_gives_it_up(dealt, play, holds, left, lacking):
    hand = TwoPackHand(ids(dealt))
    cards = tuple(ids(play))
    assert hand.holds(*marks(cards)) is holds
    assert hand.lacking(cards) == sorted(ids(lacking))
    if holds:
        hand.take(*marks(cards), len(cards))
        assert codes(hand.cards()) == left and hand.size == len(ids(left))


def test_a_copy_is_changed_apart_from_its_hand():
    hand = TwoPackHand(ids("9C 9C QD"))
    copied = hand.copy()
    copied.take(*marks(tuple(ids("9C"))), 1)
    assert codes(hand.cards()) == "9C 9C QD" and hand.size == 3
    assert codes(copied.cards()) == "9C QD" and copied.size == 2


@pytest.mark.parametrize("dealt, rank, n", [("AS AH AS 2S", 12, 3), ("AS KD", 11, 1), ("BJ RJ", 0, 0)])
def test_a_hand_counts_the_natural_cards_of_a_rank(dealt, rank, n):
    assert TwoPackHand(ids(dealt)).of_rank(rank) == n


def test_named_lists_the_cards_held_by_the_names_given():
    names = tuple(f"#{c}" for c in range(54))
    assert TwoPackHand(ids("RJ 2S 2S")).named(names) == ["#0", "#0", "#53"]
