"""Record-level claims of the games that keep running totals (Gou Ji, Gan Deng Yan): the
claimed `totals` and `winner` against the computed ones (notation §6), the same way for both."""
from __future__ import annotations

from .findings import INFO, plain


def check_totals(ctx, game: str, title: str, totals, winner, claimed: dict, entrant: str, computed: str):
    """`totals` None: an earlier deal stopped without claiming scores, so nothing can be checked.
    `entrant` is who wins ("seat", "team"); `computed` says in words who the totals make the winner."""
    if "levels" in claimed:
        ctx.error(f"{game}.result.key", "/result/levels", f"{title} has no levels; claim totals or winner")
    if totals is None:
        for key in ("totals", "winner"):
            if key in claimed:
                ctx.add(INFO, f"{game}.match.uncheckable", f"/result/{key}",
                        f"the claimed {key} cannot be checked: an earlier deal stopped and claims no scores")
        return
    if "totals" in claimed and list(claimed["totals"]) != totals:
        ctx.error(f"{game}.match.totals", "/result/totals",
                  f"claimed totals {plain(claimed['totals'])}, computed {plain(totals)}")
    if "winner" in claimed and claimed["winner"] != winner:
        ctx.error(f"{game}.match.winner", "/result/winner",
                  f"claimed winner {entrant} {claimed['winner']}, but {computed} (totals {plain(totals)})")
