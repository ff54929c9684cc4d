"""The message catalogues (issue 22): every message the code can say has its Chinese, with the same
parameters; the catalogues hold nothing the code no longer says; messages render in each language."""

import glob
import os
import string

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from referee.messages import (
    Cards,
    Listing,
    Msg,
    Term,
    chosen_language,
    language_of,
    msg,
    msg_n,
    translations,
    word,
    word_of,
)

ROOT = os.path.join(os.path.dirname(__file__), "..")
LOCALES = os.path.join(ROOT, "referee", "locale")
DOMAINS = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(LOCALES, "*.cfg")))
KEYWORDS = {**DEFAULT_KEYWORDS, "msg": None, "msg_n": (1, 2), "word": None, "word_of": ((1, "c"), 2)}


def extracted(domain: str) -> dict:
    """(msgid, context) -> where it is said, from the sources the domain's mapping names."""
    with open(os.path.join(LOCALES, domain + ".cfg")) as cfg:
        method_map, options_map = parse_mapping_cfg(cfg, cfg.name)
    found = {}
    for path, line, message, _comments, context in extract_from_dir(ROOT, method_map, options_map, KEYWORDS):
        for text in message if isinstance(message, tuple) else (message,):
            if text:
                found.setdefault((text, context), f"{path}:{line}")
    return found


def catalogue(domain: str):
    with open(os.path.join(LOCALES, "zh", "LC_MESSAGES", domain + ".po"), "rb") as po:
        return read_po(po)


def _same_parameters(chinese: str, english) -> bool:
    """The Chinese names the template's parameters; Chinese has one form for every number, so a plural's
    names those of both English forms have, and may name those of either (click's "Did you mean
    {possibility}?" / "(Did you mean one of: {possibilities}?)" get both)."""
    if isinstance(english, str):
        return names(chinese) == names(english)
    both, either = names(english[0]) & names(english[1]), names(english[0]) | names(english[1])
    return both <= names(chinese) <= either


def names(template: str) -> set[str]:
    """The parameters a template names; a word that is no template (a lone brace: "expected ',' or '}'") none,
    and its Chinese must be none too."""
    try:
        return {field.split(".")[0].split("[")[0] for _, field, _, _ in string.Formatter().parse(template) if field}
    except ValueError:
        return {"(not a template)"}


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_has_its_chinese_with_the_same_parameters(domain):
    said, translated = extracted(domain), catalogue(domain)
    problems = []
    for (text, context), where in said.items():
        entry = translated.get(text, context)
        if entry is None:
            entry = next((m for m in translated if isinstance(m.id, tuple) and text in m.id), None)
        strings = [s for s in (entry.string if isinstance(entry.string, tuple) else (entry.string,))] if entry else []
        if not any(strings):
            problems.append(f"{where}: no Chinese for {text!r} (run `make messages`, then translate it)")
        elif any(not _same_parameters(s, entry.id) for s in strings):
            problems.append(f"{where}: {text!r} and its Chinese {strings} name different parameters")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("domain", DOMAINS)
def test_catalogues_hold_only_what_the_code_says(domain):
    said = extracted(domain)
    stale = [
        m.id
        for m in catalogue(domain)
        if m.id and all((i, m.context) not in said for i in (m.id if isinstance(m.id, tuple) else (m.id,)))
    ]
    assert not stale, f"{domain}.po holds messages the code no longer says (run `make messages`): {stale}"


def test_a_template_renders_in_english_as_written_and_in_chinese_from_the_catalogue():
    text = msg("{rank} of {suit}", rank="7", suit=word("hearts"))
    assert (text.render("en"), text.render("zh")) == ("7 of hearts", "红桃7")


def test_a_word_in_a_context_has_the_chinese_of_that_context():
    assert (word_of("tribute", "single").shown("zh"), word("single").shown("zh")) == ("单贡", "单张")
    assert word_of("tribute", "single") == "single" and word_of("tribute", "single").shown("en") == "single"


def test_cards_are_shown_as_players_write_them():
    assert Cards("7H TH BJ RJ QS 2C 3D").shown("zh") == "红桃7 红桃10 小王 大王 黑桃Q 梅花2 方块3"
    assert Cards("7H TH").shown("en") == "7H TH"
    assert Cards("7H …").shown("zh") == "红桃7 …"


def test_json_keeps_the_template_and_plain_parameters():
    inner = msg("{rank} of {suit}", rank="A", suit=Term("spades"))
    text = msg_n(
        "{n} card: {cards}", "{n} cards: {cards}", 2, cards=Cards("7H 8H"), why=inner, seats=Listing([1, 2], " or ")
    )
    assert str(text) == "2 cards: 7H 8H"
    assert text.as_json() == {
        "template": "{n} cards: {cards}",
        "params": {
            "n": 2,
            "cards": "7H 8H",
            "why": {"template": "{rank} of {suit}", "params": {"rank": "A", "suit": "spades"}},
            "seats": [1, 2],
        },
    }
    assert type(text.as_json()["params"]["cards"]) is str


def test_a_missing_translation_falls_back_to_english():
    assert Msg("no such message {x}", {"x": 1}).render("zh") == "no such message 1"
    assert translations("zh").gettext("hearts") == "红桃"


@pytest.mark.parametrize(
    "tag, lang",
    [
        ("zh", "zh"),
        ("zh_CN.UTF-8", "zh"),
        ("zh-Hans", "zh"),
        ("ZH-cn", "zh"),
        ("en", "en"),
        ("en_GB.UTF-8", "en"),
        ("C", "en"),
        ("fr_FR", None),
    ],
)
def test_language_tags(tag, lang):
    assert language_of(tag) == lang


def test_language_chosen_by_flag_then_environment_then_locale():
    assert chosen_language("zh", {"REFEREE_LANG": "en"}) == "zh"
    assert chosen_language(None, {"REFEREE_LANG": "zh", "LANG": "en_US.UTF-8"}) == "zh"
    assert chosen_language(None, {"LANG": "zh_CN.UTF-8"}) == "zh"
    assert chosen_language(None, {"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}) == "en"
    assert chosen_language(None, {"LANG": "fr_FR.UTF-8"}) == "en"
    assert chosen_language(None, {}) == "en"
    with pytest.raises(ValueError):
        chosen_language("fr")
