"""`referee ruling RECORD -o FILE.html`: the ruling document (referee/ruling.py) written to a file."""
from __future__ import annotations

import click

from referee.messages import index_of, language, word

from .common import EXIT_USAGE, deal_index, fail, finding_index, load_one
from .language import Command


@click.command(cls=Command, help=word("""Write the ruling on a record as one self-contained HTML file.

    The record's identity and verdict and, for each finding (or the one asked for), the table at
    its step, the action, the message, what was legal and the text of the rule. It opens from disk
    in any browser, fetches nothing, and prints one finding per page; --lang chooses its language.
    Exit status: 0 written, 2 the file cannot be read or the request is wrong (a finding, deal or
    action that is not there)."""))
@click.argument("file")
@click.option("--finding", "finding_number", type=int, default=None,
              help=word("Rule on the record's finding N only (from 1, as validate numbers them)."))
@click.option("--deal", "deal_number", type=int, default=None, help=word("Rule on the findings of deal D only (from 1)."))
@click.option("--action", "action_number", type=int, default=None,
              help=word("With --deal: the findings of action A only (from 1); the action's table when it has none."))
@click.option("--line", type=int, default=None, help=word("The record's line in a JSON Lines file."))
@click.option("-o", "--output", required=True, type=click.File("w", encoding="utf-8", lazy=True),
              help=word("The HTML file to write (- for standard output)."))
def ruling(file, finding_number, deal_number, action_number, line, output):
    from referee.canonical import record_id      # here: the other commands start without the ruling
    from referee.replay import check_record
    from referee.ruling import RulingError, ruling as ruling_html

    record = load_one(file, line)
    report = check_record(record)
    deals = record.get("deals") if isinstance(record.get("deals"), list) else []
    finding = None if finding_number is None else finding_index(finding_number, len(report.findings))
    deal = None if deal_number is None else deal_index(deal_number, len(deals))
    action = None if action_number is None else index_of(action_number)
    try:
        html = ruling_html(record, record_id(record), language(), finding, deal, action, report=report)
    except RulingError as exc:
        fail(exc.text, EXIT_USAGE)
    output.write(html)
