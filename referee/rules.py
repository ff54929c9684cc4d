"""Presets and options (notation section 8), resolved the same way for every game.

A game module declares `PRESETS` (name -> option overrides), `DEFAULT_PRESET`,
`PRESET_ALIASES` and `OPTIONS` (name -> Option).
"""

from __future__ import annotations

import json

import orjson

from .findings import ERROR, Finding, Listed, plain, pointer
from .messages import Listing, Msg, msg, word


class Option:
    """An option a game's rules take (notation §8): its default, the values it allows (`choices`, when they are a
    short list, else a `kind`: a type, None allowed when `nullable`) and its effect in words. A plain class, not a
    NamedTuple: typing, and the code a NamedTuple compiles, cost start-up (as a dataclass's methods do)."""

    __slots__ = ("choices", "default", "effect", "kind", "nullable")

    def __init__(
        self, default: object, choices: tuple = (), kind: type | None = None, nullable: bool = False, effect: str = ""
    ) -> None:
        self.default, self.choices, self.kind, self.nullable, self.effect = default, choices, kind, nullable, effect

    def allows(self, value) -> bool:
        if value is None:
            return self.nullable
        if self.choices:
            return any(value == c and type(value) is type(c) for c in self.choices)
        kind = self.kind
        return kind is not None and isinstance(value, kind) and not (kind is int and isinstance(value, bool))

    def describe(self) -> str:
        return str(self.allowed())

    def allowed(self) -> str | Msg:
        """The values the option takes, in words: its choices as JSON, or its kind."""
        if self.choices:
            return " | ".join(json_text(c) for c in self.choices)
        assert self.kind is not None  # an option gives its choices or its kind
        kind = KIND_NAMES[self.kind]
        return msg("{kind} or null", kind=kind) if self.nullable else kind


KIND_NAMES = {
    int: word("an integer"),
    bool: word("true or false"),
    str: word("a string"),
    dict: word("an object"),
    list: word("a list"),
}


def json_text(value) -> str:
    """A value as the record would spell it (true, null, "top"), never as Python would."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


def resolve(game, raw) -> tuple[dict, list[Finding]]:
    """The effective rules {"preset": name, "options": {...}} of a record's `rules`, and their problems. Rules
    without any are resolved once for all the records that write them alike (most name a preset)."""
    key = _rules_key(game, raw)
    found = _RESOLVED.get(key) if key is not None else None
    if found is None:
        effective, findings = _resolved(game, raw)
        if findings or key is None:
            return effective, findings
        if len(_RESOLVED) >= 256:
            _RESOLVED.clear()
        found = _RESOLVED[key] = effective
    return {"preset": found["preset"], "options": dict(found["options"])}, []


_RESOLVED: dict = {}
MAX_KEYED_RULES = 4096  # bytes of a record's `rules` as JSON, beyond which they are resolved anew each time


def _rules_key(game, raw):
    """What tells a record's rules from others' (None: too long to keep): the text itself, or the JSON text of an
    object (equal texts are equal rules: orjson keeps the keys' order, and JSON tells 1 from 1.0 and true)."""
    if raw is None or isinstance(raw, str):
        return (game, raw)
    try:
        text = orjson.dumps(raw)
    except (TypeError, orjson.JSONEncodeError):  # a value no JSON holds (a test's, never a record's)
        return None
    return (game, text) if len(text) <= MAX_KEYED_RULES else None


def _resolved(game, raw) -> tuple[dict, list[Finding]]:
    preset, overrides, at = game.DEFAULT_PRESET, {}, "/rules"
    if isinstance(raw, str):
        preset = raw
    elif isinstance(raw, dict):
        preset = raw.get("preset", game.DEFAULT_PRESET)
        overrides = raw.get("options", {})
        at = "/rules/preset"
    findings = Listed(msg("problems with the rules"))
    preset = game.PRESET_ALIASES.get(preset, preset)
    if preset not in game.PRESETS:
        findings.add(
            Finding,
            ERROR,
            "notation.rules.preset",
            at,
            msg(
                "unknown preset {preset} for {game}{suggestion}; presets: {presets}",
                preset=plain(preset),
                game=game.NAME,
                suggestion=did_you_mean(preset, game.PRESETS),
                presets=Listing(game.PRESETS),
            ),
        )
        preset = game.DEFAULT_PRESET
    options = {name: opt.default for name, opt in game.OPTIONS.items()}
    options.update(game.PRESETS[preset])
    for name, value in overrides.items():
        option = game.OPTIONS.get(name)
        if option is None and not name.startswith("x-"):
            findings.add(_unknown_option, game, name)
        elif option is not None and not option.allows(value):
            findings.add(
                Finding,
                ERROR,
                "notation.rules.option",
                pointer("rules", "options", name),
                msg(
                    "option {name} takes {allowed}, not {value}",
                    name=name,
                    allowed=option.allowed(),
                    value=plain(value),
                ),
            )
        elif option is not None and _beyond(value):
            findings.add(
                Finding,
                ERROR,
                "notation.rules.option",
                pointer("rules", "options", name),
                msg(
                    "option {name} takes numbers of at most 10^6 in magnitude, not {value}",
                    name=name,
                    value=plain(value),
                ),
            )
        elif option is not None:
            options[name] = value
    return {"preset": preset, "options": options}, findings.closed()


# An option's numbers (points, factors, thresholds) at most 10^6 in magnitude: a deal's score is then
# at most some 10^13, and no record of 2 million values (notation.MAX_VALUES) sums them past 64 bits.
MAX_OPTION_NUMBER = 10**6


def _beyond(value) -> bool:
    """Whether an option's value holds a number beyond MAX_OPTION_NUMBER in magnitude (in a list or object too)."""
    if isinstance(value, (list, dict)):
        return any(_beyond(item) for item in (value.values() if isinstance(value, dict) else value))
    return isinstance(value, int) and abs(value) > MAX_OPTION_NUMBER


def _unknown_option(game, name) -> Finding:
    return Finding(
        ERROR,
        "notation.rules.option",
        pointer("rules", "options", name),
        msg(
            "unknown option {name} for {game}{suggestion}; options: {options}",
            name=plain(name),
            game=game.NAME,
            suggestion=did_you_mean(name, game.OPTIONS),
            options=Listing(game.OPTIONS),
        ),
    )


def plain_rules(game, raw):
    """The shortest `rules` meaning what `raw` means: None for the game's default preset as it is,
    the preset's name when no option differs from it, else {"preset", "options"} with only the
    options that differ (and any `x-` option); `raw` itself when it names an unknown preset or
    option or a value an option does not take."""
    effective, problems = resolve(game, raw)
    if problems:
        return raw
    preset = effective["preset"]
    base = {name: opt.default for name, opt in game.OPTIONS.items()} | game.PRESETS[preset]
    changed = {
        name: value
        for name, value in effective["options"].items()
        if value != base[name] or type(value) is not type(base[name])
    }
    given = raw.get("options", {}) if isinstance(raw, dict) else {}
    changed |= {name: value for name, value in given.items() if name.startswith("x-")}
    if changed:
        return {"preset": preset, "options": changed}
    return None if preset == game.DEFAULT_PRESET else preset


def did_you_mean(name, known) -> Msg | str:
    """ " (did you mean X?)" for the known name that `name` probably meant (the same but for case, or
    a close spelling), else ""."""
    if not isinstance(name, str):
        return ""
    import difflib  # here: only a name not known needs it, and start-up does without it

    folded = {k.lower(): k for k in known}
    close = difflib.get_close_matches(name.lower(), list(folded), n=1)
    return msg(" (did you mean {name}?)", name=folded[close[0]]) if close else ""


_SHARED: dict = {}


def shared(factory, options: dict):
    """One `factory(options)` per factory and option set, shared by every record with those
    options, so that what it caches (the readings of plays) serves them all. The option set is known
    by its JSON text: equal texts are equal options (resolve gives them in the game's order, and JSON
    tells true from 1), and making the text costs a record less than sorting and hashing the items."""
    key = (factory, orjson.dumps(options))
    found = _SHARED.get(key)
    if found is None:
        if len(_SHARED) >= 256:
            _SHARED.clear()
        found = _SHARED[key] = factory(options)
    return found
