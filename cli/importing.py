"""`referee import`: other formats' captures and logs, converted into CGR/1 records."""

from __future__ import annotations

import contextlib
import sys

import click
import orjson

from referee.batch import os_problem
from referee.canonical import canonical
from referee.game import games
from referee.importers import Imported, importers, read_lines
from referee.messages import Listing, part, shown
from referee.replay import check_record
from referee.rules import resolve

from .command import Choice, Command, MadeHelp
from .common import EXIT_INVALID, EXIT_UNREADABLE, EXIT_VALID, fail, not_over_an_input
from .files import replacing

msg, msg_n, word, word_of = part("cli")


def _rules(text: str | None, importer):
    """The `rules` value to write: the importer's platform rules, or --rules (a preset or JSON)."""
    if text is None:
        return importer.DEFAULT_RULES
    value = text
    if text.lstrip().startswith("{"):
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            raise click.BadParameter(
                msg("not JSON: {reason}", reason=str(exc)).render(), param_hint="--rules"
            ) from None
    shaped = isinstance(value, str) or (
        isinstance(value, dict)
        and set(value) <= {"preset", "options"}
        and isinstance(value.get("preset", ""), str)
        and isinstance(value.get("options", {}), dict)
    )
    problems = resolve(games()[importer.GAME], value)[1] if shaped else []
    if problems or not shaped:
        message = (
            problems[0].shown()
            if problems
            else msg("a preset, or {shape}", shape='{"preset": NAME, "options": {...}}').render()
        )
        raise click.BadParameter(message, param_hint="--rules")
    return value


def _formats_help():
    formats = [msg("{name}: {summary}", name=name, summary=module.SUMMARY) for name, module in importers().items()]
    return msg("The format of the captures: {formats}", formats=Listing(formats, "; "))


@click.command(
    "import",
    cls=Command,
    help=word("""Convert platform captures into CGR/1 records.

    CAPTURES are plain or gzipped JSON Lines files, or - for standard input.

    A capture is converted as it happened, never repaired. What cannot be converted is
    named by file and line; the other deals still convert. Exit status: 0 all converted
    (and valid, with --validate), 1 some converted record breaks a rule or a claim,
    2 some input could not be converted.
    """),
)
@click.argument("captures", nargs=-1, required=True)
@click.option(
    "--from", "source_format", required=True, type=Choice(sorted(importers())), cls=MadeHelp, made=_formats_help
)
@click.option(
    "-o",
    "--output",
    default=None,
    type=click.Path(dir_okay=False, writable=True),
    help=word(
        "Write the records here (JSON Lines; the file is replaced only once all are written, as "
        "fmt -w replaces one); default standard output."
    ),
)
@click.option(
    "--per",
    type=Choice(["match", "deal"]),
    default="match",
    show_default=True,
    help=word("One record per match (per run of consecutive converted deals), or per deal."),
)
@click.option(
    "--rules",
    "rules_text",
    default=None,
    help=word('The rules to write, overriding the platform\'s: a preset, or JSON {"preset": ..., "options": {...}}.'),
)
@click.option("--validate", is_flag=True, help=word("Check the converted records with the referee in the same pass."))
def import_(captures, source_format, output, per, rules_text, validate):
    from rich.console import (
        Console,  # here: rich is loaded by the commands that render, not at start-up
    )

    from . import render

    not_over_an_input(output, captures)
    importer = importers()[source_format]
    rules = _rules(rules_text, importer)
    console = Console(highlight=False, soft_wrap=True, stderr=output is None)
    counts = {"records": 0, "valid": 0, "invalid": 0, "unreadable": 0}
    written = problems = 0
    try:
        with _records_out(output) as out:
            for path in captures:
                for item in importer.convert(read_lines(path, sys.stdin.buffer), path, per, rules):
                    if not isinstance(item, Imported):
                        click.echo(f"referee: {shown(item)}", err=True)
                        problems += 1
                        continue
                    out.write(orjson.dumps(canonical(item.record)).decode() + "\n")
                    written += 1
                    if validate:
                        report = check_record(item.record, item.source)
                        counts["records"] += 1
                        counts["valid" if report.valid else "invalid"] += 1
                        render.report(console, report)
    except OSError as exc:
        fail(msg("cannot write {path}: {reason}; nothing was written", path=output, reason=os_problem(exc)))
    click.echo(
        "referee: "
        + msg("{written} record(s) converted, {problems} problem(s)", written=written, problems=problems).render(),
        err=True,
    )
    if validate:
        counts["unreadable"] = problems
        counts["records"] += problems  # as validate counts them: every input, read or not
        render.summary(console, counts)
    sys.exit(EXIT_UNREADABLE if problems else EXIT_INVALID if counts["invalid"] else EXIT_VALID)


def _records_out(path: str | None):
    """Standard output, or a file that becomes `path` once every record is written (an
    interrupted run leaves `path` as it was)."""
    return contextlib.nullcontext(sys.stdout) if path is None else replacing(path)
