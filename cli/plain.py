"""Reports as text without rich: each line as its parts (text, style), which cli/render.py styles on
a console, and the text itself where there is no colour (validate into a file: made without a console,
a tenth of what checking a record costs)."""

from __future__ import annotations

import functools
import re

from referee.messages import DEFAULT, Listing, Term, counted, language, part, shown
from referee.replay import game_name

from .common import padded, visible

msg, msg_n, word, word_of = part("cli")

STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
SEVERITY = {"error": word("error"), "warning": word("warning"), "info": word("info")}
WHERE = {
    "deal": lambda n: msg("deal {n}", n=counted(n)),
    "action": lambda n: msg("action {n}", n=counted(n)),
    "seat": lambda n: msg("seat {seat}", seat=n),
    "ruling": lambda n: msg("decided by ruling {n}", n=counted(n)),
}
# the keys of a deal's and a match's outcome and of a table's snapshot, as the games report them (a key
# not here is shown as it is, spaced)
OUTCOME_KEYS = {
    text.replace(" ", "_"): text
    for text in (
        word("status"),
        word("winner"),
        word("levels"),
        word("level"),
        word("declaring"),
        word("dealer"),
        word("tribute"),
        word("penalised"),
        word("turn"),
        word("left"),
        word("out"),
        word("mode"),
        word("claimed"),
        word("a attempts"),
        word("payments"),
        word("leader"),
        word("match winner"),
        word("talon"),
        word("ruling"),
        word("totals"),
        word("order"),
        word("scores"),
        word("held"),
        word("multipliers"),
        word("result"),
        word("margin"),
        word("draw"),
        word("result so far"),
        word("kind"),
        word("bombs played"),
        word("drawn"),
        word("lock"),
        word("owed"),
        word("totals before the deal"),
        word("card"),
        word("paid"),
        word("returned"),
        word("seat"),
        word("to"),
        word("by ruling"),
        word("computed"),
    )
}
STATUSES = {word("complete"), word("incomplete"), word("stopped"), word("void"), word("scored")}
# a deal's outcome keys (and a table's) whose value is one seat or a list of seats; a deal's winner is a seat (Gan
# Deng Yan's: the team games name no deal winner)
SEAT_KEYS = ("dealer", "leader", "turn", "out", "penalised", "winner")
# what a console removes from text (rich's control codes) or expands (tabs, to 8 columns)
PRINTED_OTHERWISE = re.compile("[\t\a\b\v\f\r]")
COMMA, SEMICOLON = Term(", "), Term("; ")  # the separators of a Listing (the core's catalogue)


def text(lines: list[tuple[tuple[str, str], ...]]) -> str:
    """Lines of parts as cli/render.py prints them on a console without colour."""
    texts = ["".join(text for text, _style in parts) for parts in lines]
    return "".join(_printed(text) if PRINTED_OTHERWISE.search(text) else text + "\n" for text in texts)


def _printed(line: str) -> str:
    """A line as a console prints it, for a line with tabs or control codes."""
    from rich.text import Text  # here: most text has neither

    shown = Text(line)
    shown.expand_tabs(8)
    return shown.plain + "\n"


def report_parts(rep) -> list[tuple[tuple[str, str], ...]]:
    """The report's lines, each as its parts: (text, style)."""
    lang = language()
    lines = [verdict_parts(rep)]
    lines += [(("  " + deal_line(deal, lang), ""),) for deal in rep.deals]
    if rep.match:
        lines.append((("  " + match_line(rep.match, lang), ""),))
    for f in rep.findings:
        where = Listing([WHERE[k](getattr(f, k)) for k in WHERE if getattr(f, k) is not None])
        severity = padded(SEVERITY[f.severity].shown(lang), 7)
        lines.append(
            (
                ("  ", ""),
                (severity, STYLE[f.severity]),
                (" ", ""),
                (f.rule, "bold"),
                (f"  {f.at or '/'}" + ("  " + msg("({where})", where=where).render(lang) if where else ""), ""),
            )
        )
        lines.append((("          " + f.shown(lang), ""),))
        if f.legal and f.legal.get("may") and f.severity == "error":
            lines.append((("          " + legal_then(f), "dim"),))
    if rep.inferred is not None:
        from referee.infer import inferred_text  # here: only --infer-rules needs it

        lines.append((("  " + msg("rules: {rules}", rules=inferred_text(rep.inferred)).render(), "bold"),))
    return [_visible(parts) for parts in lines]


def _visible(parts: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """A line's parts with the controls a record's text may hold shown, not obeyed by the terminal."""
    return tuple((visible(text), style) for text, style in parts)


def legal_then(finding) -> str:
    return msg("legal then: {plays}", plays=shown(finding.legal["may"])).render()


def verdict_parts(rep) -> tuple[tuple[str, str], ...]:
    """Source, verdict and rules; input that could not be read as a record is UNREADABLE."""
    source = (rep.source or msg("<record>").render(), "bold")
    if rep.unreadable:
        return source, ("  ", ""), (msg("UNREADABLE").render(), "bold red")
    verdict = (msg("VALID").render(), "bold green") if rep.valid else (msg("INVALID").render(), "bold red")
    if rep.valid and rep.rulings:
        verdict = (
            msg_n("VALID as ruled ({n} ruling)", "VALID as ruled ({n} rulings)", rep.rulings).render(),
            "bold green",
        )
    rules = (
        msg("{game} ({preset})", game=game_name(rep.game), preset=rep.rules["preset"]).render()
        if rep.rules
        else (shown(game_name(rep.game)) or msg("unknown game").render())
    )
    return _visible((source, ("  ", ""), verdict, ("  ", ""), (rules, "")))


def deal_line(deal: dict, lang: str) -> str:
    """A deal's outcome in one line, whatever the game: its keys in order."""
    status = deal.get("status")
    head = msg(
        "deal {n}: {status}", n=counted(deal["deal"]), status=Term(status) if status in STATUSES else status
    ).render(lang)
    if deal.get("from_claim"):
        head += msg(" (outcome from the record's claim, unchecked)").render(lang)
    rest = [
        f"{key_shown(key, lang)} {outcome_value(key, value, lang)}"
        for key, value in deal.items()
        if key not in ("deal", "status", "from_claim") and value is not None
    ]
    return COMMA.shown(lang).join([head] + rest)


def outcome_value(key: str, value, lang: str) -> str:
    """A value of a deal's outcome; a seat (the dealer, the leader, the seat to act) as a seat outside
    English (0号位), where a bare number would not say what it counts; the ruling that decided it, from 1."""
    seats = seats_shown(key, value, lang)
    if seats:
        return seats
    if key == "by_ruling" and type(value) is int:  # counted from 1, as a finding says it (README, "Numbering")
        return str(counted(value))
    return value_shown(value, lang)


def seats_shown(key: str, value, lang: str) -> str | None:
    """A seat or seats (SEAT_KEYS) as seats outside English (0号位、3号位), where a bare number would not say what it
    counts; None for any other value."""
    seats = [value] if type(value) is int else value
    if key not in SEAT_KEYS or lang == DEFAULT or type(seats) is not list or not seats:
        return None
    if not all(type(seat) is int for seat in seats):
        return None
    return COMMA.shown(lang).join(WHERE["seat"](seat).render(lang) for seat in seats)


def match_line(match: dict, lang: str) -> str:
    settled = match.get("settled", True)  # a match not settled has no result yet (notation §9)
    decided = match.get("winner") is not None  # one no one has won (a part of a match): the result so far
    parts = [
        f"{key_shown(key if key != 'result' or decided else 'result_so_far', lang)} {value_shown(value, lang)}"
        for key, value in match.items()
        if value is not None and key != "settled" and (settled or key != "result")
    ]
    head = (
        msg("match: ")
        if settled
        else msg("match, not settled (as it stood before the deal that stopped without a claimed result): ")
    )
    return head.render(lang) + (COMMA.shown(lang).join(parts) or msg("nothing to report").render(lang))


@functools.lru_cache(maxsize=1024)
def key_shown(key: str, lang: str) -> str:
    """One key of an outcome: 'bombs played' for bombs_played."""
    return OUTCOME_KEYS[key].shown(lang) if key in OUTCOME_KEYS else key.replace("_", " ")


def value_shown(value, lang: str) -> str:
    """One value of an outcome: '3 0' for [3, 0]; '-' for none (an empty list, a computed winner of no one)."""
    if value is None:
        return "-"
    if isinstance(value, str):  # in English, cards, words and phrases are shown as written too
        return str(value) if lang == DEFAULT or type(value) is str else str(shown(value, lang))
    if type(value) is int:
        return str(value)
    if isinstance(value, bool):
        return (word("yes") if value else word("no")).shown(lang)
    if isinstance(value, list):
        if not value:
            return "-"
        if all(type(v) is int for v in value):  # most lists: seats, counts, scores
            return " ".join(map(str, value))
        items = [value_shown(v, lang) for v in value]
        if any(isinstance(v, list) for v in value):
            return " | ".join(items)
        return (SEMICOLON.shown(lang) if any(" " in v for v in value if isinstance(v, str)) else " ").join(items)
    if isinstance(value, dict):
        return " ".join(f"{key_shown(k, lang)}={value_shown(v, lang)}" for k, v in value.items())
    return str(shown(value, lang))


def summary_parts(counts: dict) -> list[tuple[tuple[str, str], ...]]:
    """The summary's lines: records by verdict, and findings by rule id."""
    comma = COMMA.shown(language())
    lines = [
        (
            (msg("Summary: ").render(), "bold"),
            (msg("{n} record(s): ", n=counts["records"]).render(), ""),
            (msg("{n} valid", n=counts["valid"]).render(), "green"),
            (comma, ""),
            (msg("{n} invalid", n=counts["invalid"]).render(), "red"),
            (comma, ""),
            (msg("{n} unreadable", n=counts["unreadable"]).render(), "red" if counts["unreadable"] else ""),
        )
    ]
    if counts.get("rules"):
        width = len(str(max(counts["rules"].values())))
        lines.append(((msg("Findings by rule id:").render(), "bold"),))
        lines += [((f"  {count:>{width}}  {rule}", ""),) for rule, count in counts["rules"].items()]
    return lines
