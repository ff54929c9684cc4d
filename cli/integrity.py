"""`referee integrity`: an archive's deals checked together (referee/integrity.py, docs/integrity.md)."""

from __future__ import annotations

import sys

import click
import orjson

from referee.messages import Cards, Listing, Term, counted, part, shown
from referee.replay import game_name

from .command import Command
from .common import EXIT_INVALID, EXIT_UNREADABLE, EXIT_VALID, expand, fail, warn

msg, msg_n, word, word_of = part("cli")


@click.command(
    cls=Command,
    help=word("""Check the deals of an archive together: duplicates, boards, fair dealing.

    FILES are read as validate reads them (JSON, JSON Lines, gzip, folders, - for standard
    input), in one pass over every deal. Found: the same record twice, the same deal in two
    records, the same deal with the seats rotated or the suits permuted, near duplicates (a card
    moved or two swapped), with the dealer's state space when deals repeat; the tables' copies of a
    board in a duplicate-format event that differ, and a deal played as two boards; counts of cards
    dealt to a seat, team, player or the leader beyond what a fair deal gives, at a family-wise
    false-alarm rate for the whole archive of 1%. Exit status: 0 nothing found, 1 some finding,
    2 some input could not be read or held no record.
    """),
)
@click.argument("files", nargs=-1, required=True)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help=word("JSON Lines: one object per finding (kind duplicate, board or bias), then the summary."),
)
def integrity(files, as_json):
    try:
        import numpy  # noqa: F401  (the findings group the keys with it)
    except ImportError:
        fail(
            msg("referee integrity needs numpy: pip install 'cgr-referee[integrity]' (or '.[integrity]' in a checkout)")
        )
    from referee.batch import records_of
    from referee.integrity import check_paths

    warnings = []
    paths = list(expand(files, lambda message: warnings.append(warn(message))))
    findings, summary = check_paths(paths, records_of)
    if as_json:
        for finding in findings + [summary]:
            sys.stdout.write(orjson.dumps({k: shown(v) for k, v in finding.items()}).decode() + "\n")
    else:
        _text(findings, summary)
    if summary["unreadable"] or warnings or not summary["deals"]:
        sys.exit(EXIT_UNREADABLE)
    sys.exit(EXIT_INVALID if findings else EXIT_VALID)


def _text(findings, summary) -> None:
    for finding in findings:
        click.echo(msg("{kind}: {message}", kind=Term(finding["kind"]), message=finding["message"]).render())
        for member in finding.get("members", []):
            click.echo("  " + shown(_member(member)))
    click.echo(
        shown(
            msg(
                "{records} records, {deals} deals ({uncounted} not a full deal of the game, left out of "
                "the fair-dealing counts; {unread} records unreadable or not CGR/1); {tests} fair-dealing "
                "tests, family-wise false-alarm rate {rate:.0%} (Holm)",
                records=summary["records"],
                deals=summary["deals"],
                uncounted=summary["uncounted"],
                unread=summary["skipped_records"] + summary["unreadable"],
                tests=summary["tests"],
                rate=summary["false_alarm_rate"],
            )
        )
    )
    for row in summary["detectable"]:
        click.echo(
            "  "
            + shown(
                msg(
                    "{game} {target} {count} ({deals} deals): an excess of {p90} per deal is found "
                    "with 90% power, {p99} with 99%",
                    game=game_name(row["game"]),
                    target=Term(row["target"]),
                    count=Term(row["count"]),
                    deals=row["deals"],
                    p90=row["power_90"],
                    p99=row["power_99"],
                )
            )
        )


# how a member relates to its group's first (docs/integrity.md), for the catalogue
RELATIONS = (
    word("first"),
    word("byte-identical"),
    word("re-serialised"),
    word("rotated"),
    word("suits_permuted"),
    word("rotated_and_suits_permuted"),
    word("near"),
    word("odd"),
    word("differs"),
)


def _member(member: dict):
    """A group's member in words: where it is, how it relates to the first, what differs."""
    where = (
        msg("{record} deal {deal}", record=member["record"], deal=counted(member["deal"]))
        if "deal" in member
        else member["record"]
    )
    details = [Term(member["relation"])] if "relation" in member else []
    if member.get("rotation"):
        details.append(msg("seat s is seat s+{n} here", n=member["rotation"]))
    if member.get("suits"):
        details.append(msg("suits {suits}", suits=" ".join(f"{a}→{b}" for a, b in member["suits"].items())))
    if "changes" in member:
        details.append(
            Listing(
                [
                    msg("{part} in another order", part=change["part"])
                    if change["change"] == "order"
                    else msg(
                        "{part} {sign}{card}",
                        part=msg("seat {seat}", seat=change["seat"]) if "seat" in change else change["part"],
                        card=Cards(change["card"]),
                        sign="+" if change["change"] == "in" else "−",
                    )
                    for change in member["changes"]
                ]
            )
        )
    if "round" in member:
        details.append(msg("round {round} board {board}", round=member["round"], board=member["board"]))
    if "table" in member:
        details.append(msg("table {table}", table=member["table"]))
    return msg("{where}: {details}", where=where, details=Listing(details)) if details else where
