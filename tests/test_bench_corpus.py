"""The benchmark's corpora are what an archive holds: distinct matches, no hand dealt twice
(issue 20), so that no cache of the referee answers for a record it has already seen."""

import pytest

from benchmarks.throughput import GAMES, MEASURED, WARM_UP, WORST, WORST_CASES, corpus


def hands(lines):
    import orjson

    return [tuple(sorted(hand)) for line in lines for deal in orjson.loads(line)["deals"] for hand in deal["hands"]]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_hand_is_dealt_twice_in_or_across_the_corpora(game):
    lines = []
    for size in (1, 10):
        for first in (MEASURED, WARM_UP):
            lines += corpus(GAMES[game], 20, size, first + size * 10**6)[0]
    if game in WORST_CASES:
        lines += corpus(WORST_CASES[game][1], 10, 1, WORST)[0]
    dealt = hands(lines)
    assert len(dealt) == len(set(dealt)) and len(lines) == len(set(lines))


def test_a_corpus_holds_the_deals_asked_for_in_matches_of_the_size():
    lines, deals = corpus(GAMES["gandengyan"], 30, 10)
    assert deals >= 30 and len(lines) == 3 and all(line.count('"hands"') == 10 for line in lines)


def test_guandan_deals_are_as_long_as_in_real_play_and_legal():
    """Real play leads full houses, straights, tubes and plates: about 127 actions a deal (issue 36)."""
    import orjson

    from referee.batch import check_one

    lines, deals = corpus(GAMES["guandan"], 60, 10)
    actions = sum(len(deal["actions"]) for line in lines for deal in orjson.loads(line)["deals"])
    assert 110 <= actions / deals <= 140
    assert all(check_one(line, "corpus").valid for line in lines)
