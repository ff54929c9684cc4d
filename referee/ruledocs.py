"""What the registry of rule ids (referee/ruleids.py) says of each id, in the words of its readers: `referee
explain`, `validate --rule`, the ruling document and the catalogues; and the sections of the rules pages
(docs/, the only place this package finds them) that decide an id, quoted by the ruling."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

from .messages import CORE, Msg, Term, language, word
from .ruleids import COLUMNS, rules

DOCS = Path(__file__).resolve().parent / "docs"  # installed: the repository's docs/ inside the package
DOCS = DOCS if DOCS.is_dir() else DOCS.parent.parent / "docs"


def rule_entries() -> dict[str, dict]:
    """Every rule id: its columns (severity, stops) and its meaning, as messages (without Markdown's `code`)."""
    return {
        rule: {
            "columns": {column: _plain(getattr(entry, column)) for column in COLUMNS},
            "meaning": _plain(entry.meaning),
        }
        for rule, entry in rules().items()
    }


def _plain(markdown: str) -> str:
    return markdown.replace("`", "")


def meaning(rule: str, lang: str | None = None) -> str | None:
    """What a rule id means, in `lang` (by default the process's language), from the core catalogue; None for
    an id the registry does not list."""
    entry = rules().get(rule)
    return None if entry is None else Term(_plain(entry.meaning)).shown(lang or language())


def meanings_for_catalogue(fileobj, keywords, comment_tags, options):
    """Babel extraction method (referee/locale/core.cfg): from the registry (referee/ruleids.json), every rule
    id's meaning, a message, and each value of its other columns (severity, stops: "no (deal, when two payers
    are owed)")."""
    for group in json.loads(fileobj.read().decode("utf-8"))["groups"]:
        for rule, entry in group["rules"].items():
            for text in (entry["meaning"], *(entry[column] for column in COLUMNS)):
                yield 0, None, _plain(text), [rule]


NO_SECTION = word("(no single section)")


def section(rule: str) -> str:
    """The pages and sections that decide a rule id, in words: "docs/rules/guandan.md §3"."""
    return "; ".join(
        f"{page} " + (", ".join(numbers) if numbers else NO_SECTION.shown(language()))
        for page, numbers in sections(rule)
    )


def sections(rule: str) -> list[tuple[str, list[str]]]:
    """(page, sections) that decide a rule id, as the registry says."""
    return list(rules()[rule].sections.items())


HEADING = re.compile(r"^(#{2,4}) ([0-9]+(?:\.[0-9]+)?)\.? ")
ITEM = re.compile(r"^([0-9]+[a-z]?)\. ")


def section_text(page: str, number: str) -> str:
    """The text of section `number` ("§6.4") of a page ("docs/rules/guandan.md"), as written: its
    heading's part of the page, or, where the section has no heading of its own, the item of that
    number in its parent section's numbered list (guandan §6.4 is item 4 of §6); "" if there is none."""
    try:
        lines = (DOCS.parent / page).read_text(encoding="utf-8").splitlines()
    except OSError:  # installed without the docs: the ruling is written without the rules' text
        return ""
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
            end = next(
                (
                    i
                    for i in range(start + 1, len(lines))
                    if lines[i].startswith("#") and len(lines[i]) - len(lines[i].lstrip("#")) <= depth
                ),
                len(lines),
            )
            return lines[start:end]
    return None


def _item(lines: list[str], number: str) -> list[str] | None:
    for start, line in enumerate(lines):
        item = ITEM.match(line)
        if item and item.group(1) == number:
            end = next(
                (i for i in range(start + 1, len(lines)) if ITEM.match(lines[i]) or lines[i].startswith("#")),
                len(lines),
            )
            return lines[start:end]
    return None


def examples() -> dict[str, dict]:
    """An example finding of each rule id: `at`, `message` and, where kept, the message's `template`,
    `params` and `domain` (the part whose catalogue says it; cards as {"cards": …}, a word as {"word": …})."""
    return {rule: entry.example for rule, entry in rules().items()}


CLAUSE_WORD = re.compile(r"[a-z]{3,}")
COMMON = frozenset(
    [
        "the",
        "and",
        "for",
        "that",
        "with",
        "this",
        "are",
        "not",
        "its",
        "any",
        "may",
        "from",
        "one",
        "has",
        "have",
        "was",
        "were",
        "but",
        "all",
        "each",
        "than",
        "when",
        "which",
        "who",
        "what",
        "where",
        "there",
        "their",
        "them",
        "they",
        "into",
        "only",
        "also",
        "such",
        "seat",
    ]
)
FENCE = "```"
BOLD_LEAD = re.compile(r"(?<=[.!?])\s+(?=\*\*[^*]+[.:]\*\*)")
POINT = re.compile(r"^- (?:\*\*(.+?)\*\*)?")


def clause(page: str, number: str, rule: str, about: str, hint: str = "") -> tuple[str, str, str]:
    """The clause of section `number` of `page` that a finding of `rule` is about, as (kind, key,
    Markdown): of the section's numbered items ("item", its number), points ("point", its bold lead),
    table rows ("row", its first cell, under the table's header) and paragraphs ("", ""), the one
    sharing most words with the rule id's own words ("tribute card"), then the finding's message
    (`about`), then `hint` (the id's meaning, which says less of the case), a word counting more the
    fewer clauses hold it. A section that is one clause (guandan §6.3, an item) is that clause;
    ("", "", "") when the page has no such section."""
    text = section_text(page, number)
    blocks = _clauses(text)
    if len(blocks) <= 1:
        return ("", "", text) if text else ("", "", "")
    held = [_words(block[2]) for block in blocks]
    weights = {word: 0.3 for word in _words(hint)} | {word: 1.0 for word in _words(about)}
    weights |= {word: 2.0 for word in _words(" ".join(rule.split(".")[1:]).replace("_", " "))}
    rarity = {word: weight / max(1, sum(word in words for words in held)) for word, weight in weights.items()}
    scores = [sum(rarity[word] for word in rarity.keys() & words) for words in held]
    best = scores.index(max(scores))
    kind, key, chosen = blocks[best]
    if chosen.rstrip().endswith(":"):  # a paragraph that opens a list: the list is its clause too
        listed = [
            text for kind, _, text in itertools.takewhile(lambda b: b[0] in ("item", "point"), blocks[best + 1 :])
        ]
        chosen = "\n\n".join([chosen, "\n".join(listed)])
    return kind, key, chosen


def _words(text: str) -> set[str]:
    return {w[:-1] if len(w) > 4 and w.endswith("s") else w for w in CLAUSE_WORD.findall(text.lower())} - COMMON


def _clauses(text: str) -> list[tuple[str, str, str]]:
    """A section's numbered items, table rows (each under its table's header) and paragraphs, in order;
    headings and code blocks are no clause."""
    blocks: list[tuple[str, str, str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(FENCE):
            i = next((j for j in range(i + 1, len(lines)) if lines[j].startswith(FENCE)), len(lines)) + 1
        elif not line.strip() or line.startswith("#"):
            i += 1
        elif line.startswith("|"):
            end = next((j for j in range(i, len(lines)) if not lines[j].startswith("|")), len(lines))
            head = lines[i : i + 2]
            blocks += [
                ("row", row.strip("|").split("|")[0].strip(), "\n".join(head + [row])) for row in lines[i + 2 : end]
            ]
            i = end
        else:
            item, point = ITEM.match(line), POINT.match(line)
            end = next(
                (
                    j
                    for j in range(i + 1, len(lines))
                    if not lines[j].strip()
                    or lines[j].startswith(("#", "|"))
                    or ITEM.match(lines[j])
                    or POINT.match(lines[j])
                    or ((item or point) and not lines[j].startswith(" "))
                ),
                len(lines),
            )
            kind, key = ("item", item.group(1)) if item else ("point", point.group(1)) if point else ("", "")
            if kind:
                blocks.append((kind, key, "\n".join(lines[i:end])))
            else:  # a paragraph of several bold-led parts (notation §9): each part a clause
                blocks += [("", "", part) for part in BOLD_LEAD.split("\n".join(lines[i:end]))]
            i = end
    return blocks


def example_message(example: dict):
    """An example's message: a message where its template is kept, else its English."""
    return Msg.from_json(example, example.get("domain", CORE)) if "template" in example else example["message"]
