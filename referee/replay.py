"""The replay driver: reads a record, replays every deal through its game module,
and builds the report (notation sections 5, 6 and 9).

A game module offers:

    NAME, DEFAULT_PRESET, PRESETS, PRESET_ALIASES, OPTIONS   (see rules.py)
    new_match(ctx, record, rules) -> match | None    None: the record cannot be replayed
    start_deal(ctx, match, deal) -> state             may raise StopDeal
    apply(ctx, state, action)                         may raise StopDeal
    is_over(state) -> bool
    legal(state) -> dict                              what would have been legal now
    finish_deal(ctx, match, state, deal) -> dict      outcome; checks the deal's claims
    skip_deal(ctx, match, deal, state, stopped)       a deal not played to its end: `stopped` by an
        -> dict                                       error (or incomplete before the last deal), when
                                                      later deals carry on from its claims; otherwise
                                                      the record's unfinished last deal, which leaves
                                                      the match as the last complete deal left it.
                                                      `state` is None when it could not even start
    finish_match(ctx, match, claimed) -> dict         match outcome; checks record claims
    snapshot(state) -> dict                           the table, for `replay`
"""
from __future__ import annotations

from .findings import ERROR, WARNING, Finding, Report, StopDeal, pointer
from .notation import read_deals, seat_findings, structure_findings
from .rules import resolve


class Context:
    """Collects one record's findings; knows which deal is being checked."""

    def __init__(self):
        self.findings: list[Finding] = []
        self.deal: int | None = None

    def add(self, severity, rule, at, message, seat=None, action=None, legal=None):
        self.findings.append(Finding(severity, rule, at, message, seat, self.deal, action, legal))

    def error(self, rule, at, message, seat=None, action=None):
        self.add(ERROR, rule, at, message, seat, action)

    def warn(self, rule, at, message, seat=None, action=None):
        self.add(WARNING, rule, at, message, seat, action)

    def at(self, *parts) -> str:
        """A pointer inside the current deal."""
        return pointer("deals", self.deal, *parts)


def games():
    from . import gandengyan, gouji, guandan
    return {"guandan": guandan, "gouji": gouji, "gandengyan": gandengyan}


def check_record(record, source=None, observe=None) -> Report:
    """The report of one parsed record. `observe(deal, action_index, state)` is called
    after every applied action and once per deal before the first (index -1)."""
    ctx = Context()
    game_name = record.get("game") if isinstance(record, dict) else None
    ctx.findings += structure_findings(record)
    if not ctx.findings:
        ctx.findings += seat_findings(record)
    if ctx.findings:
        return _report(ctx, game_name, None, source)
    game = games().get(game_name)
    if game is None:
        ctx.error("notation.game.unsupported", "/game", f"this referee does not check {game_name} records yet")
        return _report(ctx, game_name, None, source)
    rules, rule_findings = resolve(game, record.get("rules"))
    ctx.findings += rule_findings
    deals, alias_findings = read_deals(record)
    ctx.findings += alias_findings
    if rule_findings:
        return _report(ctx, game_name, rules, source)
    match = game.new_match(ctx, record, rules)
    if match is None:
        return _report(ctx, game_name, rules, source)
    outcomes = [_replay_deal(ctx, game, match, deal, deal.index == len(deals) - 1, observe) for deal in deals]
    ctx.deal = None
    summary = game.finish_match(ctx, match, record.get("result"))
    return _report(ctx, game_name, rules, source, outcomes, summary)


def _replay_deal(ctx, game, match, deal, is_last, observe) -> dict:
    ctx.deal = deal.index
    try:
        state = game.start_deal(ctx, match, deal)
    except StopDeal as stop:
        ctx.add(stop.severity, stop.rule, stop.at or ctx.at(), stop.message)
        return game.skip_deal(ctx, match, deal, None, True)
    if observe:
        observe(deal.index, -1, state)
    for action in deal.actions:
        if game.is_over(state) and action.verb != "declare":     # reports may stand anywhere (notation §5)
            ctx.error(f"{game.NAME}.deal.over", ctx.at("actions", action.index),
                      "the deal was already over; no action may follow", action.seat, action.index)
            break
        try:
            game.apply(ctx, state, action)
        except StopDeal as stop:
            ctx.add(ERROR, stop.rule, stop.at or ctx.at("actions", action.index), stop.message,
                    action.seat, action.index, game.legal(state))
            return game.skip_deal(ctx, match, deal, state, True)
        if observe:
            observe(deal.index, action.index, state)
    if game.is_over(state):
        return game.finish_deal(ctx, match, state, deal)
    return _incomplete(ctx, game, match, state, deal, is_last)


def _incomplete(ctx, game, match, state, deal, is_last) -> dict:
    reached = len(deal.actions)
    severity = WARNING if is_last else ERROR
    tail = "" if is_last else "; only the last deal of a record may be incomplete"
    ctx.add(severity, "notation.deal.incomplete", ctx.at("actions"),
            f"the deal stops after {reached} action{'s' * (reached != 1)}, before it is over{tail}",
            legal=game.legal(state))
    if deal.result:
        ctx.error("notation.result.incomplete", ctx.at("result"),
                  "an incomplete deal cannot claim a result")
    outcome = game.skip_deal(ctx, match, deal, state, not is_last)
    outcome["status"] = "incomplete"
    return outcome


def _report(ctx, game, rules, source, deals=(), match=None) -> Report:
    valid = not any(f.severity == ERROR for f in ctx.findings)
    return Report(valid, game, rules, ctx.findings, list(deals), match, source)


def replay_steps(record, deal_index: int):
    """(report, steps) for one deal: step k is the table after its first k actions (0: as dealt),
    with the action that led there and the deal's findings up to that action."""
    raw = []
    game = games().get(record.get("game")) if isinstance(record, dict) else None

    def observe(deal, index, state):
        if deal == deal_index:
            raw.append((index, game.snapshot(state)))

    report = check_record(record, observe=observe)
    if not raw:
        return report, []
    actions = record["deals"][deal_index]["actions"]
    findings = [f for f in report.findings if f.deal == deal_index]
    steps = [{"step": k, "action": actions[index] if index >= 0 else None, "table": table,
              "findings": [f for f in findings if _seen_by(f, index)]}
             for k, (index, table) in enumerate(raw)]
    return report, steps


def _seen_by(finding, index) -> bool:
    return finding.action <= index if finding.action is not None else index == -1


def step_json(step: dict) -> dict:
    return dict(step, findings=[f.as_dict() for f in step["findings"]])
