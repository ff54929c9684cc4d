"""Each part's words from its own catalogue (issue 34): a word two parts translate differently ("played":
a standings column 场数 in the command line, a play 出牌 in Gou Ji) is shown as the part that says it
translates it, never as whichever catalogue happens to hold the same English first."""

import glob
import os
import re

import pytest
from babel.messages.frontend import parse_mapping_cfg
from babel.util import pathmatch

from referee.messages import CORE, part
from tests.test_translations import DOMAINS, LOCALES, ROOT, catalogue


def _first(value):
    return value[0] if isinstance(value, tuple) else value


def differing_pairs() -> list[tuple[str, str | None, str, object, str]]:
    """(domain, context, msgid, its plural, the domain's Chinese) for every word that two domains translate
    differently."""
    chinese: dict[tuple, dict[str, tuple]] = {}
    for domain in DOMAINS:
        for entry in catalogue(domain):
            if entry.id and _first(entry.string):
                key = (entry.context, _first(entry.id))
                chinese.setdefault(key, {})[domain] = (entry.id, _first(entry.string))
    return [
        (domain, context, text, plural, string)
        for (context, text), by_domain in sorted(chinese.items(), key=str)
        if len({string for _, string in by_domain.values()}) > 1
        for domain, (plural, string) in by_domain.items()
    ]


PAIRS = differing_pairs()


def test_parts_do_translate_some_words_differently():
    """The test below has something to hold: the project does say words two ways in two parts."""
    assert ("gouji", None, "played") in {(domain, context, text) for domain, context, text, _, _ in PAIRS}
    assert ("cli", None, "played") in {(domain, context, text) for domain, context, text, _, _ in PAIRS}


@pytest.mark.parametrize(
    "domain, context, text, plural, chinese", PAIRS, ids=[f"{d}:{t[:40]}" for d, _, t, _, _ in PAIRS]
)
def test_each_part_gets_its_own_translation(domain, context, text, plural, chinese):
    msg, msg_n, word, word_of = part(domain)
    if isinstance(plural, tuple):
        assert msg_n(plural[0], plural[1], 2)._template("zh") == chinese
        return
    if context:
        assert word_of(context, text).shown("zh") == chinese
        return
    assert word(text).shown("zh") == chinese
    assert msg(text)._template("zh") == chinese


def _domain_of(path: str) -> str | None:
    """The domain whose mapping (referee/locale/DOMAIN.cfg) extracts the file, as `make messages` does."""
    for domain in DOMAINS:
        with open(os.path.join(LOCALES, domain + ".cfg")) as cfg:
            method_map, _ = parse_mapping_cfg(cfg, cfg.name)
        for pattern, method in method_map:
            if pathmatch(pattern, path):
                if method != "ignore":
                    return domain
                break
    return None


SOURCES = sorted(
    os.path.relpath(p, ROOT)
    for folder in ("referee", "cli", "api")
    for p in glob.glob(os.path.join(ROOT, folder, "**", "*.py"), recursive=True)
)


@pytest.mark.parametrize("path", SOURCES)
def test_a_module_speaks_as_the_part_whose_catalogue_holds_its_words(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as source:
        text = source.read()
    said = re.findall(r'^msg, msg_n, word, word_of = part\("(\w+)"\)', text, re.M)
    calls = re.search(r"\b(msg|msg_n|word|word_of)\(", text)
    if not calls or path == os.path.join("referee", "messages.py"):
        return
    assert (said[0] if said else CORE) == _domain_of(path)
