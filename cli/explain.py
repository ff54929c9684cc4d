"""`referee explain RULE_ID`: what a rule id means, where the rules page decides it, and an
example finding, as the project's docs say (referee/ruledocs.py)."""
from __future__ import annotations

import click

from referee.ruledocs import examples, rule_entries, section
from referee.rules import did_you_mean

from .common import EXIT_USAGE, fail


@click.command()
@click.argument("rule_id")
def explain(rule_id):
    """Explain a rule id.

    What it means, the section of the rules page that decides it, and an example finding. Exit
    status: 0, or 2 for an id that is not one (with the id probably meant)."""
    try:
        entries, shown = rule_entries(), examples()
    except OSError as exc:
        raise click.ClickException(f"the project's docs are not here ({exc.strerror}): explain needs the checkout")
    entry = entries.get(rule_id)
    if entry is None:
        near = sorted(r for r in entries if r.startswith(rule_id.split(".")[0] + "."))
        fail(f"unknown rule id {rule_id}{did_you_mean(rule_id, entries)}"
             + (f"; ids of that kind: {', '.join(near)}" if near else ""), EXIT_USAGE)
    click.echo(f"{rule_id}  ({'; '.join(f'{k}: {v}' for k, v in entry['columns'].items())})")
    click.echo(f"  means:      {entry['meaning']}")
    click.echo(f"  rules page: {section(rule_id, entry['meaning'])}")
    example = shown.get(rule_id)
    if example:
        click.echo(f"  example:    at {example['at'] or '/'}: {example['message']}")
