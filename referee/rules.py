"""Presets and options (notation section 8), resolved the same way for every game.

A game module declares `PRESETS` (name -> option overrides), `DEFAULT_PRESET`,
`PRESET_ALIASES` and `OPTIONS` (name -> Option).
"""
from __future__ import annotations

import difflib
import json
from dataclasses import dataclass

from .findings import ERROR, Finding, Listed, plain, pointer


@dataclass(frozen=True)
class Option:
    default: object
    choices: tuple = ()          # the allowed values, when they are a short list
    kind: type | None = None     # otherwise the allowed type (None allowed when nullable)
    nullable: bool = False
    effect: str = ""

    def allows(self, value) -> bool:
        if value is None:
            return self.nullable
        if self.choices:
            return any(value == c and type(value) is type(c) for c in self.choices)
        return isinstance(value, self.kind) and not (self.kind is int and isinstance(value, bool))

    def describe(self) -> str:
        if self.choices:
            return " | ".join(json_text(c) for c in self.choices)
        return KIND_NAMES[self.kind] + (" or null" if self.nullable else "")


KIND_NAMES = {int: "an integer", bool: "true or false", str: "a string", dict: "an object", list: "a list"}


def json_text(value) -> str:
    """A value as the record would spell it (true, null, "top"), never as Python would."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


def resolve(game, raw) -> tuple[dict, list[Finding]]:
    """The effective rules {"preset": name, "options": {...}} of a record's `rules`."""
    preset, overrides, at = game.DEFAULT_PRESET, {}, "/rules"
    if isinstance(raw, str):
        preset = raw
    elif isinstance(raw, dict):
        preset = raw.get("preset", game.DEFAULT_PRESET)
        overrides = raw.get("options", {})
        at = "/rules/preset"
    findings = Listed("problems with the rules")
    preset = game.PRESET_ALIASES.get(preset, preset)
    if preset not in game.PRESETS:
        findings.add(Finding, ERROR, "notation.rules.preset", at,
                     f"unknown preset {plain(preset)} for {game.NAME}{did_you_mean(preset, game.PRESETS)}; "
                     f"presets: {', '.join(game.PRESETS)}")
        preset = game.DEFAULT_PRESET
    options = {name: opt.default for name, opt in game.OPTIONS.items()}
    options.update(game.PRESETS[preset])
    for name, value in overrides.items():
        option = game.OPTIONS.get(name)
        if option is None and not name.startswith("x-"):
            findings.add(_unknown_option, game, name)
        elif option is not None and not option.allows(value):
            findings.add(Finding, ERROR, "notation.rules.option", pointer("rules", "options", name),
                         f"option {name} takes {option.describe()}, not {plain(value)}")
        elif option is not None:
            options[name] = value
    return {"preset": preset, "options": options}, findings.closed()


def _unknown_option(game, name) -> Finding:
    return Finding(ERROR, "notation.rules.option", pointer("rules", "options", name),
                   f"unknown option {plain(name)} for {game.NAME}{did_you_mean(name, game.OPTIONS)}; "
                   f"options: {', '.join(game.OPTIONS)}")


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
    changed = {name: value for name, value in effective["options"].items()
               if value != base[name] or type(value) is not type(base[name])}
    given = raw.get("options", {}) if isinstance(raw, dict) else {}
    changed |= {name: value for name, value in given.items() if name.startswith("x-")}
    if changed:
        return {"preset": preset, "options": changed}
    return None if preset == game.DEFAULT_PRESET else preset


def did_you_mean(name, known) -> str:
    """" (did you mean X?)" for the known name that `name` probably meant (the same but for case, or
    a close spelling), else ""."""
    if not isinstance(name, str):
        return ""
    folded = {k.lower(): k for k in known}
    close = difflib.get_close_matches(name.lower(), list(folded), n=1)
    return f" (did you mean {folded[close[0]]}?)" if close else ""


_SHARED: dict = {}


def shared(factory, options: dict):
    """One `factory(options)` per factory and option set, shared by every record with those
    options, so that what it caches (the readings of plays) serves them all."""
    key = (factory, tuple(sorted(options.items())))
    found = _SHARED.get(key)
    if found is None:
        if len(_SHARED) >= 256:
            _SHARED.clear()
        found = _SHARED[key] = factory(options)
    return found
