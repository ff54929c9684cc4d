"""A generator of random legal Guandan matches (official preset), for tests and benchmarks.

It plays with a simple bot and keeps its own small model of the rules (level order,
same-rank groups, tribute, rises), written independently of the referee so that the
two check each other. Records carry the claims the generator computed.
"""

from __future__ import annotations

import random

RANKS = "23456789TJQKA"
SUITS = "SHDC"
DECK = [r + s for r in RANKS for s in SUITS] * 2 + ["BJ", "BJ", "RJ", "RJ"]


def rank_of(card: str) -> str:
    return card if card in ("BJ", "RJ") else card[0]


def level_value(r: str, level: str) -> int:
    if r == "BJ":
        return 15
    if r == "RJ":
        return 16
    if r == level:
        return 14
    return RANKS.index(r)


def is_wild(card: str, level: str) -> bool:
    return card == level + "H"


def groups(hand, level):
    """rank -> natural cards of that rank (wild cards left out)."""
    out = {}
    for c in hand:
        if not is_wild(c, level):
            out.setdefault(rank_of(c), []).append(c)
    return out


def candidate_plays(hand, level):
    """(kind, size, value, cards) for singles, pairs, triples and bombs of one rank."""
    plays = []
    wilds = [c for c in hand if is_wild(c, level)]
    for r, cards in groups(hand, level).items():
        v = level_value(r, level)
        for size in range(1, len(cards) + 1):
            if r in ("BJ", "RJ") and size > 2:
                continue
            kind = {1: "single", 2: "pair", 3: "triple"}.get(size, "bomb")
            plays.append((kind, size, v, cards[:size]))
        if wilds and r not in ("BJ", "RJ") and len(cards) >= 3:
            plays.append(("bomb", len(cards) + 1, v, cards + wilds[:1]))
    for w in wilds[:1]:
        plays.append(("single", 1, level_value(level, level), [w]))
    if hand.count("BJ") == 2 and hand.count("RJ") == 2:
        plays.append(("joker_bomb", 4, 99, ["BJ", "BJ", "RJ", "RJ"]))
    return plays


def shaped_plays(hand, level):
    """Full houses, straights, tubes and plates of natural cards (no wild card, no straight flush):
    the shapes real play leads with, which make deals as short as real ones (about 125 actions)."""
    natural = groups(hand, level)
    plays = []
    for r, cards in natural.items():
        if len(cards) >= 3 and r not in ("BJ", "RJ"):
            pair = min(
                (q for q, c in natural.items() if q not in (r, "BJ", "RJ") and len(c) >= 2),
                key=lambda q: level_value(q, level),
                default=None,
            )
            if pair:
                plays.append(("full_house", 5, level_value(r, level), cards[:3] + natural[pair][:2]))
    for kind, length, per in (("straight", 5, 1), ("tube", 3, 2), ("plate", 2, 3)):
        for low in range(-1 if kind == "straight" else 0, 14 - length):
            ranks = [RANKS[i] for i in range(low, low + length)]  # -1: the ace below the 2
            if all(len(natural.get(r, ())) >= per for r in ranks):
                cards = [c for r in ranks for c in natural[r][:per]]
                if kind != "straight" or len({c[1] for c in cards}) > 1:
                    plays.append((kind, len(cards), low, cards))
    return plays


def ladder(play):
    kind, size, value, _ = play
    if kind == "joker_bomb":
        return (99, 0)
    step = {4: 0, 5: 1}.get(size, size - 3)  # straight flush (step 2) is never generated
    return (step, value)


def may_follow(play, top) -> bool:
    if top[0] == "scripted":
        return False  # the bot always passes on a scripted play
    if top[0] in ("bomb", "joker_bomb"):
        return play[0] in ("bomb", "joker_bomb") and ladder(play) > ladder(top)
    if play[0] in ("bomb", "joker_bomb"):
        return True
    return play[0] == top[0] and play[2] > top[2]


def deal_hands(rng, partial=None):
    """Four hands of 27; `partial` (a list of four card lists) names cards a hand must hold."""
    partial = partial or [[], [], [], []]
    deck = DECK[:]
    for hand in partial:
        for card in hand:
            deck.remove(card)
    rng.shuffle(deck)
    hands = []
    for hand in partial:
        need = 27 - len(hand)
        hands.append(sorted(list(hand) + deck[:need]))
        deck = deck[need:]
    return hands


class DealPlayer:
    """Plays a deal with a simple bot; `scripted` maps a seat to a list of (cards, as) it leads,
    in turn, whenever it is on lead (the bot passes on them, so the leader's come first)."""

    def __init__(self, rng, hands, level, leader, scripted=None, shapes=False):
        self.rng, self.level, self.shapes = rng, level, shapes
        self.scripted = {seat: list(plays) for seat, plays in (scripted or {}).items()}
        self.hands = [list(h) for h in hands]
        self.actions, self.out = [], []
        self.leader = leader
        self.reported = set()

    def holders(self):
        return [s for s in range(4) if self.hands[s]]

    def next_holder(self, seat):
        for i in range(1, 5):
            if self.hands[(seat + i) % 4]:
                return (seat + i) % 4

    def over(self):
        o = self.out
        return len(o) >= 3 or (len(o) == 2 and o[1] == (o[0] + 2) % 4)

    def play(self):
        turn, top, top_seat, passed = self.leader, None, None, set()
        while not self.over():
            hand = self.hands[turn]
            options = candidate_plays(hand, self.level)
            shaped = shaped_plays(hand, self.level) if self.shapes else []
            if top is None:
                leads = shaped if shaped and self.rng.random() < 0.5 else options
                choice = self.rng.choice([p for p in leads if p[0] != "joker_bomb"] or leads)
            else:
                beating = [p for p in options + shaped if may_follow(p, top)]
                bombs = [p for p in beating if p[0] in ("bomb", "joker_bomb")]
                plain = [p for p in beating if p not in bombs]
                choice = None
                if plain and self.rng.random() < 0.8:
                    choice = min(plain, key=lambda p: p[2])
                elif bombs and self.rng.random() < 0.15:
                    choice = min(bombs, key=ladder)
            if top is None and self.scripted.get(turn):
                cards, reading = self.scripted[turn].pop(0)
                choice = ("scripted", len(cards), 100, list(cards))
            if choice is None:
                self.actions.append({"seat": turn, "pass": True})
                passed.add(turn)
                if all(s in passed for s in self.holders() if s != top_seat):
                    turn = (
                        top_seat
                        if self.hands[top_seat]
                        else ((top_seat + 2) % 4 if self.hands[(top_seat + 2) % 4] else self.next_holder(top_seat))
                    )
                    top, top_seat, passed = None, None, set()
                else:
                    turn = self.next_holder(turn)
                continue
            for c in choice[3]:
                hand.remove(c)
            self.actions.append({"seat": turn, "play": list(choice[3])})
            if choice[0] == "scripted":
                self.actions[-1]["as"] = reading
            if 0 < len(hand) <= 10 and turn not in self.reported:
                self.reported.add(turn)
                self.actions.append({"seat": turn, "declare": "report", "count": len(hand)})
            top, top_seat, passed = choice, turn, set()
            if not hand:
                self.out.append(turn)
            if not self.over():
                turn = self.next_holder(turn)
        rest = [s for s in ((self.out[-1] + i) % 4 for i in range(1, 4)) if s not in self.out]
        return self.out + rest


def tribute_actions(rng, hands, order, level):
    """Tribute and return actions of the official preset, and the leader; None on anti-tribute."""
    o1, o2, o3, o4 = order
    payers = [o3, o4] if o2 == (o1 + 2) % 4 else [o4]
    if sum(hands[p].count("RJ") for p in payers) == 2:
        return "resisted", [], o1
    paid = {}
    for p in payers:
        best = max(level_value(rank_of(c), level) for c in hands[p] if not is_wild(c, level))
        paid[p] = next(c for c in hands[p] if not is_wild(c, level) and level_value(rank_of(c), level) == best)
    if len(payers) == 1:
        receiver = {o4: o1}
    else:
        a, b = payers
        va, vb = (level_value(rank_of(paid[p]), level) for p in payers)
        first = a if va > vb else b if vb > va else (o1 + 1) % 4
        receiver = {first: o1, (b if first == a else a): o2}
    actions = []
    for p in payers:
        hands[p].remove(paid[p])
        hands[receiver[p]].append(paid[p])
        actions.append({"seat": p, "tribute": paid[p]})
    for p, r in receiver.items():
        back = return_card(hands[r], paid[p], level)
        hands[r].remove(back)
        hands[p].append(back)
        actions.append({"seat": r, "return": back, "to": p})
    leader = next(p for p, r in receiver.items() if r == o1)
    return ("double" if len(payers) == 2 else "single"), actions, leader


def return_card(hand, received, level):
    rest = list(hand)
    rest.remove(received)
    small = [c for c in rest if c not in ("BJ", "RJ") and RANKS.index(rank_of(c)) <= RANKS.index("T")]
    pool = small or [
        c for c in rest if level_value(rank_of(c), level) == min(level_value(rank_of(x), level) for x in rest)
    ]
    return min(pool, key=lambda c: level_value(rank_of(c), level))


def match_record(seed: int, max_deals: int = 12, plan=(), shapes: bool = False) -> dict:
    """A fresh official-preset match of up to max_deals deals, with every claim filled in; with
    `shapes`, the bot also plays full houses, straights, tubes and plates (deals of real length).
    `plan[i]` may fix deal i: {"hands": cards each seat holds, "leader": (first deal only),
    "scripted": as DealPlayer takes it}."""
    rng = random.Random(seed)
    levels, declaring, order = [0, 0], None, None
    deals, winner = [], None
    for number in range(max_deals):
        spec = plan[number] if number < len(plan) else {}
        level = RANKS[levels[declaring] if declaring is not None else 0]
        hands = deal_hands(rng, spec.get("hands"))
        deal = {"hands": [list(h) for h in hands]}
        if order is None:
            tribute, actions, leader = "none", [], rng.randrange(4)
            leader = spec.get("leader", leader)
            deal["leader"] = leader
        else:
            tribute, actions, leader = tribute_actions(rng, hands, order, level)
        player = DealPlayer(rng, hands, level, leader, spec.get("scripted"), shapes)
        order = player.play()
        partner_place = order.index((order[0] + 2) % 4) + 1
        winners = order[0] % 2
        if level == "A" and declaring == winners and partner_place in (2, 3):
            winner = winners
        levels[winners] = min(12, levels[winners] + {2: 3, 3: 2, 4: 1}[partner_place])
        declaring = winners
        deal["actions"] = actions + player.actions
        deal["result"] = {"order": order, "levels": [RANKS[v] for v in levels], "tribute": tribute}
        deals.append(deal)
        if winner is not None:
            break
    record = {
        "cgr": 1,
        "game": "guandan",
        "rules": "official",
        "meta": {"event": "Generated", "source": f"tests/guandan_gen.py seed {seed}"},
        "players": ["Ann", "Bo", "Cy", "Di"],
        "deals": deals,
        "result": {"levels": [RANKS[v] for v in levels]},
    }
    if winner is not None:
        record["result"]["winner"] = winner
    return record
