"""Test helper: a CGR/1 Guandan record rendered as a capture of the competition protocol
(../shared/formats/competition-protocol.md), the way the platform's server would have sent
it, so that a legal generated game can be imported back and compared.

It is written from the format page alone, independently of the importer: cards suit
first, runs named by their lowest rank, every notification sent to all four seats, a
request (`act`) before each play whose `greaterPos`/`greaterAction` at a deal's first lead
still hold the previous deal's top play (the page's known quirk), and each client's answer.
"""

from __future__ import annotations

import json

RANKS = "23456789TJQKA"
TYPES = {
    "single": "Single",
    "pair": "Pair",
    "triple": "Trips",
    "full_house": "ThreeWithTwo",
    "bomb": "Bomb",
    "joker_bomb": "FourKings",
    "straight": "Straight",
    "straight_flush": "StraightFlush",
    "tube": "ThreePair",
    "plate": "TwoTrips",
}
RUN_SPAN = {"straight": 4, "straight_flush": 4, "tube": 2, "plate": 1}
PASS = ["PASS", "PASS", "PASS"]


def platform_card(code: str) -> str:
    return {"BJ": "SB", "RJ": "HR"}.get(code) or code[1] + code[0]


def platform_rank(code: str) -> str:
    return {"BJ": "B", "RJ": "R"}.get(code, code)


def platform_action(cards, reading, level):
    """[type, rank, cards] of a play: from its `as`, or for plays of one rank from the cards."""
    shown = [platform_card(c) for c in cards]
    if reading:
        kind, top = reading.split(":")
        if kind in RUN_SPAN:
            lowest = (RANKS.index(top) + 2) - RUN_SPAN[kind]  # natural positions, A-low = 1
            top = "A" if lowest == 1 else RANKS[lowest - 2]
        return [TYPES[kind], platform_rank(top), shown]
    if sorted(cards) == ["BJ", "BJ", "RJ", "RJ"]:
        return ["FourKings", "JOKER", shown]
    ranks = {c if c in ("BJ", "RJ") else c[0] for c in cards if c != level + "H"} or {level}
    assert len(ranks) == 1, f"give `as` for {cards}"
    kind = {1: "Single", 2: "Pair", 3: "Trips"}.get(len(cards), "Bomb")
    return [kind, platform_rank(ranks.pop()), shown]


def messages(record, victory_after=None):
    """(receiving seats, message) pairs of a whole fresh-match record; `victory_after` ends
    the match with gameOver and gameResult crediting that team."""
    out, levels, order, top = [], ["2", "2"], None, None
    for deal in record["deals"]:
        level = levels[order[0] % 2] if order else "2"
        hands = [list(h) for h in deal["hands"]]
        for seat in range(4):
            out.append(
                (
                    [seat],
                    {
                        "type": "notify",
                        "stage": "beginning",
                        "myPos": seat,
                        "handCards": [platform_card(c) for c in hands[seat]],
                        "curRank": level,
                        "selfRank": levels[seat % 2],
                        "oppoRank": levels[1 - seat % 2],
                    },
                )
            )
        if deal.get("result", {}).get("tribute") == "resisted":
            payers = [order[2], order[3]] if order[1] == (order[0] + 2) % 4 else [order[3]]
            out.append((ALL, {"type": "notify", "stage": "anti-tribute", "antiNum": len(payers), "antiPos": payers}))
        out += _exchanges(deal["actions"], hands)
        for action in deal["actions"]:
            if "play" in action or "pass" in action:
                top = _play(out, action, hands, level, top)
        if "result" in deal:
            order = _full(deal["result"]["order"])
            rest = [[s, [platform_card(c) for c in hands[s]]] for s in range(4) if hands[s]]
            out.append(
                (ALL, {"type": "notify", "stage": "episodeOver", "order": order, "curRank": level, "restCards": rest})
            )
            levels = deal["result"].get("levels", levels)
    if victory_after is not None:
        out.append((ALL, {"type": "notify", "stage": "gameOver", "curTimes": 1, "settingTimes": 1}))
        out.append(
            (
                ALL,
                {
                    "type": "notify",
                    "stage": "gameResult",
                    "victoryNum": [int(s % 2 == victory_after) for s in range(4)],
                    "draws": 0,
                },
            )
        )
    return out


ALL = [0, 1, 2, 3]


def _exchanges(actions, hands):
    """The tribute and back notifications of a deal's tribute and return actions."""
    returns = [a for a in actions if "return" in a]
    tributes = [
        [a["seat"], next(r["seat"] for r in returns if r["to"] == a["seat"]), a["tribute"]]
        for a in actions
        if "tribute" in a
    ]
    out = []
    for stage, moves in (("tribute", tributes), ("back", [[a["seat"], a["to"], a["return"]] for a in returns])):
        if moves:
            for giver, receiver, card in moves:
                hands[giver].remove(card)
                hands[receiver].append(card)
            out.append(
                (ALL, {"type": "notify", "stage": stage, "result": [[g, r, platform_card(c)] for g, r, c in moves]})
            )
    return out


def _play(out, action, hands, level, top):
    seat = action["seat"]
    if "pass" in action:
        shown = PASS
    else:
        shown = platform_action(action["play"], action.get("as"), level)
        for card in action["play"]:
            hands[seat].remove(card)
    greater_pos, greater = top if top else (-1, PASS)
    out.append(
        (
            [seat],
            {
                "type": "act",
                "stage": "play",
                "curPos": seat,
                "greaterPos": greater_pos,
                "greaterAction": greater,
                "actionList": [shown],
                "indexRange": 0,
            },
        )
    )
    out.append(([seat], {"actIndex": 0}))
    out.append(
        (
            ALL,
            {
                "type": "notify",
                "stage": "play",
                "curPos": seat,
                "curAction": shown,
                "greaterPos": greater_pos,
                "greaterAction": greater,
            },
        )
    )
    return top if "pass" in action else (seat, shown)


def _full(order):
    rest = [s for s in ((order[-1] + i) % 4 for i in range(1, 4)) if s not in order]
    return list(order) + rest


def capture_lines(record, merged=True, victory_after=None):
    """The capture as JSON Lines text: merged (each seat's copy, wrapped with its seat and
    direction), or a server log of bare messages holding each notification once."""
    lines = []
    for seats, msg in messages(record, victory_after):
        if not merged:
            lines.append(msg)
            continue
        answer = set(msg) == {"actIndex"}
        for seat in seats:
            lines.append({"seat": seat, "dir": "c2s" if answer else "s2c", "msg": msg})
    return "".join(json.dumps(line) + "\n" for line in lines)
