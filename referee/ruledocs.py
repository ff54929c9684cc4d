"""What the project's docs say of each rule id (docs/rule-ids.md, docs/rule-examples.json): the one
place the ids are described, which tests/test_rule_ids.py holds to the code. Read by `referee
explain`, `validate --rule` and the ruling document; the pages cited are in docs/."""
from __future__ import annotations

import json
import re
from pathlib import Path

from .messages import CORE, Msg, Term, language, word

DOCS = Path(__file__).resolve().parent.parent / "docs"
ROW = re.compile(r"^\| `([a-z_]+(?:\.[a-z_0-9]+)+)` \|(.*)\|\s*$")
PAGES = {"guandan": "rules/guandan", "gandengyan": "rules/gandengyan", "gouji": "rules/gouji", "notation": "notation"}
# notation ids name no section in their meaning: the notation page's sections by id
NOTATION_SECTIONS = {"file": 1, "encoding": 1, "json": 1, "size": 1, "card": 2, "seat": 3, "structure": 4,
                     "key": 4, "version": 4, "game": 4, "meta": 4, "deals": 4, "action": 5, "deal": 5,
                     "result": 6, "start": 7, "rules": 8, "rank": 7}


def rule_entries() -> dict[str, dict]:
    """Every documented rule id: its table's other columns by header, the last one its meaning."""
    return _entries((DOCS / "rule-ids.md").read_text(encoding="utf-8").splitlines())


def _entries(lines) -> dict[str, dict]:
    entries, headers = {}, []
    for line in lines:
        if line.startswith("| id |"):
            headers = [c.strip() for c in line.strip("|").split("|")][1:-1]
        match = ROW.match(line)
        if match and match.group(1) not in entries:
            cells = [c.strip().replace("`", "") for c in match.group(2).split("|")]
            entries[match.group(1)] = {"columns": dict(zip(headers, cells[:-1])), "meaning": cells[-1]}
    return entries


def meaning(rule: str, lang: str | None = None) -> str | None:
    """What docs/rule-ids.md says a rule id means, in `lang` (by default the process's language), from
    the core catalogue; None for an id it does not list."""
    entry = rule_entries().get(rule)
    return None if entry is None else Term(entry["meaning"]).shown(lang or language())


def meanings_for_catalogue(fileobj, keywords, comment_tags, options):
    """Babel extraction method (referee/locale/core.cfg): every meaning of the rule-id table, a message, and
    each value of its other columns (severity, stops: "no (deal, when two payers are owed)")."""
    lines = fileobj.read().decode("utf-8").splitlines()
    for rule, entry in _entries(lines).items():
        yield 0, None, entry["meaning"], [rule]
        for value in entry["columns"].values():
            yield 0, None, value, [rule]


NO_SECTION = word("(no single section)")


def section(rule: str, meaning: str) -> str:
    """The pages and sections that decide a rule id, in words: "docs/rules/guandan.md §3"."""
    return "; ".join(f"{page} " + (", ".join(numbers) if numbers else NO_SECTION.shown(language()))
                     for page, numbers in sections(rule, meaning))


def sections(rule: str, meaning: str) -> list[tuple[str, list[str]]]:
    """(page, sections) that decide a rule id: those its meaning names ("§5" on the game's page,
    "notation §9" on the notation page), else the usual one."""
    game = rule.split(".")[0]
    found = re.findall(r"(notation |RFC \d+ )?§\s?([0-9]+(?:\.[0-9]+)?)", meaning)     # an RFC's are not ours
    own = [f"§{number}" for page, number in found if not page]
    of_notation = [f"§{number}" for page, number in found if page == "notation "]
    if game == "notation":
        own, of_notation = own + of_notation, []
        number = NOTATION_SECTIONS.get(rule.split(".")[1])
        own = own or ([f"§{number}"] if number else [])
    elif not own and rule.split(".")[1] in ("result", "match"):
        own = ["§5"]            # both games' pages: end of deal, claims, the match
    pages = [(f"docs/{PAGES.get(game, game)}.md", own)]
    if of_notation:
        pages = pages[:1] * bool(own) + [("docs/notation.md", of_notation)]
    return pages


HEADING = re.compile(r"^(#{2,4}) ([0-9]+(?:\.[0-9]+)?)\.? ")
ITEM = re.compile(r"^([0-9]+[a-z]?)\. ")


def section_text(page: str, number: str) -> str:
    """The text of section `number` ("§6.4") of a page ("docs/rules/guandan.md"), as written: its
    heading's part of the page, or, where the section has no heading of its own, the item of that
    number in its parent section's numbered list (guandan §6.4 is item 4 of §6); "" if there is none."""
    lines = (DOCS.parent / page).read_text(encoding="utf-8").splitlines()
    number = number.lstrip("§")
    found = _headed(lines, number)
    if found is None and "." in number:
        parent, item = number.split(".")
        found = _item(_headed(lines, parent) or [], item)
    return "\n".join(found or []).strip()


def _headed(lines: list[str], number: str) -> list[str] | None:
    for start, line in enumerate(lines):
        heading = HEADING.match(line)
        if heading and heading.group(2) == number:
            depth = len(heading.group(1))
            end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("#")
                        and len(lines[i]) - len(lines[i].lstrip("#")) <= depth), len(lines))
            return lines[start:end]
    return None


def _item(lines: list[str], number: str) -> list[str] | None:
    for start, line in enumerate(lines):
        item = ITEM.match(line)
        if item and item.group(1) == number:
            end = next((i for i in range(start + 1, len(lines)) if ITEM.match(lines[i]) or lines[i].startswith("#")),
                       len(lines))
            return lines[start:end]
    return None


def examples() -> dict[str, dict]:
    """An example finding of each rule id: `at`, `message` and, where kept, the message's `template`,
    `params` and `domain` (the part whose catalogue says it; cards as {"cards": …}, a word as {"word": …})."""
    return json.loads((DOCS / "rule-examples.json").read_text(encoding="utf-8"))


def example_message(example: dict):
    """An example's message: a message where its template is kept, else its English."""
    return Msg.from_json(example, example.get("domain", CORE)) if "template" in example else example["message"]
