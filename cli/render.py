"""Text rendering of reports and tables for people (rich)."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from referee.messages import Cards, Listing, counted, language, part, shown
from referee.notation import seated_players
from referee.replay import acting_seats, game_word, reading_shown, step_json
from referee.rules import json_text

from .common import visible
from .plain import (
    COMMA,
    SEMICOLON,
    SEVERITY,
    STYLE,
    deal_line,
    key_shown,
    legal_then,
    outcome_value,
    report_parts,
    seats_shown,
    summary_parts,
    value_shown,
    verdict_parts,
)

msg, msg_n, word, word_of = part("cli")

COLON = word(": ")  # after a finding's rule id


def report(console: Console, rep) -> None:
    _print(console, report_parts(rep))


def _print(console: Console, lines) -> None:
    for parts in lines:
        console.print(Text(*parts[0]) if len(parts) == 1 else Text.assemble(*parts))


def step_shown(frame: dict) -> dict:
    """A replay step as JSON, its findings' messages in the language spoken."""
    return dict(step_json(frame), findings=[f.as_dict(language()) for f in frame["findings"]])


def verdict_line(rep) -> Text:
    """Source, verdict and rules; input that could not be read as a record is UNREADABLE."""
    return Text.assemble(*verdict_parts(rep))


def summary(console: Console, counts: dict) -> None:
    _print(console, summary_parts(counts))


def names(record) -> list[str]:
    """The players' names (as many as the game has seats), each control in them shown, not obeyed by the terminal."""
    return [visible(str(p)) for p in seated_players(record)] if isinstance(record, dict) else []


def table(console: Console, frame: dict, record: dict) -> None:
    """An arbiter's table: who sits where, their hands in rank order (wild cards marked *),
    the trick, who is to act, the findings made at this step and, at the end, the outcome."""
    from rich.table import Table  # here: only a replay needs it

    snap, players, game = frame["table"], names(record), record.get("game")
    console.print(_step_head(frame, players, game), highlight=False)
    wild = set(snap.get("wild") or [])
    turn = snap.get("turn")
    grid = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for column in (word("seat"), word("player"), word("cards")):
        grid.add_column(column.shown(language()), justify="right" if column == "cards" else "left")
    grid.add_column(
        (
            msg("hand (low to high, * {wild})", wild=game_word(game, "wild")) if wild else msg("hand (low to high)")
        ).render(),
        overflow="fold",
    )  # rich would cut a line that fits but for its trailing space ("…")
    for seat, hand in enumerate(snap["hands"]):
        acting = msg(" ← to act").render() if seat in acting_seats(turn) else ""
        grid.add_row(
            f"{seat}{acting}",
            _name(players, seat),
            str(len(hand)),
            " ".join(_cards(c) + "*" if c in wild else _cards(c) for c in hand),
        )
    console.print(grid)
    for line in _state_lines(snap, players, game):
        console.print(line, highlight=False)
    for f in frame["findings"]:
        console.print(
            Text.assemble(
                (SEVERITY[f.severity].shown(language()), STYLE[f.severity]),
                " ",
                (f.rule, "bold"),
                COLON.shown(language()) + visible(f.shown()),
            )
        )
        if f.legal and f.legal.get("may") and f.severity == "error":
            console.print(Text("  " + legal_then(f), "dim"))
    if frame.get("outcome"):
        outcome = deal_line(frame["outcome"], language())
        console.print(Text(msg("end of deal: {outcome}", outcome=outcome).render(), "bold"))


def _cards(codes: str) -> str:
    return Cards(codes).shown(language())


def _step_head(frame, players, game) -> Text:
    action = frame["action"]
    if action is None:
        return Text(msg("step 0: as dealt").render(), "bold")
    head = Text(
        msg(
            "step {step}: action {action}, {what}",
            step=frame["step"],
            action=counted(frame["step"] - 1),
            what=_action_text(action, players, game),
        ).render(),
        "bold",
    )
    if frame.get("rejected"):
        head.append(msg("  REJECTED: the table before it").render(), "bold red")
    return head


def _name(players, seat) -> str:
    return players[seat] if 0 <= seat < len(players) else ""


def _seat(players, seat):
    name = _name(players, seat)
    return msg("seat {seat} ({name})", seat=seat, name=name) if name else msg("seat {seat}", seat=seat)


def _team(players, team):
    members = [_name(players, s) for s in range(team, len(players), 2)]
    return (
        msg("team {team} ({names})", team=team, names=Listing(members))
        if all(members)
        else msg("team {team}", team=team)
    )


def _state_lines(snap, players, game) -> list[str]:
    lines = []
    if snap.get("levels"):
        levels = Listing(
            [msg("{team} at {level}", team=_team(players, t), level=level) for t, level in enumerate(snap["levels"])]
        )
        declaring = snap.get("declaring")
        lines.append(
            msg(
                "levels: {levels}; declaring: {team}",
                levels=levels,
                team=msg("none (first deal)") if declaring is None else _team(players, declaring),
            ).render()
        )
    turn = snap.get("turn")
    acting = (
        Listing([_seat(players, seat) for seat in acting_seats(turn)], " or ") if acting_seats(turn) else msg("nobody")
    )
    phase = msg("phase {phase}; ", phase=snap["phase"]).render() if snap.get("phase") else ""
    lines.append(phase + msg("to act: {seats}", seats=acting).render())
    trick = Listing([_trick_part(players, t, game) for t in snap["table"]], "; ") if snap["table"] else msg("empty")
    lines.append(msg("current trick: {trick}", trick=trick).render())
    shown = ("hands", "table", "turn", "phase", "levels", "declaring", "wild")
    for key, value in snap.items():
        if key not in shown and value not in (None, [], {}):
            said = seats_shown(key, value, language()) or (
                outcome_value(key, value, language()) if type(value) is int else _nested(value)
            )
            lines.append(msg("{key}: {value}", key=key_shown(key, language()), value=said).render())
    return lines


def _trick_part(players, part: dict, game):
    if "play" in part:
        return msg(
            "{seat} {cards} ({kind})",
            seat=_seat(players, part["seat"]),
            cards=Cards(" ".join(part["play"])),
            kind=reading_shown(game, part["as"], part["play"]),
        )
    return msg("{seat} passes", seat=_seat(players, part["seat"]))


def _nested(value, inner=False) -> str:
    """A snapshot value of lists and objects on one line: 'seat 0 card 5H, seat 1 card 7C'."""
    if isinstance(value, dict):
        return (" " if inner else SEMICOLON.shown(language())).join(
            f"{key_shown(k, language())} {_nested(v, True)}" for k, v in value.items() if v not in (None, [], {})
        )
    if isinstance(value, list):
        return COMMA.shown(language()).join(_nested(v, True) for v in value) or "-"
    return value_shown(value, language())


def _action_text(action: dict, players=(), game=None):
    seat = _seat(players, action["seat"])
    if "play" in action:
        cards = Cards(" ".join(action["play"]))
        if "as" in action:
            return msg(
                "{seat} plays {cards} as {kind}",
                seat=seat,
                cards=cards,
                kind=reading_shown(game, action["as"], action["play"]),
            )
        return msg("{seat} plays {cards}", seat=seat, cards=cards)
    if "pass" in action:
        return msg("{seat} passes", seat=seat)
    verb = next((verb for verb in ("tribute", "return") if verb in action), None)
    if verb is not None:
        card = Cards(action[verb])
        given = (
            msg("{seat} tributes {card}", seat=seat, card=card)
            if verb == "tribute"
            else msg("{seat} returns {card}", seat=seat, card=card)
        )
        return msg("{given} to seat {to}", given=given, to=action["to"]) if "to" in action else given
    what = game_word(game, action.get("declare"))
    if "count" in action:
        return msg("{seat} declares {what} {count}", seat=seat, what=what, count=action["count"])
    return msg("{seat} declares {what}", seat=seat, what=what)


def rules_table(game) -> str:
    """A game's presets and options as plain text: nothing is cut, in a terminal or a pipe."""
    lines = [
        msg(
            "{game}: default preset {preset}; rules page docs/rules/{game}.md",
            game=game.NAME,
            preset=game.DEFAULT_PRESET,
        ).render(),
        "",
        msg("presets:").render(),
    ]
    for name, overrides in game.PRESETS.items():
        changes = ", ".join(f"{k}={json_text(v)}" for k, v in overrides.items()) or msg("(all defaults)").render()
        lines.append(f"  {name}: {changes}")
    if game.PRESET_ALIASES:
        aliases = ", ".join(f"{alias} = {name}" for alias, name in game.PRESET_ALIASES.items())
        lines.append("  " + msg("aliases: {aliases}", aliases=aliases).render())
    lines += ["", msg("options (name: values, default):").render()]
    for name, opt in game.OPTIONS.items():
        lines.append(
            f"  {name}: "
            + msg("{values}, default {default}", values=opt.allowed(), default=json_text(opt.default)).render()
        )
        lines.append(f"      {shown(opt.effect)}")
    return "\n".join(lines)
