"""The language the command line speaks (docs/i18n.md): `--lang` on every command, else REFEREE_LANG,
else the locale; click's own words ("Usage:", "Error: ...") from the cli catalogue. Loaded without click (the
commonest validate command lines run without it, cli/start.py); the click classes that show help in the language
spoken are cli/command.py's."""

from __future__ import annotations

import contextlib
import contextvars
import functools
import os
import sys

from referee.messages import DEFAULT, LOCALE_DIR, compiled_catalogue, part, use_language

from .common import to_stderr

msg, msg_n, word, word_of = part("cli")


def use(lang: str) -> None:
    """Speak `lang` from now on: the referee's messages, and click's words, which click asks of
    Python's gettext (the default domain, in the languages LANGUAGE names). In English, a run that has
    not loaded gettext (nor click, which does) leaves it unloaded: click's words are its own English."""
    use_language(lang)
    if lang != DEFAULT or "gettext" in sys.modules:
        import gettext

        gettext.bindtextdomain("cli", LOCALE_DIR if _readable_cli_catalogue(lang) else os.devnull)
        gettext.textdomain("cli")
    os.environ["LANGUAGE"] = lang


UNBOUND = "messages"  # gettext's default domain, before a `use`


@contextlib.contextmanager
def kept():
    """Click's words in the language they were in before the block (a command: `use` sets Python's gettext,
    which is the process's); the referee's own language is held per context (messages.language)."""
    loaded = sys.modules.get("gettext")
    domain, spoken = loaded.textdomain() if loaded else UNBOUND, os.environ.get("LANGUAGE")
    try:
        yield
    finally:
        if "gettext" in sys.modules:
            sys.modules["gettext"].textdomain(domain)
        if spoken is None:
            os.environ.pop("LANGUAGE", None)
        else:
            os.environ["LANGUAGE"] = spoken


def run_apart(call, *args, **kwargs):
    """`call(*args, **kwargs)` as a command runs: in a context of its own (the language it speaks is its own,
    messages.language, and ends with it), leaving click's words in the language they were in."""
    with kept():
        return contextvars.copy_context().run(call, *args, **kwargs)


@functools.cache
def _readable_cli_catalogue(lang: str) -> bool:
    """Whether Python's gettext can read the compiled cli catalogue of `lang` (for click's words); a
    damaged one is said once and click speaks English (the referee's words come from the .po)."""
    path = os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", "cli.mo")
    if not os.path.exists(path) or compiled_catalogue(path) is not None:
        return True
    to_stderr("referee: " + msg("warning: {path} cannot be read; click's own words are in English", path=path).render())
    return False


@contextlib.contextmanager
def click_in_english():
    """click's own words that it fixes when a command is made (a file path's "FILE") in English, as
    they are when the command is made before --lang is read."""
    import gettext

    domain = gettext.textdomain()
    gettext.textdomain("messages")  # a domain without a catalogue
    try:
        yield
    finally:
        gettext.textdomain(domain)


# click's own words that the commands show, marked for the cli catalogue (click looks them up itself)
CLICK_WORDS = (
    word("Usage:"),
    word("Options"),
    word("Commands"),
    word("Show this message and exit."),
    word("Aborted!"),
    word("Error: {message}"),
    word("Try '{command} {option}' for help."),
    word("Invalid value for {param_hint}: {message}"),
    word("Invalid value: {message}"),
    word("Missing argument"),
    word("Missing option"),
    word("Missing parameter"),
    word("No such option {name!r}."),
    word("No such command {name!r}."),
    word("Missing command."),
    word("default: {default}"),
    word("required"),
    word("env var: {var}"),
    word("Option {name!r} does not take a value."),
    word("{value!r} is not a valid {number_type}."),
    word("{value} is not in the range {range}."),
    word("{name} {filename!r} does not exist."),
    word("{name} {filename!r} is a directory."),
    word("{name} {filename!r} is not writable."),
    word("file"),
    word("directory"),
    word("path"),
    word("Do you want to continue?"),
    word("Error: invalid input"),
    msg_n("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})", 0),
    msg_n("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)", 0),
    word("No such option: {name}"),
)
