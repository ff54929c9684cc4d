"""The templates of the rule ids' examples (their registry, referee/ruleids.json): each example finding's
message kept as the template and parameters the code says it with, so that `referee explain` says it in any
language (issue 34).

After adding an example (`at`, `message`), `python -m tests.rule_examples` finds its template by matching
the message against every catalogue's templates (its game's first), its parameters typed as explain needs
them: numbers, cards ({"cards": "7H"}), a word of the catalogue ({"word": "return"}), a listing
({"listing": [...], "sep": ", "}), a phrase (a template of its own). An example no template says stays
English, and explain says so; tests/test_chinese_everywhere.py checks that each template says its message.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).parent.parent
REGISTRY = ROOT / "referee" / "ruleids.json"
CATALOGUES = ROOT / "referee" / "locale" / "zh" / "LC_MESSAGES"
PLACEHOLDER = re.compile(r"\{(\w+)(?::[^}]*)?\}")
CARDS = re.compile(r"([2-9TJQKA][SHDC]|BJ|RJ)( ([2-9TJQKA][SHDC]|BJ|RJ))*")
NUMBERS = ("seat", "n", "to", "deal", "action", "size", "count", "first", "second", "dui_men")  # always a number
GAMES = ("guandan", "gouji", "gandengyan")


def _regex(template: str) -> re.Pattern:
    out, seen = "", set()
    for part in re.split(r"(\{\w+(?::[^}]*)?\})", template):
        name = PLACEHOLDER.fullmatch(part)
        if name is None:
            out += re.escape(part)
        elif name.group(1) in seen:
            out += f"(?P={name.group(1)})"
        else:
            seen.add(name.group(1))
            out += f"(?P<{name.group(1)}>.*?)"
    return re.compile(out + r"\Z", re.S)


def _letters(template: str) -> int:
    return len(re.sub(r"\{[^}]*\}|[^A-Za-z]", "", template))


class Catalogues:
    def __init__(self):
        self.templates, self.words, self.singular_of = [], {}, {}
        for path in sorted(CATALOGUES.glob("*.po")):
            with open(path, "rb") as po:
                for entry in read_po(po):
                    ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
                    if isinstance(entry.id, tuple):
                        self.singular_of[entry.id[1]] = entry.id[0]
                    for text in filter(None, ids):
                        if "{" not in text and entry.context is None:
                            self.words.setdefault(path.stem, set()).add(text)
                        if _letters(text) >= 5:  # not "{kind} {rank}": a template that says something
                            self.templates.append((path.stem, text, _regex(text)))

    def parse(self, text: str, prefer: str):
        """(domain, template, raw parameters) of the template that says `text` (its game's first), or None."""
        best = None
        for domain, template, regex in self.templates:
            found = regex.match(text)
            if found is None or any(
                name in NUMBERS and not re.fullmatch(r"-?[\d,]+", value) for name, value in found.groupdict().items()
            ):
                continue
            score = len(template) - 10 * (domain != prefer) + 3 * ("{rank}" in template)
            if best is None or score > best[0]:
                best = (score, domain, template, found.groupdict())
        return best and best[1:]

    def typed(self, value: str, prefer: str):
        if re.fullmatch(r"-?\d+|\d{1,3}(,\d{3})+", value):
            return int(value.replace(",", ""))
        if re.fullmatch(r"seat \d+", value):
            return {"template": "seat {seat}", "params": {"seat": int(value[5:])}}
        if CARDS.fullmatch(value):
            return {"cards": value}
        if len(value) >= 3 and value in self.words.get(prefer, set()) | self.words["core"]:
            return {"word": value}
        for sep in (", ", "; ", " or ", " and "):
            items = value.split(sep)
            if len(items) == 1:
                continue
            typed = [self.typed(item, prefer) for item in items]
            if all(isinstance(t, dict) and "template" in t for t in typed) or all(
                re.fullmatch(r"[a-z_]+:[0-9A-Z]+|-?\d+|[2-9TJQKA]", item) for item in items
            ):
                return {"listing": typed, "sep": sep}
        found = self.parse(value, prefer)
        return self.templated(*found[1:], prefer) if found and found[2] else value

    def templated(self, template: str, params: dict, prefer: str) -> dict:
        typed = {name: self.typed(value, prefer) for name, value in params.items()}
        if template in self.singular_of:
            return {"template": self.singular_of[template], "plural": template, "params": typed}
        return {"template": template, "params": typed}


def write():
    catalogues, registry = Catalogues(), json.loads(REGISTRY.read_text(encoding="utf-8"))
    for rule, example in (
        (rule, entry["example"]) for group in registry["groups"] for rule, entry in group["rules"].items()
    ):
        prefer = rule.split(".")[0] if rule.split(".")[0] in GAMES else "core"
        found = None if "template" in example else catalogues.parse(example["message"], prefer)
        if found:
            example.update(catalogues.templated(found[1], found[2], prefer), domain=found[0])
    REGISTRY.write_text(json.dumps(registry, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write()
