"""Guandan's messages in Chinese (issue 22): every finding referee/guandan.py makes is a template
with plain parameters, and its Chinese says it in Chinese words; the words of the game the
reports show (combination names, option effects) have theirs."""

import json
import re
from pathlib import Path

import pytest

from referee.guandan import COMBINATIONS, DECLARATIONS_NOTE, OPTIONS, Reading, describe, may_follow
from referee.messages import Term
from referee.replay import check_record
from tests import test_one_fault as faults
from tests.builders import deal, guandan, quick_deal
from tests.test_claim_chains import outside_engine_match

SAMPLES = Path(__file__).parent.parent / "samples" / "guandan"

# The rules whose findings referee/guandan.py makes (guandan.declare, guandan.report.*, guandan.deal.over
# are made in reports.py and replay.py: the core domain's messages).
MODULE = Path(__file__).parent.parent / "referee" / "guandan.py"
MADE_HERE = set(re.findall(r'"((?:guandan|notation)\.[a-z_.]+)"', MODULE.read_text(encoding="utf-8")))

# ASCII words a Chinese message may keep: rank letters (A K Q J, T and L as the rules write levels),
# the record's own keys and values (`as` readings, `tribute` claims), option names and values.
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_:./]*")
READING = re.compile(r"^[a-z_]+:(?:[2-9TJQKA]|10|BJ|RJ)$")
KEPT = {
    "A",
    "K",
    "Q",
    "J",
    "T",
    "L",
    "as",
    "start",
    "playing",
    "previous_order",
    "levels",
    "winner",
    "scores",
    "totals",
    "null",
    "true",
    "false",
    "none",
    "single",
    "double",
    "resisted",
    "below_eight",
    "docs/guandan.md",
    *OPTIONS,
}


def english_words(text: str) -> list[str]:
    return [w for w in WORD.findall(text) if w not in KEPT and not READING.match(w)]


DOUBLE_NO_ANTI = [["RJ", "RJ", "KS", "4C"], ["BJ", "3C"], ["QS", "5C"], ["BJ", "3D"]]
EQUAL = [["RJ", "RJ", "4C"], ["BJ", "3C"], ["5C"], ["BJ", "3D"]]
LOWEST = [[r + s for r in "JQK" for s in "SSHHDDCC"] + ["AS", "AS", "AD"], ["RJ", "RJ"], [], ["BJ", "BJ"]]


def two_deals(partial, actions, first=(0, 2), rules="official", **extra):
    return guandan([quick_deal(list(first)), deal(partial, actions, seed=3, **extra)], rules=rules)


def _with(record, change):
    change(record)
    return record


def _faulty_deck():
    d = quick_deal([0, 2])
    d["hands"][3][0] = d["hands"][0][0]
    return guandan([d])


def _short_hand():
    d = quick_deal([0, 2])
    d["hands"][2].append(d["hands"][1].pop())
    return guandan([d])


PLAY = {
    "as cannot read": _with(
        guandan([quick_deal([0, 2])]), lambda r: r["deals"][0]["actions"][0].update(**{"as": "straight:9"})
    ),
    "as required": guandan(
        [deal([["2H", "3S", "4S", "5S", "6S"]], [{"seat": 0, "play": ["2H", "3S", "4S", "5S", "6S"]}], leader=0)],
        rules={"preset": "official", "options": {"report_at": None}},
    ),
    "pass on lead": faults.injected(faults.GUANDAN_BASE, faults.GUANDAN_STOPS[1][1]),
}


def T(seat, card, **to):
    return {"seat": seat, "tribute": card, **to}


def R(seat, card):
    return {"seat": seat, "return": card}


BOTH_PAID = [T(3, "BJ"), T(1, "BJ")]
TRIBUTE = {
    "resisted paid": two_deals([["KS"], ["RJ", "3C"], [], ["RJ"]], [T(1, "RJ")]),
    "none due returned": guandan(
        [quick_deal([0, 2]), deal([], [R(0, "3C")], seed=3, leader=0)], start={"levels": ["2", "2"], "playing": 0}
    ),
    "not a payer": two_deals(DOUBLE_NO_ANTI, [T(0, "KS")]),
    "return before tributes": two_deals(DOUBLE_NO_ANTI, [T(3, "BJ"), R(2, "QS")]),
    "not a receiver": two_deals(DOUBLE_NO_ANTI, [*BOTH_PAID, R(1, "3C")]),
    "free, no to": two_deals(EQUAL, [T(1, "BJ"), T(3, "BJ")], rules="pagat", leader=3),
    "free, no leader": two_deals(EQUAL, [T(1, "BJ", to=2), T(3, "BJ", to=0)], rules="pagat"),
    "lowest rank": two_deals(LOWEST, [T(3, "BJ"), R(0, "QS")], first=(0, 1, 2)),
    "given back": two_deals(LOWEST, [T(3, "BJ"), R(0, "BJ")], first=(0, 1, 2)),
    "level rank": two_deals(
        [["RJ", "RJ", "5S", "4C"], ["BJ", "3C"], ["QS"], ["BJ", "3D"]],
        [*BOTH_PAID, R(0, "5S")],
        rules={"preset": "official", "options": {"return_excludes_level": True}},
    ),
    "wrong leader": two_deals(DOUBLE_NO_ANTI, [*BOTH_PAID, R(0, "4C"), R(2, "5C")], leader=3),
}
STRUCTURE = {
    "deck": _faulty_deck(),
    "hand size": _short_hand(),
    "five players": _with(guandan([quick_deal([0, 2])]), lambda r: r.update(players=list("ABCDE"))),
    "three hands": _with(guandan([quick_deal([0, 2])]), lambda r: r["deals"][0]["hands"].pop()),
    "no leader": _with(guandan([quick_deal([0, 2])]), lambda r: r["deals"][0].pop("leader")),
    "start": guandan([quick_deal([0, 2])], start={"previous_order": [0, 1], "playing": 1, "a_attempts": [0, 0]}),
    "start levels": guandan([quick_deal([0, 2])], start={"playing": 0}),
    "start playing": guandan([quick_deal([0, 2])], start={"levels": ["3", "5"]}),
    "start order": guandan(
        [quick_deal([0, 2])], start={"levels": ["3", "3"], "previous_order": [0, 2, 1], "playing": 1}
    ),
    "a_fail_after": guandan([quick_deal([0, 2])], rules={"preset": "official", "options": {"a_fail_after": 0}}),
}
CLAIMS = {
    "from claim": outside_engine_match(),
    "after the winner": guandan(
        [quick_deal([0, 2], level="A"), quick_deal([0, 2], level="A")],
        start={"levels": ["A", "5"], "playing": 0},
        result={"winner": 1, "totals": [1]},
    ),
    "uncheckable": guandan(
        [_with(quick_deal([0, 2]), lambda d: d["actions"].insert(0, faults.PASS(1))), quick_deal([0, 2])],
        result={"levels": ["2", "3"]},
    ),
}
RECORDS = {
    **{
        f"fault {name}": faults.injected(faults.GUANDAN_BASE, edit)
        for name, edit, *_, (rule, _) in faults.GUANDAN_FAULTS + faults.GUANDAN_STOPS
        if rule in MADE_HERE
    },
    **{f"sample {p.stem}": json.loads(p.read_text(encoding="utf-8")) for p in sorted(SAMPLES.glob("disputed-*.json"))},
    **PLAY,
    **TRIBUTE,
    **STRUCTURE,
    **CLAIMS,
}


def ours(record):
    return [f for f in check_record(record).findings if f.rule in MADE_HERE]


@pytest.mark.parametrize("name", RECORDS)
def test_every_finding_has_a_template_and_chinese_words(name):
    found = ours(RECORDS[name])
    assert found, "the record makes no Guandan finding"
    for f in found:
        assert f.text is not None, f"{f.rule}: {f.message!r} is no template"
        assert f.shown("en") == f.message
        chinese = f.shown("zh")
        assert re.search(r"[\u4e00-\u9fff]", chinese) and not english_words(chinese), (f.rule, chinese)


def test_the_findings_cover_every_kind():
    rules = {f.rule for record in RECORDS.values() for f in ours(record)}
    assert {
        "guandan.follow",
        "guandan.play.as",
        "guandan.play.as_required",
        "guandan.play.combination",
        "guandan.card.not_held",
        "guandan.turn",
        "guandan.lead.pass",
        "guandan.tribute.card",
        "guandan.tribute.to",
        "guandan.tribute.none",
        "guandan.tribute.payer",
        "guandan.tribute.order",
        "guandan.return.card",
        "guandan.return.to",
        "guandan.return.payer",
        "guandan.leader",
        "guandan.leader.missing",
        "guandan.result.order",
        "guandan.result.levels",
        "guandan.result.tribute",
        "guandan.result.key",
        "guandan.match.levels",
        "guandan.match.winner",
        "guandan.match.over",
        "guandan.levels.from_claim",
        "guandan.deal.uncheckable",
        "guandan.deck",
        "guandan.deal.hand_size",
        "guandan.deal.seats",
        "guandan.deal.hands",
        "guandan.start.levels",
        "guandan.start.playing",
        "guandan.start.previous_order",
    } <= rules


def _plain(value) -> bool:
    if isinstance(value, dict):
        return set(value) == {"template", "params"} and all(_plain(v) for v in value["params"].values())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return type(value) in (int, str, bool) or value is None


@pytest.mark.parametrize(
    "name", ["fault tribute.card", "fault return.to", "fault follow", "fault result.levels", "deck"]
)
def test_json_params_are_plain_values(name):
    for f in ours(RECORDS[name]):
        params = f.as_dict()["params"]
        assert all(_plain(v) for v in params.values()) and json.loads(json.dumps(params)) == params
        assert all(type(params[key]) is int for key in ("seat", "to", "payer", "receiver") if key in params)


def test_a_wrong_tribute_card_names_seat_card_and_rank_as_values():
    f = ours(RECORDS["fault tribute.card"])[0]
    assert f.as_dict()["params"] == {"seat": 3, "card": "3D", "rank": "red joker"}
    assert f.shown("zh") == "3号位进贡方块3，但贡牌须是发到手中最大的牌（逢人配不算）：大王"


def test_a_follow_that_cannot_beat_says_so_in_chinese():
    f = ours(RECORDS["fault follow"])[0]
    assert f.shown("zh").startswith("0号位出单张2管") and "只能用更大的单张或炸弹来管" in f.shown("zh")
    assert f.as_dict()["params"]["played"]["template"] == "a single {rank}"


@pytest.mark.parametrize("kind", COMBINATIONS)
def test_combinations_are_described_in_chinese(kind):
    rank = "RJ" if kind == "joker_bomb" else "9"
    reading = Reading(kind, rank, 7, {"bomb": 3, "straight_flush": 2, "joker_bomb": 8}.get(kind))
    for text in (describe(reading), may_follow(reading), COMBINATIONS[kind]):
        shown = text.render("zh") if hasattr(text, "render") else text.shown("zh")
        assert not english_words(shown), shown


def test_jokers_are_named_in_chinese():
    assert describe(Reading("pair", "BJ", 14, None)).render("zh") == "一对小王"
    assert describe(Reading("single", "RJ", 15, None)).render("zh") == "单张大王"
    assert describe(Reading("pair", "T", 8, None)).render("en") == "a pair of 10s"


@pytest.mark.parametrize("name", OPTIONS)
def test_option_effects_have_their_chinese(name):
    effect = OPTIONS[name].effect
    assert isinstance(effect, Term)
    shown = effect.shown("zh")
    assert shown != effect and not english_words(shown), shown


def test_an_unknown_declaration_adds_that_anti_tribute_is_automatic():
    record = faults.injected(faults.GUANDAN_BASE, dict((f[0], f[1]) for f in faults.GUANDAN_FAULTS)["declare"])
    f = next(f for f in check_record(record).findings if f.rule == "guandan.declare")
    assert f.message == 'there is no declaration "revolution" here; only report (anti-tribute is automatic)'
    assert DECLARATIONS_NOTE.render("zh") == "（抗贡自动生效）"
