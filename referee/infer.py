"""Which rules was a record played under? (issue 9 item 5) For a record that is invalid under
its stated rules, search the game's documented presets and options for the rule sets closest to
the stated ones under which the record is valid. The search is bounded: candidates differ from
a preset in at most `MAX_CHANGES` options, options without a list of values keep their value, and
the search stops at a time limit, saying so."""

from __future__ import annotations

import json
import time
from itertools import combinations

from .messages import Listing, Msg, msg, word
from .notation import structure_findings
from .replay import check_record, game_module
from .rules import resolve

MAX_CHANGES = 2
SHOWN = 5  # at most this many equally close rule sets are reported
UNREPLAYABLE = msg("the record cannot be replayed under any rules (its structure or game)")
OR_UNDER = word("; or under ")  # between the rule sets a record is valid under


def infer_rules(record, seconds: float = 10.0, stop=None) -> dict:
    """{"valid_under": [{"preset", "options", "differs"}...], "searched", "complete"}:
    the valid rule sets with the fewest options differing from the stated ones. The search stops
    after `seconds`, or sooner when `stop()` says so."""
    game = game_module(record.get("game")) if isinstance(record, dict) else None
    if game is None or structure_findings(record):
        return {"valid_under": [], "searched": 0, "complete": True, "why": str(UNREPLAYABLE)}
    if stop and stop():  # before listing the candidates, which takes a while of its own
        return _answer([], 0, complete=False)
    stated, problems = resolve(game, record.get("rules"))
    if problems:
        stated = resolve(game, None)[0]
    deadline = time.monotonic() + seconds
    found: list[dict] = []
    searched, best = 0, None
    for cost, preset, changes, differs in _candidates(game, stated["options"]):
        if best is not None and cost > best:
            break
        if time.monotonic() > deadline or (stop and stop()):
            return _answer(found, searched, complete=False)
        searched += 1
        trial = dict(record, rules={"preset": preset, "options": changes})
        if check_record(trial, stop_at_error=True).valid:
            best = cost
            if len(found) < SHOWN:
                found.append({"preset": preset, "options": changes, "differs": differs})
    return _answer(found, searched, complete=True)


def _answer(found, searched, complete) -> dict:
    return {"valid_under": found, "searched": searched, "complete": complete}


def _candidates(game, stated: dict):
    """(how many options differ from `stated`, preset, changes, which) for every preset with up to
    MAX_CHANGES option changes, closest first, each effective rule set once."""
    seen, out = set(), []
    for preset, overrides in game.PRESETS.items():
        base = {name: opt.default for name, opt in game.OPTIONS.items()} | overrides
        singles = [
            (name, value)
            for name, opt in game.OPTIONS.items()
            for value in opt.choices
            if value != base[name] or type(value) is not type(base[name])
        ]
        for size in range(MAX_CHANGES + 1):
            for combo in combinations(singles, size):
                if len({name for name, _ in combo}) < size:
                    continue
                changes = dict(combo)
                options = base | changes
                key = tuple(sorted((k, repr(v)) for k, v in options.items()))
                if key not in seen:
                    seen.add(key)
                    differs = sorted(k for k in options if options[k] != stated.get(k))
                    out.append((len(differs), preset, changes, differs))
    out.sort(key=lambda c: (c[0], len(c[2])))
    return out


def describe(inferred: dict) -> str:
    """In English words: "valid under official with equal_double_tribute=free", or why none was found."""
    return str(inferred_text(inferred))


def inferred_text(inferred: dict) -> Msg:
    """`describe` as a message."""
    if inferred["valid_under"]:
        return msg("valid under {rule_sets}", rule_sets=Listing(map(_rule_set, inferred["valid_under"]), OR_UNDER))
    if inferred.get("why"):
        return UNREPLAYABLE
    said = dict(n=MAX_CHANGES, tried=inferred["searched"])
    if inferred["complete"]:
        return msg("valid under no documented preset with up to {n} option changes ({tried} rule sets tried)", **said)
    return msg(
        "valid under no documented preset with up to {n} option changes before the time limit "
        "({tried} rule sets tried)",
        **said,
    )


def _rule_set(found: dict) -> Msg:
    differs = Listing(found["differs"]) if found["differs"] else word("nothing")
    if not found["options"]:
        return msg("{preset} (differs from the stated rules in {differs})", preset=found["preset"], differs=differs)
    options = Listing(f"{k}={_word(v)}" for k, v in found["options"].items())
    return msg(
        "{preset} with {options} (differs from the stated rules in {differs})",
        preset=found["preset"],
        options=options,
        differs=differs,
    )


def _word(value) -> str:
    return json.dumps(value).strip('"')
