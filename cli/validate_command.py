"""`referee validate`'s command line as click reads it: its arguments, options and help. What the command does is
cli/validate.py's `validate`, the callback here, which cli/start.py also calls for the commonest command lines."""

from __future__ import annotations

import click

from referee.messages import part

from .command import Choice, Command
from .validate import MAX_JOBS, SEVERITIES, validate as check_files

msg, msg_n, word, word_of = part("cli")

validate = Command(
    "validate",
    callback=check_files,
    help=word("""Check records against the rules.

    FILES are JSON or JSON Lines files (also gzipped), folders (every .json and .jsonl file below
    them) or - for standard input.

    Filters change what is shown, never the summary or the exit status. With --json the summary
    goes to standard error, so standard output stays JSON Lines. Exit status: 0 every
    record valid, 1 some record breaks a rule or a claim, 2 some input could not be read, or a
    folder (or the whole selection) held no record, or the command line is wrong (an unknown rule
    id in --rule, -q with --json), 130 interrupted.
    """),
    params=[
        click.Argument(["files"], nargs=-1, required=True),
        click.Option(
            ["--json", "as_json"], is_flag=True, help=word("JSON Lines: one report per record, for programs.")
        ),
        click.Option(
            ["-j", "--jobs"],
            type=click.IntRange(min=1, max=MAX_JOBS),
            default=None,
            help=word(
                "Processes checking records (default: every free core, the cores less the load average; "
                "one process for an input of fewer than 4 batches of 16 records)."
            ),
        ),
        click.Option(["--only-invalid"], is_flag=True, help=word("Show only the records that are not valid.")),
        click.Option(
            ["--severity"],
            type=Choice(SEVERITIES),
            default="info",
            show_default=True,
            help=word("Show only findings of this severity or worse."),
        ),
        click.Option(
            ["--rule", "rules"],
            multiple=True,
            metavar="ID",
            help=word(
                "Show only findings of this rule id, or of the ids under it (guandan takes guandan.*), "
                "and only the records that have one. Repeatable."
            ),
        ),
        click.Option(
            ["--summary-json"],
            type=click.Path(dir_okay=False, writable=True),
            help=word("Write the summary (records by verdict, findings by rule id) to this file as JSON."),
        ),
        click.Option(
            ["-q", "--quiet"],
            is_flag=True,
            help=word(
                "Verdict lines only (source, VALID / INVALID / UNREADABLE, rules): no findings, summary or progress bar."
            ),
        ),
        click.Option(
            ["--color/--no-color"],
            default=None,
            help=word("Colour the text output, or not (default: colour on a terminal, unless NO_COLOR is set)."),
        ),
        click.Option(
            ["--infer-rules", "infer"],
            is_flag=True,
            help=word("For an invalid record, the documented presets and options (up to 2 changes) it is valid under."),
        ),
    ],
)
