"""What a finding's `legal.plays` must be, checked against the referee itself (issue 30): every
sub-multiset of the acting hand that the referee accepts as a play is listed (as a reading of its
class), and every listed play is accepted. A play is tried on a copy of the table with the game's own
`apply`, so the check knows nothing of how the list is made."""
from __future__ import annotations

import copy
import random
from collections import Counter
from itertools import product

from referee.actions import Action
from referee.findings import StopDeal
from referee.replay import Context

FULL, SAMPLE = 20_000, 4000      # sub-multisets tried in full up to FULL; a random SAMPLE beyond


def sub_multisets(hand: list[int], largest: int, seed: int = 0) -> list[tuple[int, ...]]:
    """The distinct sub-multisets of `hand` of 1 to `largest` cards, in full or (too many) a sample."""
    held = sorted(Counter(hand).items())
    total = 1
    for _, n in held:
        total *= n + 1
    if total <= FULL:
        found = [tuple(c for (c, _), k in zip(held, ks) for _ in range(k)) for ks in product(*[range(n + 1)
                                                                                                 for _, n in held])]
        return [f for f in found if 0 < len(f) <= largest]
    rng = random.Random(seed)
    return sorted({tuple(sorted(rng.sample(hand, rng.randint(1, min(largest, len(hand))))))
                   for _ in range(SAMPLE)})


def fresh(state):
    """A copy of a table that a trial play may change: its lists, sets and dicts (and the report
    watch) copied, the rest (options, the shared reading cache) shared."""
    trial = copy.copy(state)
    names = getattr(type(state), "__slots__", None) or list(vars(state))
    for name in names:
        value = getattr(state, name, None)
        if isinstance(value, (list, set)) or (isinstance(value, dict) and name not in ("options", "o")):
            setattr(trial, name, copy.copy(value))
    if hasattr(state, "reports"):
        trial.reports = copy.deepcopy(state.reports)
    return trial


def accepted(game, state, seat: int, cards: tuple[int, ...], as_: str | None) -> bool:
    """Whether the referee accepts `cards` (read `as_`) from `seat` now: the game's apply on a copy."""
    trial = fresh(state)
    try:
        game.apply(Context(), trial, Action(0, seat, "play", cards, as_=as_))
    except StopDeal:
        return False
    return True


def listed(plays: list[str]) -> set[tuple[str, int]]:
    """(reading, cards) of `legal.plays` entries "CARDS as TYPE:RANK"."""
    out = set()
    for entry in plays:
        cards, _, name = entry.partition(" as ")
        out.add((name, len(cards.split())))
    return out


def check_may(legal: dict):
    """`may` names the plays of `legal.plays` (grouped by type, so each one's cards appear), or the first
    PLAYS_SAID of them and how many more the full list holds."""
    from referee.findings import PLAYS_SAID
    may, plays = str(legal["may"]), legal.get("plays", [])
    for entry in plays[:PLAYS_SAID]:
        assert entry.partition(" as ")[0] in may, (entry, may)
    left = len(plays) - PLAYS_SAID
    if left > 0:
        assert f"and {left} more play" in may and f"all {len(plays)} are listed in legal.plays" in may, may
    else:
        assert "more play" not in may, may
