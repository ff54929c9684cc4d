"""`referee ruling RECORD -o FILE.html`: the ruling document (referee/ruling.py) written to a file."""
from __future__ import annotations

import click

from referee.messages import language, part

from .common import EXIT_USAGE, fail, load_one
from .language import Command

msg, msg_n, word, word_of = part("cli")


@click.command(cls=Command, help=word("""Write the ruling on a record as one self-contained HTML file.

    The record's identity and verdict and, for each finding (or the one asked for), the table at
    its step, the action, the message, what was legal and the text of the rule. It opens from disk
    in any browser, fetches nothing, and prints one finding per page; --lang chooses its language.
    Exit status: 0 written, 2 the file cannot be read or the request is wrong (a finding, deal or
    action that is not there)."""))
@click.argument("file")
@click.option("--finding", "finding_index", type=int, default=None,
              help=word("Rule on the record's finding N only (from 0, in the order validate lists them)."))
@click.option("--deal", "deal_index", type=int, default=None, help=word("Rule on the findings of deal D only (from 0)."))
@click.option("--action", type=int, default=None,
              help=word("With --deal: the findings of action A only (from 0); the action's table when it has none."))
@click.option("--line", type=int, default=None, help=word("The record's line in a JSON Lines file."))
@click.option("-o", "--output", required=True, type=click.File("w", encoding="utf-8", lazy=True),
              help=word("The HTML file to write (- for standard output)."))
def ruling(file, finding_index, deal_index, action, line, output):
    from referee.canonical import record_id      # here: the other commands start without the ruling
    from referee.ruling import RulingError, ruling as ruling_html

    record = load_one(file, line)
    try:
        html = ruling_html(record, record_id(record), language(), finding_index, deal_index, action)
    except RulingError as exc:
        fail(exc.text, EXIT_USAGE)
    output.write(html)
