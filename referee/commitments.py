"""Committed deals (notation §11): a deal's commitment, opened by a salt or by a seed, and the deal a
seed gives. Game-neutral: each game's module says how many packs it deals and in which order the
seats take their cards (`deal_layout`).

Platforms make committed deals with `committed_deal` (or `referee deal`); `validate` checks every
deal that carries a `commit` with `commitment_findings`.
"""

from __future__ import annotations

from .cards import CODES, parse_card
from .findings import ERROR, WARNING, Finding, Listed, pointer
from .messages import Cards, msg

SHUFFLE = "cgr-fy-sha256/1"
_WORD = 1 << 64


def _hashlib():
    """hashlib, imported when a deal is first hashed: start-up does without it (a few ms)."""
    import hashlib

    return hashlib


def _sha256(lines: list[str]) -> str:
    """`sha256:` and the digest of the lines, each ended with a line feed (notation §11)."""
    return "sha256:" + _hashlib().sha256("".join(line + "\n" for line in lines).encode()).hexdigest()


def salt_commitment(game: str, salt: str, hands: list[list[str]], talon: list[str] | None = None) -> str:
    """The salt form's commitment to a deal (canonical card codes): each hand sorted by byte order, the
    talon top first."""
    lines = ["cgr-deal/1", f"game:{game}", f"salt:{salt}"]
    lines += [f"{seat}:" + " ".join(sorted(hand)) for seat, hand in enumerate(hands)]
    if talon is not None:
        lines.append("talon:" + " ".join(talon))
    return _sha256(lines)


def seed_commitment(seed: str) -> str:
    return _sha256(["cgr-seed/1", f"seed:{seed}"])


def shuffled_deck(game: str, seed: str, beacon: str, packs: int) -> list[str]:
    """The deck in order (per pack: 2 … A each in S H D C, then BJ RJ), shuffled by Fisher–Yates with
    uniform draws from the SHA-256 stream of the seed's key."""
    deck = [code for _ in range(packs) for code in CODES]
    key = _hashlib().sha256(f"cgr-shuffle/1\ngame:{game}\nseed:{seed}\nbeacon:{beacon}\n".encode()).digest()
    words = _words(key)
    for i in range(len(deck) - 1, 0, -1):
        j = _uniform(words, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _words(key: bytes):
    """64-bit words: for counter 0, 1, 2, … the SHA-256 of the key and the counter (8 bytes big-endian),
    read as four big-endian words."""
    counter, sha256 = 0, _hashlib().sha256
    while True:
        digest = sha256(key + counter.to_bytes(8, "big")).digest()
        for at in range(0, 32, 8):
            yield int.from_bytes(digest[at : at + 8], "big")
        counter += 1


def _uniform(words, n: int) -> int:
    """A uniform draw from 0 … n-1: the next word, rejected while it falls in the last, partial run of n."""
    limit = _WORD - _WORD % n
    while (word := next(words)) >= limit:
        pass
    return word % n


def seed_deal(
    game, options: dict, seats: int, dealer: int, seed: str, beacon: str = ""
) -> tuple[list[list[str]], list[str] | None]:
    """(hands in seat order, talon top first or None) that the seed deals, in the order the game's
    `deal_layout` gives (`game` is its module, `dealer` the seat dealt first where the game has one)."""
    packs, layout = game.deal_layout(options, seats, dealer)
    deck = shuffled_deck(game.NAME, seed, beacon, packs)
    hands: list[list[str]] = [[] for _ in range(seats)]
    at = 0
    for seat, size in layout:
        hands[seat] = deck[at : at + size]
        at += size
    return hands, deck[at:] or None


def committed_deal(
    game,
    seed: str,
    seats: int,
    dealer: int = 0,
    options: dict | None = None,
    beacon: str | None = None,
    salt: str | None = None,
) -> dict:
    """A deal with its commitment, for a platform (notation §11): the deal the seed gives (`seed`: 64 or
    more hex digits, kept secret until the deal is played; `beacon`: a public value fixed after the
    commitment is published), committed in the seed form, or in the salt form when a `salt` (32 or more
    hex digits) is given. `game` is the game's module (replay.game_module), `options` its rules' options
    (the defaults when None), `dealer` the seat dealt first in Gan Deng Yan. Publish `commit` before
    play; `reveal` opens it afterwards."""
    options = options if options is not None else {name: option.default for name, option in game.OPTIONS.items()}
    hands, talon = seed_deal(game, options, seats, dealer, seed, beacon or "")
    deal: dict = {"hands": hands}
    if talon is not None:
        deal["talon"] = talon
    deal["actions"] = []
    if salt is not None:
        deal.update(commit=salt_commitment(game.NAME, salt, hands, talon), reveal={"salt": salt})
        return deal
    reveal = {"seed": seed, "shuffle": SHUFFLE}
    if beacon is not None:
        reveal["beacon"] = beacon
    deal.update(commit=seed_commitment(seed), reveal=reveal)
    return deal


def commitment_findings(game, record: dict, options: dict) -> list[Finding]:
    """A finding for each deal of a record (which follows the schema) whose commitment does not open, or
    has no reveal. Deals without `commit` cost a look-up."""
    if not any("commit" in deal for deal in record["deals"]):
        return []
    found = Listed(msg("commitments that do not open"))
    seats = len(record["players"])
    for d, deal in enumerate(record["deals"]):
        if "commit" in deal:
            problem = _problem(game, deal, options, seats)
            if problem:
                severity, rule, path, message = problem
                found.add(Finding, severity, rule, pointer("deals", d, *path), message, None, d)
    return found.closed()


def _codes(cards: list[str]) -> list[str]:
    """The cards' canonical codes (the record follows the schema: each is a card's code or alias)."""
    return [CODES[card] for card in map(parse_card, cards) if card is not None]


def _problem(game, deal: dict, options: dict, seats: int):
    """(severity, rule, path in the deal, message) of a commitment that does not open, or None."""
    reveal, commit = deal.get("reveal"), deal["commit"]
    if reveal is None:
        return (
            WARNING,
            "notation.commit.unopened",
            ["commit"],
            msg("the deal is committed but not revealed: the commitment cannot be checked"),
        )
    hands = [_codes(hand) for hand in deal["hands"]]
    talon = _codes(deal["talon"]) if "talon" in deal else None
    if "salt" in reveal:
        opened = salt_commitment(game.NAME, reveal["salt"], hands, talon)
        return (
            None
            if opened == commit
            else (
                ERROR,
                "notation.commit.salt",
                ["commit"],
                msg("the commitment does not open: this deal with this salt hashes to {digest}", digest=opened),
            )
        )
    opened = seed_commitment(reveal["seed"])
    if opened != commit:
        return (
            ERROR,
            "notation.commit.seed",
            ["reveal", "seed"],
            msg("the seed does not open the commitment: it hashes to {digest}", digest=opened),
        )
    return _not_the_seeds(game, options, seats, hands, talon, reveal)


def _not_the_seeds(game, options, seats, hands, talon, reveal):
    """Where the deal differs from the one the seed gives, or None. The seat dealt first is the one whose
    hand size fits the game's layout (Gan Deng Yan: the seat dealt 6)."""
    sizes = [len(hand) for hand in hands]
    dealer = next((d for d in range(seats) if _sizes(game.deal_layout(options, seats, d)[1], seats) == sizes), 0)
    dealt, rest = seed_deal(game, options, seats, dealer, reveal["seed"], reveal.get("beacon", ""))
    if len(hands) != seats:
        return (
            ERROR,
            "notation.commit.deal",
            ["hands"],
            msg("the seed deals {seats} hands, not {n}", seats=seats, n=len(hands)),
        )
    for seat, (hand, wanted) in enumerate(zip(hands, dealt)):
        if sorted(hand) != sorted(wanted):
            return (
                ERROR,
                "notation.commit.deal",
                ["hands", seat],
                msg(
                    "seat {seat}'s hand is not the one the seed deals ({cards})",
                    seat=seat,
                    cards=Cards(" ".join(sorted(wanted))),
                ),
            )
    if talon != rest:
        return (
            ERROR,
            "notation.commit.deal",
            ["talon"],
            msg("the talon is not the one the seed deals ({cards}, top first)", cards=Cards(" ".join(rest or []))),
        )
    return None


def _sizes(layout: list[tuple[int, int]], seats: int) -> list[int]:
    sizes = [0] * seats
    for seat, size in layout:
        sizes[seat] = size
    return sizes
