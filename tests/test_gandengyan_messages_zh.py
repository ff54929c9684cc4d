"""Gan Deng Yan's messages in Chinese (issue 22): every finding referee/gandengyan.py makes is a template,
its Chinese has no English word left, and its JSON parameters are plain values a program can use; so
are what was legal, a deal's multipliers and the game's words."""

import json
import pickle
import re
from pathlib import Path

import pytest

from referee.findings import StopDeal
from referee.gandengyan import OPTIONS, TYPE_WORDS, _leader_text, legal
from referee.messages import Phrase
from referee.replay import check_record
from tests.gandengyan_builders import act, deal, pas, play, record, table

SAMPLES = Path(__file__).parent.parent / "samples" / "gandengyan"

# What a Chinese rendering keeps as written: option names, the notation's own tokens (JSON values, the
# record keys an arbiter must find in the record, readings as `as` writes them: pair:5) and the ranks A K Q J.
KEPT = set(OPTIONS) | {"A", "K", "Q", "J", "null", "true", "false", "as", "levels", "tribute"}
READING = re.compile(r"[a-z_]+:(?:10|[2-9TJQKA]|RJ)(?![A-Za-z0-9])")

# Findings under the game's rule ids that shared modules make (reports.py, claims.py, the replay driver):
# their messages are converted with those modules. The module makes one of notation's: an option's range.
SHARED = {
    "gandengyan.declare",
    "gandengyan.report.count",
    "gandengyan.report.missing",
    "gandengyan.deal.over",
    "gandengyan.match.totals",
    "gandengyan.match.winner",
    "gandengyan.match.uncheckable",
}
OWN_NOTATION = {"notation.rules.option"}


def english_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[A-Za-z][A-Za-z_]*", READING.sub("", text)) if w not in KEPT]


def plain_json(value) -> bool:
    """Only JSON's own types, nothing a program would have to parse further than JSON."""
    if isinstance(value, dict):
        return type(value) is dict and all(type(k) is str and plain_json(v) for k, v in value.items())
    if isinstance(value, list):
        return type(value) is list and all(plain_json(v) for v in value)
    return type(value) in (str, int, float, bool, type(None))


def sample(name):
    return json.loads((SAMPLES / f"{name}.json").read_text())


WIN = [["3S", "4H", "5D", "6C", "7S", "8H"], ["AS", "AH", "9C", "9D", "KD"]]
OUT = play(0, "3S", "4H", "5D", "6C", "7S", "8H")
THREE = [["3S", "3H", "5S", "5H", "9S", "TS"], ["4C", "4D", "8C", "KC", "QD"], ["6C", "7D", "JH", "2H", "AD"]]


def one_deal(result=None, rules="pagat", **extra):
    return record([deal(WIN, [OUT], **({"result": result} if result else {}))], rules=rules, **extra)


def three(*actions, rules="pagat"):
    return record([deal(THREE, list(actions), talon_top=["JS", "KH", "KS"])], rules=rules)


def dealt(change, **extra):
    rec = one_deal(**extra)
    change(rec["deals"][0])
    return rec


def with_players(rec, n):
    rec["players"] = [f"P{i}" for i in range(n)]
    return rec


RECORDS = {
    "play: a joker alone (sample)": sample("disputed-lone-joker-following"),
    "play: two ranks higher (sample)": sample("disputed-two-ranks-higher"),
    "play: a card not held (sample)": sample("disputed-wrong-draw-order"),
    "play: no combination": three(play(0, "3S", "5S")),
    "play: some cards not held": three(play(0, "3S", "3C")),
    "play: out of turn": three(play(1, "4C")),
    "play: the leader passes": three(pas(0)),
    "play: a sequence on a bomb": record(
        [
            deal(
                [["5S", "5H", "5D", "9C"], ["6C", "7D", "8H", "KC"]],
                [play(0, "5S", "5H", "5D"), play(1, "6C", "7D", "8H")],
            )
        ]
    ),
    "play: a bomb on the joker bomb": record(
        [deal([["BJ", "RJ", "9C"], ["2S", "2H", "2D", "2C"]], [play(0, "BJ", "RJ"), play(1, "2S", "2H", "2D", "2C")])]
    ),
    "play: an impossible as": three(play(0, "3S", "3H", as_="pair:4")),
    "play: as required": record([deal([["9H", "TS", "BJ", "3C", "4C", "5C"], ["4D"]], [play(0, "9H", "TS", "BJ")])]),
    "play: jokers not wild": record(
        [deal([["5S", "BJ", "3C", "4C", "6C", "7C"], ["8D"]], [play(0, "5S", "BJ")])],
        rules={"preset": "pagat", "options": {"jokers_wild": False}},
    ),
    "claims: scores with multipliers (sample)": sample("disputed-ace-multiplier-ignored"),
    "claims: winner and order": one_deal({"winner": 1, "order": [1, 0]}),
    "claims: a tribute claim": one_deal({"tribute": "none"}),
    "claims: no scores at all": one_deal({"scores": []}),
    "claims: public multipliers": record(
        [
            deal(
                [["5S", "5H", "5D", "9C", "9D", "9H"], ["3C"]],
                [play(0, "5S", "5H", "5D"), pas(1), play(0, "9S", "9C", "9D", "9H")],
                talon_top=["9S"],
                result={"scores": [6, -6]},
            )
        ],
        rules={"preset": "pagat", "options": {"public_multipliers": True}},
    ),
    "claims: capped, private multipliers": one_deal(
        {"scores": [1, -1]},
        rules={"preset": "pagat", "options": {"private_multipliers": True, "payment_cap": 3, "ace_multiplier": 2}},
    ),
    "deal: a hand too many": dealt(lambda d: d["hands"][1].append(d["talon"].pop())),
    "deal: a hand too few": dealt(lambda d: d["talon"].append(d["hands"][1].pop())),
    "deal: hands for another table": dealt(lambda d: d["hands"].append([])),
    "deal: a card twice": dealt(lambda d: d["talon"].__setitem__(3, "3S")),
    "deal: cards missing": dealt(lambda d: d["talon"].__delitem__(slice(0, 8))),
    "deal: two packs expected": dealt(lambda d: None, rules={"preset": "pagat", "options": {"decks": 2}}),
    "deal: seven players": with_players(one_deal(), 7),
    "deal: the leader and the starting dealer": dealt(lambda d: d.update(leader=1), start={"dealer": 1}),
    "deal: start totals": one_deal(start={"totals": [1, 2, 3]}),
    "deal: the winner deals next": record(
        [deal(WIN, [OUT]), deal(WIN[::-1], [play(1, *OUT["play"])], dealer=1), deal(WIN, [OUT])]
    ),
    "rules: conflicts": one_deal(
        rules={
            "preset": "pagat",
            "options": {"triplet_sequences": True, "max_sequence_ranks": 3, "min_sequence_length": 4},
        }
    ),
    "rules: an option out of range": one_deal(rules={"preset": "pagat", "options": {"payment_cap": 0}}),
    "declaration: a wrong count, then a card not held": three(
        {"seat": 0, "declare": "report", "count": 2}, play(0, "3C")
    ),
}


def own_findings(rep):
    return [
        f for f in rep.findings if (f.rule.startswith("gandengyan.") and f.rule not in SHARED) or f.rule in OWN_NOTATION
    ]


@pytest.mark.parametrize("name", RECORDS)
def test_every_finding_is_a_template_shown_in_chinese_with_plain_parameters(name):
    rep = check_record(RECORDS[name])
    findings = own_findings(rep)
    assert findings, "the record makes no finding of the game's module"
    for f in findings:
        assert f.text is not None, f.message
        shown = f.shown("zh")
        assert shown != f.message and not english_words(shown), (f.message, shown)
        out = f.as_dict()
        assert plain_json(out["params"]) and json.loads(json.dumps(out)) == out
        if f.legal:
            may = f.as_dict("zh")["legal"]["may"]
            assert not english_words(may), (f.legal["may"], may)


@pytest.mark.parametrize("name", [name for name in RECORDS if "multipliers" in name])
def test_the_multipliers_of_a_deal_are_shown_in_chinese(name):
    rep = check_record(RECORDS[name])
    reasons = [reason for d in rep.deals for reason in d.get("multipliers", [])]
    assert reasons
    for reason in reasons:
        assert isinstance(reason, Phrase) and not english_words(reason.shown("zh")), reason
    assert rep.deals[0]["status"].shown("zh") == "完成"


def test_parameters_are_what_a_program_needs():
    (not_held,) = check_record(RECORDS["play: a card not held (sample)"]).findings
    assert not_held.as_dict()["params"] == {"seat": 1, "cards": "QD"}
    (follow,) = check_record(RECORDS["play: two ranks higher (sample)"]).findings
    params = follow.as_dict()["params"]
    assert (params["seat"], params["play"]) == (1, {"template": "a pair of {rank}s", "params": {"rank": "6"}})
    (scores,) = check_record(RECORDS["claims: scores with multipliers (sample)"]).findings
    params = scores.as_dict()["params"]
    assert (params["claimed"], params["computed"]) == ([10, -5, -5], [30, -20, -10])
    assert params["why"][0] == {
        "template": "seat {seat} ×{factor}: {n} aces at ×{each}",
        "params": {"n": 2, "seat": 1, "factor": 4, "each": 2},
    }


def test_the_chinese_of_a_disputed_follow():
    (follow,) = check_record(RECORDS["play: two ranks higher (sample)"]).findings
    assert follow.shown("zh") == "1号位出一对6管一对4；只能用一对5、一对2或炸弹来管"
    (joker,) = check_record(RECORDS["play: a joker alone (sample)"]).findings
    assert (
        joker.as_dict("zh")["legal"]["may"]
        == "1号位可以不要，或出牌管单张7：只能用单张8、单张2或炸弹来管；其手牌中可出：单张（黑桃8、红桃2）"
    )


@pytest.mark.parametrize("verb", ["tribute", "return"])
def test_tribute_and_return_reaching_the_module_are_told_in_chinese(verb):
    s = table([["5S", "BJ"], ["6H", "9C"]])
    with pytest.raises(StopDeal) as caught:
        act(s, 0, "5S", verb=verb)
    assert caught.value.message.render("zh") == f"干瞪眼没有 {verb} 这种动作（§6）"


def test_a_lone_joker_lead_where_the_rules_forbid_it():
    s = table([["BJ"], ["6H", "9C"]], lone_joker_lead=False)
    with pytest.raises(StopDeal) as caught:
        act(s, 0, "BJ")
    assert caught.value.message.render("zh") == "0号位首出小王，但本规则不允许单独首出王；0号位只能不要"


def test_what_was_legal_keeps_english_for_programs_and_has_its_chinese():
    s = table([["4S", "4H", "KC"], ["5C", "BJ", "2D", "9S", "9H", "9D"]], talon=["AS"])
    act(s, 0, "4S", "4H")
    may = legal(s)["may"]
    assert may.startswith("seat 1 passes, or plays on a pair of 4s")
    assert may.shown("zh").startswith(
        "1号位可以不要，或出牌管一对4：只能用一对5、一对2或炸弹来管；其手牌中可出：对子（梅花5 小王、"
    )
    assert not english_words(may.shown("zh"))
    assert pickle.loads(pickle.dumps(may)).shown("zh") == may.shown("zh")


def test_who_leads_the_match_is_told_in_chinese():
    assert (_leader_text(None).render("zh"), _leader_text(2).render("zh")) == ("最高总分并列", "2号位总分最高")


def test_the_games_words_and_option_effects_have_their_chinese():
    assert [TYPE_WORDS[t].shown("zh") for t in ("pair", "double_sequence", "four_bomb", "joker_bomb")] == [
        "对子",
        "连对",
        "四张炸弹",
        "王炸",
    ]
    for name, option in OPTIONS.items():
        assert option.effect.shown("zh") != option.effect, name


def test_a_held_bomb_of_tens_is_written_as_the_other_messages_write_tens():
    hands = [["3S", "4H", "5D", "6C", "7S", "8H"], ["TS", "TH", "TD", "TC", "KD"]]
    rules = {"preset": "pagat", "options": {"private_multipliers": True}}
    rep = check_record(record([deal(hands, [OUT])], rules=rules))
    assert rep.deals[0]["multipliers"] == ["seat 1 ×4: a held four-bomb of 10s"]
    assert rep.deals[0]["multipliers"][0].shown("zh") == "1号位 ×4：手中有四张10的炸弹"
