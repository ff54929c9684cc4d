"""`referee explain RULE_ID`: what a rule id means, where the rules page decides it, and an
example finding, as the project's docs say (referee/ruledocs.py)."""

from __future__ import annotations

import click

from referee.messages import Listing, Msg, Term, language, part, shown
from referee.ruledocs import example_message, examples, meaning, rule_entries, section
from referee.rules import did_you_mean

from .command import Command
from .common import EXIT_USAGE, cells, fail

msg, msg_n, word, word_of = part("cli")

COLUMNS = {"severity": word("severity"), "stops": word("stops")}


@click.command(
    cls=Command,
    help=word("""Explain a rule id.

    What it means, the section of the rules page that decides it, and an example finding. Exit
    status: 0, or 2 for an id that is not one (with the id probably meant)."""),
)
@click.argument("rule_id")
def explain(rule_id):
    entries, examples_of = rule_entries(), examples()
    entry = entries.get(rule_id)
    if entry is None:
        near = sorted(r for r in entries if r.startswith(rule_id.split(".")[0] + "."))
        meant = did_you_mean(rule_id, entries) if "." in rule_id else ""  # a game's name alone: its ids are listed
        fail(
            msg(
                "unknown rule id {rule}{meant}{near}",
                rule=rule_id,
                meant=meant,
                near=msg("; ids of that kind: {ids}", ids=", ".join(near)) if near else "",
            ),
            EXIT_USAGE,
        )
    columns = Listing(
        [
            msg("{column}: {value}", column=_column(k), value=Term(v))  # the core's: referee.ruledocs
            for k, v in entry["columns"].items()
        ],
        "; ",
    )
    click.echo(msg("{rule}  ({columns})", rule=rule_id, columns=columns).render())
    for label, text in _explained(rule_id, examples_of.get(rule_id)):
        click.echo("  " + _labelled(label, text))


def _explained(rule_id: str, example: dict | None) -> list:
    """(label, text) lines: the meaning, the rules page (English: it is normative) and an example finding."""
    lines = [(msg("means:"), meaning(rule_id)), (msg("rules page:"), section(rule_id))]
    if example:  # in its words where the docs keep its template, else as they keep it: in English, said so
        said = example_message(example)
        label = msg("example:") if language() == "en" or isinstance(said, Msg) else msg("example (in English):")
        lines.append((label, msg("at {at}: {message}", at=example["at"] or "/", message=said)))
    return lines


def _labelled(label, text) -> str:
    """A label and its text, the texts lined up (12 cells: a Chinese character takes two)."""
    head = label.render()
    return head + " " * max(1, 12 - cells(head)) + shown(text)


def _column(name: str) -> str:
    return COLUMNS[name].shown(language()) if name in COLUMNS else name
