"""`referee validate`: check records on every core, with filters, a summary and a progress bar. Its command line
is read by click (cli/validate_command.py) or, for the commonest lines, by cli/start.py, which loads no click:
this module does without it too."""

from __future__ import annotations

import atexit
import contextlib
import functools
import gc
import os
import sys
from collections import Counter

import orjson

from referee.batch import WorkerLost, check_items, os_problem, records_of
from referee.messages import language, part, use_language

from . import plain
from .common import (
    EXIT_INVALID,
    EXIT_UNREADABLE,
    EXIT_USAGE,
    EXIT_VALID,
    expand,
    fail,
    not_over_an_input,
    unknown,
    warn,
)
from .progress import counted, progress_bar, total_bytes

msg, msg_n, word, word_of = part("cli")

TYPE_CHECKING = False  # typing is not imported where records are checked (referee/game.py)
if TYPE_CHECKING:
    from rich.console import Console

SEVERITIES = ("info", "warning", "error")

# Python's last collection, as it ends, would walk every object a run left (the games' caches of readings) only
# to find what the modules' teardown frees anyway: frozen, they are left to that.
atexit.register(gc.freeze)
MAX_JOBS = 256  # a pool forks all its processes at once: -j 100000 would fork until the system ran out


def validate(files, as_json, jobs, only_invalid, severity, rules, summary_json, quiet, color, infer):
    if quiet and as_json:
        fail(msg("-q shows verdict lines and --json whole reports: give one of them"), EXIT_USAGE)
    if rules:
        _known_rule_ids(rules)
    not_over_an_input(summary_json, files)
    warnings = []
    paths = list(expand(files, lambda message: warnings.append(warn(message))))
    jobs = jobs or default_jobs()
    items = (pair for path in paths for pair in records_of(path, spans=jobs > 1))
    summary = {"records": 0, "valid": 0, "invalid": 0, "unreadable": 0, "rules": Counter()}
    console = None if as_json or _colourless(color) else _console(color)
    outcome = functools.partial(
        _outcome,
        shown=(only_invalid, SEVERITIES.index(severity), rules),
        form="json" if as_json else "quiet" if quiet else "text",
        console=_console_options(console),
        lang=language(),
    )
    progress = None if quiet else progress_bar()
    with progress or contextlib.nullcontext():
        if progress:
            items = counted(items, progress, total_bytes(paths))
        try:
            for verdict, rule_ids, text in check_items(items, jobs, infer, outcome):
                summary["records"] += 1
                summary[verdict] += 1
                summary["rules"].update(rule_ids)
                sys.stdout.write(text)
        except WorkerLost as exc:
            fail(str(exc))
    summary["rules"] = dict(summary["rules"].most_common())
    if not quiet:
        _print_summary(
            summary,
            (None if _colourless(color, stderr=True) else _console(color, stderr=True)) if as_json else console,
            sys.stderr if as_json else sys.stdout,
        )
    if summary_json:
        _write_summary(summary_json, summary)
    if not summary["records"]:
        warnings.append(warn(msg("no records were selected")))
    sys.exit(
        EXIT_UNREADABLE if summary["unreadable"] or warnings else EXIT_INVALID if summary["invalid"] else EXIT_VALID
    )


def _outcome(rep, shown: tuple, form: str, console: tuple | None, lang: str) -> tuple[str, list[str], str]:
    """What `validate` needs of a report: its verdict and its findings' rule ids for the summary, and
    its output ("" when filtered out) in `form` ("json", "quiet" or "text", on a console with the
    options `console`, or None for text without colour, in the language `lang`). Made where the record
    is checked, so that only this crosses between processes."""
    use_language(lang)
    verdict = rep.verdict
    rule_ids = [f.rule for f in rep.findings]
    rep = _shown(rep, *shown)
    if rep is None:
        return verdict, rule_ids, ""
    if form == "json":
        return verdict, rule_ids, orjson.dumps(rep.as_dict(lang)).decode() + "\n"
    if console is None:
        return verdict, rule_ids, plain.text([plain.verdict_parts(rep)] if form == "quiet" else plain.report_parts(rep))
    from . import render  # here: it loads rich, which start-up does without

    text_console = _text_console(console)
    with text_console.capture() as captured:
        if form == "quiet":
            text_console.print(render.verdict_line(rep))
        else:
            render.report(text_console, rep)
    return verdict, rule_ids, captured.get()


def _console(color: bool | None, stderr: bool = False) -> Console:
    """The text console: styled as asked, or (None) on a terminal unless NO_COLOR is set."""
    from rich.console import Console  # here: start-up does without rich

    return Console(highlight=False, soft_wrap=True, stderr=stderr, force_terminal=color)


def _colourless(color: bool | None, stderr: bool = False) -> bool:
    """Whether standard output (or error) takes text without colour, as rich would decide it, known without
    loading rich: --no-color, or not a terminal (unless FORCE_COLOR or TTY_COMPATIBLE tell rich otherwise)."""
    stream = sys.stderr if stderr else sys.stdout
    return color is False or (
        color is None and not stream.isatty() and "FORCE_COLOR" not in os.environ and "TTY_COMPATIBLE" not in os.environ
    )


def _console_options(console: Console | None) -> tuple | None:
    """What a console that renders into a string needs to render as `console` does (also in another process);
    None for text without colour, which needs no console."""
    if console is None or console.color_system is None:
        return None
    return (
        ("force_terminal", console.is_terminal),
        ("color_system", console.color_system),
        ("no_color", console.no_color),
        ("width", console.width),
        ("highlight", False),
        ("soft_wrap", True),
    )


@functools.cache
def _text_console(options: tuple) -> Console:
    from rich.console import Console

    return Console(**dict(options))


def _print_summary(summary: dict, console: Console | None, stream) -> None:
    """The summary on `console`, or as text without colour on `stream` (None: no console needed)."""
    if console is None:
        stream.write(plain.text(plain.summary_parts(summary)))
    else:
        from . import render  # here: it loads rich, which start-up does without

        render.summary(console, summary)


def default_jobs() -> int:
    """Every core that is free: the cores this process may use less the load average of the last
    minute, rounded, and at least one. A process on a core that another program keeps busy only
    slows the command down (each record waits for its batch), so a busy machine gets fewer."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average on this system
        return cores
    return max(1, min(cores, round(cores - load)))


def _known_rule_ids(rules):
    """Exit 2 for a --rule that is neither a rule id nor the start of some (`guandan`, `guandan.tribute`),
    naming the id probably meant; a --rule that matches nothing would silently show nothing."""
    from referee.ruledocs import rule_entries

    known = rule_entries()
    for rule in rules:
        if not any(r == rule or r.startswith(rule + ".") for r in known):
            unknown(word("rule id"), rule, known, listed=False)


def _shown(rep, only_invalid: bool, least: int, rules: tuple[str, ...]):
    """The report as shown (its findings filtered), or None when it is not shown at all."""
    if only_invalid and rep.valid:
        return None
    findings = [
        f
        for f in rep.findings
        if SEVERITIES.index(f.severity) >= least
        and (not rules or any(f.rule == r or f.rule.startswith(r + ".") for r in rules))
    ]
    if rules and not findings:
        return None
    rep.findings = findings
    return rep


def _write_summary(path: str, summary: dict) -> None:
    try:
        with open(path, "wb") as handle:
            handle.write(orjson.dumps(summary, option=orjson.OPT_INDENT_2) + b"\n")
    except OSError as exc:
        fail(msg("cannot write the summary to {path}: {reason}", path=path, reason=os_problem(exc)))
