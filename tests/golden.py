"""The golden corpus: distinct generated records of every game, a third of them corrupted so that
findings of many rules appear, and the samples, each with the report the referee made of it when
the corpus was written (issue 20: the speed work must not change a single report).

Written once, by `python -m tests.golden` (tests/data/golden-reports.jsonl.gz: one line per record,
{"record": text, "report": report}); tests/test_golden_reports.py checks today's reports against it.
The golden Chinese reports (tests/data/golden-zh: one disputed sample of each game, validated and replayed
in Chinese) are written by `python -m tests.test_golden_zh`, when a change to the Chinese is meant.
"""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import orjson

from tests import gandengyan_gen, gouji_gen, guandan_gen

ROOT = Path(__file__).parent.parent
GOLDEN = Path(__file__).parent / "data" / "golden-reports.jsonl.gz"
SEED = 7 * 10**8  # far from the benchmark's seeds
CARDS = [r + s for r in "23456789TJQKA" for s in "SHDC"] + ["BJ", "RJ", "XX", "5", ""]
GDY_OPTIONS = [
    {},
    {"ace_multiplier": 2, "public_multipliers": True, "private_multipliers": True},
    {"decks": 2, "talon_limit_to_win": 5},
    {"triplet_is_bomb": False, "triplet_sequences": True},
    {"follow_equal_rank": True, "report_at": 3},
]


def guandan(seed: int) -> dict:
    if seed % 7 == 0:  # both wild cards and long runs in one hand
        hand = ["2H", "2H"] + [r + s for r in "345678" for s in "SD"] + [r + "C" for r in "9TJQK"]
        return guandan_gen.match_record(seed, max_deals=1, plan=[{"hands": [hand, [], [], []]}])
    return guandan_gen.match_record(seed, max_deals=1 + seed % 3)


def gandengyan(seed: int) -> dict:
    return gandengyan_gen.match_record(
        seed,
        seats=2 + seed % 5,
        deals=1 + seed % 3,
        options=GDY_OPTIONS[seed % len(GDY_OPTIONS)],
        preset=("pagat", "wenshan", "catsatcards")[seed % 3],
    )


def gouji(seed: int) -> dict:
    return gouji_gen.match_record(seed, deals=1 + seed % 2, arrange=gouji_gen.hoard_jokers if seed % 3 == 0 else None)


def _some_action(rng, record):
    deal = rng.choice(record["deals"])
    return deal, (rng.randrange(len(deal["actions"])) if deal.get("actions") else None)


def _replace_card(rng, record):
    deal, _ = _some_action(rng, record)
    plays = [a for a in deal.get("actions", []) if a.get("play")]
    if plays:
        play = rng.choice(plays)["play"]
        play[rng.randrange(len(play))] = rng.choice(CARDS)


def _pass_for_play(rng, record):
    deal, i = _some_action(rng, record)
    if i is not None:
        action = deal["actions"][i]
        if action.get("play"):
            deal["actions"][i] = {"seat": action["seat"], "pass": True}
        elif action.get("pass"):
            deal["actions"][i] = {"seat": action["seat"], "play": rng.sample(CARDS[:52], 1 + rng.randrange(3))}


def _play_from_hand(rng, record):
    """A play of cards the seat was dealt (held, unless played already): a wrong combination, a wrong
    follow, or a legal play out of its place."""
    deal = rng.choice(record["deals"])
    plays = [a for a in deal.get("actions", []) if a.get("play") and isinstance(a.get("seat"), int)]
    if plays and isinstance(deal.get("hands"), list):
        action = rng.choice(plays)
        hand = deal["hands"][action["seat"]]
        if rng.random() < 0.5:
            action["play"] = rng.sample(hand, min(len(hand), rng.choice([1, 2, 3, 4, 5, 6])))
        else:  # cards of one rank: a combination, often not one that may follow
            rank = rng.choice(hand)[0]
            action["play"] = [c for c in hand if c[0] == rank][: rng.choice([1, 2, 3, 4])]
        if rng.random() < 0.7:
            action.pop("as", None)


def _wrong_follow(rng, record):
    """A follow replaced by cards of one rank the seat still holds (tributes aside)."""
    deal = rng.choice(record["deals"])
    actions = deal.get("actions", [])
    follows = [i for i in range(1, len(actions)) if actions[i].get("play") and actions[i - 1].get("play")]
    if follows and isinstance(deal.get("hands"), list):
        i = rng.choice(follows)
        held = list(deal["hands"][actions[i]["seat"]])
        for action in actions[:i]:
            for card in action.get("play", []) if action["seat"] == actions[i]["seat"] else []:
                if card in held:
                    held.remove(card)
        rank = rng.choice(held or ["XX"])[0]
        actions[i] = {"seat": actions[i]["seat"], "play": [c for c in held if c[0] == rank][: rng.choice([1, 2, 3, 4])]}


def _drop_action(rng, record):
    deal, i = _some_action(rng, record)
    if i is not None:
        del deal["actions"][i]


def _swap_actions(rng, record):
    deal, i = _some_action(rng, record)
    if i is not None and i + 1 < len(deal["actions"]):
        deal["actions"][i], deal["actions"][i + 1] = deal["actions"][i + 1], deal["actions"][i]


def _move_seat(rng, record):
    deal, i = _some_action(rng, record)
    if i is not None:
        deal["actions"][i]["seat"] = rng.choice([0, 1, 2, 3, 5, 9, -1, "x", 1.5])


def _false_claim(rng, record):
    deal = rng.choice(record["deals"])
    result = deal.get("result", {})
    if "scores" in result:
        result["scores"][rng.randrange(len(result["scores"]))] += 1
    elif "order" in result:
        result["order"].reverse()
    if rng.random() < 0.5 and "result" in record:
        record["result"]["x"] = 1
        record["result"].pop(rng.choice(sorted(record["result"])), None)


def _bad_structure(rng, record):
    deal = rng.choice(record["deals"])
    key = rng.choice(sorted(deal))
    deal[key] = rng.choice([None, "x", [], 3])


CORRUPTIONS = [
    _replace_card,
    _play_from_hand,
    _wrong_follow,
    _wrong_follow,
    _wrong_follow,
    _pass_for_play,
    _drop_action,
    _swap_actions,
    _move_seat,
    _false_claim,
    _bad_structure,
]


def corrupted(seed: int, record: dict) -> dict:
    rng = random.Random(seed)
    for fault in sorted(rng.sample(CORRUPTIONS, 1 + rng.randrange(2)), key=CORRUPTIONS.index):  # structure last
        fault(rng, record)
    return record


def records() -> list[str]:
    """The corpus's record texts: per game 60 generated matches, every second corrupted, then the samples."""
    out = []
    for make in (guandan, gandengyan, gouji):
        for seed in range(SEED, SEED + 60):
            record = make(seed)
            out.append(orjson.dumps(corrupted(seed, record) if seed % 2 == 1 else record).decode())
    for path in sorted(ROOT.glob("samples/*/*.json")):
        out.append(path.read_text())
    return out


def report_of(text: str) -> dict:
    from referee.batch import check_one

    return check_one(text, "golden").as_dict()


def write():
    lines = [orjson.dumps({"record": text, "report": report_of(text)}) for text in records()]
    GOLDEN.write_bytes(gzip.compress(b"\n".join(lines) + b"\n", 9, mtime=0))


def read() -> list[dict]:
    return [orjson.loads(line) for line in gzip.decompress(GOLDEN.read_bytes()).splitlines()]


if __name__ == "__main__":
    write()
