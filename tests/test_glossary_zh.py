"""One term for one thing (issue 34): every catalogue is held to the glossary's table "One thing, one
word" (docs/glossary-zh.md): the words it rules out appear in no catalogue it names, and a label that is
the English word alone says the word chosen. It reads whatever the catalogues hold, so new messages are
held to it too."""

import re
from pathlib import Path

import pytest

from tests.test_translations import DOMAINS, catalogue

GLOSSARY = Path(__file__).parent.parent / "docs" / "glossary-zh.md"


def rows() -> list[dict]:
    """The table's rows: English, chosen (the Chinese word), ruled out, catalogues."""
    text = GLOSSARY.read_text(encoding="utf-8").split("## One thing, one word", 1)[1]
    found = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("English", "---") or set(cells[0]) <= {"-"}:
            continue
        english, chinese, ruled_out, domains, _source = cells
        found.append(
            {
                "english": english,
                "chosen": re.sub(r"\s*\(.*", "", chinese),
                "not": [] if ruled_out in ("—", "") else [w.strip() for w in ruled_out.split(",")],
                "domains": DOMAINS if domains == "all" else [d.strip() for d in domains.split(",")],
            }
        )
    return found


ROWS = rows()


def strings(domain: str):
    for entry in catalogue(domain):
        if entry.id:
            text = entry.id if isinstance(entry.id, str) else entry.id[0]
            for chinese in entry.string if isinstance(entry.string, tuple) else (entry.string,):
                yield text, chinese


def test_the_glossary_has_its_table():
    assert len(ROWS) >= 20 and all(row["domains"] for row in ROWS)
    assert all(set(row["domains"]) <= set(DOMAINS) for row in ROWS)


@pytest.mark.parametrize("domain", DOMAINS)
def test_no_catalogue_says_a_word_the_glossary_rules_out(domain):
    problems = [
        f"{english!r}: {chinese!r} says {word!r}, not {row['chosen']!r}"
        for row in ROWS
        if domain in row["domains"]
        for word in row["not"]
        for english, chinese in strings(domain)
        if word in chinese
    ]
    assert not problems, "\n".join(problems)


def _labels(english: str) -> list[str]:
    """The English words of a row that may stand alone as a label ("stock, talon"; not "a set of *n*")."""
    plain = re.sub(r"\s*\(.*?\)", "", english)
    return [w.strip().lower() for w in plain.split(",") if re.fullmatch(r"[a-z ]+", w.strip())]


@pytest.mark.parametrize("domain", DOMAINS)
def test_a_label_says_the_word_chosen(domain):
    problems = []
    for row in ROWS:
        if domain not in row["domains"] or "," in row["chosen"]:
            continue
        labels = _labels(row["english"])
        problems += [
            f"{english!r} is {chinese!r}, not {row['chosen']!r}"
            for english, chinese in strings(domain)
            if english.strip().lower() in labels and row["chosen"] not in chinese
        ]
    assert not problems, "\n".join(problems)


def test_the_check_finds_a_word_ruled_out():
    """The test above can fail: a catalogue string with a word ruled out is found."""
    row = next(row for row in ROWS if row["english"] == "margin")
    assert any(word in "全场差距" for word in row["not"])
