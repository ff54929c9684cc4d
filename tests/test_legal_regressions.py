"""The plays `legal` used to leave out (issue 30), in English and Chinese: straight flushes on any top,
a plain straight where the first card of each rank is of one suit, a lone wild card as a single of
the level and two as a pair; the sample's straight flush to K; Gan Deng Yan's `may` that cut its
list short without saying so."""

import orjson
import pytest

from referee import gandengyan, guandan
from referee.cards import TwoPackHand, parse_card
from referee.replay import check_record
from tests import builders, gandengyan_builders as gdy

FOLLOW = "samples/guandan/disputed-illegal-follow.json"


def refused(record):
    """The finding of the refused play: its `legal` in English and in Chinese."""
    finding = next(f for f in check_record(record).findings if f.legal and f.legal.get("top"))
    return finding.rule, finding.as_dict()["legal"], finding.as_dict("zh")["legal"]


def guandan_legal(top, hand, top_as=None):
    """Level 2: what seat 0, holding `hand`, may play on seat 1's `top` (read `top_as`): `legal` in
    English and in Chinese."""
    combos = guandan.Combos(guandan.GuandanOptions(**builders.options()))
    top_cards = tuple(sorted(parse_card(c) for c in top))
    reading = next(r for r in combos.readings(top_cards, 0) if top_as in (None, r.name))
    cards = [parse_card(c) for c in hand]
    state = guandan.DealState(
        0,
        combos.options,
        combos,
        [cards, [], [], []],
        [len(cards), 9, 9, 9],
        "none",
        [],
        [],
        None,
    )
    state.turn, state.top_seat, state.top = 0, 1, reading
    legal = guandan.legal(state)
    return legal, legal["may"].shown("zh")


def test_the_samples_straight_flush_to_k_is_listed_in_english_and_chinese():
    with open(FOLLOW, "rb") as f:
        rule, english, chinese = refused(orjson.loads(f.read()))
    assert rule == "guandan.follow"
    assert "9H TH JH KH 2H as straight_flush:K" in english["plays"]
    assert "straight flush 5D 6D 8D 9D 2H, 7H 9H TH JH 2H, 9H TH JH KH 2H" in english["may"]
    assert (
        "同花顺（方块5 方块6 方块8 方块9 红桃2、红桃7 红桃9 红桃10 红桃J 红桃2、红桃9 红桃10 红桃J 红桃K 红桃2）"
        in chinese["may"]
    )
    assert chinese["plays"] == english["plays"]


@pytest.mark.parametrize(
    "top",
    [
        ["3C"],
        ["3C", "3D"],
        ["3C", "3D", "3H"],
        ["3C", "3D", "3H", "4C", "4D"],
        ["3C", "3D", "4H", "4C", "5D", "5C"],
        ["3C", "3D", "3H", "4C", "4D", "4S"],
        ["3C", "3D", "3H", "3S"],
        ["3C", "3D", "3H", "3S", "3C"],
        ["4C", "5D", "6H", "7C", "8D"],
        ["4C", "5C", "6C", "7C", "8C"],
    ],
)
def test_a_straight_flush_is_listed_on_every_top_it_beats(top):
    legal, chinese = guandan_legal(top, ["5S", "6S", "7S", "8S", "9S", "QD"])
    assert legal["plays"][-1] == "5S 6S 7S 8S 9S as straight_flush:9"
    assert str(legal["may"]).endswith("straight flush 5S 6S 7S 8S 9S")
    assert chinese.endswith("同花顺（黑桃5 黑桃6 黑桃7 黑桃8 黑桃9）")


def test_a_plain_straight_is_listed_where_the_first_card_of_each_rank_is_of_one_suit():
    legal, chinese = guandan_legal(["5C", "6D", "7H", "8C", "9D"], ["TS", "JS", "QS", "KS", "AS", "AD"])
    assert legal["plays"] == ["TS JS QS KS AD as straight:A", "TS JS QS KS AS as straight_flush:A"]
    assert "straight TS JS QS KS AD; straight flush TS JS QS KS AS" in str(legal["may"])
    assert "顺子（黑桃10 黑桃J 黑桃Q 黑桃K 方块A）" in chinese


def test_a_lone_wild_card_is_a_single_of_the_level_and_two_a_pair():
    legal, chinese = guandan_legal(["AC"], ["2H", "3C"])
    assert legal["plays"] == ["2H as single:2"] and "单张（红桃2）" in chinese
    legal, chinese = guandan_legal(["AC", "AD"], ["2H", "2H", "3C"])
    assert legal["plays"] == ["2H 2H as pair:2"] and "对子（红桃2 红桃2）" in chinese


def test_a_may_sentence_says_how_many_plays_it_leaves_out_and_where_they_are():
    """Gan Deng Yan, two packs, both jokers wild: more than twelve plays may follow a single 3."""
    o = gdy.options(decks=2, max_bomb_size=8)
    combos = gandengyan.Combos(o)
    hand = [parse_card(c) for c in ["4S", "4H", "5S", "5H", "6S", "6H", "7S", "7H", "8S", "8H", "BJ", "RJ"]]
    state = gandengyan.DealState(o, combos, 2, 0, [TwoPackHand(hand), TwoPackHand([])], [])
    state.turn, state.top_seat, state.top = 0, 1, combos.readings((parse_card("3S"),))[0]
    legal = gandengyan.legal(state)
    plays, english, chinese = legal["plays"], str(legal["may"]), legal["may"].shown("zh")
    assert len(plays) > 12
    assert english.endswith(f"; and {len(plays) - 12} more plays: all {len(plays)} are listed in legal.plays")
    assert chinese.endswith(f"；另有 {len(plays) - 12} 种：全部 {len(plays)} 种列于 legal.plays")
    assert "…" not in english


def test_a_shao_pai_declarers_first_set_is_listed():
    """Gou Ji: after seat 1 declared Shao Pai on seat 0's three Qs, another seat plays: seat 1's sets that
    may follow are listed, as on any trick (§4.7.1)."""
    from tests.gouji_builders import declare, play
    from tests.test_gouji_flow import shao

    finding = next(
        f
        for f in check_record(
            shao([play(0, "QS", "QH", "QD"), declare(1, "shao_pai"), play(3, "KS", "KH", "KC")])
        ).findings
        if f.legal
    )
    assert finding.rule == "gouji.shao_pai.first" and finding.legal["seats"] == [1]
    sets = finding.legal["plays"]["1"]
    assert "KS KH KD" in sets and all(s in str(finding.legal["may"]) for s in sets)
    assert str(finding.legal["may"]).startswith("seat 1 plays its first Shao Pai set on a set of 3 Qs (§4.7.1): ")
    assert finding.as_dict("zh")["legal"]["may"].startswith("1号位出其第一手捎牌管三张Q（§4.7.1）：")
