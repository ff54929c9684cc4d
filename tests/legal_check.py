"""What a finding's `legal.plays` must be, checked against the referee itself (issue 30): every
sub-multiset of the acting hand that the referee accepts as a play is listed (as a reading of its
class), and every listed play is accepted. A play is tried on a copy of the table with the game's own
`apply`, so the check knows nothing of how the list is made."""

from __future__ import annotations

import copy
import random
from collections import Counter
from itertools import product

from referee import gouji
from referee.actions import Action
from referee.cards import TwoPackHand
from referee.findings import StopDeal
from referee.replay import Context, check_record
from referee.reports import ReportWatch

HANDS = (TwoPackHand, gouji.Hand)  # the games' hands, changed in place by a play
FULL, SAMPLE = 20_000, 4000  # sub-multisets tried in full up to FULL; a random SAMPLE beyond


def sub_multisets(hand: list[int], largest: int, seed: int = 0) -> list[tuple[int, ...]]:
    """The distinct sub-multisets of `hand` of 1 to `largest` cards, in full or (too many) a sample."""
    held = sorted(Counter(hand).items())
    total = 1
    for _, n in held:
        total *= n + 1
    if total <= FULL:
        found = [
            tuple(c for (c, _), k in zip(held, ks) for _ in range(k))
            for ks in product(*[range(n + 1) for _, n in held])
        ]
        return [f for f in found if 0 < len(f) <= largest]
    rng = random.Random(seed)
    return sorted({tuple(sorted(rng.sample(hand, rng.randint(1, min(largest, len(hand)))))) for _ in range(SAMPLE)})


def accepted(game, state, seat: int, cards: tuple[int, ...], as_: str | None) -> bool:
    """Whether the referee accepts `cards` (read `as_`) from `seat` now: the game's apply, after which
    the table is put back as it was (a compiled table cannot be copied, so its values are)."""
    saved = _values(state)
    try:
        game.apply(Context(), state, Action(0, seat, "play", cards, as_=as_))
    except StopDeal:
        return False
    finally:
        for name, value in saved.items():
            setattr(state, name, value)
    return True


def _values(state) -> dict:
    """The table's values that can be set, copied where a play may change them in place."""
    out = {}
    for name in dir(state):
        value = getattr(state, name)
        if name.startswith("__") or callable(value):
            continue
        try:
            setattr(state, name, value)
        except AttributeError:
            continue  # a property
        out[name] = (
            [list(v) if type(v) is list else v.copy() if type(v) in HANDS else v for v in value]
            if isinstance(value, list)
            else copy.copy(value)
            if isinstance(value, (set, dict))
            else _copied_watch(value)
            if isinstance(value, ReportWatch)
            else value
        )
    return out


def _copied_watch(watch: ReportWatch) -> ReportWatch:
    """A copy of the hand-size reports' watch, made field by field (compiled, it cannot be deep-copied)."""
    copied = ReportWatch(watch.game, watch.report_at)
    copied.reached, copied.reported = dict(watch.reached), set(watch.reported)
    return copied


def at_positions(record: dict, eligible, check, chosen=None) -> int:
    """Replays `record`, calling `check(state)` at the eligible tables (`eligible(state)`) whose
    number (from 0) is in `chosen`; the number of eligible tables."""
    seen = 0

    def observe(deal, index, state):
        nonlocal seen
        if eligible(state):
            if chosen is not None and seen in chosen:
                check(state)
            seen += 1

    check_record(record, observe=observe)
    return seen


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
