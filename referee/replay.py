"""The replay driver: reads a record, replays every deal through its game module,
and builds the report (notation sections 5, 6 and 9).

The games are modules that satisfy the contract in game.py (`Game`), found by name in its registry.

Steps of a replay (`replay_steps`): step 0 is the table as dealt, step k+1 the table after
action k; an action that was rejected is the last step, shown on the table it was tried on.
"""

from __future__ import annotations

import functools
import gc

from .actions import applied
from .commitments import commitment_findings
from .findings import ERROR, INFO, MAX_LISTED, WARNING, Finding, Report, StopDeal, more_finding, pointer
from .game import GAMES, game as game_module
from .messages import Phrase, msg, msg_n, word, word_in
from .notation import (
    number_findings,
    players_finding,
    read_deals,
    read_plain,
    seat_findings,
    structure_findings,
)
from .rules import resolve
from .rulings import STANDS, Rulings

TYPE_CHECKING = False  # typing is not imported where records are checked (referee/game.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from .actions import Action, Deal
    from .contract import Game, Legal, Outcome, Snapshot
    from .messages import Msg, Term
    from .notation import Plain

    Observer = Callable[[int, int, Any], None]  # (deal, action index, state), as check_record says


class FirstError(Exception):
    """Raised by a Context that only needs to know whether a record is valid."""


class Context:
    """Collects one record's findings, MAX_LISTED of a rule at most (the rest counted); knows which deal is
    being checked."""

    def __init__(self, stop_at_error: bool = False) -> None:
        self.findings: list[Finding] = []
        self.made: dict[str, int] = {}  # findings made, by rule
        self.unlisted: dict[tuple[str, str], int] = {}  # (rule, severity) of those past MAX_LISTED of a rule
        self.deal: int | None = None
        self.stop_at_error = stop_at_error
        self.rulings: Rulings | None = None  # the record's rulings (notation §10), when it has any

    def add(
        self,
        severity: str,
        rule: str,
        at: str,
        message: Msg | str,
        seat: int | None = None,
        action: int | None = None,
        legal: Legal | None = None,
    ) -> int | None:
        """Records the finding; returns the ruling that decided it, if one did."""
        ruling = self.rulings.decides(rule, at, self.deal) if severity == ERROR and self.rulings else None
        if ruling is not None:
            severity = INFO
        made = self.made[rule] = self.made.get(rule, 0) + 1
        if made <= MAX_LISTED:
            self.findings.append(Finding(severity, rule, at, message, seat, self.deal, action, legal, ruling))
        else:
            self.unlisted[rule, severity] = self.unlisted.get((rule, severity), 0) + 1
        if self.stop_at_error and severity == ERROR:
            raise FirstError
        return ruling

    def error(self, rule: str, at: str, message: Msg | str, seat: int | None = None, action: int | None = None) -> None:
        self.add(ERROR, rule, at, message, seat, action)

    def error_stands(
        self, rule: str, at: str, message: Msg | str, seat: int | None = None, action: int | None = None
    ) -> bool:
        """Reports an error the table goes on from whichever way it is decided; True when a ruling `stands`
        decides it, so that the action is taken as played (notation §10)."""
        ruling = self.add(ERROR, rule, at, message, seat, action)
        return ruling is not None and self.rulings is not None and self.rulings.raw[ruling]["decision"] == STANDS

    def warn(self, rule: str, at: str, message: Msg | str, seat: int | None = None, action: int | None = None) -> None:
        self.add(WARNING, rule, at, message, seat, action)

    def at(self, *parts: str | int) -> str:
        """A pointer inside the current deal."""
        return pointer("deals", self.deal, *parts)


INCOMPLETE = word("incomplete")  # a deal whose actions end before it does

# the games' names as players say them (the notation names a game by its `game` value)
GAME_NAMES = {"guandan": word("Guandan"), "gouji": word("Gou Ji"), "gandengyan": word("Gan Deng Yan")}


def game_name(game: object) -> object:
    """The game named by a record's `game`: in English as the record writes it, else as players say it (掼蛋)."""
    return Phrase(GAME_NAMES[game], game) if isinstance(game, str) and game in GAME_NAMES else game


def reading_shown(game: object, text: object, cards: object) -> object:
    """An `as` reading (TYPE:RANK) of `cards`: in English as the notation writes it (single:J), otherwise in
    the game's words (单张J, 9到K的顺子)."""
    module = game_module(game) if isinstance(game, str) else None
    if module is None or not isinstance(text, str) or not isinstance(cards, list):
        return text
    return Phrase(module.reading_words(text, cards), text)


def game_word(game: object, name: object) -> object:
    """A word of the game named (a declaration, "wild card"), from its catalogue."""
    return word_in(game, name) if isinstance(game, str) and game in GAMES and isinstance(name, str) else name


def game_named(record) -> str | None:
    """The game a record names, as its report names it: None for a "game" that is no string (a list, a number),
    which the structure check finds."""
    game = record.get("game") if isinstance(record, dict) else None
    return game if isinstance(game, str) else None


def cycle_collection_paused():
    """A decorator: checking a record makes many small objects and hardly any reference cycles: the cycle
    collector, which Python runs every few hundred new objects, would only slow it down (by about
    a tenth). It runs again afterwards, at the caller's next allocations, and finds any cycles then.
    A function, not a context manager's decorator: called for every record, that made a new one each time."""

    def decorate(function):
        @functools.wraps(function)
        def paused(*args, **kwargs):
            if not gc.isenabled():
                return function(*args, **kwargs)
            gc.disable()
            try:
                return function(*args, **kwargs)
            finally:
                gc.enable()

        return paused

    return decorate


@cycle_collection_paused()
def check_record(
    record: Any,
    source: str | None = None,
    observe: Observer | None = None,
    stop_at_error: bool = False,
    seat_problems: list[Finding] | None = None,
    plain: Plain | None = None,
) -> Report:
    """The report of one parsed record. `observe(deal, action_index, state)` is called
    after every applied action and once per deal before the first (index -1). With
    `stop_at_error` the check ends at the first error (the report then holds just that, without what
    would have been legal: such a check is asked only whether the record is valid).
    A caller that has checked the record's structure (sound) and its seats already passes
    the seat findings as `seat_problems`, and neither is checked again; one that has read it
    with notation.plain_read passes what that read as `plain`."""
    ctx = Context(stop_at_error)
    try:
        return _check(ctx, record, source, observe, seat_problems, plain)
    except FirstError:
        return _report(ctx, game_named(record), None, source)


def _check(
    ctx: Context,
    record: Any,
    source: str | None,
    observe: Observer | None,
    seat_problems: list[Finding] | None,
    plain: Plain | None,
) -> Report:
    game_name = game_named(record)
    crowded = players_finding(record)
    if crowded:
        ctx.findings.append(crowded)
        return _report(ctx, game_name, None, source)
    deals = plain.deals if plain is not None else read_plain(record) if seat_problems is None else None
    if deals is None:
        if seat_problems is None:
            ctx.findings += structure_findings(record)
        if not ctx.findings:
            ctx.findings += (seat_findings(record) if seat_problems is None else seat_problems) + number_findings(
                record
            )
        if ctx.findings:
            return _report(ctx, game_name, None, source)
    game = game_module(game_name)
    if game is None:
        ctx.error(
            "notation.game.unsupported", "/game", msg("this referee does not check {game} records yet", game=game_name)
        )
        return _report(ctx, game_name, None, source)
    rules, rule_findings = resolve(game, record.get("rules"))
    ctx.findings += rule_findings + commitment_findings(game, record, rules["options"])
    if deals is None:
        deals, alias_findings = read_deals(record)
        ctx.findings += alias_findings
    if rule_findings:
        return _report(ctx, game_name, rules, source)
    match = game.new_match(ctx, record, rules)
    if match is None:
        return _report(ctx, game_name, rules, source)
    if "rulings" in record:
        ctx.rulings = Rulings(record["rulings"], game, len(record["players"]), rules["options"])
    outcomes = []
    for deal in deals:
        match = _judged_from(ctx, game, match, deal, deal.index == len(deals) - 1)
        if ctx.rulings is None:
            outcomes.append(_replay_deal(ctx, game, match, deal, deal.index == len(deals) - 1, observe))
        else:
            match, outcome = _ruled_deal(ctx, game, match, deal, deal.index == len(deals) - 1, observe)
            outcomes.append(outcome)
    ctx.deal = None
    summary = game.finish_match(ctx, match, record.get("result"))
    if ctx.rulings is not None:
        _ruled_match(ctx, game, ctx.rulings, summary, record.get("result") or {})
    return _report(ctx, game_name, rules, source, outcomes, summary)


def _judged_from(ctx: Context, game: Game[Any, Any], match: Any, deal: Deal, is_last: bool) -> Any:
    """The match state a deal is judged from: the computed one, unless the deal breaks a rule there
    but plays through from the state carried on from an earlier differing claim (notation §9).
    The trials replay copies, without findings; the deal is then replayed for real."""
    claimed = game.claimed_state(match)
    if claimed is None:
        return match
    broken = _first_error(game, game.fork(match), deal, is_last)
    if broken is None or _first_error(game, game.fork(claimed), deal, is_last) is not None:
        return match
    ctx.deal = deal.index
    return game.adopt_claim(ctx, match, broken)


def _first_error(game: Game[Any, Any], match: Any, deal: Deal, is_last: bool) -> Finding | None:
    """The deal's first error but in its own claims, which are weighed once the state is chosen."""
    trial = Context()
    trial.deal = deal.index
    _replay_deal(trial, game, match, deal, is_last, None)
    claims = trial.at("result")
    return next((f for f in trial.findings if f.severity == ERROR and not f.at.startswith(claims)), None)


def _replay_deal(
    ctx: Context, game: Game[Any, Any], match: Any, deal: Deal, is_last: bool, observe: Observer | None
) -> Outcome:
    ctx.deal = deal.index
    try:
        state = game.start_deal(ctx, match, deal)
    except StopDeal as stop:
        ctx.add(stop.severity, stop.rule, stop.at or ctx.at(), stop.message, stop.seat)
        return game.skip_deal(ctx, match, deal, None, True)
    if observe:
        observe(deal.index, -1, state)
    try:
        if ctx.rulings is None:
            done = applied(ctx, state, deal.actions, observe, deal.index)
        else:
            done = _ruled_actions(ctx, game, state, deal, observe)
    except StopDeal as stop:
        action = stop.action
        assert action is not None  # set by whoever applied it (actions.applied, _ruled_actions)
        ctx.add(
            ERROR,
            stop.rule,
            stop.at or ctx.at("actions", action.index),
            stop.message,
            action.seat,
            action.index,
            None if ctx.stop_at_error else game.legal(state),
        )
        if ctx.rulings is None or ctx.rulings.scored is None:
            return game.skip_deal(ctx, match, deal, state, True)
        done = action.index + 1
    if done < len(deal.actions):  # over before this action; reports too stand only before the end (notation §5)
        action = deal.actions[done]
        ctx.error(
            f"{game.NAME}.deal.over",
            ctx.at("actions", action.index),
            msg("the deal was already over; no action may follow"),
            action.seat,
            action.index,
        )
    if ctx.rulings is not None and ctx.rulings.scored is not None:
        index = ctx.rulings.scored
        outcome = game.score_deal(
            ctx, match, deal, state, ctx.rulings.raw[index]["result"], pointer("rulings", index, "result")
        )
        outcome["by_ruling"] = index
        return outcome
    if state.over:
        return game.finish_deal(ctx, match, state, deal)
    return _incomplete(ctx, game, match, state, deal, is_last)


def _ruled_deal(
    ctx: Context, game: Game[Any, Any], match: Any, deal: Deal, is_last: bool, observe: Observer | None
) -> tuple[Any, Outcome]:
    """(match, outcome) after a deal of a record with rulings (notation §10): a voided deal has its findings
    as info and leaves the match as it started; a claim that a ruling let stand is the match's only
    candidate from there on."""
    rulings = ctx.rulings
    assert rulings is not None
    rulings.scored, rulings.voided, rulings.claimed = None, None, []
    voided = rulings.void_of_deal(deal.index)
    before = game.fork(match)
    start = before if voided is not None or rulings.may_void(deal.index) else None
    first, stop_at_error = len(ctx.findings), ctx.stop_at_error
    ctx.stop_at_error = stop_at_error and start is None  # an error of a deal voided later is no error
    outcome = _replay_deal(ctx, game, match, deal, is_last, observe)
    ctx.stop_at_error = stop_at_error
    voided = voided if voided is not None else rulings.voided
    if voided is not None:
        rulings.claimed = []  # a claim of a deal that counts for nothing stands for nothing
        for finding in ctx.findings[first:]:
            if finding.deal == deal.index and finding.severity != INFO:
                finding.severity, finding.ruling = INFO, finding.ruling if finding.ruling is not None else voided
        return start, {"deal": deal.index, "status": "void", "by_ruling": voided}
    if stop_at_error and any(f.severity == ERROR for f in ctx.findings[first:]):
        raise FirstError
    if rulings.claimed:
        match = game.claim_stands(before, match, outcome, deal.result or {}, _claim_keys(rulings))
    return match, outcome


def _claim_keys(rulings) -> set[str]:
    """The claims (`levels`, `scores`, `totals`, ...) that `claim` rulings let stand since the driver last looked."""
    keys = {rulings.raw[index]["at"].partition("/result/")[2].split("/")[0] for index in rulings.claimed}
    rulings.claimed = []
    return keys


def _ruled_actions(ctx: Context, game: Game[Any, Any], state: Any, deal: Deal, observe: Observer | None) -> int:
    """As actions.applied, for a record with rulings: an action a ruling lets stand is taken as played, and
    a deal a ruling scores ends after the decided action."""
    rulings = ctx.rulings
    assert rulings is not None
    for done, action in enumerate(deal.actions):
        if state.over or rulings.scored is not None:
            return done
        try:
            state.take(ctx, action)
        except StopDeal as stop:
            if not _stood(ctx, game, state, action, stop):
                stop.action = action
                raise
        if observe is not None:
            observe(deal.index, action.index, state)
    return len(deal.actions)


def _stood(ctx: Context, game: Game[Any, Any], state: Any, action: Action, stop: StopDeal) -> bool:
    """Whether the action that broke a rule (`stop`) was taken as played, as a ruling `stands` says."""
    at = stop.at or ctx.at("actions", action.index)
    rulings = ctx.rulings
    assert rulings is not None
    index = rulings.stands(stop.rule, at)
    if index is None:
        return False
    try:
        game.stand(ctx, state, action)
    except StopDeal as why:
        rulings.cannot_stand(index, why.message)
        return False
    ctx.add(ERROR, stop.rule, at, stop.message, action.seat, action.index)  # decided: info
    return True


def _ruled_match(
    ctx: Context, game: Game[Any, Any], rulings: Rulings, summary: dict[str, Any], claimed: dict[str, Any]
) -> None:
    """The record's claims that rulings let stand replace the computed values in the match outcome (the
    computed ones are kept beside them), who won and the result follow from them as the game says (the
    outcome reported is the outcome as ruled, notation §10), and the rulings' own errors are reported."""
    keys = _claim_keys(rulings)
    for key in keys:
        summary.setdefault("computed", {})[key] = summary.get(key)
        summary[key] = claimed[key]
    if keys:
        game.ruled_match(ctx, summary, keys, claimed)
    for rule, at, message in rulings.problems + rulings.unmatched():
        ctx.error(rule, at, message)


def _incomplete(ctx: Context, game: Game[Any, Any], match: Any, state: Any, deal: Deal, is_last: bool) -> Outcome:
    reached = len(deal.actions)
    severity = WARNING if is_last else ERROR
    stops = (
        msg_n(
            "the deal stops after {n} action, before it is over",
            "the deal stops after {n} actions, before it is over",
            reached,
        )
        if is_last
        else msg_n(
            "the deal stops after {n} action, before it is over; only the last deal of a record may be incomplete",
            "the deal stops after {n} actions, before it is over; only the last deal of a record may be incomplete",
            reached,
        )
    )
    ctx.add(severity, "notation.deal.incomplete", ctx.at("actions"), stops, legal=game.legal(state))
    if deal.result:
        ctx.error("notation.result.incomplete", ctx.at("result"), msg("an incomplete deal cannot claim a result"))
    outcome = game.skip_deal(ctx, match, deal, state, not is_last)
    outcome["status"] = INCOMPLETE
    return outcome


def _report(ctx, game, rules, source, deals=(), match=None) -> Report:
    findings = ctx.findings + [
        more_finding(count, msg("{rule} findings", rule=rule), severity=severity)
        for (rule, severity), count in ctx.unlisted.items()
    ]
    valid = not any(f.severity == ERROR for f in findings)
    applied_rulings = None if ctx.rulings is None else ctx.rulings.applied
    return Report(valid, game, rules, findings, list(deals), match, source, rulings=applied_rulings)


def replay_steps(record, deal_index: int):
    """(report, steps) for one deal. Step 0 is the table as dealt and step k+1 the table after
    action k (actions count from 0, as findings do). An action the replay rejected is shown as a
    last step, on the table it was tried on, with `rejected` set. Each step lists the deal's
    findings made there: an action's at its step, the deal's own (hands, leader) at step 0, and
    its claims and completeness at the last step (after the last deal, the record's claims too)."""
    report, steps = deals_steps(record, [deal_index])
    return report, steps[deal_index]


def deals_steps(record, deal_indexes) -> tuple[Report, dict[int, list]]:
    """(report, steps of each deal asked for), as replay_steps gives them, from one check of the record."""
    raw: dict[int, list[tuple[int, Snapshot]]] = {deal: [] for deal in deal_indexes}
    game = game_module(record.get("game")) if isinstance(record, dict) else None

    def observe(deal, index, state):
        if deal in raw:
            raw[deal].append((index, game.snapshot(state)))

    report = check_record(record, observe=observe)
    return report, {deal: _steps(record, report, deal, tables) if tables else [] for deal, tables in raw.items()}


def _steps(record, report, deal_index, raw) -> list:
    """The steps of one deal from the tables `raw` seen in it, (action index, snapshot) in order."""
    actions = record["deals"][deal_index]["actions"]
    steps = [
        {"step": index + 1, "action": actions[index] if index >= 0 else None, "table": table, "findings": []}
        for index, table in raw
    ]
    findings = [f for f in report.findings if f.deal == deal_index]
    # the action that stopped the deal: the one after the last replayed (findings made before the replay, such as
    # an alias, may stand further on)
    rejected = next((f.action for f in findings if f.action == len(raw) - 1), None)
    if rejected is not None:
        steps.append(
            {"step": rejected + 1, "action": actions[rejected], "table": raw[-1][1], "findings": [], "rejected": True}
        )
    for finding in findings:
        _step_of(finding, steps, deal_index)["findings"].append(finding)
    if deal_index == len(record["deals"]) - 1:  # the record's claims about the match, after its last deal
        steps[-1]["findings"] += [f for f in report.findings if f.deal is None and f.at.startswith("/result")]
    steps[-1]["outcome"] = report.deals[deal_index] if deal_index < len(report.deals) else None
    return steps


def _step_of(finding, steps, deal_index) -> dict:
    if finding.action is not None:  # an action after the deal stopped: its last step
        return next((s for s in reversed(steps) if s["step"] == finding.action + 1), steps[-1])
    own = pointer("deals", deal_index)
    if finding.at == own or finding.at.startswith((own + "/hands", own + "/leader", own + "/talon")):
        return steps[0]
    return steps[-1]


def step_of_action(steps, action: int) -> int | None:
    """The position in `steps` of the step that shows action `action`, or None."""
    return next((i for i in range(len(steps) - 1, -1, -1) if steps[i]["step"] == action + 1), None)


def finishing_place(game: object, index: int) -> Term | None:
    """The name of the finishing place `index` (0: the first out) in the game named, as players say it
    (Guandan's 头游, Gou Ji's 大落), or None where the game names none."""
    module = game_module(game)
    places = () if module is None else module.PLACES
    return places[index] if 0 <= index < len(places) else None


def acting_seats(turn) -> list[int]:
    """The seats that may act: a snapshot's `turn` is one seat, a list of them (Gou Ji) or None."""
    return [] if turn is None else turn if isinstance(turn, list) else [turn]


def step_json(step: dict) -> dict:
    return dict(step, findings=[f.as_dict() for f in step["findings"]])
