"""Archive integrity (referee/integrity.py, `referee integrity`): every duplicate class, event boards, fair
dealing (nothing flagged in fair archives over many replicates; planted biases of the promised size found)."""

import copy
import gzip
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli.main import main
from referee.integrity import Archive, _bomb_pmf, _holm, _hypergeometric_pmf
from tests.integrity_gen import SEATS, fair_deal, favour, record


def _archive(records):
    archive = Archive()
    archive.files.append("a.jsonl")
    for line, rec in enumerate(records, 1):
        archive.add(rec if isinstance(rec, str) else json.dumps(rec), 0, line)
    return archive.findings()


def _fair(seed, game, n, **extra):
    rng = random.Random(seed)
    seats = SEATS[game]
    return [
        record(
            game,
            [fair_deal(rng, game, seats, rng.randrange(seats) if game == "gandengyan" else 0)],
            rng.sample([f"N{k}" for k in range(10)], seats),
            **extra,
        )
        for _ in range(n)
    ]


def _kinds(findings, kind, relation=None):
    return [f for f in findings if f["kind"] == kind and (relation is None or f["relation"] == relation)]


def _names(finding):
    return [(m["record"], m.get("relation")) for m in finding["members"]]


def test_a_fair_archive_has_no_duplicate_and_no_board_finding():
    found, summary = _archive(_fair(1, "guandan", 60))
    assert found == [] and summary["deals"] == 60 and summary["tests"] > 0


def test_the_same_record_byte_identical_and_re_serialised():
    recs = _fair(2, "guandan", 5)
    found, _ = _archive(recs + [json.dumps(recs[1]), json.dumps(recs[3], indent=1)])
    groups = sorted(_names(f) for f in _kinds(found, "duplicate", "same_record"))
    assert groups == [
        [("a.jsonl:2", "first"), ("a.jsonl:6", "byte-identical")],
        [("a.jsonl:4", "first"), ("a.jsonl:7", "re-serialised")],
    ]
    assert not _kinds(found, "duplicate", "same_deal")  # the records' copies explain their deals


def test_the_same_deal_in_another_record():
    recs = _fair(3, "gouji", 4)
    other = copy.deepcopy(recs[2])
    other["players"] = ["U", "V", "W", "X", "Y", "Z"]
    found, _ = _archive(recs + [other])
    (same,) = _kinds(found, "duplicate", "same_deal")
    assert same["records"] == ["a.jsonl:3", "a.jsonl:5"]


@pytest.mark.parametrize("game", ["guandan", "gouji", "gandengyan"])
def test_the_same_deal_rotated_and_suits_permuted(game):
    recs = _fair(4, game, 4)
    rotated, permuted, both = (copy.deepcopy(recs[i]) for i in range(3))
    for rec, turn, swap in ((rotated, 1, {}), (permuted, 0, {"S": "D", "D": "S"}), (both, 2, {"H": "C", "C": "H"})):
        deal = rec["deals"][0]
        deal["hands"] = [
            [c[0] + swap.get(c[1], c[1]) if c not in ("BJ", "RJ") else c for c in hand]
            for hand in deal["hands"][turn:] + deal["hands"][:turn]
        ]
        if "talon" in deal:
            deal["talon"] = [c[0] + swap.get(c[1], c[1]) if c not in ("BJ", "RJ") else c for c in deal["talon"]]
    found, _ = _archive(recs + [rotated, permuted, both])
    related = {f["members"][1]["record"]: f["members"][1] for f in _kinds(found, "duplicate", "symmetric")}
    assert related["a.jsonl:5"]["relation"] == "rotated" and related["a.jsonl:5"]["rotation"] == SEATS[game] - 1
    assert related["a.jsonl:6"]["relation"] == "suits_permuted" and related["a.jsonl:6"]["suits"] == {
        "S": "D",
        "D": "S",
    }
    assert related["a.jsonl:7"]["relation"] == "rotated_and_suits_permuted"
    assert [f["members"][0]["record"] for f in _kinds(found, "duplicate", "symmetric")] == [
        "a.jsonl:1",
        "a.jsonl:2",
        "a.jsonl:3",
    ]


def _near(game, change):
    recs = _fair(5, game, 6)
    near = copy.deepcopy(recs[4])
    change(near["deals"][0])
    found, _ = _archive(recs + [near])
    (group,) = _kinds(found, "duplicate", "near")
    assert group["records"] == ["a.jsonl:5", "a.jsonl:7"]
    return group["members"][1]["changes"]


def test_near_duplicate_two_cards_swapped_between_hands():
    def swap(deal):
        hands = deal["hands"]
        hands[0][0], hands[2][0] = hands[2][0], hands[0][0]

    changes = _near("guandan", swap)
    assert {c["part"] for c in changes} == {"seat 0", "seat 2"} and len(changes) == 4


def test_near_duplicate_one_card_moved():
    def move(deal):
        deal["hands"][3].append(deal["hands"][1].pop())

    changes = _near("gouji", move)
    assert [(c["part"], c["change"]) for c in changes] == [("seat 1", "out"), ("seat 3", "in")]


def test_near_duplicate_in_gandengyan_a_hand_card_swapped_with_the_talon():
    def swap(deal):
        deal["hands"][1][0], deal["talon"][-1] = deal["talon"][-1], deal["hands"][1][0]

    changes = _near("gandengyan", swap)
    assert {c["part"] for c in changes} == {"seat 1", "the talon's second half"}


def test_near_duplicate_in_gandengyan_two_talon_cards_swapped_within_a_half():
    def swap(deal):
        deal["talon"][0], deal["talon"][1] = deal["talon"][1], deal["talon"][0]

    assert _near("gandengyan", swap) == [{"part": "the talon", "change": "order"}]
    recs = _fair(5, "gandengyan", 6)
    near = copy.deepcopy(recs[4])
    swap(near["deals"][0])
    (group,) = _kinds(_archive(recs + [near])[0], "duplicate", "near")
    assert "or by the talon's order" in str(group["message"])


def test_near_duplicate_in_gandengyan_between_two_hands():
    def swap(deal):
        deal["hands"][0][0], deal["hands"][3][1] = deal["hands"][3][1], deal["hands"][0][0]

    changes = _near("gandengyan", swap)
    assert {c["part"] for c in changes} == {"seat 0", "seat 3"}


def test_a_dealer_that_repeats_deals_gets_its_state_space_estimated():
    rng = random.Random(6)
    pool = [fair_deal(random.Random(k), "guandan") for k in range(40)]  # a 40-deal dealer
    recs = [
        record("guandan", [copy.deepcopy(rng.choice(pool))], [f"N{k}" for k in rng.sample(range(30), 4)])
        for _ in range(200)
    ]
    found, _ = _archive(recs)
    (space,) = _kinds(found, "duplicate", "state_space")
    assert space["range"][0] <= 40 <= space["range"][1] and space["deals"] == 200


def _event(round_, table, board, deal, **meta):
    return record(
        "guandan", [copy.deepcopy(deal)], meta={"event": "Cup", "round": round_, "table": table, "board": board, **meta}
    )


def test_identical_board_copies_are_no_duplicates():
    deal = fair_deal(random.Random(7), "guandan")
    found, _ = _archive([_event("1", str(t), "1", deal) for t in range(1, 5)])
    assert found == []


def test_a_fouled_board_is_named_by_majority():
    rng = random.Random(8)
    deal = fair_deal(rng, "guandan")
    fouled = copy.deepcopy(deal)
    fouled["hands"][0][0], fouled["hands"][1][0] = fouled["hands"][1][0], fouled["hands"][0][0]
    recs = [_event("1", "1", "3", deal), _event("1", "2", "3", fouled), _event("1", "3", "3", deal)]
    found, _ = _archive(recs)
    (board,) = _kinds(found, "board", "fouled")
    assert board["records"] == ["a.jsonl:2"] and board["members"][0]["table"] == "2" and board["board"] == "3"
    assert not _kinds(found, "duplicate", "same_deal")


def test_a_fouled_board_without_majority_names_every_copy():
    rng = random.Random(9)
    recs = [_event("1", str(t), "1", fair_deal(rng, "guandan")) for t in (1, 2)]
    (board,) = _kinds(_archive(recs)[0], "board", "fouled")
    assert board["records"] == ["a.jsonl:1", "a.jsonl:2"]


def test_boards_of_a_multi_deal_record_follow_on():
    rng = random.Random(10)
    first, second = fair_deal(rng, "guandan"), fair_deal(rng, "guandan")
    recs = [
        record("guandan", [first, second], meta={"event": "Cup", "round": "1", "table": str(t), "board": "5"})
        for t in (1, 2)
    ]
    recs[1]["deals"][1] = fair_deal(rng, "guandan")
    (board,) = _kinds(_archive(recs)[0], "board", "fouled")
    assert board["board"] == "6"


def test_a_board_reused_across_rounds():
    deal = fair_deal(random.Random(11), "guandan")
    found, _ = _archive([_event("1", "1", "2", deal), _event("1", "2", "2", deal), _event("3", "1", "7", deal)])
    (reused,) = _kinds(found, "board", "reused")
    assert reused["boards"] == [["1", "2"], ["3", "7"]] and not _kinds(found, "duplicate")


# ---------------------------------------------------------------- fair dealing


def test_the_distributions_are_exact():
    jokers = _hypergeometric_pmf(2, 2, 27)  # 4 jokers in 108 cards, a hand of 27
    assert sum(jokers) == pytest.approx(1) and sum(x * p for x, p in enumerate(jokers)) == pytest.approx(1.0)
    bombs = _bomb_pmf(1, 4, 54)  # the whole pack holds all 13 four-of-a-kinds
    assert bombs[13] == pytest.approx(1)
    bombs = _bomb_pmf(1, 3, 5)  # 5 of 54: 13 * C(4,3) * C(50,2) triplets, 13 * 50 fours
    assert bombs[1] == pytest.approx((13 * 4 * 1225 + 13 * 50) / 3162510)


def test_holm():
    assert _holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])


@pytest.mark.parametrize("game, replicates", [("guandan", 12), ("gouji", 6), ("gandengyan", 30)])
def test_fair_archives_flag_nothing(game, replicates):
    """Fair deals, players drawn from a pool, Gan Deng Yan's dealer anywhere: nothing flagged in any replicate
    (each one's false-alarm rate is 1%: over these replicates a flag would be a 1-in-3 event at worst)."""
    for seed in range(replicates):
        found, summary = _archive(_fair(100 + seed, game, 120))
        assert _kinds(found, "bias") == [] and summary["tests"] > 20


def _biased(game, n, seat_of, cards, chance, seed=0):
    rng = random.Random(seed)
    seats = SEATS[game]
    recs = []
    for i in range(n):
        dealer = rng.randrange(seats) if game == "gandengyan" else 0
        deal = favour(rng, fair_deal(rng, game, seats, dealer), seat_of(i, dealer), cards, chance)
        players = [f"N{k}" for k in rng.sample(range(10), seats)]
        recs.append(record(game, [deal], players))
    return recs


def _detectable(summary, game, target, count):
    return next(r for r in summary["detectable"] if (r["game"], r["target"], r["count"]) == (game, target, count))


def _gain(game, seat, cards) -> float:
    """The counted cards a seat gains on average each time `favour` swaps one in (measured on fair deals)."""
    rng = random.Random(99)
    total = 0
    for _ in range(2000):
        deal = fair_deal(rng, game, SEATS[game], seat)
        before = sum(c in cards for c in deal["hands"][seat])
        total += sum(c in cards for c in favour(rng, deal, seat, cards, 1.0)["hands"][seat]) - before
    return total / 2000


@pytest.mark.parametrize(
    "game, seat, cards, count",
    [
        ("guandan", 1, ("BJ", "RJ"), "jokers"),
        ("gouji", 4, ("AS", "AH", "AD", "AC"), "aces"),
        ("gandengyan", 2, ("2S", "2H", "2D", "2C"), "twos"),
    ],
)
def test_a_seat_biased_by_the_promised_size_is_found(game, seat, cards, count):
    """The summary promises the excess per deal a test finds with 99% power: planted at that size (one card
    swapped into the seat often enough), it is found."""
    fair = _archive(_fair(300, game, 400))[1]
    promised = _detectable(fair, game, "seat", count)["power_99"]
    found, _ = _archive(_biased(game, 400, lambda i, dealer: seat, cards, promised / _gain(game, seat, cards)))
    flagged = [(f["target"], f.get("seat"), f["count"]) for f in _kinds(found, "bias")]
    assert ("seat", seat, count) in flagged
    assert all(f["adjusted_p"] <= 0.01 for f in _kinds(found, "bias"))


def test_a_team_bias_is_found():
    found, _ = _archive(_biased("guandan", 400, lambda i, dealer: (0, 2)[i % 2], ("AS", "AH", "AD", "AC"), 0.5))
    assert ("team", 0, "aces") in [(f["target"], f.get("team"), f["count"]) for f in _kinds(found, "bias")]


def test_a_player_bias_is_found():
    rng = random.Random(12)
    recs = []
    for _ in range(300):
        names = [f"N{k}" for k in rng.sample(range(10), 4)]
        deal = fair_deal(rng, "guandan")
        if "N7" in names:
            deal = favour(rng, deal, names.index("N7"), ("BJ", "RJ"), 0.8)
        recs.append(record("guandan", [deal], names))
    found, _ = _archive(recs)
    assert ("player", "N7", "jokers") in [(f["target"], f.get("player"), f["count"]) for f in _kinds(found, "bias")]


def test_the_gandengyan_leader_holds_6_and_is_not_flagged_for_it():
    found, summary = _archive(_fair(13, "gandengyan", 600))
    assert _kinds(found, "bias") == [] and _detectable(summary, "gandengyan", "leader", "jokers")["deals"] == 600


# ---------------------------------------------------------------- the command


def test_the_command_json_lines_and_exit_status(tmp_path):
    recs = _fair(14, "guandan", 30)
    path = tmp_path / "a.jsonl.gz"
    path.write_bytes(gzip.compress(("\n".join(json.dumps(r) for r in recs + [recs[0]]) + "\n").encode()))
    shown = CliRunner().invoke(main, ["integrity", "--json", str(path)])
    lines = [json.loads(line) for line in shown.stdout.splitlines()]
    assert shown.exit_code == 1
    assert lines[0]["kind"] == "duplicate" and lines[0]["records"] == [f"{path}:1", f"{path}:31"]
    assert lines[-1]["kind"] == "summary" and lines[-1]["deals"] == 31 and isinstance(lines[0]["message"], str)
    text = CliRunner().invoke(main, ["integrity", str(path)])
    assert text.exit_code == 1 and f"{path}:31" in text.output and "Holm" in text.output


@pytest.mark.parametrize(
    "lang, says", [("en", ":7 deal 1: near, the talon in another order"), ("zh", ":7 第 1 局：近似、牌堆顺序不同")]
)
def test_the_text_counts_deals_from_1_and_names_what_differs(tmp_path, lang, says):
    recs = _fair(5, "gandengyan", 6)
    near = copy.deepcopy(recs[4])
    near["deals"][0]["talon"][:2] = near["deals"][0]["talon"][1::-1]
    path = tmp_path / "a.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in recs + [near]) + "\n")
    shown = CliRunner().invoke(main, ["--lang", lang, "integrity", str(path)])
    assert shown.exit_code == 1 and says in shown.output


def test_the_chinese_text_names_the_game_as_players_do():
    folder = Path(__file__).parent.parent / "samples" / "guandan"
    shown = CliRunner().invoke(main, ["--lang", "zh", "integrity", str(folder)])
    assert "重复：掼蛋：" in shown.output and "  掼蛋 座位 A（" in shown.output
    assert "guandan" not in shown.output.replace(str(folder), "")


def test_the_command_on_a_fair_archive_and_on_what_cannot_be_read(tmp_path):
    path = tmp_path / "fair.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in _fair(15, "gouji", 25)) + "\n")
    assert CliRunner().invoke(main, ["integrity", str(path)]).exit_code == 0
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"cgr": 1, "game"\n[1, 2]\n')
    shown = CliRunner().invoke(main, ["integrity", "--json", str(bad), str(tmp_path / "missing.jsonl")])
    assert shown.exit_code == 2 and "Traceback" not in shown.output


def test_records_that_are_no_deal_of_any_game_cost_nothing_and_break_nothing():
    base = _fair(16, "guandan", 1)[0]
    odd = [
        dict(base, deals=[dict(base["deals"][0], hands=[])]),
        dict(base, players=[f"P{i}" for i in range(300)], deals=[dict(base["deals"][0], hands=[["AS"]] * 300)]),
        dict(base, meta={"event": "E", "board": "²"}),
        dict(base, meta={"event": "E", "board": "9" * 5000}),
        dict(base, deals=[dict(base["deals"][0], hands=base["deals"][0]["hands"][:3])]),
        {"cgr": 1, "game": "guandan", "players": ["a"], "deals": "x"},
        "[" * 100000,
        '{"cgr": 1',
    ]
    _, summary = _archive(odd)
    assert summary["unreadable"] == 2 and summary["skipped_records"] == 2 and summary["uncounted"] == 2


@pytest.mark.parametrize("players", [256, 3000])
def test_a_record_of_far_more_players_than_seats_is_skipped_as_validate_refuses_it(players):
    base = _fair(17, "guandan", 1)[0]
    crowded = dict(base, players=[f"P{i}" for i in range(players)])  # four hands: only the players are too many
    findings, summary = _archive([crowded, base])
    assert summary["skipped_records"] == 1 and summary["deals"] == 1 and findings == []
