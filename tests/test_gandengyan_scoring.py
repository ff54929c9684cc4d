"""§5 payments and multipliers (with pagat's worked examples), §4.6 dead deals."""

import pytest

from referee import gandengyan as gdy
from referee.notation import Deal
from referee.replay import Context
from tests.gandengyan_builders import options, reading, table

TRIPLET_5 = (["5S", "5H", "5D"], "triplet:5")
SOFT_TRIPLET_5 = (["5S", "5H", "BJ"], "triplet:5")
FOUR_9 = (["9S", "9H", "9D", "9C"], "four_bomb:9")
SOFT_FOUR_9 = (["9S", "9H", "9D", "RJ"], "four_bomb:9")
JOKER_BOMB = (["BJ", "RJ"], "joker_bomb:RJ")
ORDINARY_TRIPLET = (["7S", "7H", "7D"], "triplet:7")
PAGAT_SCHEDULE = {"ace_multiplier": 2, "public_multipliers": True, "private_multipliers": True}


def pays(loser_hand, bombs=(), **changes) -> int:
    """What seat 1 pays to winner seat 0, holding `loser_hand`, after `bombs` were played."""
    state = table([[], loser_hand], **changes)
    state.winner = 0
    state.bombs = [(reading(cards, name, **changes), i) for i, (cards, name) in enumerate(bombs)]
    return gdy._payments(state)[0][1]


# (loser's hand, bombs played, option changes, payment)
PAYMENTS = [
    # pagat: one point per card; its worked example of the schedule: 6 × 2 × (2×2) × (2×4) = 384
    (["3S", "3H", "3D", "3C", "AS", "BJ"], [TRIPLET_5, TRIPLET_5], {}, 6),
    (["3S", "3H", "3D", "3C", "AS", "BJ"], [TRIPLET_5, TRIPLET_5], PAGAT_SCHEDULE, 384),
    # pagat: aces double; Curtis holds 6-8-J-A and pays 8
    (["6S", "8H", "JD", "AC"], [], {"ace_multiplier": 2}, 8),
    (["6S", "8H", "AD", "AC"], [], {"ace_multiplier": 2}, 16),  # aces compound (§10.9)
    (["6S", "8H", "AD", "AC"], [], {"ace_multiplier": 3}, 36),
    (["6S", "8H", "AD", "AC"], [], {}, 4),
    # public multipliers: triplet ×2, four ×4, joker bomb ×8; soft bombs ×2 with jokers, ×4 without
    (["6S"], [TRIPLET_5, FOUR_9, JOKER_BOMB], {"public_multipliers": True}, 64),
    (["6S"], [TRIPLET_5, FOUR_9, JOKER_BOMB], {}, 1),
    (["6S"], [SOFT_TRIPLET_5, SOFT_FOUR_9], {"public_multipliers": True, "soft_bombs": True}, 4),
    (["6S"], [TRIPLET_5, FOUR_9], {"public_multipliers": True, "soft_bombs": True}, 16),
    (["6S"], [ORDINARY_TRIPLET], {"public_multipliers": True, "triplet_is_bomb": False}, 1),
    (
        ["6S"],
        [(["9S", "9H", "9D", "9C", "9S"], "bomb:9")],
        {"public_multipliers": True, "decks": 2, "max_bomb_size": 5},
        4,
    ),
    # private multipliers: jokers ×2, held bombs from natural cards
    (["BJ", "RJ"], [], {"private_multipliers": True}, 2 * 2 * 2 * 8),
    (["7S", "7H", "7D", "KC"], [], {"private_multipliers": True}, 4 * 2),
    (["7S", "7H", "7D", "KC"], [], {"private_multipliers": True, "soft_bombs": True}, 4 * 4),
    (["7S", "7H", "7D", "KC"], [], {"private_multipliers": True, "triplet_is_bomb": False}, 4),
    (["7S", "7H", "BJ", "KC"], [], {"private_multipliers": True}, 4 * 2),  # no held bomb with a joker
    (["7S", "7H", "7D", "7C", "7S", "7H", "7D"], [], {"private_multipliers": True, "decks": 2}, 7 * 4 * 2),
    # the cap
    (["3S", "3H", "3D", "3C", "AS", "BJ"], [TRIPLET_5, TRIPLET_5], dict(PAGAT_SCHEDULE, payment_cap=100), 100),
    (["6S", "8H"], [], {"payment_cap": 100}, 2),
]


@pytest.mark.parametrize("loser, bombs, changes, expected", PAYMENTS)
def test_payment(loser, bombs, changes, expected):
    assert pays(loser, bombs, **changes) == expected


def test_every_multiplier_is_reported_with_its_reason():
    state = table([[], ["3S", "3H", "3D", "3C", "AS", "BJ"]], **PAGAT_SCHEDULE)
    state.winner = 0
    state.bombs = [(reading(*TRIPLET_5, **PAGAT_SCHEDULE), 4), (reading(*TRIPLET_5, **PAGAT_SCHEDULE), 9)]
    _, why = gdy._payments(state)
    # actions counted from 1 for people: the bombs' indexes are 4 and 9
    assert why == [
        "public ×2: a triplet of 5s played at action 5",
        "public ×2: a triplet of 5s played at action 10",
        "seat 1 ×2: 1 ace at ×2",
        "seat 1 ×2: a joker",
        "seat 1 ×4: a held four-bomb of 3s",
    ]


@pytest.mark.parametrize("scoring, expected", [("zero_sum", [-3, 5, -2]), ("winner_only", [0, 5, 0])])
def test_scores(scoring, expected):
    state = table([["6S", "7S", "8S"], [], ["6H", "7H"]], scoring=scoring)
    state.winner = 1
    assert gdy._scores(state, gdy._payments(state)[0]) == expected


def _dead_deal_finish(claims):
    o = options(lone_joker_lead=False)
    match = gdy.Match(o, gdy.Combos(o), 2, [3, -3], None)
    state = table([["BJ"], ["RJ"]], lone_joker_lead=False)
    state.over = True
    ctx = Context()
    ctx.deal = 0
    outcome = gdy.finish_deal(ctx, match, state, Deal(0, [], [], None, [], claims))
    return ctx, match, outcome


def test_dead_deal_scores_nothing_and_the_dealer_deals_again():
    ctx, match, outcome = _dead_deal_finish({"scores": [0, 0]})
    assert ctx.findings == [] and outcome["status"] == "dead" and outcome["winner"] is None
    assert match.totals == [3, -3] and match.dealer == 0


def test_dead_deal_with_a_claimed_winner():
    ctx, _, _ = _dead_deal_finish({"winner": 1, "scores": [1, -1]})
    assert [(f.rule, f.at) for f in ctx.findings] == [
        ("gandengyan.result.winner", "/deals/0/result/winner"),
        ("gandengyan.result.scores", "/deals/0/result/scores"),
    ]


def test_a_bomb_played_is_worded_by_its_own_size_whatever_was_worded_before():
    """A bomb's words are kept per set of options (§5's public multiplier names the bomb): a 5-card bomb with
    the four jokers of two packs, then a natural 6-card bomb of the same rank, each in its own size."""
    combos = gdy.Combos(options())
    soft = gdy.Reading("bomb", 4, 5, 5, 4)
    natural = gdy.Reading("bomb", 4, 6, 6, 0)
    first, second = gdy._bomb_words(combos, soft), gdy._bomb_words(combos, natural)
    assert (first, second) == (str(gdy.describe(soft)), str(gdy.describe(natural)))
    assert "5" in first and "6" in second
