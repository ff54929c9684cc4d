"""Presets and options (notation section 8), resolved the same way for every game.

A game module declares `PRESETS` (name -> option overrides), `DEFAULT_PRESET`,
`PRESET_ALIASES` and `OPTIONS` (name -> Option).
"""
from __future__ import annotations

from dataclasses import dataclass

from .findings import ERROR, Finding


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
            return " | ".join(_show(c) for c in self.choices)
        return self.kind.__name__ + (" or null" if self.nullable else "")


def _show(value) -> str:
    return "true" if value is True else "false" if value is False else str(value)


def resolve(game, raw) -> tuple[dict, list[Finding]]:
    """The effective rules {"preset": name, "options": {...}} of a record's `rules`."""
    preset, overrides, at = game.DEFAULT_PRESET, {}, "/rules"
    if isinstance(raw, str):
        preset = raw
    elif isinstance(raw, dict):
        preset = raw.get("preset", game.DEFAULT_PRESET)
        overrides = raw.get("options", {})
        at = "/rules/preset"
    findings = []
    preset = game.PRESET_ALIASES.get(preset, preset)
    if preset not in game.PRESETS:
        findings.append(Finding(ERROR, "notation.rules.preset", at,
                                f"unknown preset {preset!r} for {game.NAME}; presets: {', '.join(game.PRESETS)}"))
        preset = game.DEFAULT_PRESET
    options = {name: opt.default for name, opt in game.OPTIONS.items()}
    options.update(game.PRESETS[preset])
    for name, value in overrides.items():
        option = game.OPTIONS.get(name)
        if option is None and not name.startswith("x-"):
            findings.append(Finding(ERROR, "notation.rules.option", f"/rules/options/{name}",
                                    f"unknown option {name!r} for {game.NAME}"))
        elif option is not None and not option.allows(value):
            findings.append(Finding(ERROR, "notation.rules.option", f"/rules/options/{name}",
                                    f"option {name} takes {option.describe()}, not {value!r}"))
        elif option is not None:
            options[name] = value
    return {"preset": preset, "options": options}, findings


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
