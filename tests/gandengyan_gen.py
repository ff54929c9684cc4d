"""A generator of random legal Gan Deng Yan matches, for tests and benchmarks.

It plays with a simple bot and keeps its own small model of the rules (combinations
built from the hand, the follow relation, draws, scoring), written independently of
the referee so that the two check each other. Every play holding a joker names its
reading with `as`. Records carry the claims the generator computed.
"""

from __future__ import annotations

import random

LADDER = "3456789TJQKA"
SUITS = "SHDC"
JOKERS = ("BJ", "RJ")

DEFAULTS = {
    "decks": 1,
    "jokers_wild": True,
    "joker_as_two": True,
    "triplet_is_bomb": True,
    "triplet_sequences": False,
    "max_sequence_ranks": 12,
    "min_sequence_length": 3,
    "next_dealer": "winner",
    "max_bomb_size": 4,
    "follow_equal_rank": False,
    "two_on_two": False,
    "lone_joker_lead": True,
    "talon_limit_to_win": None,
    "scoring": "zero_sum",
    "ace_multiplier": 1,
    "public_multipliers": False,
    "private_multipliers": False,
    "soft_bombs": False,
    "payment_cap": None,
    "report_at": None,
}


def deck(decks: int) -> list[str]:
    one = [r + s for r in "23456789TJQKA" for s in SUITS] + list(JOKERS)
    return one * decks


def value(r: str) -> int:
    """2 is 0, then 3..A are 1..12."""
    return 0 if r == "2" else LADDER.index(r) + 1


def code(v: int) -> str:
    return "2" if v == 0 else LADDER[v - 1]


def by_rank(hand):
    out = {}
    for c in hand:
        if c not in JOKERS:
            out.setdefault(value(c[0]), []).append(c)
    return out


class Play:
    """A combination: kind, rank value, cards, and its bomb class (0: ordinary)."""

    def __init__(self, kind, rank, cards, bomb):
        self.kind, self.rank, self.cards, self.bomb = kind, rank, list(cards), bomb

    @property
    def jokers(self):
        return sum(c in JOKERS for c in self.cards)

    def action(self, seat):
        act = {"seat": seat, "play": list(self.cards)}
        if self.jokers:
            act["as"] = f"{self.kind}:{'RJ' if self.kind == 'joker_bomb' else code(self.rank)}"
        return act


def candidates(hand, o, leading):
    """Every combination the bot considers from `hand` (one way of building each)."""
    jokers = [c for c in hand if c in JOKERS]
    wild = jokers if o["jokers_wild"] else []
    groups = by_rank(hand)
    plays = []
    names = {1: "single", 2: "pair", 3: "triplet", 4: "four_bomb"}
    for v, cards in groups.items():
        usable = wild if v or o["joker_as_two"] else []
        for size in range(1, min(len(cards) + len(usable), o["max_bomb_size"]) + 1):
            nat = min(len(cards), size)
            kind = names.get(size, "bomb")
            bomb = {3: 1 if o["triplet_is_bomb"] else 0, 4: 2}.get(size, size - 2 if size > 4 else 0)
            plays.append(Play(kind, v, cards[:nat] + usable[: size - nat], bomb))
    for per, kind in ((1, "sequence"), (2, "double_sequence"), (3, "triplet_sequence")):
        if kind == "triplet_sequence" and not o["triplet_sequences"]:
            continue
        least = max(3, o["min_sequence_length"]) if per == 1 else 2
        for k in range(least, min(o["max_sequence_ranks"], len(hand) // per) + 1):
            for top in range(k, 13):
                play = _run(groups, wild, per, kind, top - k + 1, top)
                if play:
                    plays.append(play)
    if "BJ" in hand and "RJ" in hand:
        plays.append(Play("joker_bomb", 14, ["BJ", "RJ"], 100))
    if leading and not groups and o["lone_joker_lead"] and len(hand) <= 2 and len(set(hand)) == 1:
        plays.append(Play(("single", "pair")[len(hand) - 1], 0, hand, 0))
    return plays


def _run(groups, wild, per, kind, low, top):
    cards, need = [], 0
    for v in range(low, top + 1):
        have = groups.get(v, [])[:per]
        cards += have
        need += per - len(have)
    if not cards or need > len(wild):
        return None
    return Play(kind, top, cards + wild[:need], 0)


def bomb_order(v):
    return 13 if v == 0 else v


def follows(x: Play, y: Play, o) -> bool:
    if y.kind == "joker_bomb":
        return False
    if x.bomb or y.bomb:
        return bool(x.bomb) and (not y.bomb or (x.bomb, bomb_order(x.rank)) > (y.bomb, bomb_order(y.rank)))
    if x.kind != y.kind or len(x.cards) != len(y.cards):
        return False
    if y.rank and (x.rank == y.rank + 1 or (o["follow_equal_rank"] and x.rank == y.rank)):
        return True
    return x.kind in ("single", "pair", "triplet") and x.rank == 0 and (y.rank != 0 or o["two_on_two"])


def factor(play: Play, o) -> int:
    if not play.bomb:
        return 1
    if play.kind == "joker_bomb":
        return 8
    if o["soft_bombs"]:
        return 2 if play.jokers else 4
    return 2 if play.kind == "triplet" else 4


def payment(hand, public, o) -> int:
    p = len(hand) * o["ace_multiplier"] ** sum(c[0] == "A" for c in hand) * public
    if o["private_multipliers"]:
        p *= 2 ** sum(c in JOKERS for c in hand)
        for cards in by_rank(hand).values():
            p *= 4 ** (len(cards) // 4)
            if len(cards) % 4 == 3 and o["triplet_is_bomb"]:
                p *= 4 if o["soft_bombs"] else 2
        p *= 8 ** min(hand.count("BJ"), hand.count("RJ"))
    return p if o["payment_cap"] is None else min(p, o["payment_cap"])


class DealPlayer:
    def __init__(self, rng, hands, talon, dealer, o):
        self.rng, self.o, self.n = rng, o, len(hands)
        self.hands = [list(h) for h in hands]
        self.talon = list(talon)
        self.dealer = dealer
        self.actions, self.bombs, self.winner = [], [], None
        self.before = []  # per action: (the acting seat's hand, the top play or None)

    def next_holder(self, seat):
        for i in range(1, self.n + 1):
            if self.hands[(seat + i) % self.n]:
                return (seat + i) % self.n
        return None

    def play(self):
        """Plays the deal out; returns the winner (None: a dead deal)."""
        turn, top, top_seat, passed = self.dealer, None, None, set()
        while True:
            hand = self.hands[turn]
            choice = self.choose(hand, top)
            self.before.append((list(hand), top))
            if choice is None:
                self.actions.append({"seat": turn, "pass": True})
                passed.add(turn)
                holders = [s for s in range(self.n) if self.hands[s]]
                if top is None and all(s in passed for s in holders):
                    return None
                if top is not None and all(s in passed for s in holders if s != top_seat):
                    if self.draw(top_seat):
                        return self.winner
                    turn, top, passed = top_seat, None, set()
                    continue
                turn = self.next_holder(turn)
                continue
            for c in choice.cards:
                hand.remove(c)
            self.actions.append(choice.action(turn))
            if choice.bomb:
                self.bombs.append(choice)
            top, top_seat, passed = choice, turn, set()
            if not hand and (self.o["talon_limit_to_win"] is None or len(self.talon) <= self.o["talon_limit_to_win"]):
                return turn
            alone = not [s for s in range(self.n) if self.hands[s] and s != turn]
            if alone and self.draw(turn):
                return self.winner
            self.report(turn)
            if alone:
                top, passed = None, set()
                continue
            turn = self.next_holder(turn)

    def report(self, seat):
        """A report right after the play that took the hand to report_at or fewer (§7)."""
        limit, size = self.o["report_at"], len(self.hands[seat])
        if limit is not None and 0 < size <= limit:
            self.before.append((list(self.hands[seat]), None))
            self.actions.append({"seat": seat, "declare": "report", "count": size})

    def draw(self, last) -> bool:
        """The draw from the last player on; True when a seat is left without cards and wins."""
        order = [(last + i) % self.n for i in range(self.n)]
        for seat in order:
            if self.talon:
                self.hands[seat].append(self.talon.pop(0))
        empty = [s for s in order if not self.hands[s]]
        if empty:
            self.winner = empty[0]
        return bool(empty)

    def choose(self, hand, top):
        plays = candidates(hand, self.o, top is None)
        if top is None:
            plain = [p for p in plays if not p.bomb]
            return self.rng.choice(plain or plays) if plays else None
        beating = [p for p in plays if follows(p, top, self.o)]
        plain = [p for p in beating if not p.bomb]
        if plain and self.rng.random() < 0.85:
            return self.rng.choice(plain)
        bombs = [p for p in beating if p.bomb]
        if bombs and self.rng.random() < 0.3:
            return self.rng.choice(bombs)
        return None


def scores(player, winner, o) -> list[int]:
    if winner is None:
        return [0] * player.n
    public = 1
    if o["public_multipliers"]:
        for b in player.bombs:
            public *= factor(b, o)
    pays = [0 if s == winner else payment(player.hands[s], public, o) for s in range(player.n)]
    out = [-p if o["scoring"] == "zero_sum" else 0 for p in pays]
    out[winner] = sum(pays)
    return out


def deal_cards(rng, seats, dealer, decks):
    cards = deck(decks)
    rng.shuffle(cards)
    hands = [[] for _ in range(seats)]
    taken = 0
    for i in range(5 * seats + 1):  # the dealer first, then in seat order, until he holds 6
        hands[(dealer + i) % seats].append(cards[taken])
        taken += 1
    return hands, cards[taken:]


def match_record(
    seed: int,
    seats: int = 4,
    deals: int = 3,
    options: dict | None = None,
    preset: str = "pagat",
    trace: list | None = None,
) -> dict:
    """A fresh match with every claim filled in; `options` override the defaults.
    `trace`, when given, receives each action's (hand before it, top play) for every deal."""
    rng = random.Random(seed)
    o = dict(DEFAULTS, **(options or {}))
    if preset == "wenshan":
        o["scoring"] = "winner_only"
    if preset == "catsatcards":
        o["next_dealer"] = "any"
    dealer = rng.randrange(seats)
    totals = [0] * seats
    out = []
    for _ in range(deals):
        if o["next_dealer"] == "any":
            dealer = rng.randrange(seats)
        hands, talon = deal_cards(rng, seats, dealer, o["decks"])
        player = DealPlayer(rng, hands, talon, dealer, o)
        winner = player.play()
        if trace is not None:
            trace.append(player.before)
        deal_scores = scores(player, winner, o)
        totals = [t + s for t, s in zip(totals, deal_scores)]
        result = {"scores": deal_scores}
        if winner is not None:
            result = {"winner": winner, **result}
        out.append({"hands": hands, "talon": talon, "actions": player.actions, "result": result})
        dealer = dealer if winner is None else winner
    changed = {k: v for k, v in (options or {}).items() if DEFAULTS[k] != v}
    rules = {"preset": preset, "options": changed} if changed else preset
    return {
        "cgr": 1,
        "game": "gandengyan",
        "rules": rules,
        "meta": {"event": "Generated", "source": f"tests/gandengyan_gen.py seed {seed}"},
        "players": [f"P{i}" for i in range(seats)],
        "deals": out,
        "result": {"totals": totals},
    }
