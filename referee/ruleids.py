"""The rule ids: the one registry of every id a finding can carry (referee/ruleids.json), each with its
severity, whether it stops the replay, its meaning, the rules pages' sections that decide it and an
example finding, whose record (tests/data/rule-examples/ID.json) tests/test_rule_ids.py replays: it must
give that finding at that pointer. docs/rule-ids.md is written from it: `python -m referee.ruleids >
docs/rule-ids.md` (`make rule-ids`).

A new rule id is added to referee/ruleids.json in its game's group, with its example record;
`python -m tests.rule_examples` then keeps the example's message as its template, and `make messages`
takes its meaning into the catalogues for its Chinese."""

# Annotations evaluated as written (no `from __future__ import annotations`): typing.NamedTuple compiles a field's
# annotation given as text, and a process's first compile() sets up Python's syntax-tree types, about 10 M
# instructions of start-up.
import functools
import json
import sys
from pathlib import Path
from typing import NamedTuple

REGISTRY = Path(__file__).with_name("ruleids.json")
COLUMNS = ("severity", "stops")  # docs/rule-ids.md's columns between the id and its meaning


class Rule(NamedTuple):
    id: str
    severity: str  # "error", or as the findings say it: "warning (error if not the last deal)"
    stops: str  # what it stops: "no", "deal", "rest of deal", "record", with its exceptions
    meaning: str  # in English; the catalogues say it in Chinese (referee.ruledocs.meaning)
    sections: dict[str, list[str]]  # page -> the sections of it that decide the id ("docs/rules/guandan.md": ["§3"])
    example: dict  # an example finding: at, message and the template and params that say it


@functools.cache
def registry() -> dict:
    """The registry as written: its title, intro and groups of rules (one per part of the notation)."""
    return json.loads(REGISTRY.read_text(encoding="utf-8"))


@functools.cache
def rules() -> dict[str, Rule]:
    """Every rule id, in the registry's order."""
    return {rule: Rule(rule, **fields) for group in registry()["groups"] for rule, fields in group["rules"].items()}


def markdown() -> str:
    """docs/rule-ids.md: the registry's groups, each a table of its ids."""
    written = registry()
    parts = [f"# {written['title']}", written["intro"]]
    for group in written["groups"]:
        parts += [f"## {group['heading']}", group["before"], _table(group["rules"]), group["after"]]
    return "\n\n".join(part for part in parts if part) + "\n"


def _table(group: dict) -> str:
    rows = ["| id | " + " | ".join(COLUMNS) + " | meaning |", "|---" * (len(COLUMNS) + 2) + "|"]
    rows += [
        f"| `{rule}` | " + " | ".join(fields[column] for column in COLUMNS) + f" | {fields['meaning']} |"
        for rule, fields in group.items()
    ]
    return "\n".join(rows)


if __name__ == "__main__":
    sys.stdout.write(markdown())
