"""`referee ruling RECORD -o FILE.html` (or FILE.pdf): the ruling document (referee/ruling.py) written
to a file; a PDF is printed by the system's Chromium, headless."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import click

from referee.batch import os_problem
from referee.messages import index_of, language, part

from .command import Command
from .common import EXIT_USAGE, deal_index, fail, finding_index, load_one, not_over_an_input, shallow_enough
from .files import replacing

msg, msg_n, word, word_of = part("cli")

CHROMIUMS = ("chromium", "chromium-browser", "google-chrome")
PRINT_SECONDS = 120


@click.command(
    cls=Command,
    help=word("""Write the ruling on a record as one self-contained HTML file, or a PDF.

    A cover with the game, the rules, the event, round, table and players and the verdict; then, for
    each error (or the finding asked for), the table at its step, the action, the message, a claim
    against the computed value, what was legal and the clause of the rule; warnings and notes in an
    appendix. The HTML opens from disk in any browser and fetches nothing; -o FILE.pdf prints it to
    PDF with the system's Chromium. --lang chooses its language. Exit status: 0 written, 2 the file
    cannot be read, the request is wrong (a finding, deal or action that is not there) or no
    Chromium is there to print a PDF."""),
)
@click.argument("file")
@click.option(
    "--finding",
    "finding_number",
    type=int,
    default=None,
    help=word("Rule on the record's finding N only (from 1, as validate numbers them)."),
)
@click.option(
    "--deal", "deal_number", type=int, default=None, help=word("Rule on the findings of deal D only (from 1).")
)
@click.option(
    "--action",
    "action_number",
    type=int,
    default=None,
    help=word("With --deal: the findings of action A only (from 1); the action's table when it has none."),
)
@click.option("--line", type=int, default=None, help=word("The record's line in a JSON Lines file."))
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False, allow_dash=True),
    help=word("The file to write: HTML, or a PDF when its name ends in .pdf (- for HTML on standard output)."),
)
def ruling(file, finding_number, deal_number, action_number, line, output):
    from referee.canonical import record_id  # here: the other commands start without the ruling
    from referee.replay import check_record
    from referee.ruling import RulingError, ruling as ruling_html

    not_over_an_input(output, [file])
    pdf = output.lower().endswith(".pdf")
    chromium = _chromium() if pdf else None
    if pdf and chromium is None:
        fail(
            msg(
                "no Chromium to print a PDF with (make browser installs it, or set REFEREE_CHROMIUM); "
                "write the ruling as .html and print it from a browser"
            ),
            EXIT_USAGE,
        )
    record = load_one(file, line)
    shallow_enough(record, file)
    report = check_record(record)
    deals = record.get("deals") if isinstance(record.get("deals"), list) else []
    finding = None if finding_number is None else finding_index(finding_number, len(report.findings))
    deal = None if deal_number is None else deal_index(deal_number, len(deals))
    action = None if action_number is None else index_of(action_number)
    try:
        html = ruling_html(record, record_id(record), language(), finding, deal, action, report=report)
    except RulingError as exc:
        fail(exc.text, EXIT_USAGE)
    try:
        if pdf:
            _print_pdf(chromium, html, output)
        elif output == "-":
            click.echo(html, nl=False)
        else:
            with replacing(output) as handle:
                handle.write(html)
    except OSError as exc:
        fail(msg("cannot write {path}: {reason}; nothing was written", path=output, reason=os_problem(exc)))


def _chromium() -> str | None:
    """The Chromium to print with: $REFEREE_CHROMIUM, else the first on PATH."""
    named = os.environ.get("REFEREE_CHROMIUM")
    return named if named and shutil.which(named) else next(filter(None, map(shutil.which, CHROMIUMS)), None)


def _print_pdf(chromium: str, html: str, output: str) -> None:
    """The HTML printed to `output` by a headless Chromium (A4, the document's own @page), written whole:
    printed in a folder beside the target and moved into its place, or nothing written."""
    folder = os.path.dirname(os.path.abspath(output))
    with tempfile.TemporaryDirectory(dir=folder, prefix=".ruling-") as work:
        page, printed = Path(work) / "ruling.html", Path(work) / "ruling.pdf"
        page.write_text(html, encoding="utf-8")
        try:
            done = subprocess.run(
                [
                    chromium,
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--no-pdf-header-footer",
                    f"--print-to-pdf={printed}",
                    page.as_uri(),
                ],
                capture_output=True,
                timeout=PRINT_SECONDS,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            fail(msg("Chromium could not print the PDF: {reason}", reason=str(exc)))
        if not printed.exists() or not printed.read_bytes().startswith(b"%PDF"):
            reason = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [str(done.returncode)]
            fail(msg("Chromium could not print the PDF: {reason}", reason=reason[0]))
        os.replace(printed, output)
