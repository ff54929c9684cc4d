"""The arbiter's decisions on a record's errors (notation §10): which ruling decides which finding, whether
its decision fits that finding, and the checks on the rulings themselves.

A ruling decides the error the replay reports with its `rule` and `at` (`rulings.decides`, called for
every error made); the replay driver (replay.py) then carries out the decision: `stands` and `score` at
the action, `void` at the end of the deal, `claim` once the claim is weighed.
"""

from __future__ import annotations

import re

from .findings import plain, pointer
from .messages import Msg, msg, word

STANDS, SCORE, VOID, CLAIM = "stands", "score", "void", "claim"
DECISION_WORDS = {
    STANDS: word("the action stands"),
    SCORE: word("the deal is scored as decided"),
    VOID: word("the deal is void"),
    CLAIM: word("the claim stands"),
}

# the rulings' own errors, which no ruling decides
CHECKS = frozenset(
    (
        "notation.ruling.unmatched",
        "notation.ruling.twice",
        "notation.ruling.decision",
        "notation.ruling.cannot_stand",
        "notation.ruling.by",
    )
)
# compiled by `re` when first matched: only a record with rulings is matched against them
_DEAL = r"/deals/(0|[1-9][0-9]*)"
_ACTION = r"/deals/(0|[1-9][0-9]*)/actions/(0|[1-9][0-9]*)(/|$)"


def deal_of(at: str) -> int | None:
    """The deal a pointer lies in (`/deals/3/actions/7`: 3), or None."""
    found = re.match(_DEAL, at)
    return int(found.group(1)) if found and (len(at) == found.end() or at[found.end()] == "/") else None


def is_claim(rule: str, at: str) -> bool:
    """Whether a finding says a claim differs from the computation (notation §9): one about a deal's or the
    record's `result`, other than a key the game does not claim, or a claim no complete deal backs."""
    deal = deal_of(at)
    place = at if deal is None else at[len(pointer("deals", deal)) :]
    return place.startswith("/result/") and not rule.startswith("notation.") and not rule.endswith(".key")


def is_iso_date(text: str) -> bool:
    """Whether a ruling's `date` is an ISO 8601 date (notation §10): a calendar, ordinal or week date, in full or
    of reduced precision (2026-05, 2026), with a time and an offset where given, in the extended or the basic
    format."""
    found = re.fullmatch(_ISO_8601, text)  # compiled at its first use (re caches it), not at every start
    if found is None:
        return False
    year, month, day = found.group("year"), found.group("month"), found.group("day")
    if day is None:
        return True
    from datetime import date  # here: only rulings with a date need it

    try:
        date(int(year), int(month), int(day))  # a day the month has (not 2026-02-30)
    except ValueError:
        return False
    return True


_TIME = r"(?:[01]\d|2[0-3])(?::?[0-5]\d(?::?(?:[0-5]\d|60)(?:[.,]\d+)?)?)?|24(?::?00(?::?00(?:[.,]0+)?)?)?"
_ISO_8601 = (
    r"(?P<year>[+-]\d{4,6}|\d{4})"
    r"(?:-?(?:(?P<month>0[1-9]|1[0-2])(?:-?(?P<day>0[1-9]|[12]\d|3[01]))?"  # calendar
    r"|W(?:0[1-9]|[1-4]\d|5[0-3])(?:-?[1-7])?"  # week
    r"|(?:00[1-9]|0[1-9]\d|[12]\d\d|3[0-5]\d|36[0-6])))?"  # ordinal
    rf"(?:[T ](?:{_TIME})(?:Z|[+-](?:[01]\d|2[0-3])(?::?[0-5]\d)?)?)?"
)


class Rulings:
    """The rulings of one record as the replay meets their findings. `game` is the game's module (its
    `complete_result`), `seats` the table's size, `options` the rules' options."""

    def __init__(self, raw: list, game, seats: int, options: dict):
        self.raw, self.game, self.seats, self.options = raw, game, seats, options
        self.pending: dict[tuple, int] = {}  # (rule, at) -> the ruling not yet met
        self.problems: list[tuple[str, str, Msg]] = []  # (rule, at, message) of the rulings' own errors
        self.applied = 0
        self.scored: int | None = None  # a `score` ruling that decided a finding of the deal being replayed
        self.voided: int | None = None  # a `void` ruling, likewise
        self.claimed: list[int] = []  # `claim` rulings that decided a finding since the driver last looked
        for index, ruling in enumerate(raw):
            key = (ruling.get("rule"), ruling["at"])
            if key in self.pending:
                self._problem(
                    "notation.ruling.twice",
                    index,
                    msg(
                        "a second ruling on what {first} decides ({at}); a finding is decided once",
                        first=pointer("rulings", self.pending[key]),
                        at=key[1],
                    ),
                )
            else:
                self.pending[key] = index
            if not ruling.get("by", "").strip():
                self._problem("notation.ruling.by", index, msg("a ruling must say who decided it (by)"), "by")
            if "date" in ruling and not is_iso_date(ruling["date"]):
                self._problem(
                    "notation.ruling.date",
                    index,
                    msg(
                        "the date {date} is no ISO 8601 date, such as 2026-05-02 or 2026-05-02T15:40+08:00",
                        date=plain(ruling["date"]),
                    ),
                    "date",
                )

    def _problem(self, rule: str, index: int, message: Msg, *key):
        self.problems.append((rule, pointer("rulings", index, *key), message))

    def decides(self, rule: str, at: str, deal: int | None) -> int | None:
        """The ruling that decides the error `rule` at `at` (of `deal`), or None: no ruling names it, or the
        one that does has a decision that does not fit it (a finding of its own)."""
        index = None if rule in CHECKS else self.pending.pop((rule, at), None)
        if index is None:
            return None
        ruling = self.raw[index]
        unfit = self._unfit(ruling, rule, at, deal)
        if unfit is not None:
            self._problem("notation.ruling.decision", index, unfit, "decision")
            return None
        self.applied += 1
        decision = ruling["decision"]
        if decision == SCORE:
            self.scored = index
        elif decision == VOID:
            self.voided = index
        elif decision == CLAIM:
            self.claimed.append(index)
        return index

    def _unfit(self, ruling: dict, rule: str, at: str, deal: int | None) -> Msg | None:
        """Why the ruling's decision does not fit the finding, or None (notation §10, checks)."""
        decision = ruling["decision"]
        if decision == CLAIM and not is_claim(rule, at):
            return msg(
                "claim decides a claim that differs from the computation; {rule} at {at} is no such claim",
                rule=rule,
                at=at,
            )
        if decision in (STANDS, SCORE) and not re.match(_ACTION, at):
            return msg(
                "{decision} decides an action; {rule} at {at} is not about an action",
                decision=decision,
                rule=rule,
                at=at,
            )
        if decision == VOID and deal is None:
            return msg("void decides a deal; {rule} at {at} is about the whole record", rule=rule, at=at)
        if decision == SCORE and not self.game.complete_result(ruling.get("result") or {}, self.seats, self.options):
            return msg("score needs the deal's complete result: {needed}", needed=self.game.COMPLETE_RESULT)
        return None

    def stands(self, rule: str, at: str) -> int | None:
        """The `stands` ruling on the action that broke `rule` at `at`, if one is pending."""
        index = self.pending.get((rule, at))
        return index if index is not None and self.raw[index]["decision"] == STANDS else None

    def cannot_stand(self, index: int, why: Msg | str) -> None:
        """A `stands` ruling on an action that cannot be taken as played: an error, and its finding stays one."""
        self.pending = {key: i for key, i in self.pending.items() if i != index}
        self._problem("notation.ruling.cannot_stand", index, msg("the action cannot stand: {why}", why=why))

    def may_void(self, deal: int) -> bool:
        """Whether a pending `void` ruling lies in deal `deal` (its start is then kept for a redeal)."""
        return any(self.raw[i]["decision"] == VOID and deal_of(at) == deal for (_, at), i in self.pending.items())

    def void_of_deal(self, deal: int) -> int | None:
        """The ruling that voids deal `deal` itself (`"at": "/deals/N"`, no rule), taken as met, or None."""
        index = self.pending.get((None, pointer("deals", deal)))
        if index is None or self.raw[index]["decision"] != VOID:
            return None
        del self.pending[(None, pointer("deals", deal))]
        self.applied += 1
        return index

    def unmatched(self) -> list[tuple[str, str, Msg]]:
        """The rulings that decided nothing, once the replay is over."""
        return [
            (
                "notation.ruling.unmatched",
                pointer("rulings", index),
                self._unmatched(rule, at),
            )
            for (rule, at), index in sorted(self.pending.items(), key=lambda item: item[1])
        ]

    @staticmethod
    def _unmatched(rule: str | None, at: str) -> Msg:
        if rule is not None:
            return msg("this ruling decides no error of the record as ruled: no error {rule} at {at}", rule=rule, at=at)
        return msg("this ruling voids {at}, which is no deal of the record", at=at)  # the one without a rule (schema)


_SEVERITIES = {"warning": word("a warning"), "info": word("an info")}


class Refused(Exception):
    """A ruling that cannot be written into the record: `text` says why (a message)."""

    def __init__(self, text: Msg):
        super().__init__(str(text))
        self.text = text


def ruling_on(
    finding, decision: str, by: str, date: str | None = None, reason: str | None = None, result: dict | None = None
) -> dict:
    """The ruling deciding `finding`, a Finding of the record's report: its rule and place, and the decision."""
    if finding.severity != "error":
        raise Refused(
            msg(
                "only an error is decided; this finding is {severity} ({rule} at {at})",
                severity=_SEVERITIES.get(finding.severity, finding.severity),
                rule=finding.rule,
                at=finding.at,
            )
        )
    return _written({"rule": finding.rule, "at": finding.at, "decision": decision, "by": by}, date, reason, result)


def voiding(deal: int, by: str, date: str | None = None, reason: str | None = None) -> dict:
    """The ruling that voids deal `deal` (counted from 0) itself, for what no finding shows (a misdeal, an exposed
    card): it names no rule (notation §10)."""
    return _written({"at": pointer("deals", deal), "decision": VOID, "by": by}, date, reason, None)


def _written(ruling: dict, date: str | None, reason: str | None, result: dict | None) -> dict:
    """A ruling with its date, reason and result where they are given."""
    given = {"date": date, "reason": reason, "result": result}
    return {**ruling, **{key: value for key, value in given.items() if value is not None}}


def decided(record: dict, ruling: dict):
    """(the record with `ruling` added to its rulings, its report as ruled); Refused where the ruling's
    decision does not fit its finding, or its action cannot stand (nothing is changed then)."""
    from .replay import check_record  # here: the replay driver reads this module

    if not isinstance(record.get("rulings", []), list):
        raise Refused(msg("the record's rulings are not a list; nothing can be added to them"))
    out = dict(record, rulings=[*record.get("rulings", []), ruling])
    report = check_record(out)
    own = pointer("rulings", len(out["rulings"]) - 1)
    problem = next(
        (f for f in report.findings if f.severity == "error" and (f.at == own or f.at.startswith(own + "/"))), None
    )
    if problem is not None:
        raise Refused(msg("the ruling is refused: {why}", why=problem.text or problem.message))
    return out, report
