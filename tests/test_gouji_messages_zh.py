"""Gou Ji's messages as templates (issue 22): every finding the game module makes has its template,
renders in Chinese without English words, and keeps parameters a program can use."""

import json
import re
from pathlib import Path

import pytest

from referee import gouji
from referee.batch import check_path
from referee.messages import Msg, Term, translations
from tests.gouji_builders import deal, declare, fill_hands, passes, play, record, report_of

SAMPLES = Path(__file__).parent.parent / "samples" / "gouji"
ORDINARY = {"previous_order": [0, 1, 2, 3, 4, 5]}  # 5 pays 0 two cards; 4 pays 1 one
SWEEP = {"previous_order": [0, 2, 4, 1, 3, 5]}
NATURAL = [r + s for r in "3456789TJQKA" for s in "SHDC"][:36]
SHAO_HAND = [r + s for r in "345678" for s in "SHDC"] + ["KS", "KH", "KD", "KC"] + ["BJ", "RJ"] * 4


def tribute(seat, card, **extra):
    return {"seat": seat, "tribute": card, **extra}


def give_back(seat, card, **extra):
    return {"seat": seat, "return": card, **extra}


def ordinary(actions, partial=None, start=ORDINARY, **extra):
    partial = partial or [["3S", "3H"], ["3D"], [], [], ["RJ"], ["RJ", "RJ", "3C", "4S"]]
    return record([deal(partial, actions, leader=None)], start=start, **extra)


def one(partial, actions, options=None, **extra):
    return record([deal(partial, actions, leader=0, **extra)], options)


def shao(actions, hand=SHAO_HAND):
    return one([["QS", "QH", "QD", "3S"], hand, ["AS", "AH", "AD", "9S"], [], [], ["2S", "2H", "2D"]], actions)


def revolution(actions, result=None):
    first = {"hands": fill_hands([NATURAL], exclude=("2", "BJ", "RJ")), "leader": 0, "actions": actions}
    return record([first | ({"result": result} if result else {})])


def short_hand():
    rec = one([], [])
    rec["deals"][0]["hands"][2].pop()
    return rec


PAID = [
    tribute(5, "RJ"),
    tribute(5, "RJ"),
    tribute(4, "RJ"),
    give_back(0, "3S"),
    give_back(0, "3H"),
    give_back(1, "3D"),
]
FALSE_SHAO = ["KS", "KH", "KD"] + [r + "S" for r in "3456789TJA"]

RECORDS = {  # name -> a disputed record and the rules its findings are expected to have
    # plays
    "out of turn": (one([["3S"], [], ["4S"]], [play(0, "3S"), play(2, "4S")]), {"gouji.turn"}),
    "leader passes": (one([], passes(0)), {"gouji.lead.pass"}),
    "follow": (
        one([["7S", "7H"], ["QS", "QH", "QD"]], [play(0, "7S", "7H"), play(1, "QS", "QH", "QD")]),
        {"gouji.follow"},
    ),
    "follow a red joker": (
        one([["7S", "RJ"], ["QS", "QH"]], [play(0, "7S", "RJ"), play(1, "QS", "QH")]),
        {"gouji.follow"},
    ),
    "two ranks": (one([["7S"], ["8S", "9S"]], [play(0, "7S"), play(1, "8S", "9S")]), {"gouji.play.combination"}),
    "not held": (one([["7S"]], [play(0, "RJ", "RJ", "RJ", "RJ", "RJ")]), {"gouji.cards.not_held"}),
    "threes last": (one([["3S", "3H"]], [play(0, "3S", "3H")], {"threes_last": True}), {"gouji.threes_last"}),
    "wrong as": (one([["QS", "QH"]], [play(0, "QS", "QH", **{"as": "set:K"})]), {"gouji.play.as"}),
    "false shao pai": (
        shao([play(0, "QS", "QH", "QD"), declare(1, "shao_pai"), play(1, "KS", "KH", "KD")], hand=FALSE_SHAO),
        {"gouji.shao_pai.invalid"},
    ),
    "shao pai not first": (
        shao([play(0, "QS", "QH", "QD"), declare(1, "shao_pai"), play(2, "AS", "AH", "AD")]),
        {"gouji.shao_pai.first"},
    ),
    # tribute and return
    "play before tribute": (ordinary([play(5, "4S")]), {"gouji.tribute.order"}),
    "return while tribute is owed": (ordinary([tribute(5, "RJ"), give_back(0, "3S")]), {"gouji.tribute.order"}),
    "not a payer": (ordinary([tribute(3, "RJ")]), {"gouji.tribute.payer"}),
    "not a receiver": (ordinary(PAID[:3] + [give_back(2, "3S")]), {"gouji.return.payer"}),
    "wrong to": (
        ordinary([tribute(5, "RJ", to=2)] + PAID[1:5] + [give_back(1, "3D", to=3), play(5, "4S")]),
        {"gouji.tribute.to", "gouji.return.to"},
    ),
    "which to": (
        record(
            [deal([[], [], [], [], [], ["RJ", "RJ", "RJ"]], [tribute(5, "RJ")], leader=0)],
            {"sweep_tribute": "add"},
            start=SWEEP,
        ),
        {"gouji.tribute.to"},
    ),
    "wrong leader": (
        record(
            [deal([["3S", "3H"], ["3D"], [], ["4H"], ["RJ"], ["RJ", "RJ"]], PAID + [play(3, "4H")], leader=3)],
            start=ORDINARY,
        ),
        {"gouji.leader", "gouji.turn"},
    ),
    # declarations
    "revolution with a joker": (revolution([declare(5, "revolution")]), {"gouji.revolution"}),
    "revolution twice": (
        record([deal([NATURAL], [declare(0, "revolution"), declare(0, "revolution")])], {"revolution_declarers": 2}),
        {"gouji.revolution"},
    ),
    "revolution late": (revolution([play(0, "3S"), declare(0, "revolution")]), {"gouji.tribute.order"}),
    "waiver": (
        ordinary([declare(2, "waive_tribute")], start={"previous_order": [0, 1, 2, 3, 5, 4]}),
        {"gouji.waive_tribute"},
    ),
    "swap": (ordinary([declare(4, "swap_losers")]), {"gouji.swap_losers"}),
    "swap after a waiver": (
        ordinary(
            [declare(5, "waive_tribute"), declare(3, "swap_losers")], start={"previous_order": [1, 0, 2, 4, 3, 5]}
        ),
        {"gouji.tribute.order"},
    ),
    "liberation": (ordinary([declare(4, "liberation")]), {"gouji.liberation"}),
    "xian rang rang": (
        one([["3S"]], [play(0, "3S"), *passes(1), declare(0, "xian_rang_rang")]),
        {"gouji.xian_rang_rang"},
    ),
    "shao pai": (one([["3S"]], [play(0, "3S"), declare(1, "shao_pai")]), {"gouji.shao_pai.declare"}),
    "declared out of turn": (
        shao([play(0, "QS", "QH", "QD"), declare(1, "shao_pai"), declare(2, "revolution")]),
        {"gouji.shao_pai.first"},
    ),
    # claims
    "claims of a void deal": (
        revolution(
            [declare(0, "revolution")],
            {"order": [0, 1, 2, 3, 4, 5], "scores": [4, -4], "tribute": "none", "levels": ["2", "2"]},
        ),
        {"gouji.result.order", "gouji.result.scores", "gouji.result.tribute", "gouji.result.key"},
    ),
    # deal structure and start
    "five players": (record([deal([], [])]) | {"players": list("ABCDE")}, {"gouji.deal.seats"}),
    "short hand": (short_hand(), {"gouji.deal.hand_size"}),
    "five hands": (record([{"hands": fill_hands([])[:5], "leader": 0, "actions": []}]), {"gouji.deal.hand_size"}),
    "no leader": (record([deal([], [], leader=None)]), {"gouji.leader.missing"}),
    "start": (
        record([deal([], [])], start={"previous_order": [0, 0, 1, 2, 3, 4], "fresh": False, "totals": [1, 2, 3]}),
        {"gouji.start.previous_order", "gouji.start.totals"},
    ),
    "options": (
        record(
            [deal([], [])], {"duel_thresholds": {"Z": 3}, "place_points": [4], "sweep_multiplier": 0, "report_at": 0}
        ),
        {"notation.rules.option"},
    ),
}
DISPUTED = sorted(p.name for p in SAMPLES.glob("*.json") if p.name.startswith("disputed-")) + ["false-shao-pai.json"]

# Words a Chinese message keeps: option names, record fields and values it quotes, rank letters, and
# the rank codes an option is written with.
KEPT = set(gouji.OPTIONS) | {
    "to",
    "start",
    "totals",
    "fresh",
    "false",
    "previous_order",
    "null",
    "set",
    "levels",
    "BJ",
    "RJ",
    "A",
    "K",
    "Q",
    "J",
}
PLAYERS = set("ABCDEF")


def english_words(text: str) -> list[str]:
    text = re.sub(r'"[^"]*"', "", text)  # a value of the record, quoted as it was written
    return [w for w in re.findall(r"[A-Za-z_]+", text) if w not in KEPT | PLAYERS]


def gouji_findings(report):
    return [f for f in report.findings if f.rule.startswith("gouji.") or f.rule == "notation.rules.option"]


def plain_json(value) -> bool:
    if isinstance(value, dict):
        return all(type(k) is str and plain_json(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain_json(v) for v in value)
    return type(value) in (int, str, bool) or value is None


def check_findings(findings):
    assert findings
    for f in findings:
        assert f.text is not None, f"{f.rule}: {f.message!r} is no template"
        chinese = f.shown("zh")
        assert not english_words(chinese), f"{f.rule}: {chinese!r} keeps English words {english_words(chinese)}"
        assert chinese != f.message and str(f.text) == f.message
        params = f.as_dict()["params"]
        assert plain_json(params) and json.loads(json.dumps(params)) == params
        for name in ("seat", "to", "given", "leader", "declarer", "n"):
            assert type(params.get(name, 0)) is int, f"{f.rule}: {name} is {params[name]!r}"


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_every_finding_of_a_disputed_record_has_its_template_and_its_chinese(name):
    rec, rules = RECORDS[name]
    findings = gouji_findings(report_of(rec))
    assert {f.rule for f in findings} == rules
    check_findings(findings)


@pytest.mark.parametrize("name", DISPUTED)
def test_the_disputed_samples_speak_chinese(name):
    [report] = check_path(str(SAMPLES / name))
    check_findings(gouji_findings(report))


def test_sets_are_named_in_chinese_by_size_rank_and_jokers():
    two_tens = gouji.describe(gouji.Set(2, 8, 0, 1))
    assert (str(two_tens), two_tens.render("zh")) == ("a set of 2 10s (1 red joker)", "两张10（含1张大王）")
    jokers = gouji.describe(gouji.Set(3, gouji.BLACK, 2, 1))
    assert (str(jokers), jokers.render("zh")) == (
        "a set of 3 BJs (2 black jokers and 1 red joker)",
        "三张小王（含2张小王和1张大王）",
    )
    assert gouji.may_follow(gouji.Set(2, 8, 1, 0)).render("zh") == "只能用2张、点数大于10且至少含1张大王的一组牌来管"


def test_what_is_owed_is_listed_per_duty_in_chinese():
    [finding] = gouji_findings(report_of(ordinary([play(5, "4S")])))
    assert finding.shown("zh") == "5号位在进贡还贡完成前出牌：5号位欠0号位2张进贡牌；4号位欠1号位1张进贡牌"
    assert finding.as_dict()["params"]["owed"][0] == {
        "template": "seat {seat} owes {n} tribute cards to seat {to}",
        "params": {"n": 2, "seat": 5, "to": 0},
    }


def test_option_effects_declarations_and_tribute_kinds_are_words_of_the_catalogue():
    chinese = translations("zh")
    words = [option.effect for option in gouji.OPTIONS.values()] + list(gouji._DECLARATIONS)
    report = report_of(revolution([declare(0, "revolution")]))
    words.append(report.deals[0]["tribute"])
    assert all(isinstance(w, Term) and chinese.gettext(w) != w for w in words)
    assert json.dumps(report.deals[0]["tribute"]) == '"revolution"'


def test_the_match_winner_is_said_as_a_phrase():
    assert isinstance(gouji._higher_said(1), Msg) and gouji._higher_said(1).render("zh") == "1队总分较高"


def test_a_claimed_order_and_the_computed_one_are_lists_of_seats():
    [report] = check_path(str(SAMPLES / "disputed-wrong-claimed-order.json"))
    [finding] = gouji_findings(report)
    assert finding.as_dict()["params"] == {"claimed": [3, 2, 5, 4, 0], "order": [3, 5, 2, 4, 0, 1]}
    rec, _ = RECORDS["claims of a void deal"]
    [tribute_claim] = [f for f in gouji_findings(report_of(rec)) if f.rule == "gouji.result.tribute"]
    assert tribute_claim.as_dict()["params"] == {"claimed": '"none"', "tribute": "revolution"}
