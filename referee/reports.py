"""Hand-size reports (notation §5: `declare: report` with `count`), kept the same way by
every game that has them (Guandan §7, Gan Deng Yan's announcement option): a report is
transparent, its count must be the hand size, and a seat that went to `report_at` cards
or fewer without reporting gets a warning."""

from __future__ import annotations

from .findings import plain
from .messages import Msg, msg, word

TYPE_CHECKING = False  # typing is not imported where records are checked (referee/game.py)
if TYPE_CHECKING:
    from typing import Final

    from .actions import Action
    from .replay import Context

REPORT: Final[str] = word("report")  # the declaration's name, as a replay's line says it (报牌)


class ReportWatch:
    def __init__(self, game: str, report_at: int | None) -> None:
        self.game, self.report_at = game, report_at
        self.reached: dict[int, int] = {}  # seat -> the action that took it to report_at or fewer
        self.reported: set[int] = set()  # seats that reported at report_at or fewer

    def declare(self, ctx: Context, action: Action, size: int, others: str | Msg = "") -> None:
        """A `declare` action; only `report` is known."""
        declared = action.declare
        if declared is None or declared != REPORT:
            ctx.error(
                f"{self.game}.declare",
                ctx.at("actions", action.index, "declare"),
                msg(
                    "there is no declaration {declaration} here; only report{others}",
                    declaration=plain(action.declare),
                    others=others,
                ),
                action.seat,
                action.index,
            )
            return
        count = action.count
        if count is None or count != size:
            said = (
                msg("seat {seat} reported no count but held {held}", seat=action.seat, held=size)
                if count is None
                else msg("seat {seat} reported {count} cards but held {held}", seat=action.seat, count=count, held=size)
            )
            ctx.error(
                f"{self.game}.report.count", ctx.at("actions", action.index, "count"), said, action.seat, action.index
            )
        if self.report_at is not None and size <= self.report_at:
            self.reported.add(action.seat)

    def played(self, seat: int, size: int, index: int) -> None:
        """After a play (and any draw it caused) left `seat` with `size` cards."""
        if self.report_at is not None and 0 < size <= self.report_at:
            self.reached.setdefault(seat, index)

    def warn_missing(self, ctx: Context) -> None:
        for seat in sorted(self.reached):
            if seat not in self.reported:
                index = self.reached[seat]
                ctx.warn(
                    f"{self.game}.report.missing",
                    ctx.at("actions", index),
                    msg(
                        "seat {seat} reached {limit} cards or fewer here and never reported its count",
                        seat=seat,
                        limit=self.report_at,
                    ),
                    seat,
                    index,
                )
