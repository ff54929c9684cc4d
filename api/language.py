"""The language of an answer (docs/api.md, "Languages"): `?lang=`, else Accept-Language, else
English. Messages are kept as templates until the answer is written, and rendered there."""

from __future__ import annotations

from flask import g, request
from flask_smorest import abort

from referee import messages
from referee.findings import phrases_shown
from referee.messages import DEFAULT, LANGUAGES, language_of, part
from referee.replay import step_json

msg, msg_n, word, word_of = part("api")


def choose_language() -> None:
    """Every request's language (flask `before_request`), held for the request's thread until its end
    (`end_language`), so that threads answering in different languages never mix them; an unknown ?lang=
    is a 400."""
    g.lang = DEFAULT
    asked = request.args.get("lang")
    if asked is None:
        g.lang = request.accept_languages.best_match(LANGUAGES, default=DEFAULT)
    elif language_of(asked) is None:
        abort(
            400,
            message=msg("unknown language {lang}; this server speaks {known}", lang=asked, known=", ".join(LANGUAGES)),
        )
    else:
        g.lang = language_of(asked)
    g.language_token = messages.use_language(g.lang)


def end_language(_error=None) -> None:
    """The thread's language as it was before the request (flask `teardown_request`)."""
    if "language_token" in g:
        messages.restore_language(g.pop("language_token"))


def answer_language() -> str:
    return g.get("lang", DEFAULT)


def shown(value):
    """A message (a template, a game's word) in the answer's language; anything else as it is."""
    return messages.shown(value, answer_language())


def varies(response):
    """An answer may differ with Accept-Language (flask `after_request`), which caches must know."""
    response.vary.add("Accept-Language")
    return response


def step_shown(step: dict, lang: str) -> dict:
    """A replay step as JSON, its findings' messages, the table's sentence of what is owed and the outcome's
    sentences in `lang` (given: the checks run off the request's thread). The table's words (phase, mode)
    stay the values a program reads."""
    table = step["table"]
    if "owed" in table:
        table = dict(table, owed=messages.shown(table["owed"], lang))
    shown = dict(step_json(step), table=table, findings=[finding.as_dict(lang) for finding in step["findings"]])
    if step.get("outcome"):
        shown["outcome"] = phrases_shown(step["outcome"], lang)
    return shown
