"""Archive integrity (docs/integrity.md): what no record answers alone, asked of every deal of an
archive in one pass — duplicate deals, the boards of duplicate-format events, fair dealing.

The pass (`Archive.add`) keeps a few 64-bit keys per deal in compact arrays and adds up the fair-dealing
counts; the findings are made at the end (`Archive.findings`), grouping the keys with numpy (sorting, not
comparing deals pairwise). Archives read in parts (Dask partitions) are joined with `Archive.merge`.

Keys of a deal (hands as multisets, the talon in its order):
- exact: the deal itself; the same deal in two records;
- symmetric: the deal up to a rotation of the seats and a permutation of the suits, with the rotation and
  permutation that make it canonical (so that two members' relation can be said);
- blocks: additive multiset hashes of parts of the deal (each hand of 10 cards or more; otherwise all hands
  together, and each half of the talon), at least three: a card moved or two swapped change at most two,
  so near duplicates share the others, and the differences of their hashes name the cards.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import zlib
from array import array
from collections import Counter
from functools import cache
from statistics import NormalDist

import orjson

from .actions import CANONICAL
from .cards import CODES, ONE, RANKS, pack, parse_card, rank_code
from .findings import Finding
from .messages import Listing, Term, msg, word
from .notation import parse_json, players_finding, structure_findings
from .precheck import GAMES, accepts
from .replay import game_module, game_name
from .rules import resolve

FALSE_ALARM_RATE = 0.01  # family-wise, over every fair-dealing test of the archive (Holm's procedure)
POWERS = (0.90, 0.99)
MIN_DEALS = 20  # a group (seat, team, player, leader) is tested from this many deals on
EXACT_SUPPORT = 1 << 16  # a test's sum is distributed exactly up to this many values, else normally
BLOCK_HAND = 10  # a hand of this many cards or more is a block of its own (near duplicates)
MAX_HANDS = 6  # the most hands a game deals (notation §3)
MIN_REPEATS = 3  # pairs of equal deals from which the dealer's state space is estimated
NEAR_RUN = 16  # equal blocks: every pair compared up to this many deals, beyond it each with the first
_MASK = (1 << 64) - 1
_SUIT_MASKS = tuple(sum(0xF << (4 * (r * 4 + suit)) for r in range(13)) for suit in range(4))
_PERMUTATIONS = tuple(itertools.permutations(range(4)))
_NORMAL = NormalDist()

_JOKERS, _TWOS, _ACES = (52, 53), (0, 1, 2, 3), (48, 49, 50, 51)
# What fair dealing counts in a hand, per game: (name, the card ids counted; "level" the deal's level rank,
# "wild" its heart; or an int: the ranks held that many times or more, jokers aside). The games' words:
# jokers and wild cards (docs/rules/*.md, terms), Guandan's level (§1) and bombs (§2), Gan Deng Yan's 2
# above every rank and its triplet bombs (§2), Gou Ji's wild 2s (terms).
COUNTED = {
    "guandan": (
        ("jokers", _JOKERS),
        ("aces", _ACES),
        ("level cards", "level"),
        ("wild cards", "wild"),
        ("natural bombs", 4),
    ),
    "gouji": (("jokers", _JOKERS), ("wild cards", _TWOS + _JOKERS), ("aces", _ACES)),
    "gandengyan": (("jokers", _JOKERS), ("twos", _TWOS), ("natural bombs", 3)),
}
COUNT_WORDS = (
    word("jokers"),
    word("aces"),
    word("level cards"),
    word("wild cards"),
    word("natural bombs"),
    word("twos"),
)  # the counts' names, for the catalogue
KIND_WORDS = (word("duplicate"), word("board"), word("bias"))
TARGET_WORDS = (word("seat"), word("team"), word("player"), word("leader"))
TEAMS = {"guandan": 2, "gouji": 2}  # seat k is on team k mod 2 (notation §3)


def _card_hash(name: str) -> int:
    return int.from_bytes(hashlib.blake2b(name.encode(), digest_size=8).digest(), "big")


# a card's hash in a block, by the seat holding it where one block holds every hand (tag 0 elsewhere)
_H = tuple(tuple(_card_hash(f"{tag} {code}") for code in CODES) for tag in range(6))
_BLOCK_SALT = tuple(_card_hash(f"block {i}") for i in range(8))


@cache
def _deltas() -> dict[int, tuple]:
    """What a block's hash gains when one card moves or two are swapped: (tag, card, +1 in / -1 out) each."""
    table: dict[int, tuple] = {}
    cards = range(54)
    for t, u in itertools.product(range(6), repeat=2):
        for c in cards:
            table[_H[t][c]] = ((t, c, 1),)
            table[-_H[t][c] & _MASK] = ((t, c, -1),)
            if t != u:  # c from t to u
                table[(_H[u][c] - _H[t][c]) & _MASK] = ((t, c, -1), (u, c, 1))
            change: tuple[tuple[int, int, int], ...]
            for d in cards:
                if c == d or t > u:
                    continue
                gain, change = _H[t][d] - _H[t][c], ((t, c, -1), (t, d, 1))  # t gives c for d: in one part,
                if t != u:  # or to u, which gives d for c
                    gain, change = gain + _H[u][c] - _H[u][d], change + ((u, d, -1), (u, c, 1))
                table[gain & _MASK] = change
    return table


class Archive:
    """The state of one pass over an archive: compact per-deal keys, per-record keys, fair-dealing sums."""

    def __init__(self) -> None:
        self.files: list[str] = []
        self.records = {"key": array("q"), "raw": array("I"), "file": array("I"), "line": array("I")}
        self.deals = {
            "record": array("I"),
            "deal": array("I"),
            "game": array("B"),
            "exact": array("q"),
            "sym": array("q"),
            "turn": array("B"),
            "board": array("q"),
            "seats": array("B"),
            "hand_blocks": array("B"),
            **{f"block{i}": array("Q") for i in range(6)},
        }
        self.counts: dict[tuple, list] = {}  # (test, pmf) -> [deals, observed sum]
        self.boards: dict[tuple, list] = {}  # (event, round, board) -> [(table, deal row)]
        self.unreadable = self.skipped_records = self.uncounted = 0

    # ---------------------------------------------------------------- the pass

    def add_file(self, path: str, records) -> None:
        """Every (source, text or unreadable report) of one file, as batch.records_of gives them."""
        file = len(self.files)
        self.files.append(path)
        for source, item in records:
            line = int(source[len(path) + 1 :]) if len(source) > len(path) else 0
            if isinstance(item, str):
                self.add(item, file, line)
            else:
                self.unreadable += 1

    def add(self, text: str, file: int, line: int) -> None:
        record = parse_json(text)
        if isinstance(record, Finding):  # not JSON, as validate says it: unreadable
            self.unreadable += 1
            return
        if isinstance(record, dict) and (
            players_finding(record) or (not accepts(record, actions=False) and structure_findings(record))
        ):  # no record of its game, as validate says: far more players than seats, or another structure error
            record = None
        if not isinstance(record, dict) or not isinstance(record.get("deals"), list):
            self.skipped_records += 1
            return
        index = len(self.records["key"])
        self.records["key"].append(_key(orjson.dumps(record, option=orjson.OPT_SORT_KEYS)))  # re-serialised alike
        self.records["raw"].append(zlib.crc32(text.strip().encode()))  # byte-identical, among equal records
        self.records["file"].append(file)
        self.records["line"].append(line)
        game = game_module(record["game"])
        options = resolve(game, record.get("rules"))[0]["options"]
        for d, raw in enumerate(record["deals"]):
            self._add_deal(record, game, options, index, d, raw)

    def _add_deal(self, record, game, options, index, d, raw) -> None:
        if not 1 <= len(raw["hands"]) <= MAX_HANDS:  # no deal of any game: nothing to key or count
            self.uncounted += 1
            return
        hands = [_ids(hand) for hand in raw["hands"]]
        talon = _ids(raw["talon"]) if "talon" in raw else []
        seats = len(record["players"])
        sizes = tuple(map(len, hands))
        dealer = _dealer(game, options, seats, sizes)
        packed = [pack(hand) for hand in hands]
        rows = self.deals
        rows["record"].append(index)
        rows["deal"].append(d)
        rows["game"].append(GAMES.index(game.NAME))
        rows["exact"].append(_signed(hash((GAMES.index(game.NAME), *_words56(packed), -1, *talon))))
        symmetric, turn = _symmetric(packed, talon)
        rows["sym"].append(_signed(hash((GAMES.index(game.NAME), symmetric))))
        rows["turn"].append(turn)
        blocks, hand_blocks = _blocks(hands, talon)
        rows["seats"].append(seats)
        rows["hand_blocks"].append(hand_blocks)
        for i in range(6):
            rows[f"block{i}"].append(blocks[i] if i < len(blocks) else 0)
        rows["board"].append(self._board(record.get("meta", {}), d, len(rows["exact"]) - 1))
        if dealer is None or sum(packed) + pack(talon) != _full(game.deal_layout(options, seats, 0)[0]):
            self.uncounted += 1  # no deal of the game: its keys only (a card moved, say)
        else:
            self._count(record, game, options, raw, packed, sizes, dealer, d)

    def _board(self, meta: dict, d: int, row: int) -> int:
        """A deal's board in a duplicate-format event (`meta` event, round, board: the record's first deal's
        board; the next deals follow on), kept with its table; its key, or 0 for a deal that is no board."""
        board = meta.get("board")
        if board is None or "event" not in meta:
            return 0
        numbered = board.isdecimal() and len(board) < 10
        if d and not numbered:
            return 0
        name = str(int(board) + d) if numbered else board
        key = (meta["event"], meta.get("round", ""), name)
        self.boards.setdefault(key, []).append((meta.get("table", ""), row))
        return _key(repr(key).encode())

    def _count(self, record, game, options, raw, packed, sizes, dealer, d) -> None:
        """Adds the deal's fair-dealing counts: each seat's, each team's, each player's and the leader's."""
        name, players, counts = game.NAME, record["players"], self.counts
        level = _level(record, d) if name == "guandan" else None
        leader = raw.get("leader") if isinstance(raw.get("leader"), int) else dealer if name == "gandengyan" else None
        for label, counted, seat_pmfs, team_pmfs in _plan(name, game.deal_layout(options, 1, 0)[0], sizes, level):
            xs = [_count_of(hand, counted) for hand in packed]
            for seat, x in enumerate(xs):
                for test in ((name, "seat", seat, label), (name, "player", players[seat], label)) + (
                    ((name, "leader", None, label),) if seat == leader else ()
                ):
                    _add(counts, (test, seat_pmfs[seat]), x)
            for team, pmf in enumerate(team_pmfs):
                _add(counts, ((name, "team", team, label), pmf), sum(xs[team :: len(team_pmfs)]))

    def merge(self, other: Archive) -> Archive:
        """This archive and `other` (read after it) as one."""
        files, records = len(self.files), len(self.records["key"])
        self.files += other.files
        for name, values in other.records.items():
            self.records[name].extend(array("I", (v + files for v in values)) if name == "file" else values)
        rows = len(self.deals["exact"])
        for name, values in other.deals.items():
            self.deals[name].extend(array("I", (v + records for v in values)) if name == "record" else values)
        for key, (deals, x) in other.counts.items():
            _add(self.counts, key, x, deals)
        for key, copies in other.boards.items():
            self.boards.setdefault(key, []).extend((table, row + rows) for table, row in copies)
        self.unreadable += other.unreadable
        self.skipped_records += other.skipped_records
        self.uncounted += other.uncounted
        return self

    # ---------------------------------------------------------------- the findings

    def findings(self) -> tuple[list[dict], dict]:
        """(findings, summary): duplicates, boards and biases, each a dict with `kind`, the records it names
        and a `message` (a Msg); the summary counts records, deals and tests."""
        import numpy as np

        deals = {
            name: np.frombuffer(values, dtype=values.typecode) if len(values) else np.array([], values.typecode)
            for name, values in self.deals.items()
        }
        records = {name: np.array(values) for name, values in self.records.items()}
        found = self._same_records(records)
        first_record = _firsts(records["key"], np)
        kept = np.flatnonzero(first_record[deals["record"]]) if len(deals["record"]) else np.array([], int)
        found += self._same_deals(deals, kept, np)
        found += self._symmetric_deals(deals, kept, np)
        found += self._near_deals(deals, kept, np)
        found += self._state_spaces(deals, kept, np)
        found += self._board_findings(deals)
        biases, tests = self._biases()
        found += biases
        summary = {
            "kind": "summary",
            "records": len(records["key"]) + self.skipped_records + self.unreadable,
            "deals": len(deals["exact"]),
            "skipped_records": self.skipped_records,
            "uncounted": self.uncounted,
            "unreadable": self.unreadable,
            "tests": len(tests),
            "false_alarm_rate": FALSE_ALARM_RATE,
            "correction": "holm",
            "detectable": _detectable(tests),
            "findings": dict(Counter(f["kind"] for f in found)),
        }
        return found, summary

    def _name(self, record: int) -> str:
        """A record as `validate` names it: file:line in JSON Lines, the file for one JSON document."""
        line = self.records["line"][record]
        return (
            f"{self.files[self.records['file'][record]]}:{line}" if line else self.files[self.records["file"][record]]
        )

    def _member(self, deals, row: int) -> dict:
        return {"record": self._name(int(deals["record"][row])), "deal": int(deals["deal"][row])}

    def _same_records(self, records) -> list[dict]:
        found = []
        for group in _groups(records["key"]):
            first = group[0]
            members = [
                {
                    "record": self._name(int(r)),
                    "relation": "first"
                    if r == first
                    else "byte-identical"
                    if records["raw"][r] == records["raw"][first]
                    else "re-serialised",
                }
                for r in group
            ]
            found.append(
                {
                    "kind": "duplicate",
                    "relation": "same_record",
                    "records": [m["record"] for m in members],
                    "members": members,
                    "message": msg("the same record {n} times", n=len(group)),
                }
            )
        return found

    def _same_deals(self, deals, kept, np) -> list[dict]:
        found = []
        for group in _groups(deals["exact"][kept]):
            rows = kept[group]
            boards = set(deals["board"][rows].tolist())
            if 0 not in boards:  # board copies: the board checks' part
                continue
            members = [self._member(deals, int(row)) for row in rows]
            found.append(
                {
                    "kind": "duplicate",
                    "relation": "same_deal",
                    "records": _records_of(members),
                    "members": members,
                    "message": msg("the same deal in {n} places", n=len(members)),
                }
            )
        return found

    def _symmetric_deals(self, deals, kept, np) -> list[dict]:
        distinct = kept[_firsts(deals["exact"][kept], np)]
        found = []
        for group in _groups(deals["sym"][distinct]):
            rows = distinct[group]
            first = int(rows[0])
            members = [dict(self._member(deals, int(row)), **_relation(deals, first, int(row))) for row in rows]
            found.append(
                {
                    "kind": "duplicate",
                    "relation": "symmetric",
                    "records": _records_of(members),
                    "members": members,
                    "message": msg(
                        "the same deal with the seats rotated or the suits permuted, in {n} places", n=len(members)
                    ),
                }
            )
        return found

    def _near_deals(self, deals, kept, np) -> list[dict]:
        distinct = kept[_firsts(deals["sym"][kept], np)]
        pairs: set[tuple[int, int]] = set()
        for i in range(6):
            for group in _groups(deals[f"block{i}"][distinct], skip_zero=True):
                rows = distinct[group].tolist()
                pairs.update(
                    itertools.combinations(rows, 2) if len(rows) <= NEAR_RUN else ((rows[0], row) for row in rows[1:])
                )
        parent: dict[int, int] = {}
        changed: dict[int, tuple[int, list[dict]]] = {}  # deal b -> (deal a, how b differs from it)
        for a, b in sorted(pairs):
            changes = _moved(deals, a, b)
            if changes is not None:
                parent[_root(parent, b)] = _root(parent, a)
                changed.setdefault(b, (a, changes))
        groups: dict[int, list[int]] = {}
        for row in sorted({*parent, *parent.values()}):
            groups.setdefault(_root(parent, row), []).append(row)
        found = []
        for first, rows in groups.items():
            members = [
                dict(self._member(deals, row), relation="first")
                if row == first
                else dict(
                    self._member(deals, row),
                    relation="near",
                    of=self._member(deals, changed[row][0]),
                    changes=changed[row][1],
                )
                for row in rows
            ]
            found.append(
                {
                    "kind": "duplicate",
                    "relation": "near",
                    "records": _records_of(members),
                    "members": members,
                    "message": _near_message(members),
                }
            )
        return found

    def _state_spaces(self, deals, kept, np) -> list[dict]:
        """The birthday bound: k deals drawn from S equally likely ones repeat in about k²/2S pairs; a fair
        dealer's S is beyond any archive, so every repeat speaks of a smaller one: S ≈ k(k-1)/2 / pairs."""
        found = []
        plain = kept[deals["board"][kept] == 0]
        for g, name in enumerate(GAMES):
            rows = plain[deals["game"][plain] == g]
            pairs = sum(len(group) * (len(group) - 1) // 2 for group in _groups(deals["exact"][rows]))
            if pairs < MIN_REPEATS:
                continue
            k = len(rows)
            space = k * (k - 1) / 2 / pairs
            low, high = (
                k * (k - 1) / 2 / (pairs + 2 * math.sqrt(pairs)),
                k * (k - 1) / 2 / max(pairs - 2 * math.sqrt(pairs), 0.5),
            )
            found.append(
                {
                    "kind": "duplicate",
                    "relation": "state_space",
                    "game": name,
                    "records": [],
                    "deals": k,
                    "repeated_pairs": pairs,
                    "state_space": round(space),
                    "bits": round(math.log2(space), 1),
                    "range": [round(low), round(high)],
                    "message": msg(
                        "{game}: {pairs} pairs of equal deals among {k}: the dealer seems to draw "
                        "from about {space:,.0f} deals (2^{bits:.1f}; a fair shuffle from more than "
                        "2^100)",
                        game=game_name(name),
                        pairs=pairs,
                        k=k,
                        space=space,
                        bits=math.log2(space),
                    ),
                }
            )
        return found

    def _board_findings(self, deals) -> list[dict]:
        found: list[dict] = []
        played: dict[tuple, set[tuple]] = {}  # (event, deal key) -> {(round, board)}
        for (event, round_, board), copies in self.boards.items():
            keys = [int(deals["exact"][row]) for _, row in copies]
            for key in set(keys):
                played.setdefault((event, key), set()).add((round_, board))
            tally = Counter(keys)
            if len(tally) < 2:
                continue
            ((majority, most),) = tally.most_common(1)
            clear = list(tally.values()).count(most) == 1
            odd = [(table, row) for (table, row), key in zip(copies, keys) if key != majority or not clear]
            members = [
                dict(self._member(deals, row), table=table, relation="odd" if clear else "differs")
                for table, row in odd
            ]
            message = (
                msg(
                    "{event} round {round} board {board}: the copy at table {tables} differs from the one "
                    "{n} of {m} tables played",
                    event=event,
                    round=round_,
                    board=board,
                    tables=", ".join(str(t) for t, _ in odd),
                    n=most,
                    m=len(copies),
                )
                if clear
                else msg(
                    "{event} round {round} board {board}: the tables' copies differ, and no copy has a majority",
                    event=event,
                    round=round_,
                    board=board,
                )
            )
            found.append(
                {
                    "kind": "board",
                    "relation": "fouled",
                    "event": event,
                    "round": round_,
                    "board": board,
                    "records": _records_of(members),
                    "members": members,
                    "message": message,
                }
            )
        for (event, _), boards in played.items():
            if len({round_ for round_, _ in boards}) > 1 or len(boards) > 1:
                named = sorted(boards)
                members = [
                    dict(self._member(deals, row), round=round_, board=board, table=table)
                    for round_, board in named
                    for table, row in self.boards[(event, round_, board)][:1]
                ]
                found.append(
                    {
                        "kind": "board",
                        "relation": "reused",
                        "event": event,
                        "boards": [list(b) for b in named],
                        "records": _records_of(members),
                        "members": members,
                        "message": msg(
                            "{event}: one deal is played as {boards}",
                            event=event,
                            boards=Listing([msg("round {round} board {board}", round=r, board=b) for r, b in named]),
                        ),
                    }
                )
        return found

    def _biases(self) -> tuple[list[dict], list[dict]]:
        tests = []
        grouped: dict[tuple, list] = {}
        for (test, pmf), (n, x) in self.counts.items():
            entry = grouped.setdefault(test, [0, Counter()])
            entry[0] += x
            entry[1][pmf] += n
        for (game, target, who, label), (x, pmfs) in sorted(grouped.items(), key=lambda item: repr(item[0])):
            deals = sum(pmfs.values())
            if deals < MIN_DEALS:
                continue
            mean, variance = _moments(pmfs)
            if variance <= 0:
                continue
            tests.append(
                {
                    "game": game,
                    "target": target,
                    "who": who,
                    "count": label,
                    "deals": deals,
                    "observed": x,
                    "expected": mean,
                    "variance": variance,
                    "statistic": (x - mean) / math.sqrt(variance),
                    "p": _p_value(pmfs, x, mean, variance),
                }
            )
        for test, adjusted in zip(tests, _holm([t["p"] for t in tests])):
            test["adjusted_p"] = adjusted
        found = []
        for t in tests:
            if t["adjusted_p"] > FALSE_ALARM_RATE:
                continue
            target = {
                "seat": msg("seat {seat}", seat=t["who"]),
                "team": msg("team {team}", team=t["who"]),
                "player": msg("player {player}", player=t["who"]),
                "leader": msg("the leader"),
            }[t["target"]]
            finding = {
                "kind": "bias",
                "game": t["game"],
                "target": t["target"],
                "count": t["count"],
                "deals": t["deals"],
                "observed": t["observed"],
                "expected": round(t["expected"], 3),
                "statistic": round(t["statistic"], 3),
                "p": t["p"],
                "adjusted_p": t["adjusted_p"],
                "records": [],
                "message": msg(
                    "{game}, {target}: {observed} {count} in {deals} deals where a fair deal gives "
                    "{expected:.1f} on average (z = {z:+.2f}, adjusted p = {p:.2g})",
                    game=game_name(t["game"]),
                    target=target,
                    observed=t["observed"],
                    count=Term(t["count"]),
                    deals=t["deals"],
                    expected=t["expected"],
                    z=t["statistic"],
                    p=t["adjusted_p"],
                ),
            }
            if t["target"] in ("seat", "team", "player"):
                finding[t["target"]] = t["who"]
            found.append(finding)
        return found, tests


# ---------------------------------------------------------------- keys of a deal


def _key(data: bytes) -> int:
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big", signed=True)


def _signed(value: int) -> int:
    return (value + (1 << 63)) % (1 << 64) - (1 << 63)


def _words56(packed: list[int]):
    """The packed hands in 56-bit pieces: Python hashes an int below 2^61 as itself, a larger one modulo
    2^61 - 1, where hands of many equal cards could meet."""
    for hand in packed:
        while True:
            yield hand & _M56
            hand >>= 56
            if not hand:
                break
        yield -1


_M56 = (1 << 56) - 1


def _ids(codes: list[str]) -> list[int]:
    try:
        return list(map(CANONICAL.__getitem__, codes))
    except KeyError:  # an alias (10H, 2s): every code is a card, the record's structure being checked
        return [card for card in map(parse_card, codes) if card is not None]


@cache
def _full(packs: int) -> int:
    return packs * sum(ONE)


_DEALERS: dict = {}


def _dealer(game, options, seats, sizes) -> int | None:
    """The seat dealt first (Gan Deng Yan: the seat dealt 6; 0 where every seat gets as many) for hands of
    these sizes, as the game's layout deals them; None for sizes no deal has."""
    key = (game.NAME, seats, options.get("decks"), sizes)
    if key not in _DEALERS:
        _DEALERS[key] = next((d for d in range(seats) if _layout_sizes(game, options, seats, d) == sizes), None)
    return _DEALERS[key]


def _layout_sizes(game, options, seats, dealer) -> tuple[int, ...]:
    sizes = [0] * seats
    for seat, size in game.deal_layout(options, seats, dealer)[1]:
        sizes[seat] = size
    return tuple(sizes)


def _symmetric(packed: list[int], talon: list[int]) -> tuple[tuple, int]:
    """The deal's canonical form up to seat rotations and suit permutations, and which rotation and
    permutation give it (rotation * 24 + permutation index)."""
    seats = len(packed)
    columns = [[(hand & mask) >> (4 * suit) for suit, mask in enumerate(_SUIT_MASKS)] for hand in packed]
    jokers = [hand >> (4 * 52) for hand in packed]
    in_talon = [tuple((at, c >> 2) for at, c in enumerate(talon) if c < 52 and c & 3 == suit) for suit in range(4)]
    talon_jokers = tuple((at, c) for at, c in enumerate(talon) if c >= 52)
    # the rotations that put the seats' own suit-free forms least first; more than one only for a symmetric deal
    own = [(tuple(sorted(columns[s])), jokers[s]) for s in range(seats)]
    turned = [own[turn:] + own[:turn] for turn in range(seats)]
    least = min(turned)
    best: tuple[tuple, int] | None = None
    for turn in (turn for turn in range(seats) if turned[turn] == least):
        order = [(turn + s) % seats for s in range(seats)]
        suits = [(tuple(columns[s][suit] for s in order), in_talon[suit]) for suit in range(4)]
        permutation = tuple(sorted(range(4), key=suits.__getitem__))
        form = (tuple(suits[u] for u in permutation), tuple(jokers[s] for s in order), talon_jokers)
        if best is None or form < best[0]:
            best = (form, turn * 24 + _PERMUTATIONS.index(permutation))
    assert best is not None  # the least rotation is one of them
    return best


def _blocks(hands: list[list[int]], talon: list[int]) -> tuple[list[int], int]:
    """The deal's blocks (module docstring), additive hashes each with its block's salt, and how many of
    them are hands: each hand one, or all in one (its cards hashed by seat) where hands are small."""
    own = _H[0].__getitem__
    if min(map(len, hands)) >= BLOCK_HAND:
        sums = [sum(map(own, hand)) for hand in hands]
    else:
        sums = [sum(sum(map(_H[seat].__getitem__, hand)) for seat, hand in enumerate(hands))]
    hand_blocks = len(sums)
    if talon:
        half = len(talon) // 2
        sums += [sum(map(own, talon[:half])), sum(map(own, talon[half:]))]
    return [(total + _BLOCK_SALT[i]) & _MASK for i, total in enumerate(sums)], hand_blocks


def _part(block: int, tag: int, hand_blocks: int) -> dict:
    """The part of the deal a card's change in a block is in: a seat ("seat 2", and the seat), or a half of the
    talon (a word of the catalogue, which the command shows in its language)."""
    if block < hand_blocks:
        seat = block if hand_blocks > 1 else tag
        return {"part": f"seat {seat}", "seat": seat}
    return {"part": word("the talon's first half") if block == hand_blocks else word("the talon's second half")}


def _near_message(members: list[dict]):
    """What a group of near duplicates is: one card moved or two swapped, or a talon in another order too."""
    if any(change["change"] == "order" for member in members for change in member.get("changes", ())):
        return msg(
            "near duplicates: {n} deals that differ from the first by one card moved or two swapped, or by the "
            "talon's order",
            n=len(members),
        )
    return msg("near duplicates: {n} deals that differ from the first by one card moved or two swapped", n=len(members))


def _moved(deals, a: int, b: int) -> list[dict] | None:
    """How deal b differs from deal a by one card moved or two swapped, as (block, cards in, cards out) for
    each block that differs; None when the two are not so related (another game, more blocks differ, or
    their hashes' differences are no such change)."""
    if deals["game"][a] != deals["game"][b]:
        return None
    width = sum(1 for i in range(6) if deals[f"block{i}"][a])
    differ = [i for i in range(width) if deals[f"block{i}"][a] != deals[f"block{i}"][b]]
    if len(differ) > 2 or width < 3:
        return None
    if not differ:  # every block alike, the deals not: the talon's cards in another order within its halves
        return [{"part": word("the talon"), "change": "order"}]
    hand_blocks, changes, moved = int(deals["hand_blocks"][a]), [], Counter[int]()
    for i in differ:
        delta = (int(deals[f"block{i}"][b]) - int(deals[f"block{i}"][a])) & _MASK
        found = _deltas().get(delta)
        if found is None:
            return None
        for tag, card, sign in found:
            moved[card] += sign
            changes.append({**_part(i, tag, hand_blocks), "card": CODES[card], "change": "in" if sign > 0 else "out"})
    return changes if not any(moved.values()) else None


def _relation(deals, first: int, row: int) -> dict:
    """How a deal relates to the group's first: the seats rotated by `rotation` (seat s of the first is seat
    s + rotation here) and the suits mapped first -> here."""
    if row == first:
        return {"relation": "first"}
    turn_a, perm_a = divmod(int(deals["turn"][first]), 24)
    turn_b, perm_b = divmod(int(deals["turn"][row]), 24)
    seats = int(deals["seats"][first])
    mapping = {"SHDC"[_PERMUTATIONS[perm_a][i]]: "SHDC"[_PERMUTATIONS[perm_b][i]] for i in range(4)}
    rotation = (turn_b - turn_a) % seats
    suits = {k: v for k, v in mapping.items() if k != v}
    relation = (
        "rotated"
        if rotation and not suits
        else "suits_permuted"
        if suits and not rotation
        else "rotated_and_suits_permuted"
    )
    return {"relation": relation, "rotation": rotation, "suits": suits}


def _root(parent: dict, row: int) -> int:
    while parent.get(row, row) != row:
        row = parent[row]
    return row


def _records_of(members: list[dict]) -> list[str]:
    return list(dict.fromkeys(m["record"] for m in members))


def _firsts(values, np):
    """A mask (or the indices, for a kept subset) of the first of each value."""
    if not len(values):
        return np.zeros(0, bool)
    _, first = np.unique(values, return_index=True)
    mask = np.zeros(len(values), bool)
    mask[first] = True
    return mask


def _groups(values, skip_zero: bool = False) -> list:
    """The positions of each value held more than once, the groups in the order of their first."""
    import numpy as np

    if len(values) < 2:
        return []
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts = np.concatenate(([0], np.flatnonzero(ordered[1:] != ordered[:-1]) + 1))
    ends = np.append(starts[1:], len(values))
    held = np.flatnonzero(ends - starts > 1)  # only these become Python objects
    runs = [
        np.sort(order[start:end])
        for start, end in zip(starts[held].tolist(), ends[held].tolist())
        if not (skip_zero and ordered[start] == 0)
    ]
    return sorted(runs, key=lambda run: run[0])


def _level(record: dict, d: int) -> int | None:
    """The level rank of a Guandan deal where the record says it without a replay: its first deal, at the
    start's level of the team playing, or 2 in a fresh match (rules/guandan.md §1)."""
    if d:
        return None
    start = record.get("start") or {}
    levels = start.get("levels")
    if not levels:
        return 0 if not start else None
    return RANKS.index(rank_code(levels[start.get("playing", 0)]))


# ---------------------------------------------------------------- counts and their distributions


def _add(counts: dict, key: tuple, x: int, deals: int = 1) -> None:
    entry = counts.get(key)
    if entry is None:
        counts[key] = [deals, x]
    else:
        entry[0] += deals
        entry[1] += x


@cache
def _plan(game: str, packs: int, sizes: tuple[int, ...], level: int | None) -> list[tuple]:
    """What a deal of these hand sizes counts: (name, cards or bomb size, each seat's distribution, each
    team's), the distributions exact (hypergeometric, or by rank for bombs) for each hand's own size."""
    plan: list[tuple] = []
    for label, what in COUNTED[game]:
        counted = (
            tuple(range(4 * level, 4 * level + 4))
            if what == "level" and level is not None
            else (4 * level + 1,)
            if what == "wild" and level is not None
            else what
        )
        if isinstance(counted, str):
            continue
        if isinstance(counted, int):
            plan.append((label, counted, [_bomb_pmf(packs, counted, size) for size in sizes], []))
            continue
        teams = TEAMS.get(game, 0)
        plan.append(
            (
                label,
                counted,
                [_hypergeometric_pmf(packs, len(counted), size) for size in sizes],
                [_hypergeometric_pmf(packs, len(counted), sum(sizes[team::teams])) for team in range(teams)],
            )
        )
    return plan


def _count_of(hand: int, counted) -> int:
    """The counted cards of a packed hand, or its ranks held `counted` times or more (a rank's four cards
    added up in one slot: at most 8 in Guandan, 4 in Gan Deng Yan, so no slot overflows)."""
    if isinstance(counted, int):
        ranks = hand + (hand >> 4) + (hand >> 8) + (hand >> 12)
        return sum(1 for r in range(13) if (ranks >> (16 * r)) & 15 >= counted)
    return sum((hand >> (4 * card)) & 7 for card in counted)


@cache
def _hypergeometric_pmf(packs: int, kinds: int, hand: int) -> tuple[float, ...]:
    """The chance of each count of `kinds` card ids (each `packs` times in the deck) in a hand of `hand`."""
    total, good = 54 * packs, kinds * packs
    ways = math.comb(total, hand)
    return tuple(math.comb(good, x) * math.comb(total - good, hand - x) / ways for x in range(min(good, hand) + 1))


@cache
def _bomb_pmf(packs: int, size: int, hand: int) -> tuple[float, ...]:
    """The chance of each number of ranks held `size` times or more in a hand of `hand` (a count over the
    13 ranks of 4 * packs cards each, the jokers the rest of the deck), exactly: hands counted by rank."""
    copies, jokers = 4 * packs, 2 * packs
    ways = {(0, 0): 1}  # (cards taken, bombs) -> hands
    for _ in range(13):
        after: dict = {}
        for (taken, bombs), n in ways.items():
            for x in range(min(copies, hand - taken) + 1):
                key = (taken + x, bombs + (x >= size))
                after[key] = after.get(key, 0) + n * math.comb(copies, x)
        ways = after
    counts = [0] * 14
    for (taken, bombs), n in ways.items():
        if hand - taken <= jokers:
            counts[bombs] += n * math.comb(jokers, hand - taken)
    total = math.comb(54 * packs, hand)
    while len(counts) > 1 and counts[-1] == 0:
        counts.pop()
    return tuple(c / total for c in counts)


def _moments(pmfs: Counter) -> tuple[float, float]:
    mean = variance = 0.0
    for pmf, n in pmfs.items():
        m = sum(x * p for x, p in enumerate(pmf))
        mean += n * m
        variance += n * (sum(x * x * p for x, p in enumerate(pmf)) - m * m)
    return mean, variance


def _p_value(pmfs: Counter, x: int, mean: float, variance: float) -> float:
    """Two-sided: twice the smaller tail of the sum's distribution, exact (the counts' distributions
    convolved, by FFT) where its support is small enough, else normal with a continuity correction."""
    support = sum(n * (len(pmf) - 1) for pmf, n in pmfs.items()) + 1
    if support > EXACT_SUPPORT:
        z = max(abs(x - mean) - 0.5, 0) / math.sqrt(variance)
        return min(1.0, 2 * _NORMAL.cdf(-z))
    import numpy as np

    size = 1 << (support - 1).bit_length()
    spectrum = np.ones(size // 2 + 1, complex)
    for pmf, n in pmfs.items():
        spectrum *= np.fft.rfft(np.array(pmf), size) ** n
    total = np.clip(np.fft.irfft(spectrum, size)[:support], 0, None)
    return float(min(1.0, 2 * min(total[: x + 1].sum(), total[x:].sum())))


def _holm(ps: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values: the family-wise error rate holds at any level."""
    order = sorted(range(len(ps)), key=ps.__getitem__)
    adjusted, running = [1.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        adjusted[i] = running
    return adjusted


def _detectable(tests: list[dict]) -> list[dict]:
    """The smallest excess per deal each kind of test would find with 90% and 99% power, at the corrected
    level (Bonferroni's, Holm's first step): (z_critical + z_power) standard deviations of the sum."""
    if not tests:
        return []
    critical = _NORMAL.inv_cdf(1 - FALSE_ALARM_RATE / 2 / len(tests))
    shown = []
    for (game, target, label), group in itertools.groupby(
        sorted(tests, key=lambda t: (t["game"], t["target"], t["count"], t["deals"])),
        key=lambda t: (t["game"], t["target"], t["count"]),
    ):
        largest = list(group)[-1]
        sd = math.sqrt(largest["variance"])
        shown.append(
            {
                "game": game,
                "target": target,
                "count": label,
                "deals": largest["deals"],
                **{
                    f"power_{round(power * 100)}": round((critical + _NORMAL.inv_cdf(power)) * sd / largest["deals"], 4)
                    for power in POWERS
                },
            }
        )
    return shown


def check_paths(paths, records_of) -> tuple[list[dict], dict]:
    """The findings and summary of the files `paths`, read with `records_of` (batch.records_of)."""
    from .batch import shown_path

    archive = Archive()
    for path in paths:
        archive.add_file(shown_path(path) if path != "-" else "<stdin>", records_of(path))
    return archive.findings()
