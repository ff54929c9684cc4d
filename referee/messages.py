"""Message templates: every sentence the referee says, in any language it speaks.

A message is made where the referee finds something, as a template with named parameters:

    msg("seat {seat} does not hold {card}", seat=2, card=Cards("7H"))
    msg_n("{n} card left", "{n} cards left", n)

and rendered in a language only where it is shown (the report, the terminal, the API, the viewer):
`Msg.render("zh")`. English is the template itself; Simplified Chinese comes from the gettext
catalogues in referee/locale/zh/LC_MESSAGES (one per domain: docs/i18n.md), made with Babel
(`make messages`). The JSON report keeps each finding's template and parameters, so a program
never parses a sentence.

A parameter is a number or plain text (player names, option names, JSON values: never translated),
or one of these, which each language shows its own way:
- `Cards`: card codes separated by spaces ("7H TH BJ"): 红桃7 红桃10 小王 in Chinese;
- `Term`: a word of a game ("pair", "waive_tribute"), from the catalogue; `word("pair")` marks a
  literal one for the catalogue, and `Term(name)` shows a name marked elsewhere;
- `Listing`: items shown one after another with a separator ("; ", " or "), itself translated;
- a `Msg`: a phrase of its own.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from functools import cache, lru_cache

from .cards import rank_shown

TYPE_CHECKING = False  # typing is not imported where records are checked (referee/game.py)
if TYPE_CHECKING:
    import gettext  # loaded where a catalogue is read: English needs none, and start-up does without it
    from typing import Any

LANGUAGES = ("en", "zh")
DEFAULT = "en"
CORE = "core"  # the domain of referee/'s messages (docs/i18n.md, "The catalogues")
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")


class Cards(str):
    """Card codes separated by spaces, as the notation writes them (section 2); in English shown as
    written, in another language by the catalogue's names of suits and jokers."""

    def shown(self, lang: str) -> str:
        return " ".join(_card_shown(code, lang) for code in self.split(" ")) if lang != DEFAULT else str(self)


class Term(str):
    """A word of a game, shown from its part's catalogue (`domain`: the part that marked it, see `part`),
    in its `context` where one English word means two things ("single" is a card and a tribute)."""

    context: str | None = None
    domain: str = CORE

    def shown(self, lang: str) -> str:
        if lang == DEFAULT:
            return str(self)
        found = translations(lang, self.domain)
        return found.pgettext(self.context, self) if self.context else found.gettext(self)

    def __reduce__(self):
        return _term, (str(self), self.context, self.domain)


def _term(name: str, context: str | None, domain: str) -> Term:
    term = Term(name)
    if context is not None:
        term.context = context
    if domain != CORE:
        term.domain = domain
    return term


class Run(tuple):
    """The ranks a run spans, (low, high): English names its top, as the notation reads it ("a straight
    to K"); Chinese names both ends, as players do (9到K的顺子)."""

    def shown(self, lang: str) -> str:
        low, high = self
        return high if lang == DEFAULT else msg("{low} to {high}", low=low, high=high).render(lang)


class Count(int):
    """A number of cards in a play: in Chinese a numeral up to ten, as players say it (三张4)."""

    def shown(self, lang: str) -> str:
        return str(self) if lang == DEFAULT or not 1 <= self <= 10 else "一两三四五六七八九十"[self - 1]


class Listing(list):
    """Items shown in a row with one of the SEPARATORS (each translated: "; " is "；" in Chinese)."""

    def __init__(self, items, sep: str = ", "):
        super().__init__(items)
        self.sep = Term(sep)

    def shown(self, lang: str) -> str:
        return self.sep.shown(lang).join(str(shown(item, lang)) for item in self)


class Msg:
    """A template with its parameters; `n` chooses between the singular and plural templates; `domain`
    is the part of the project that says it, whose catalogue holds its words."""

    __slots__ = ("template", "params", "plural", "n", "domain")

    def __init__(
        self, template: str, params: dict, plural: str | None = None, n: int | None = None, domain: str = CORE
    ):
        self.template, self.params, self.plural, self.n, self.domain = template, params, plural, n, domain

    def render(self, lang: str | None = None) -> str:
        lang = lang or language()
        values = {name: shown(value, lang) for name, value in self.params.items()}
        return self._template(lang).format(**values)

    def _template(self, lang: str) -> str:
        if self.plural is None:
            return translations(lang, self.domain).gettext(self.template) if lang != DEFAULT else self.template
        if lang != DEFAULT:
            return translations(lang, self.domain).ngettext(self.template, self.plural, self.n or 0)
        return self.template if self.n == 1 else self.plural

    def __str__(self) -> str:
        return self.render(DEFAULT)

    def __repr__(self) -> str:
        return f"Msg({self.template!r}, {self.params!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Msg) and (self.template, self.params, self.plural, self.n) == (
            other.template,
            other.params,
            other.plural,
            other.n,
        )

    def as_json(self) -> dict:
        """The template and its parameters as plain JSON values (a phrase as an object of its own)."""
        return {
            "template": self.template if self.plural is None or self.n == 1 else self.plural,
            "params": {name: _plain(value) for name, value in self.params.items()},
        }

    @classmethod
    def from_json(cls, data: dict, domain: str = CORE) -> Msg:
        """A message read back from `as_json`, said by the part `domain` (a game's finding: the game's): its
        phrases are messages again (cards and game words come back as plain text, shown as written)."""
        params = {name: _param_from_json(value, domain) for name, value in data.get("params", {}).items()}
        if isinstance(data.get("plural"), str):  # words that depend on {n} (docs/rule-examples.json keeps both)
            return cls(data["template"], params, data["plural"], params.get("n"), domain)
        return cls(data["template"], params, domain=domain)


def _param_from_json(value, domain: str):
    """A parameter of `Msg.from_json`: a phrase, or where the JSON says so cards ({"cards": "7H"}), a word
    of the part ({"word": "return"}) or a listing ({"listing": [...], "sep": ", "}), as
    docs/rule-examples.json keeps them; else the value."""
    if not isinstance(value, dict):
        return value
    if "template" in value:
        return Msg.from_json(value, domain)
    if isinstance(value.get("cards"), str):
        return Cards(value["cards"])
    if isinstance(value.get("listing"), list) and value.get("sep") in SEPARATORS:
        return Listing([_param_from_json(item, domain) for item in value["listing"]], value["sep"])
    return _term(value["word"], None, domain) if isinstance(value.get("word"), str) else value


class Phrase(str):
    """A message where a plain string must stand (a value of a deal's outcome or of a finding's `legal`,
    kept as JSON): the English, keeping the message to show it in another language. `english`, where
    given, is the string instead (a reading as the notation writes it, "triplet:9", shown in Chinese
    in words)."""

    text: object  # the message (or cards, a word...) it stands for

    def __new__(cls, text, english: str | None = None):
        phrase = super().__new__(cls, str(shown(text, DEFAULT)) if english is None else english)
        phrase.text = text
        return phrase

    def __getnewargs__(self):
        return (self.text, str(self))

    def shown(self, lang: str) -> str:
        return str(self) if lang == DEFAULT else str(shown(self.text, lang))


def part(
    domain: str,
) -> tuple[Callable[..., Msg], Callable[..., Msg], Callable[[str], Term], Callable[[str, str], Term]]:
    """The four ways a part of the project (a gettext domain: docs/i18n.md) says things, each keeping
    the domain, so that a word two parts translate differently is looked up in the catalogue of the
    part that says it:

        msg, msg_n, word, word_of = part("gouji")

    - msg(template, **params): a message, `template` in English with {named} parameters;
    - msg_n(singular, plural, n, **params): a message whose words depend on the number `n` ({n});
    - word(name): a game's word, marked for the catalogue;
    - word_of(context, name): a word in a context ("tribute", "single"), marked for the catalogue.
    """

    def msg(template: str, **params: Any) -> Msg:
        return Msg(template, params, None, None, domain)

    def msg_n(singular: str, plural: str, n: int, **params: Any) -> Msg:
        return Msg(singular, {"n": n, **params}, plural, n, domain)

    def word(name: str) -> Term:
        return _term(name, None, domain)

    def word_of(context: str, name: str) -> Term:
        return _term(name, context, domain)

    return msg, msg_n, word, word_of


msg, msg_n, word, word_of = part(CORE)


def counted(index: int) -> int:
    """The number a person reads and types for a 0-based index into the record (a deal, an action, a
    finding): counted from 1. Pointers, JSON and the REST API keep the index (README, "Numbering")."""
    return index + 1


def index_of(number: int) -> int:
    """The 0-based index of what a person numbers `number` (counted from 1)."""
    return number - 1


def word_in(domain: str, name: str) -> Term:
    """A word marked in another part (a game's declaration, shown by the command line), from that part's
    catalogue."""
    return _term(name, None, domain)


SEPARATORS = (word(", "), word("; "), word(" or "), word(" and "))


def shown(value, lang: str | None = None):
    """A message, cards, a game's word, a listing or a phrase in `lang` (by default the language chosen
    in this thread: `language()`); any other value as it is."""
    lang = lang or language()
    if isinstance(value, Msg):
        return value.render(lang)
    if isinstance(value, (Cards, Term, Listing, Phrase, Run, Count)):
        return value.shown(lang)
    return value


def _plain(value):
    if isinstance(value, Run):
        return value[1]
    if isinstance(value, Count):
        return int(value)
    if isinstance(value, Phrase):
        value = value.text
    if isinstance(value, Msg):
        return value.as_json()
    if isinstance(value, Listing):
        return [_plain(item) for item in value]
    if isinstance(value, str):
        return str(value)
    return value


_SUITS = {"S": word("spades"), "H": word("hearts"), "D": word("diamonds"), "C": word("clubs")}
_JOKERS = {"BJ": word("black joker"), "RJ": word("red joker")}


@lru_cache(maxsize=1024)  # a card's name in a language: looked up once (a few dozen codes a game)
def _card_shown(code: str, lang: str) -> str:
    if code in _JOKERS:
        return _JOKERS[code].shown(lang)
    suit = _SUITS.get(code[-1:])
    if suit is None or len(code) < 2:
        return code  # not a card code ("…"): shown as it is
    return msg("{rank} of {suit}", rank=rank_shown(code[:-1]), suit=suit).render(lang)


# ---------------------------------------------------------------- the language and its catalogue

# held per context, not per process: each of the server's threads answers in its request's language,
# a command in its own --lang, a block of code in the language it asks for (in_language)
_current: ContextVar[str] = ContextVar("referee_language", default=DEFAULT)


def language() -> str:
    """The language messages are rendered in where none is named: English unless this thread (or task)
    chose another with `use_language` or `in_language`.

    >>> language()
    'en'
    """
    return _current.get()


def use_language(lang: str) -> Token[str]:
    """Speak `lang` from now on in this thread (or task); the token undoes it (`restore_language`)."""
    return _current.set(lang)


def restore_language(token: Token[str]) -> None:
    """The language as it was before the `use_language` that gave `token`."""
    _current.reset(token)


@contextmanager
def in_language(lang: str) -> Iterator[str]:
    """Messages rendered in `lang` where none is named while the block runs, in this thread only:

    >>> with in_language("zh"):
    ...     shown(Cards("7H BJ"))
    '红桃7 小王'
    >>> language()
    'en'
    """
    token = use_language(lang)
    try:
        yield lang
    finally:
        restore_language(token)


def chosen_language(asked: str | None = None, environ=os.environ) -> str:
    """The language asked for, else REFEREE_LANG, else the locale (LC_ALL, LC_MESSAGES, LANG); English
    unless one of them names Chinese. Raises ValueError for an asked language the referee does not speak."""
    if asked:
        lang = language_of(asked)
        if lang is None:
            raise ValueError(asked)
        return lang
    for name in ("REFEREE_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(name):
            return language_of(environ[name]) or DEFAULT
    return DEFAULT


def language_of(tag: str) -> str | None:
    """ "zh", "zh_CN.UTF-8", "zh-Hans", "en-GB", "C"... as a language the referee speaks, or None."""
    base = tag.strip().replace("-", "_").split("_")[0].split(".")[0].lower()
    if base in ("c", "posix"):
        return DEFAULT
    return base if base in LANGUAGES else None


def compiled_catalogue(mo_path: str) -> bytes | None:
    """A compiled catalogue's bytes, or None when it cannot be read (cut short, a folder of that name): its
    .po is then compiled in memory."""
    import gettext
    import struct

    try:
        with open(mo_path, "rb") as mo:
            compiled = mo.read()
        gettext.GNUTranslations(io.BytesIO(compiled))
        return compiled
    except (OSError, struct.error, ValueError, UnicodeDecodeError, IndexError):
        return None


@cache
def translations(lang: str, domain: str = CORE) -> gettext.NullTranslations:
    """The catalogue of `domain` in `lang`, then the core's, then the other parts' (a word marked in one
    part and shown by another: a combination's name in a command's line); the compiled .mo files, a .po
    newer than its .mo, or without one, compiled in memory."""
    import gettext

    folder = os.path.join(LOCALE_DIR, lang, "LC_MESSAGES")
    merged = gettext.NullTranslations()
    if not os.path.isdir(folder):
        return merged
    names = sorted({name[:-3] for name in os.listdir(folder) if name.endswith((".po", ".mo"))})
    for name in sorted(names, key=lambda name: (name != domain, name != CORE)):
        merged.add_fallback(_catalogue(os.path.join(folder, name + ".po")))
    return merged


def _catalogue(po_path: str) -> gettext.GNUTranslations:
    """A fresh catalogue object: each domain's chain of fallbacks links its own."""
    import gettext

    return gettext.GNUTranslations(io.BytesIO(_compiled(po_path)))


@cache
def _compiled(po_path: str) -> bytes:
    mo_path = po_path[:-3] + ".mo"
    installed = not os.path.exists(po_path)  # the wheel ships the .mo files only (setup.py)
    if os.path.exists(mo_path) and (installed or os.path.getmtime(mo_path) >= os.path.getmtime(po_path)):
        found = compiled_catalogue(mo_path)
        if found is not None:
            return found
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with open(po_path, "rb") as po:
        catalogue = read_po(po)
    compiled = io.BytesIO()
    write_mo(compiled, catalogue)
    return compiled.getvalue()
