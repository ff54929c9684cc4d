"""Text rendering of reports and tables for people (rich)."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from referee.infer import describe
from referee.rules import json_text

STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def report(console: Console, rep) -> None:
    for line in report_lines(rep):
        console.print(line)


def plain_report(rep) -> str:
    """The report as `report` prints it on a console without colour, made without a console (a tenth
    of what checking a record costs, where archives are validated into a file)."""
    text = []
    for line in report_lines(rep):
        line.expand_tabs(8)
        text.append(line.plain + "\n")
    return "".join(text)


def report_lines(rep) -> list[Text]:
    lines = [verdict_line(rep)]
    lines += [Text("  " + deal_line(deal)) for deal in rep.deals]
    if rep.match:
        lines.append(Text("  " + match_line(rep.match)))
    for f in rep.findings:
        where = ", ".join(f"{k} {getattr(f, k)}" for k in ("deal", "action", "seat") if getattr(f, k) is not None)
        lines.append(Text.assemble("  ", (f"{f.severity:<7}", STYLE[f.severity]), " ", (f.rule, "bold"),
                                   f"  {f.at or '/'}" + (f"  ({where})" if where else "")))
        lines.append(Text("          " + f.message))
        if f.legal and f.legal.get("may") and f.severity == "error":
            lines.append(Text("          legal then: " + f.legal["may"], "dim"))
    if rep.inferred is not None:
        lines.append(Text("  rules: " + describe(rep.inferred), "bold"))
    return lines


def verdict_line(rep) -> Text:
    """Source, verdict and rules; input that could not be read as a record is UNREADABLE."""
    if rep.unreadable:
        return Text.assemble((rep.source or "<record>", "bold"), "  ", ("UNREADABLE", "bold red"))
    verdict = Text("VALID", "bold green") if rep.valid else Text("INVALID", "bold red")
    rules = f"{rep.game} ({rep.rules['preset']})" if rep.rules else (rep.game or "unknown game")
    return Text.assemble((rep.source or "<record>", "bold"), "  ", verdict, "  ", rules)


def deal_line(deal: dict) -> str:
    """A deal's outcome in one line, whatever the game: its keys in order."""
    head = f"deal {deal['deal']}: {deal.get('status')}"
    if deal.get("from_claim"):
        head += " (outcome from the record's claim, unchecked)"
    rest = [f"{key.replace('_', ' ')} {_value(value)}" for key, value in deal.items()
            if key not in ("deal", "status", "from_claim") and value is not None]
    return ", ".join([head] + rest)


def match_line(match: dict) -> str:
    parts = [f"{key.replace('_', ' ')} {_value(value)}" for key, value in match.items()
             if value is not None and key != "settled"]
    head = "match: " if match.get("settled", True) else \
        "match, not settled (as it stood before the deal that stopped without a claimed result): "
    return head + (", ".join(parts) or "nothing to report")


def _value(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        sep = " | " if any(isinstance(v, list) for v in value) else \
            "; " if any(isinstance(v, str) and " " in v for v in value) else " "
        return sep.join(_value(v) for v in value) if value else "-"
    if isinstance(value, dict):
        return " ".join(f"{k}={_value(v)}" for k, v in value.items())
    return str(value)


def summary(console: Console, counts: dict) -> None:
    console.print(Text.assemble(
        ("Summary: ", "bold"), f"{counts['records']} record(s): ",
        (f"{counts['valid']} valid", "green"), ", ", (f"{counts['invalid']} invalid", "red"),
        ", ", (f"{counts['unreadable']} unreadable", "red" if counts["unreadable"] else "")))
    if counts.get("rules"):
        width = len(str(max(counts["rules"].values())))
        console.print(Text("Findings by rule id:", "bold"))
        for rule, count in counts["rules"].items():
            console.print(f"  {count:>{width}}  {rule}", highlight=False)


def names(record) -> list[str]:
    players = record.get("players") if isinstance(record, dict) else None
    return [str(p) for p in players] if isinstance(players, list) else []


def table(console: Console, frame: dict, players: list[str]) -> None:
    """An arbiter's table: who sits where, their hands in rank order (wild cards marked *),
    the trick, who is to act, the findings made at this step and, at the end, the outcome."""
    snap = frame["table"]
    console.print(_step_head(frame, players), highlight=False)
    wild = set(snap.get("wild") or [])
    turn = snap.get("turn")
    grid = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column in ("seat", "player", "cards"):
        grid.add_column(column, justify="right" if column == "cards" else "left")
    grid.add_column("hand (low to high" + (", * wild)" if wild else ")"))
    for seat, hand in enumerate(snap["hands"]):
        grid.add_row(f"{seat}{' ← to act' if seat in _acting(turn) else ''}", _name(players, seat), str(len(hand)),
                     " ".join(c + "*" if c in wild else c for c in hand))
    console.print(grid)
    for line in _state_lines(snap, players):
        console.print(line, highlight=False)
    for f in frame["findings"]:
        console.print(Text.assemble((f.severity, STYLE[f.severity]), " ", (f.rule, "bold"), f": {f.message}"))
        if f.legal and f.legal.get("may") and f.severity == "error":
            console.print(Text("  legal then: " + f.legal["may"], "dim"))
    if frame.get("outcome"):
        console.print(Text("end of deal: " + deal_line(frame["outcome"]), "bold"))


def _step_head(frame, players) -> Text:
    action = frame["action"]
    if action is None:
        return Text("step 0: as dealt", "bold")
    head = Text(f"step {frame['step']}: action {frame['step'] - 1}, {_action_text(action, players)}", "bold")
    if frame.get("rejected"):
        head.append("  REJECTED: the table before it", "bold red")
    return head


def _acting(turn) -> list[int]:
    """The seats that may act: a snapshot's `turn` is one seat, a list of them (Gou Ji) or None."""
    return [] if turn is None else turn if isinstance(turn, list) else [turn]


def _name(players, seat) -> str:
    return players[seat] if 0 <= seat < len(players) else ""


def _seat(players, seat) -> str:
    name = _name(players, seat)
    return f"seat {seat} ({name})" if name else f"seat {seat}"


def _team(players, team) -> str:
    members = [_name(players, s) for s in range(team, len(players), 2)]
    return f"team {team} ({', '.join(members)})" if all(members) else f"team {team}"


def _state_lines(snap, players) -> list[str]:
    lines = []
    if snap.get("levels"):
        levels = ", ".join(f"{_team(players, t)} at {level}" for t, level in enumerate(snap["levels"]))
        declaring = snap.get("declaring")
        lines.append(f"levels: {levels}; declaring: " + ("none (first deal)" if declaring is None
                                                         else _team(players, declaring)))
    turn = snap.get("turn")
    acting = " or ".join(_seat(players, seat) for seat in _acting(turn)) or "nobody"
    phase = f"phase {snap['phase']}; " if snap.get("phase") else ""
    lines.append(f"{phase}to act: {acting}")
    trick = "; ".join(f"{_seat(players, t['seat'])} " + (" ".join(t["play"]) + f" ({t['as']})" if "play" in t
                                                          else "passes") for t in snap["table"]) or "empty"
    lines.append(f"current trick: {trick}")
    shown = ("hands", "table", "turn", "phase", "levels", "declaring", "wild")
    for key, value in snap.items():
        if key not in shown and value not in (None, [], {}):
            lines.append(f"{key.replace('_', ' ')}: {_nested(value)}")
    return lines


def _nested(value, inner=False) -> str:
    """A snapshot value of lists and objects on one line: 'seat 0 card 5H, seat 1 card 7C'."""
    if isinstance(value, dict):
        return (" " if inner else "; ").join(f"{k} {_nested(v, True)}" for k, v in value.items()
                                             if v not in (None, [], {}))
    if isinstance(value, list):
        return ", ".join(_nested(v, True) for v in value) or "-"
    return str(value)


def _action_text(action: dict, players=()) -> str:
    seat = _seat(players, action["seat"])
    if "play" in action:
        return f"{seat} plays " + " ".join(action["play"]) + (f" as {action['as']}" if "as" in action else "")
    if "pass" in action:
        return f"{seat} passes"
    for verb in ("tribute", "return"):
        if verb in action:
            return f"{seat} {verb}s {action[verb]}" + (f" to seat {action['to']}" if "to" in action else "")
    return f"{seat} declares {action.get('declare')}" + (f" {action['count']}" if "count" in action else "")


def rules_table(game) -> str:
    """A game's presets and options as plain text: nothing is cut, in a terminal or a pipe."""
    lines = [f"{game.NAME}: default preset {game.DEFAULT_PRESET}; rules page docs/rules/{game.NAME}.md", "", "presets:"]
    for name, overrides in game.PRESETS.items():
        changes = ", ".join(f"{k}={json_text(v)}" for k, v in overrides.items()) or "(all defaults)"
        lines.append(f"  {name}: {changes}")
    if game.PRESET_ALIASES:
        aliases = ", ".join(f"{alias} = {name}" for alias, name in game.PRESET_ALIASES.items())
        lines.append(f"  aliases: {aliases}")
    lines += ["", "options (name: values, default):"]
    for name, opt in game.OPTIONS.items():
        lines.append(f"  {name}: {opt.describe()}, default {json_text(opt.default)}")
        lines.append(f"      {opt.effect}")
    return "\n".join(lines)
