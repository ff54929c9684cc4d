"""Text rendering of reports and tables for people (rich)."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def report(console: Console, rep) -> None:
    verdict = Text("VALID", "bold green") if rep.valid else Text("INVALID", "bold red")
    rules = f"{rep.game} ({rep.rules['preset']})" if rep.rules else (rep.game or "unknown game")
    console.print(Text.assemble((rep.source or "<record>", "bold"), "  ", verdict, "  ", rules))
    for deal in rep.deals:
        console.print("  " + deal_line(deal), highlight=False)
    if rep.match:
        console.print("  " + match_line(rep.match), highlight=False)
    for f in rep.findings:
        where = ", ".join(f"{k} {getattr(f, k)}" for k in ("deal", "action", "seat") if getattr(f, k) is not None)
        console.print(Text.assemble("  ", (f"{f.severity:<7}", STYLE[f.severity]), " ", (f.rule, "bold"),
                                    f"  {f.at or '/'}" + (f"  ({where})" if where else "")))
        console.print(Text("          " + f.message))
        if f.legal and f.legal.get("may") and f.severity == "error":
            console.print(Text("          legal then: " + f.legal["may"], "dim"))


def deal_line(deal: dict) -> str:
    """A deal's outcome in one line, whatever the game: its keys in order."""
    head = f"deal {deal['deal']}: {deal.get('status')}"
    if deal.get("from_claim"):
        head += " (outcome taken from the record's claim)"
    rest = [f"{key.replace('_', ' ')} {_value(value)}" for key, value in deal.items()
            if key not in ("deal", "status", "from_claim") and value is not None]
    return ", ".join([head] + rest)


def match_line(match: dict) -> str:
    parts = [f"{key.replace('_', ' ')} {_value(value)}" for key, value in match.items() if value is not None]
    return "match: " + (", ".join(parts) or "nothing to report")


def _value(value) -> str:
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
        by_rule = Table("findings", "rule", box=None, header_style="bold", pad_edge=False)
        for rule, count in counts["rules"].items():
            by_rule.add_row(str(count), rule)
        console.print(by_rule)


def table(console: Console, step: int, action: dict | None, snap: dict, findings) -> None:
    head = f"step {step}" + (f": {_action_text(action)}" if action else ": as dealt")
    console.print(Text(head, "bold"))
    grid = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    grid.add_column("seat")
    grid.add_column("cards", justify="right")
    grid.add_column("hand")
    for seat, hand in enumerate(snap["hands"]):
        mark = " ←" if snap.get("turn") == seat else ""
        grid.add_row(f"{seat}{mark}", str(len(hand)), " ".join(hand))
    console.print(grid)
    trick = "; ".join(f"{t['seat']}: " + (" ".join(t["play"]) + f" ({t['as']})" if "play" in t else "pass")
                      for t in snap["table"]) or "empty"
    rest = {k: v for k, v in snap.items() if k not in ("hands", "table") and v is not None}
    flat = {k: v for k, v in rest.items() if not isinstance(v, (dict, list)) or k == "out"}
    console.print("  ".join(f"{k} {v}" for k, v in flat.items()), highlight=False)
    console.print(f"table: {trick}", highlight=False)
    for key, value in rest.items():
        if key not in flat and value:
            console.print(f"{key.replace('_', ' ')}: {_nested(value)}", highlight=False)
    for f in findings:
        console.print(Text.assemble(("  " + f.severity, STYLE[f.severity]), f" {f.rule}: {f.message}"))


def _nested(value, inner=False) -> str:
    """A snapshot value of lists and objects on one line: 'seat 0 card 5H, seat 1 card 7C'."""
    if isinstance(value, dict):
        return (" " if inner else "; ").join(f"{k} {_nested(v, True)}" for k, v in value.items()
                                             if v not in (None, [], {}))
    if isinstance(value, list):
        return ", ".join(_nested(v, True) for v in value) or "-"
    return str(value)


def _action_text(action: dict) -> str:
    seat = action["seat"]
    if "play" in action:
        return f"seat {seat} plays " + " ".join(action["play"]) + (f" as {action['as']}" if "as" in action else "")
    if "pass" in action:
        return f"seat {seat} passes"
    for verb in ("tribute", "return"):
        if verb in action:
            return f"seat {seat} {verb}s {action[verb]}" + (f" to {action['to']}" if "to" in action else "")
    return f"seat {seat} declares {action.get('declare')}" + (f" {action['count']}" if "count" in action else "")


def rules_table(console: Console, game) -> None:
    console.print(Text(f"{game.NAME}: default preset {game.DEFAULT_PRESET}", "bold"))
    presets = Table("preset", "overrides", box=None, header_style="bold")
    for name, overrides in game.PRESETS.items():
        presets.add_row(name, ", ".join(f"{k}={v}" for k, v in overrides.items()) or "(all defaults)")
    console.print(presets)
    options = Table("option", "values", "default", "effect", box=None, header_style="bold")
    for name, opt in game.OPTIONS.items():
        options.add_row(name, opt.describe(), str(opt.default), opt.effect)
    console.print(options)
