"""Record-level claims of the games that keep running totals (Gou Ji, Gan Deng Yan): the
claimed `totals` and `winner` against the computed ones (notation §6), the same way for both.

A deal whose claimed `scores` differ is one finding (notation §9): beside the computed totals the
match carries the totals the claimed scores add up to, and a record claim that agrees with
either is no new finding.

`match_result` is the result of any game's match, also one that stops before it is won
(docs/formats/results-sheet.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .findings import INFO, plain
from .messages import Msg, Term, msg, word

TYPE_CHECKING = False  # typing is not imported where records are checked (referee/game.py)
if TYPE_CHECKING:
    from typing import Any

    from .contract import Outcome
    from .replay import Context

# A score or total as a record claims it: any JSON number (the pre-check's); the computed ones are whole.
Number = int | float

TITLES = (word("Gou Ji"), word("Gan Deng Yan"))  # the games that call check_totals, for the catalogue


def add_scores(totals: Sequence[Number] | None, scores: Sequence[Number]) -> list[Any] | None:
    """`totals` and `scores` added seat by seat. Either may hold claimed numbers (a stopped deal's claimed
    scores go into the totals), so they are added as Python adds numbers, not as whole ones."""
    if totals is None:
        return None
    return [t + s for t, s in zip(totals, scores)]


def carried_on(carried: list[int] | None, scores: list[int], claimed: dict[str, Any]) -> list[Any] | None:
    """`carried` after a deal: its claimed scores added, or its computed `scores` where it claims none."""
    said = claimed.get("scores")
    return add_scores(carried, said if said is not None and len(said) == len(scores) else scores)


def totals_claim_stands(match: Any, outcome: Outcome, claimed: dict[str, Any], keys: set[str]) -> None:
    """A deal's differing `scores` claim that a ruling `claim` let stand (notation §10): the totals the
    claimed scores add up to are the match's, and the computed ones no longer a candidate."""
    if "scores" not in keys or match.carried is None:
        return
    outcome["computed"] = {"scores": outcome["scores"], "totals": outcome["totals"]}
    outcome["scores"], outcome["totals"] = list(claimed["scores"]), list(match.carried)
    match.totals = list(match.carried)


def ruled_totals(
    ctx: Context,
    game: str,
    summary: dict[str, Any],
    keys: set[str],
    claimed: dict[str, Any],
    entrant: str,
    winner_of: Callable[[Sequence[Number] | None], int | None],
    computed: Callable[[int | None], Msg],
) -> None:
    """A match outcome of check_totals whose claims of `keys` rulings let stand (`totals`, `winner`): the winner
    the ruled totals make, unless the winner is ruled itself, and the result of both; neither from totals that are
    not one for each entrant (as many as computed). The match goes on from the ruled totals alone (notation §10):
    a claimed winner is checked against them, not against the computed ones."""
    totals = summary["totals"]
    reckoned = summary["computed"]["totals"] if "totals" in keys else totals
    whole = totals is not None and reckoned is not None and len(totals) == len(reckoned)
    if "winner" not in keys:
        summary["winner"] = winner_of(totals) if whole else None
        if whole and "winner" in claimed:
            ctx.findings[:] = [f for f in ctx.findings if f.at != "/result/winner"]  # made against the computed
            if claimed["winner"] != summary["winner"]:
                _wrong_winner(ctx, game, entrant, claimed["winner"], computed(summary["winner"]), totals)
    summary["result"] = match_result(totals, summary["winner"] if "winner" in keys else None) if whole else None


def _wrong_winner(ctx: Context, game: str, entrant: str, claimed: Any, computed: Msg, totals: Sequence[Number]) -> None:
    said = dict(claimed=claimed, computed=computed, totals=plain(totals))
    ctx.error(
        f"{game}.match.winner",
        "/result/winner",
        msg("claimed winner seat {claimed}, but {computed} (totals {totals})", **said)
        if entrant == "seat"
        else msg("claimed winner team {claimed}, but {computed} (totals {totals})", **said),
    )


def check_totals(
    ctx: Context,
    game: str,
    title: str,
    totals: list[int] | None,
    carried: list[int] | None,
    claimed: dict[str, Any],
    entrant: str,
    winner_of: Callable[[list[int] | None], int | None],
    computed: Callable[[int | None], Msg],
) -> dict[str, Any]:
    """`totals` None: an earlier deal stopped without claiming scores, so nothing can be checked.
    `carried`: the totals the claimed scores add up to. `entrant` is who wins ("seat", "team");
    `winner_of(totals)` who the totals make the winner, `computed(winner)` that in words.
    Returns the match outcome."""
    winner = winner_of(totals)
    outcome: dict[str, Any] = {"totals": totals, "winner": winner}
    if carried != totals:
        outcome["claimed"] = {"totals": carried}
    if totals is not None:
        outcome["result"] = match_result(totals)  # also of a match stopped before it was won
    if "levels" in claimed:
        ctx.error(
            f"{game}.result.key",
            "/result/levels",
            msg("{game} has no levels; claim totals or winner", game=Term(title)),
        )
    if totals is None:
        for key in ("totals", "winner"):
            if key in claimed:
                ctx.add(
                    INFO,
                    f"{game}.match.uncheckable",
                    f"/result/{key}",
                    msg("the claimed {key} cannot be checked: an earlier deal stopped and claims no scores", key=key),
                )
        return outcome
    chains = [totals] if carried == totals else [totals, carried]
    if "totals" in claimed and all(list(claimed["totals"]) != chain for chain in chains):
        ctx.error(
            f"{game}.match.totals",
            "/result/totals",
            msg(
                "claimed totals {claimed}, computed {computed}",
                claimed=plain(claimed["totals"]),
                computed=plain(totals),
            ),
        )
    if "winner" in claimed and all(claimed["winner"] != winner_of(chain) for chain in chains):
        _wrong_winner(ctx, game, entrant, claimed["winner"], computed(winner), totals)
    return outcome


def match_result(scores: Sequence[Number] | None, won: int | None = None) -> dict[str, Any] | None:
    """The result of a match from each entrant's score (Guandan: level, others: total): `won` (the
    team that won outright) or the highest score wins, and equal top scores are a draw; the margin
    is the winner's lead over the next. None when there are no scores, or a claim that a ruling let stand
    makes none (totals of one entrant, a winner who is no entrant)."""
    if not scores or len(scores) < 2 or (won is not None and not 0 <= won < len(scores)):
        return None
    ranked = sorted(scores, reverse=True)
    if won is None and ranked[0] == ranked[1]:
        return {"draw": True, "margin": 0}
    winner = scores.index(ranked[0]) if won is None else won
    return {"winner": winner, "margin": scores[winner] - max(s for i, s in enumerate(scores) if i != winner)}
