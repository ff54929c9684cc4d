"""`referee decide RECORD (--finding N | --deal N) --decision D --by NAME (-o OUT | -w)`: the arbiter's decision on
one finding, or the void of one deal, written into the record (notation §10), and the record's report as ruled."""

from __future__ import annotations

import sys

import click

from referee.batch import os_problem
from referee.messages import part

from .command import Choice, Command
from .common import EXIT_INVALID, EXIT_USAGE, EXIT_VALID, deal_index, fail, finding_numbered, load_one, shallow_enough

msg, msg_n, word, word_of = part("cli")

DECISIONS = ("stands", "score", "void", "claim")


def _numbers(kind):
    """A click callback reading a comma-separated list of `kind` ("3,1,0,2")."""

    def read(_ctx, param, value):
        if value is None:
            return None
        try:
            return [kind(item) for item in value.split(",")]
        except ValueError:
            raise click.BadParameter(
                msg("{value} is not a comma-separated list of numbers", value=value).render(), param=param
            ) from None

    return read


def _score(value: str):
    number = float(value)
    if abs(number) > 10**12 or number != number:
        raise ValueError(value)
    return int(number) if number.is_integer() else number


@click.command(
    cls=Command,
    help=word("""Write the arbiter's decision on a finding into the record.

    FILE is one record (JSON). The ruling names the finding's rule and place, the decision, who
    decided and, where given, when and why (notation §10); --deal N with --decision void voids a
    deal for what no finding shows (a misdeal, an exposed card). The record is written in canonical
    form, as `referee fmt` writes it, checked again as ruled, and its report printed. A decision
    that does not fit the finding (claim on a finding that is no claim, stands on something other
    than an action, score without the deal's complete result, an action that cannot stand) is
    refused and nothing is written. Exit status: 0 written and the record is valid as ruled, 1
    written and errors remain, 2 refused, or the file cannot be read or written."""),
)
@click.argument("file")
@click.option(
    "--finding",
    "finding_number",
    type=int,
    help=word("The finding decided: N as `referee validate` lists the record's findings (from 1)."),
)
@click.option(
    "--deal",
    "deal_number",
    type=int,
    help=word("With void, in place of --finding: the deal voided itself (from 1); the ruling names no rule."),
)
@click.option(
    "--decision",
    type=Choice(DECISIONS),
    required=True,
    help=word(
        "stands: the action is taken as played; score: the deal ends with the outcome given by "
        "--order or --winner and --scores; void: the deal counts for nothing; claim: the "
        "record's claim stands."
    ),
)
@click.option("--by", "arbiter", required=True, help=word("Who decided: a name, and a role where it helps."))
@click.option("--reason", help=word("The grounds: an event rule, a law, what the arbiter saw."))
@click.option("--date", help=word("When, ISO 8601 (2026-05-02T15:40+08:00)."))
@click.option(
    "--order",
    callback=_numbers(int),
    help=word("With score (Guandan, Gou Ji): the finishing order of every seat, as 3,1,0,2."),
)
@click.option("--winner", type=click.IntRange(min=0), help=word("With score (Gan Deng Yan): the winner's seat."))
@click.option(
    "--scores", callback=_numbers(_score), help=word("With score (Gan Deng Yan): every seat's points, as 4,-2,-2.")
)
@click.option("-o", "--output", help=word("Write the ruled record to this file."))
@click.option("-w", "--write", is_flag=True, help=word("Rewrite FILE in place (atomically)."))
def decide(file, finding_number, deal_number, decision, arbiter, reason, date, order, winner, scores, output, write):
    from rich.console import Console  # here, as in every command that renders: start-up stays fast

    from referee.replay import check_record
    from referee.rulings import Refused, decided, is_iso_date, ruling_on, voiding

    from . import render

    if bool(output) == write:
        fail(msg("give one of -o OUT and -w"), EXIT_USAGE)
    if (finding_number is None) == (deal_number is None):
        fail(msg("give one of --finding N and --deal N"), EXIT_USAGE)
    if deal_number is not None and decision != "void":
        fail(msg("--deal goes with --decision void: any other decision decides a finding"), EXIT_USAGE)
    result = {
        key: value for key, value in (("order", order), ("winner", winner), ("scores", scores)) if value is not None
    }
    if result and decision != "score":
        fail(msg("--order, --winner and --scores go with --decision score"), EXIT_USAGE)
    if date is not None and not is_iso_date(date):
        fail(
            msg("--date {date} is no ISO 8601 date, such as 2026-05-02 or 2026-05-02T15:40+08:00", date=date),
            EXIT_USAGE,
        )
    record = load_one(file, None)
    shallow_enough(record, file)
    try:
        if deal_number is None:
            finding = finding_numbered(check_record(record).findings, finding_number)
            ruling = ruling_on(finding, decision, arbiter, date, reason, result or None)
        else:
            ruling = voiding(deal_index(deal_number, _deals(record)), arbiter, date, reason)
        ruled, report = decided(record, ruling)
    except Refused as refused:
        fail(refused.text, EXIT_USAGE)
    _write(output or file, ruled)
    report.source = output or file
    render.report(Console(highlight=False, soft_wrap=True), report)
    sys.exit(EXIT_VALID if report.valid else EXIT_INVALID)


def _deals(record: dict) -> int:
    deals = record.get("deals")
    return len(deals) if isinstance(deals, list) else 0


def _write(path: str, record: dict):
    """The record in canonical form, laid out as `referee fmt` writes it, written whole or not at all."""
    from referee.canonical import canonical, dumps
    from referee.replay import game_module

    from .files import replacing

    text = dumps(canonical(record, game_module(record["game"]).PRESET_ALIASES)) + "\n"
    try:
        with replacing(path) as out:
            out.write(text)
    except OSError as exc:
        fail(msg("cannot write {path}: {reason}; it is left as it was", path=path, reason=os_problem(exc)))
