"""Text rendering of reports and tables for people (rich)."""
from __future__ import annotations

import functools
import re

from rich.console import Console
from rich.text import Text

from referee.messages import Cards, Listing, Term, language, msg, shown, word
from referee.replay import step_json
from referee.rules import json_text

from .common import padded

STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
SEVERITY = {"error": word("error"), "warning": word("warning"), "info": word("info")}
WHERE = {"deal": lambda n: msg("deal {n}", n=n), "action": lambda n: msg("action {n}", n=n),
         "seat": lambda n: msg("seat {seat}", seat=n)}
# the keys of a deal's and a match's outcome and of a table's snapshot, as the games report them (a key
# not here is shown as it is, spaced)
OUTCOME_KEYS = {text.replace(" ", "_"): text for text in (
    word("status"), word("winner"), word("levels"), word("level"), word("declaring"), word("dealer"),
    word("tribute"), word("penalised"), word("turn"), word("left"), word("out"), word("mode"), word("claimed"),
    word("a attempts"), word("payments"), word("leader"), word("match winner"), word("talon"), word("ruling"),
    word("totals"), word("order"), word("scores"), word("held"), word("multipliers"), word("result"),
    word("margin"), word("draw"), word("kind"), word("bombs played"), word("drawn"), word("lock"), word("owed"),
    word("totals before the deal"), word("card"), word("paid"), word("returned"), word("seat"))}
STATUSES = {word("complete"), word("incomplete"), word("stopped"), word("void")}


# what a console removes from text (rich's control codes) or expands (tabs, to 8 columns)
PRINTED_OTHERWISE = re.compile("[\t\a\b\v\f\r]")
COMMA, SEMICOLON = Term(", "), Term("; ")     # the separators of a Listing (the core's catalogue)


def report(console: Console, rep) -> None:
    for parts in report_parts(rep):
        console.print(Text(*parts[0]) if len(parts) == 1 else Text.assemble(*parts))


def plain_report(rep) -> str:
    """The report as `report` prints it on a console without colour, made without a console (a tenth
    of what checking a record costs, where archives are validated into a file)."""
    lines = ["".join(text for text, _style in parts) for parts in report_parts(rep)]
    return "".join(_printed(line) if PRINTED_OTHERWISE.search(line) else line + "\n" for line in lines)


def _printed(line: str) -> str:
    """A line as a console prints it, for a line with tabs or control codes."""
    shown = Text(line)
    shown.expand_tabs(8)
    return shown.plain + "\n"


def report_parts(rep) -> list[tuple[tuple[str, str], ...]]:
    """The report's lines, each as its parts: (text, style)."""
    lang = language()
    lines = [_verdict_parts(rep)]
    lines += [(("  " + deal_line(deal, lang), ""),) for deal in rep.deals]
    if rep.match:
        lines.append((("  " + match_line(rep.match, lang), ""),))
    for f in rep.findings:
        where = Listing([WHERE[k](getattr(f, k)) for k in ("deal", "action", "seat") if getattr(f, k) is not None])
        severity = padded(SEVERITY[f.severity].shown(lang), 7)
        lines.append((("  ", ""), (severity, STYLE[f.severity]), (" ", ""), (f.rule, "bold"),
                      (f"  {f.at or '/'}" + (f"  ({where.shown(lang)})" if where else ""), "")))
        lines.append((("          " + f.shown(lang), ""),))
        if f.legal and f.legal.get("may") and f.severity == "error":
            lines.append((("          " + _legal_then(f), "dim"),))
    if rep.inferred is not None:
        from referee.infer import describe     # here: only --infer-rules needs it

        lines.append((("  " + msg("rules: {rules}", rules=shown(describe(rep.inferred))).render(), "bold"),))
    return lines


def _legal_then(finding) -> str:
    return msg("legal then: {plays}", plays=shown(finding.legal["may"])).render()


def step_shown(frame: dict) -> dict:
    """A replay step as JSON, its findings' messages in the language spoken."""
    return dict(step_json(frame), findings=[f.as_dict(language()) for f in frame["findings"]])


def verdict_line(rep) -> Text:
    """Source, verdict and rules; input that could not be read as a record is UNREADABLE."""
    return Text.assemble(*_verdict_parts(rep))


def _verdict_parts(rep) -> tuple[tuple[str, str], ...]:
    source = (rep.source or msg("<record>").render(), "bold")
    if rep.unreadable:
        return source, ("  ", ""), (msg("UNREADABLE").render(), "bold red")
    verdict = (msg("VALID").render(), "bold green") if rep.valid else (msg("INVALID").render(), "bold red")
    rules = f"{rep.game} ({rep.rules['preset']})" if rep.rules else (rep.game or msg("unknown game").render())
    return source, ("  ", ""), verdict, ("  ", ""), (rules, "")


def deal_line(deal: dict, lang: str) -> str:
    """A deal's outcome in one line, whatever the game: its keys in order."""
    status = deal.get("status")
    head = msg("deal {n}: {status}", n=deal["deal"], status=Term(status) if status in STATUSES else status).render(lang)
    if deal.get("from_claim"):
        head += msg(" (outcome from the record's claim, unchecked)").render(lang)
    rest = [f"{_key(key, lang)} {_value(value, lang)}" for key, value in deal.items()
            if key not in ("deal", "status", "from_claim") and value is not None]
    return COMMA.shown(lang).join([head] + rest)


def match_line(match: dict, lang: str) -> str:
    parts = [f"{_key(key, lang)} {_value(value, lang)}" for key, value in match.items()
             if value is not None and key != "settled"]
    head = msg("match: ") if match.get("settled", True) else \
        msg("match, not settled (as it stood before the deal that stopped without a claimed result): ")
    return head.render(lang) + (COMMA.shown(lang).join(parts) or msg("nothing to report").render(lang))


@functools.lru_cache(maxsize=1024)
def _key(key: str, lang: str) -> str:
    """One key of an outcome: 'bombs played' for bombs_played."""
    return OUTCOME_KEYS[key].shown(lang) if key in OUTCOME_KEYS else key.replace("_", " ")


def _value(value, lang: str) -> str:
    """One value of an outcome: '3 0' for [3, 0]."""
    if type(value) is int or type(value) is str:     # most values: no word, cards or phrase to translate
        return str(value)
    if isinstance(value, bool):
        return (word("yes") if value else word("no")).shown(lang)
    if isinstance(value, list):
        sep = " | " if any(isinstance(v, list) for v in value) else \
            SEMICOLON.shown(lang) if any(isinstance(v, str) and " " in v for v in value) else " "
        return sep.join([_value(v, lang) for v in value]) if value else "-"
    if isinstance(value, dict):
        return " ".join(f"{_key(k, lang)}={_value(v, lang)}" for k, v in value.items())
    return str(shown(value, lang))


def summary(console: Console, counts: dict) -> None:
    console.print(Text.assemble(
        (msg("Summary: ").render(), "bold"), msg("{n} record(s): ", n=counts["records"]).render(),
        (msg("{n} valid", n=counts["valid"]).render(), "green"), COMMA.shown(language()),
        (msg("{n} invalid", n=counts["invalid"]).render(), "red"), COMMA.shown(language()),
        (msg("{n} unreadable", n=counts["unreadable"]).render(), "red" if counts["unreadable"] else "")))
    if counts.get("rules"):
        width = len(str(max(counts["rules"].values())))
        console.print(Text(msg("Findings by rule id:").render(), "bold"))
        for rule, count in counts["rules"].items():
            console.print(f"  {count:>{width}}  {rule}", highlight=False)


def names(record) -> list[str]:
    players = record.get("players") if isinstance(record, dict) else None
    return [str(p) for p in players] if isinstance(players, list) else []


def table(console: Console, frame: dict, players: list[str]) -> None:
    """An arbiter's table: who sits where, their hands in rank order (wild cards marked *),
    the trick, who is to act, the findings made at this step and, at the end, the outcome."""
    from rich.table import Table     # here: only a replay needs it

    snap = frame["table"]
    console.print(_step_head(frame, players), highlight=False)
    wild = set(snap.get("wild") or [])
    turn = snap.get("turn")
    grid = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column in (word("seat"), word("player"), word("cards")):
        grid.add_column(column.shown(language()), justify="right" if column == "cards" else "left")
    grid.add_column((msg("hand (low to high, * wild)") if wild else msg("hand (low to high)")).render(),
                    overflow="fold")     # rich would cut a line that fits but for its trailing space ("…")
    for seat, hand in enumerate(snap["hands"]):
        acting = msg(" ← to act").render() if seat in _acting(turn) else ""
        grid.add_row(f"{seat}{acting}", _name(players, seat), str(len(hand)),
                     " ".join(_cards(c) + "*" if c in wild else _cards(c) for c in hand))
    console.print(grid)
    for line in _state_lines(snap, players):
        console.print(line, highlight=False)
    for f in frame["findings"]:
        console.print(Text.assemble((SEVERITY[f.severity].shown(language()), STYLE[f.severity]), " ",
                                    (f.rule, "bold"), f": {f.shown()}"))
        if f.legal and f.legal.get("may") and f.severity == "error":
            console.print(Text("  " + _legal_then(f), "dim"))
    if frame.get("outcome"):
        outcome = deal_line(frame["outcome"], language())
        console.print(Text(msg("end of deal: {outcome}", outcome=outcome).render(), "bold"))


def _cards(codes: str) -> str:
    return Cards(codes).shown(language())


def _step_head(frame, players) -> Text:
    action = frame["action"]
    if action is None:
        return Text(msg("step 0: as dealt").render(), "bold")
    head = Text(msg("step {step}: action {action}, {what}", step=frame["step"], action=frame["step"] - 1,
                    what=_action_text(action, players)).render(), "bold")
    if frame.get("rejected"):
        head.append(msg("  REJECTED: the table before it").render(), "bold red")
    return head


def _acting(turn) -> list[int]:
    """The seats that may act: a snapshot's `turn` is one seat, a list of them (Gou Ji) or None."""
    return [] if turn is None else turn if isinstance(turn, list) else [turn]


def _name(players, seat) -> str:
    return players[seat] if 0 <= seat < len(players) else ""


def _seat(players, seat):
    name = _name(players, seat)
    return msg("seat {seat} ({name})", seat=seat, name=name) if name else msg("seat {seat}", seat=seat)


def _team(players, team):
    members = [_name(players, s) for s in range(team, len(players), 2)]
    return msg("team {team} ({names})", team=team, names=Listing(members)) if all(members) else \
        msg("team {team}", team=team)


def _state_lines(snap, players) -> list[str]:
    lines = []
    if snap.get("levels"):
        levels = Listing([msg("{team} at {level}", team=_team(players, t), level=level)
                          for t, level in enumerate(snap["levels"])])
        declaring = snap.get("declaring")
        lines.append(msg("levels: {levels}; declaring: {team}", levels=levels, team=msg("none (first deal)")
                         if declaring is None else _team(players, declaring)).render())
    turn = snap.get("turn")
    acting = Listing([_seat(players, seat) for seat in _acting(turn)], " or ") if _acting(turn) else msg("nobody")
    phase = msg("phase {phase}; ", phase=snap["phase"]).render() if snap.get("phase") else ""
    lines.append(phase + msg("to act: {seats}", seats=acting).render())
    trick = Listing([_trick_part(players, t) for t in snap["table"]], "; ") if snap["table"] else msg("empty")
    lines.append(msg("current trick: {trick}", trick=trick).render())
    shown = ("hands", "table", "turn", "phase", "levels", "declaring", "wild")
    for key, value in snap.items():
        if key not in shown and value not in (None, [], {}):
            lines.append(f"{_key(key, language())}: {_nested(value)}")
    return lines


def _trick_part(players, part: dict):
    if "play" in part:
        return msg("{seat} {cards} ({kind})", seat=_seat(players, part["seat"]), cards=Cards(" ".join(part["play"])),
                   kind=Term(part["as"]))
    return msg("{seat} passes", seat=_seat(players, part["seat"]))


def _nested(value, inner=False) -> str:
    """A snapshot value of lists and objects on one line: 'seat 0 card 5H, seat 1 card 7C'."""
    if isinstance(value, dict):
        return (" " if inner else "; ").join(f"{_key(k, language())} {_nested(v, True)}" for k, v in value.items()
                                             if v not in (None, [], {}))
    if isinstance(value, list):
        return ", ".join(_nested(v, True) for v in value) or "-"
    return str(shown(value))


def _action_text(action: dict, players=()):
    seat = _seat(players, action["seat"])
    if "play" in action:
        cards = Cards(" ".join(action["play"]))
        if "as" in action:
            return msg("{seat} plays {cards} as {kind}", seat=seat, cards=cards, kind=Term(action["as"]))
        return msg("{seat} plays {cards}", seat=seat, cards=cards)
    if "pass" in action:
        return msg("{seat} passes", seat=seat)
    verb = next((verb for verb in ("tribute", "return") if verb in action), None)
    if verb is not None:
        card = Cards(action[verb])
        given = msg("{seat} tributes {card}", seat=seat, card=card) if verb == "tribute" else \
            msg("{seat} returns {card}", seat=seat, card=card)
        return msg("{given} to seat {to}", given=given, to=action["to"]) if "to" in action else given
    if "count" in action:
        return msg("{seat} declares {what} {count}", seat=seat, what=action.get("declare"), count=action["count"])
    return msg("{seat} declares {what}", seat=seat, what=action.get("declare"))


def rules_table(game) -> str:
    """A game's presets and options as plain text: nothing is cut, in a terminal or a pipe."""
    lines = [msg("{game}: default preset {preset}; rules page docs/rules/{game}.md", game=game.NAME,
                 preset=game.DEFAULT_PRESET).render(), "", msg("presets:").render()]
    for name, overrides in game.PRESETS.items():
        changes = ", ".join(f"{k}={json_text(v)}" for k, v in overrides.items()) or msg("(all defaults)").render()
        lines.append(f"  {name}: {changes}")
    if game.PRESET_ALIASES:
        aliases = ", ".join(f"{alias} = {name}" for alias, name in game.PRESET_ALIASES.items())
        lines.append("  " + msg("aliases: {aliases}", aliases=aliases).render())
    lines += ["", msg("options (name: values, default):").render()]
    for name, opt in game.OPTIONS.items():
        lines.append(f"  {name}: " + msg("{values}, default {default}", values=shown(opt.describe()),
                                          default=json_text(opt.default)).render())
        lines.append(f"      {shown(opt.effect)}")
    return "\n".join(lines)
