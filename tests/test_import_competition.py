"""`referee import --from competition`: captures of the Guandan competition protocol
(../shared/formats/competition-protocol.md) converted into CGR/1 and judged by the referee.

The captures in tests/data/captures are renderings (tests/captures.py) of legal games
played by tests/guandan_gen.py; `test_stored_captures_are_reproducible` rebuilds each one.
Captures with faults are made here by editing such a capture line by line.
"""

import gzip
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from referee.importers import Imported, Problem, competition, read_lines
from referee.replay import check_record
from tests.captures import capture_lines, messages
from tests.guandan_gen import DealPlayer, deal_hands, is_wild, level_value, match_record, rank_of, return_card

CAPTURES = Path(__file__).parent / "data" / "captures"
RUNS = [
    (["AH", "2D", "3C", "4H", "5S"], "straight:5"),  # A-low straight
    (["3S", "4D", "5C", "6S", "2H"], "straight:7"),  # the wild 2H read as a 7
    (["AS", "AD", "2S", "2C", "3S", "3D"], "tube:3"),  # A-low tube
    (["KS", "KD", "KC", "AC", "AC", "AD"], "plate:A"),
]
BOMBS = [
    (["5D", "6D", "7D", "8D", "2H"], "straight_flush:9"),  # completed by the wild 2H
    (["9S", "9D", "9C", "JS", "JD"], "full_house:9"),
    (["BJ", "BJ", "RJ", "RJ"], "joker_bomb:RJ"),
    (["QS", "QD", "QC", "2H"], "bomb:Q"),
]
MATCH_SEED = 23  # seven deals: single and double tributes, two anti-tributes, won at A by team 0


def special_record(plays):
    """A one-deal match in which seat 0 leads `plays` one after the other."""
    hand = [card for cards, _ in plays for card in cards]
    return match_record(1, max_deals=1, plan=[{"hands": [hand, [], [], []], "leader": 0, "scripted": {0: plays}}])


def match():
    return match_record(MATCH_SEED, max_deals=30)


def wrong_tribute_record():
    """Two deals; in the second, seat o4 pays its lowest card instead of its highest."""
    record = match_record(3, max_deals=1)
    first = record["deals"][0]["result"]
    o1, o4 = first["order"][0], first["order"][3]
    level = first["levels"][o1 % 2]
    rng = random.Random(5)
    dealt = deal_hands(rng)
    hands = [list(h) for h in dealt]
    paid = min((c for c in hands[o4] if not is_wild(c, level)), key=lambda c: level_value(rank_of(c), level))
    hands[o4].remove(paid)
    hands[o1].append(paid)
    back = return_card(hands[o1], paid, level)
    hands[o1].remove(back)
    hands[o4].append(back)
    player = DealPlayer(rng, hands, level, o4)
    order = player.play()
    actions = [{"seat": o4, "tribute": paid, "to": o1}, {"seat": o1, "return": back, "to": o4}]
    record["deals"].append({"hands": dealt, "actions": actions + player.actions, "result": {"order": order}})
    return record


STORED = {
    "special-runs.jsonl.gz": lambda: capture_lines(special_record(RUNS), merged=True),
    "special-bombs.jsonl": lambda: capture_lines(special_record(BOMBS), merged=False),
    "match-several-deals.jsonl.gz": lambda: capture_lines(match(), victory_after=0),
    "wrong-tribute.jsonl": lambda: capture_lines(wrong_tribute_record(), merged=False),
}


def convert_text(text, per="match", rules="official", source="capture"):
    lines = list(enumerate(text.splitlines(True), 1))
    return list(competition.convert(lines, source, per, rules))


def convert_file(name, per="match", rules="official"):
    return list(competition.convert(read_lines(str(CAPTURES / name)), name, per, rules))


def records(items):
    return [item.record for item in items if isinstance(item, Imported)]


def problems(items):
    return [item for item in items if isinstance(item, Problem)]


def errors(record):
    return [(f.rule, f.at) for f in check_record(record).findings if f.severity == "error"]


def facts(record):
    """What a capture can hold of a record: hands, plays, passes, tributes and returns."""
    keep = ("seat", "play", "pass", "tribute", "return")
    return [
        {
            "hands": [sorted(h) for h in deal["hands"]],
            "actions": [
                {k: (sorted(v) if k == "play" else v) for k, v in a.items() if k in keep}
                for a in deal["actions"]
                if "declare" not in a
            ],
        }
        for deal in record["deals"]
    ]


def outcomes(record):
    return [{k: d[k] for k in ("order", "levels", "tribute", "leader")} for d in check_record(record).deals]


# ---------------------------------------------------------------- cards and readings


@pytest.mark.parametrize(
    "platform, cgr", [("S4", "4S"), ("HT", "TH"), ("DA", "AD"), ("C2", "2C"), ("SB", "BJ"), ("HR", "RJ")]
)
def test_cards_are_written_rank_first(platform, cgr):
    assert competition._card(platform) == cgr


@pytest.mark.parametrize("bad", ["4S", "X4", "S1", "H10", "BJ", "", None, 7, ["S4"]])
def test_unknown_cards_are_refused(bad):
    with pytest.raises(competition.Unconvertible, match="unknown card"):
        competition._card(bad)


@pytest.mark.parametrize(
    "kind, rank, reading",
    [
        ("Single", "7", "single:7"),
        ("Single", "B", "single:BJ"),
        ("Single", "HR", "single:RJ"),
        ("Pair", "R", "pair:RJ"),
        ("Pair", "T", "pair:T"),
        ("Trips", "Q", "triple:Q"),
        ("ThreeWithTwo", "9", "full_house:9"),
        ("Bomb", "A", "bomb:A"),
        ("FourKings", "JOKER", "joker_bomb:RJ"),
        ("Bomb", "JOKER", "joker_bomb:RJ"),
        ("Straight", "A", "straight:5"),
        ("Straight", "2", "straight:6"),
        ("Straight", "T", "straight:A"),
        ("StraightFlush", "A", "straight_flush:5"),
        ("StraightFlush", "9", "straight_flush:K"),
        ("ThreePair", "A", "tube:3"),
        ("ThreePair", "Q", "tube:A"),
        ("TwoTrips", "A", "plate:2"),
        ("TwoTrips", "K", "plate:A"),
    ],
)
def test_platform_types_map_to_readings_named_by_the_top_rank(kind, rank, reading):
    assert competition._reading(kind, rank) == reading


@pytest.mark.parametrize(
    "kind, rank, message",
    [
        ("Straight", "J", "past the ace"),
        ("ThreePair", "K", "past the ace"),
        ("TwoTrips", "B", "rank"),
        ("Sequence", "5", "unknown action type"),
        ("Single", "10", "rank"),
        (["Single"], "5", "unknown action type"),
    ],
)
def test_impossible_platform_actions_are_refused(kind, rank, message):
    with pytest.raises(competition.Unconvertible, match=message):
        competition._reading(kind, rank)


# ---------------------------------------------------------------- legal games round trip


def test_stored_captures_are_reproducible():
    for name, render in STORED.items():
        raw = (CAPTURES / name).read_bytes()
        assert (gzip.decompress(raw) if name.endswith(".gz") else raw).decode() == render()


@pytest.mark.parametrize("name, plays", [("special-runs.jsonl.gz", RUNS), ("special-bombs.jsonl", BOMBS)])
def test_runs_wild_cards_and_bombs_convert_with_their_readings(name, plays):
    items = convert_file(name)
    [record] = records(items)
    assert problems(items) == []
    played = [(sorted(a["play"]), a["as"]) for a in record["deals"][0]["actions"] if "play" in a]
    assert played[: len(plays)] == [(sorted(cards), reading) for cards, reading in plays]
    assert facts(record) == facts(special_record(plays))
    assert check_record(record).valid


def test_a_match_over_several_deals_converts_to_the_same_verdicts():
    items = convert_file("match-several-deals.jsonl.gz")
    [record] = records(items)
    original = match()
    assert problems(items) == []
    assert facts(record) == facts(original)
    assert outcomes(record) == outcomes(original)
    report = check_record(record)
    assert report.valid and report.match["winner"] == 0
    assert record["result"] == {"winner": 0}
    assert [d["result"].get("levels") for d in record["deals"]] == [
        d["result"]["levels"] for d in original["deals"][:-1]
    ] + [None]


def test_double_tribute_and_anti_tribute_are_written_as_they_happened():
    [record] = records(convert_file("match-several-deals.jsonl.gz"))
    kinds = [d["tribute"] for d in check_record(record).deals]
    assert {"single", "double", "resisted"} <= set(kinds)
    for deal, kind in zip(record["deals"], kinds):
        exchanges = [a for a in deal["actions"] if "tribute" in a or "return" in a]
        assert len(exchanges) == {"none": 0, "single": 2, "double": 4, "resisted": 0}[kind]
        assert all("to" in a for a in exchanges)
        assert deal["result"].get("tribute") == ("resisted" if kind == "resisted" else None)


def test_a_first_lead_with_a_stale_greater_action_is_led_by_the_notified_seat():
    msgs = messages(match(), victory_after=0)
    stale = 0
    for i, (_, msg) in enumerate(msgs):
        if msg.get("stage") == "beginning" and msg["myPos"] == 3:
            request = next(m for _, m in msgs[i:] if m.get("type") == "act")
            lead = next(m for _, m in msgs[i:] if m.get("type") == "notify" and m["stage"] == "play")
            stale += request["greaterAction"] != ["PASS"] * 3 and request["greaterPos"] != lead["curPos"]
    assert stale >= 3  # the quirk is in the capture, at most deals' first lead
    [record] = records(convert_file("match-several-deals.jsonl.gz"))
    assert check_record(record).valid


@pytest.mark.parametrize("seed", [0, 4, 11])
@pytest.mark.parametrize("merged", [True, False])
def test_generated_matches_round_trip(seed, merged):
    original = match_record(seed, max_deals=30)
    winner = original["result"].get("winner")
    [record] = records(convert_text(capture_lines(original, merged, victory_after=winner)))
    assert facts(record) == facts(original)
    assert outcomes(record) == outcomes(original)
    assert check_record(record).valid


def test_equal_double_tributes_name_the_leader_the_free_allocation_needs():
    original = match_record(7, max_deals=30)  # deal 1: both payers pay a black joker
    free = {"preset": "official", "options": {"equal_double_tribute": "free"}}
    [record] = records(convert_text(capture_lines(original, merged=False), rules=free))
    deal = record["deals"][1]
    assert [a["tribute"] for a in deal["actions"] if "tribute" in a] == ["BJ", "BJ"]
    assert deal["leader"] == next(a["seat"] for a in deal["actions"] if "play" in a)
    assert check_record(record).valid
    del deal["leader"]
    assert errors(record) == [("guandan.leader.missing", "/deals/1/leader")]


def test_per_deal_records_start_from_the_captured_previous_deal():
    original = match()
    items = convert_file("match-several-deals.jsonl.gz", per="deal")
    split = records(items)
    assert problems(items) == [] and len(split) == len(original["deals"])
    assert "start" not in split[0]
    for k, record in enumerate(split[1:], 1):
        before = original["deals"][k - 1]["result"]
        assert record["start"]["previous_order"] == before["order"]
        assert record["start"]["levels"] == before["levels"]
    assert [check_record(r).valid for r in split] == [True] * len(split)
    assert [o for r in split for o in outcomes(r)] == outcomes(original)
    assert split[-1]["result"] == {"winner": 0} and all("result" not in r for r in split[:-1])


@pytest.mark.parametrize("seed", [23, 5])
def test_a_capture_beginning_mid_match_infers_the_previous_order_from_the_tribute(seed):
    original = match_record(seed, max_deals=30)
    lines = capture_lines(original, merged=False).splitlines(True)
    starts = [i for i, line in enumerate(lines) if '"beginning"' in line and '"myPos": 0' in line]
    for k, i in enumerate(starts[1:], 1):
        [record] = records(convert_text("".join(lines[i:])))
        assert set(record["start"]) >= {"levels", "previous_order"}
        assert record["start"]["previous_order"][0] == original["deals"][k - 1]["result"]["order"][0]
        assert outcomes(record) == outcomes(original)[k:]
        assert check_record(record).valid


# ---------------------------------------------------------------- what the referee reports


def test_one_wrong_tribute_gives_exactly_one_finding():
    [record] = records(convert_file("wrong-tribute.jsonl"))
    paid = record["deals"][1]["actions"][0]
    assert "tribute" in paid
    assert errors(record) == [("guandan.tribute.card", "/deals/1/actions/0/tribute")]


def test_the_platform_rules_are_written_and_rules_can_be_overridden():
    text = capture_lines(special_record(RUNS), merged=False)
    [record] = records(convert_text(text, rules=competition.DEFAULT_RULES))
    assert record["rules"] == {
        "preset": "official",
        "options": {
            "return_excludes_level": True,
            "equal_double_tribute": "free",
            "a_fail_rule": "three_to_two",
            "report_at": None,
        },
    }
    assert check_record(record).rules["options"]["equal_double_tribute"] == "free"
    [record] = records(convert_text(text, rules="pagat"))
    assert record["rules"] == "pagat"


def edited(lines, stage, change, occurrence=0):
    """The capture with the `occurrence`-th message of `stage` changed by `change(msg)`."""
    out, seen = [], -1
    for line in lines:
        msg = json.loads(line)
        if msg.get("stage") == stage:
            seen += 1
            if seen == occurrence:
                change(msg)
        out.append(json.dumps(msg) + "\n")
    return "".join(out)


def test_claimed_levels_come_from_the_next_beginning_and_are_checked():
    lines = capture_lines(match(), merged=False).splitlines(True)

    def raise_level(msg):
        msg["selfRank" if msg["myPos"] % 2 == 0 else "oppoRank"] = "K"

    text = "".join(lines)
    for seat in range(4):  # the four beginnings of deal 1 all claim team 0 at K
        text = edited(text.splitlines(True), "beginning", raise_level, occurrence=4 + seat)
    [record] = records(convert_text(text))
    assert record["deals"][0]["result"]["levels"][0] == "K"
    assert errors(record) == [("guandan.result.levels", "/deals/0/result/levels")]


def test_the_claimed_match_winner_is_checked():
    text = edited(
        capture_lines(match(), merged=False, victory_after=0).splitlines(True),
        "gameResult",
        lambda msg: msg.update(victoryNum=[0, 1, 0, 1]),
    )
    [record] = records(convert_text(text))
    assert record["result"] == {"winner": 1}
    assert errors(record) == [("guandan.match.winner", "/result/winner")]


def test_a_claimed_anti_tribute_the_hands_do_not_give_is_reported():
    lines = capture_lines(match(), merged=False).splitlines(True)
    first_tribute = next(i for i, line in enumerate(lines) if '"stage": "tribute"' in line)
    payer = json.loads(lines[first_tribute])["result"][0][0]
    anti = json.dumps({"type": "notify", "stage": "anti-tribute", "antiNum": 1, "antiPos": [payer]}) + "\n"
    text = "".join(lines[:first_tribute] + [anti] + lines[first_tribute:])
    [record] = records(convert_text(text))
    rules = [rule for rule, _ in errors(record)]
    assert rules == ["guandan.result.tribute"]


# ---------------------------------------------------------------- captures that cannot be converted


def bare_match_lines():
    return capture_lines(match(), merged=False).splitlines(True)


def beginning_lines(lines, deal):
    return [i for i, line in enumerate(lines) if '"beginning"' in line][4 * deal : 4 * deal + 4]


def test_a_missing_hand_names_the_line_and_the_other_deals_convert():
    lines = bare_match_lines()
    gone = beginning_lines(lines, 2)[2]
    del lines[gone]
    items = convert_text("".join(lines))
    [problem] = problems(items)
    first = beginning_lines(lines, 2)[0] + 1
    assert problem.line > first and f"the deal that begins at line {first}" in problem.message
    assert "no beginning message (the dealt hand) for seat(s) 2" in problem.message
    before, after = records(items)
    assert len(before["deals"]) == 2 and "start" not in before
    assert after["start"]["previous_order"] == match()["deals"][2]["result"]["order"]
    assert check_record(before).valid and check_record(after).valid


@pytest.mark.parametrize(
    "line, message",
    [
        ('{"type": "notify", "stage": "chat", "text": "gg"}\n', "unknown message: type 'notify', stage 'chat'"),
        ('{"type": "act", "stage": "dance"}\n', "unknown message"),
        ('{"type": "notify", "stage": "play", "curPos\n', "not JSON"),
        ("[1, 2]\n", "must be a JSON object"),
        ('{"seat": 1, "msg": {"type": "notify", "stage": "play"}, "time": 5}\n', "unknown key 'time'"),
        ('{"seat": 9, "msg": {"type": "notify", "stage": "play"}}\n', "seat must be a seat 0-3"),
        ('{"seat": 1, "dir": "up", "msg": {}}\n', '"dir"'),
        ('{"type": "notify", "stage": "play", "curPos": 1e400, "curAction": ["PASS", "PASS", "PASS"]}\n', "not JSON"),
        ('{"type": "notify", "stage": "play", "curPos": 7, "curAction": ["PASS", "PASS", "PASS"]}\n', "curPos must"),
        ('{"type": "notify", "stage": "play", "curPos": 1, "curAction": ["Single", "5"]}\n', "curAction"),
        ('{"type": "notify", "stage": "play", "curPos": 1, "curAction": ["Single", "5", ["S5", "Z9"]]}\n', "'Z9'"),
        ('{"type": "notify", "stage": "tribute", "result": [[0, 1]]}\n', "[from, to, card]"),
        ('{"type": "notify", "stage": "anti-tribute", "antiNum": 1, "antiPos": 1}\n', "antiPos"),
        ('{"type": "notify", "stage": "episodeOver", "order": "0123"}\n', "order"),
    ],
)
def test_a_bad_message_spoils_only_its_own_deal(line, message):
    lines = bare_match_lines()
    at = beginning_lines(lines, 1)[3] + 1  # right after deal 1's beginnings
    lines.insert(at, line)
    items = convert_text("".join(lines))
    [problem] = problems(items)
    assert problem.line == at + 1 and message in problem.message
    assert str(problem).startswith(f"capture:{at + 1}: ")
    before, after = records(items)
    assert len(before["deals"]) == 1 and len(after["deals"]) == len(match()["deals"]) - 2
    assert check_record(before).valid and check_record(after).valid


def test_disagreeing_beginnings_and_a_wrongly_addressed_hand_are_refused():
    lines = bare_match_lines()
    text = edited(lines, "beginning", lambda msg: msg.update(curRank="5"), occurrence=1)
    [problem] = problems(convert_text(text))
    assert problem.line == 2 and "an earlier one gave 2" in problem.message
    wrapped = capture_lines(match(), merged=True).splitlines(True)
    first = json.loads(wrapped[0])
    first["seat"] = 3
    [problem] = problems(convert_text(json.dumps(first) + "\n" + "".join(wrapped[1:])))
    assert problem.line == 1 and "received by seat 3" in problem.message


def test_a_capture_that_begins_inside_a_deal():
    lines = bare_match_lines()
    start = beginning_lines(lines, 1)[3] + 3
    items = convert_text("".join(lines[start:]))
    [problem] = problems(items)
    assert problem.line in (1, 2) and "begins inside a deal" in problem.message  # line 1 may be a request
    [record] = records(items)
    assert record["start"]["previous_order"] == match()["deals"][1]["result"]["order"]
    assert check_record(record).valid


def test_a_truncated_capture_ends_with_an_incomplete_deal():
    lines = bare_match_lines()
    cut = beginning_lines(lines, 1)[3] + 40
    [record] = records(convert_text("".join(lines[:cut])))
    assert "result" not in record["deals"][1]
    report = check_record(record)
    assert report.valid
    assert [(f.rule, f.severity) for f in report.findings if f.rule != "guandan.report.missing"] == [
        ("notation.deal.incomplete", "warning")
    ]


def test_copies_of_a_notification_are_kept_once_even_when_one_seat_missed_it():
    lines = capture_lines(special_record(BOMBS), merged=True).splitlines(True)
    copies = [
        i
        for i, line in enumerate(lines)
        if '"seat": 2' in line and '"stage": "play"' in line and '"type": "notify"' in line
    ]
    del lines[copies[5]]
    [record] = records(convert_text("".join(lines)))
    assert facts(record) == facts(special_record(BOMBS))


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "holds no deal"),
        (b'{"actIndex": 3}\n', "holds no deal"),
        (b"\xff\xfe\n", "not UTF-8"),
        (b"\x1f\x8b\x08\x00garbage", "truncated or damaged"),
        (b"\x1f\x8bnot gzip at all", "cannot read the file"),
        (gzip.compress(b'{"type": "notify"}\n' * 5000)[:-5], "truncated or damaged"),
    ],
)
def test_unreadable_captures_are_named(tmp_path, content, message):
    path = tmp_path / "capture.jsonl"
    path.write_bytes(content)
    found = problems(list(competition.convert(read_lines(str(path)), str(path), "match", "official")))
    assert any(message in str(p) for p in found) and all(str(p).startswith(str(path)) for p in found)


def test_a_line_longer_than_the_limit_is_skipped(tmp_path, monkeypatch):
    import referee.importers as importers

    monkeypatch.setattr(importers, "MAX_LINE_BYTES", 100)
    path = tmp_path / "capture.jsonl"
    path.write_bytes(b'{"x": "' + b"y" * 500 + b'"}\n{"actIndex": 1}\n')
    assert [str(p) for p in read_lines(str(path)) if isinstance(p, Problem)] == [
        f"{path}:1: the line is longer than 100 bytes"
    ]
    assert [line for line in read_lines(str(path)) if not isinstance(line, Problem)] == [(2, '{"actIndex": 1}\n')]


# ---------------------------------------------------------------- any input: records or named problems

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
SPECIAL_LINES = capture_lines(special_record(BOMBS), merged=False).splitlines(True)


def converted_or_named(text):
    items = convert_text(text)
    assert all(isinstance(item, (Imported, Problem)) for item in items)
    for record in records(items):
        check_record(record)  # the referee reads whatever was written, without an exception
    return items


@SETTINGS
@given(st.lists(st.one_of(st.text(max_size=30), JSON.map(json.dumps)), max_size=8))
def test_arbitrary_lines_never_raise(lines):
    assert problems(converted_or_named("\n".join(lines)))


@SETTINGS
@given(
    st.integers(0, len(SPECIAL_LINES) - 1),
    st.sampled_from(
        ["handCards", "myPos", "curRank", "selfRank", "curPos", "curAction", "order", "type", "stage", "msg"]
    ),
    JSON,
)
def test_a_capture_with_one_value_changed_never_raises(index, key, value):
    msg = json.loads(SPECIAL_LINES[index])
    msg[key] = value
    lines = SPECIAL_LINES[:index] + [json.dumps(msg) + "\n"] + SPECIAL_LINES[index + 1 :]
    converted_or_named("".join(lines))


def test_a_double_tribute_allocated_by_seat_is_kept_and_reported():
    """The engine family that gives o1 the tribute of a seat, not the higher card (format page):
    the capture's allocation is written as it was, and the referee reports it."""
    lines = bare_match_lines()
    double = next(
        i
        for i, line in enumerate(lines)
        if '"stage": "tribute"' in line and len({c[1] for _, _, c in json.loads(line)["result"]}) == 2
    )
    deal = sum('"beginning"' in line and '"myPos": 0' in line for line in lines[:double]) - 1
    tribute, back = json.loads(lines[double]), json.loads(lines[double + 1])
    (pa, ra, ca), (pb, rb, cb) = tribute["result"]
    tribute["result"] = [[pa, rb, ca], [pb, ra, cb]]  # each payer to the other receiver
    back["result"] = [[g, pb if to == pa else pa, c] for g, to, c in back["result"]]
    lines[double], lines[double + 1] = json.dumps(tribute) + "\n", json.dumps(back) + "\n"
    [changed] = records(convert_text("".join(lines)))
    given = [(a["seat"], a["to"]) for a in changed["deals"][deal]["actions"] if "tribute" in a]
    assert given == [(pa, rb), (pb, ra)]
    found = errors(changed)
    assert found[0] == ("guandan.tribute.to", f"/deals/{deal}/actions/0/to")
    assert all(at.startswith(f"/deals/{deal}/") for _, at in found)


def test_two_matches_in_one_file_with_cumulative_victories():
    second = match_record(7, max_deals=30)  # won by team 1 in 7 deals
    first_text = capture_lines(match(), merged=False, victory_after=0)
    second_text = edited(
        capture_lines(second, merged=False, victory_after=1).splitlines(True),
        "gameResult",
        lambda msg: msg.update(victoryNum=[1, 1, 1, 1]),
    )  # counts since the session began
    one, two = records(convert_text(first_text + second_text))
    assert (one["result"], two["result"]) == ({"winner": 0}, {"winner": 1})
    assert "start" not in two and two["deals"][0]["leader"] == second["deals"][0]["leader"]
    assert facts(two) == facts(second)
    assert check_record(one).valid and check_record(two).valid


def test_levels_as_numbers_and_letters_in_one_capture_convert_alike():
    """Format page: open engines send levels as numbers 2-14 in `beginning` and letters elsewhere."""
    number = {r: i + 2 for i, r in enumerate("23456789TJQKA")}
    lines = capture_lines(match(), merged=False).splitlines(True)
    text = "".join(lines)
    for occurrence in range(0, sum('"beginning"' in line for line in lines), 2):  # every other seat's beginning
        text = edited(
            text.splitlines(True),
            "beginning",
            lambda msg: msg.update({k: number[msg[k]] for k in ("curRank", "selfRank", "oppoRank")}),
            occurrence=occurrence,
        )
    assert '"curRank": 2,' in text and '"curRank": "2"' in text
    [mixed], [letters] = records(convert_text(text)), records(convert_text("".join(lines)))
    assert mixed == letters and check_record(mixed).valid


@pytest.mark.parametrize("value", [1, 15, 0, -2, 2.0, "14", "10", True, None])
def test_a_level_outside_both_spellings_is_named_by_line(value):
    lines = bare_match_lines()
    text = edited(lines, "beginning", lambda msg: msg.update(curRank=value), occurrence=0)
    [problem, *_] = problems(convert_text(text))
    assert problem.line == 1 and "curRank must be a rank" in problem.message
