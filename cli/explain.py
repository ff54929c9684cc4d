"""`referee explain RULE_ID`: what a rule id means, where the rules page decides it, and an
example finding. Read from the project's docs (docs/rule-ids.md and docs/rule-examples.json), the
one place the ids are described (tests/test_rule_ids.py holds them to the code); the pages cited
are in docs/."""
from __future__ import annotations

import json
import re
from pathlib import Path

import click

from referee.rules import did_you_mean

from .common import EXIT_USAGE, fail

DOCS = Path(__file__).resolve().parent.parent / "docs"
TABLES = ("rule-ids.md",)
ROW = re.compile(r"^\| `([a-z_]+(?:\.[a-z_0-9]+)+)` \|(.*)\|\s*$")
PAGES = {"guandan": "rules/guandan.md", "gandengyan": "rules/gandengyan.md", "gouji": "rules/gouji.md",
         "notation": "notation.md"}
# notation ids name no section in their meaning: the notation page's sections by id
NOTATION_SECTIONS = {"file": 1, "encoding": 1, "json": 1, "size": 1, "card": 2, "seat": 3, "structure": 4,
                     "key": 4, "version": 4, "game": 4, "meta": 4, "deals": 4, "action": 5, "deal": 5,
                     "result": 6, "start": 7, "rules": 8, "rank": 7}


def rule_entries() -> dict[str, dict]:
    """Every documented rule id: its table's other columns by header, the last one its meaning."""
    entries, headers = {}, []
    for name in TABLES:
        for line in (DOCS / name).read_text(encoding="utf-8").splitlines():
            if line.startswith(("| id |", "| rule id |")):
                headers = [c.strip() for c in line.strip("|").split("|")][1:-1]
            match = ROW.match(line)
            if match and match.group(1) not in entries:
                cells = [c.strip().replace("`", "") for c in match.group(2).split("|")]
                entries[match.group(1)] = {"columns": dict(zip(headers, cells[:-1])), "meaning": cells[-1]}
    return entries


def section(rule: str, meaning: str) -> str:
    game = rule.split(".")[0]
    found = re.findall(r"§\s?[0-9]+(?:\.[0-9]+)?", meaning)
    if not found and game == "notation":
        number = NOTATION_SECTIONS.get(rule.split(".")[1])
        found = [f"§{number}"] if number else []
    elif not found and rule.split(".")[1] in ("result", "match"):
        found = ["§5"]          # both games' pages: end of deal, claims, the match
    return f"docs/{PAGES.get(game, game)} " + (", ".join(found) if found else "(no single section)")


@click.command()
@click.argument("rule_id")
def explain(rule_id):
    """Explain a rule id.

    What it means, the section of the rules page that decides it, and an example finding. Exit
    status: 0, or 2 for an id that is not one (with the id probably meant)."""
    try:
        entries = rule_entries()
        examples = json.loads((DOCS / "rule-examples.json").read_text(encoding="utf-8"))
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
    example = examples.get(rule_id)
    if example:
        click.echo(f"  example:    at {example['at'] or '/'}: {example['message']}")
