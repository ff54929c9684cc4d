"""Findings and reports (notation section 9)."""

from __future__ import annotations

from .messages import DEFAULT, Cards, Listing, Msg, Phrase, msg, msg_n

TYPE_CHECKING = False  # typing is not imported where records are checked (referee/game.py)
if TYPE_CHECKING:
    from typing import Any

    from .actions import Action
    from .contract import Legal

ERROR, WARNING, INFO = "error", "warning", "info"


class _Fields:
    """What @dataclass gave Finding and Report, written out (it compiled their methods as the module was
    imported: a twentieth of a command's start-up): a repr of the FIELDS, equality of them, and no hash."""

    FIELDS: tuple[str, ...] = ()
    __hash__ = None  # type: ignore[assignment]  # mutable and compared by value, as a dataclass is

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__qualname__}({shown})"


class Finding(_Fields):
    FIELDS = ("severity", "rule", "at", "message", "seat", "deal", "action", "legal", "ruling")

    severity: str
    rule: str
    at: str
    message: str | Msg  # a Msg is kept as `text`, and here as its English text
    seat: int | None
    deal: int | None
    action: int | None
    legal: Legal | None
    ruling: int | None  # the ruling (an index into the record's `rulings`) that decided it
    text: Msg | None  # the message as a template (neither shown by repr nor compared)

    def __init__(
        self,
        severity: str,
        rule: str,
        at: str,
        message: str | Msg,
        seat: int | None = None,
        deal: int | None = None,
        action: int | None = None,
        legal: Legal | None = None,
        ruling: int | None = None,
        text: Msg | None = None,
    ) -> None:
        self.severity, self.rule, self.at, self.message = severity, rule, at, message
        self.seat, self.deal, self.action, self.legal, self.ruling, self.text = seat, deal, action, legal, ruling, text
        if isinstance(message, Msg):
            self.text, self.message = message, str(message)

    def shown(self, lang: str | None = None) -> str:
        """The message in `lang` (by default the language chosen for this process)."""
        return self.text.render(lang) if self.text is not None else str(self.message)

    def as_dict(self, lang: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"severity": self.severity, "rule": self.rule, "at": self.at}
        for key in ("seat", "deal", "action", "ruling"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        out["message"] = self.shown(lang) if lang else self.message
        if self.text is not None:
            out.update(self.text.as_json())
        if self.legal is not None:
            out["legal"] = (
                self.legal
                if not lang
                else {
                    key: value.shown(lang) if isinstance(value, Phrase) else value for key, value in self.legal.items()
                }
            )
        return out


MAX_LISTED = 100  # findings of one kind a report lists; one more finding (`notation.more`) counts the rest


def more_finding(count: int, what: Msg, all_counted: bool = True, severity: str = ERROR) -> Finding:
    """The finding that stands for `count` findings past those listed (of `severity`); `what` names them."""
    return Finding(
        severity,
        "notation.more",
        "",
        msg("… and {n:,} more {what}", n=count, what=what)
        if all_counted
        else msg("… and at least {n:,} more {what} (no more were counted)", n=count, what=what),
    )


class Listed:
    """Findings of one kind up to MAX_LISTED; past it they are only counted (and not made), and `closed()` adds
    the finding that says how many."""

    def __init__(self, what: Msg):
        self.findings: list[Finding] = []
        self.what, self.more = what, 0

    def add(self, make, *args):
        """The finding `make(*args)`, while there is room."""
        if len(self.findings) < MAX_LISTED:
            self.findings.append(make(*args))
        else:
            self.more += 1

    def closed(self) -> list[Finding]:
        return [*self.findings, more_finding(self.more, self.what)] if self.more else self.findings


class StopDeal(Exception):
    """An action that cannot be applied: the replay of its deal stops here."""

    def __init__(
        self, rule: str, message: str | Msg, at: str | None = None, severity: str = ERROR, seat: int | None = None
    ):
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.at = at
        self.severity = severity
        self.seat = seat
        self.action: Action | None = None  # the action that broke the rule, where the replay driver says


class Report(_Fields):
    FIELDS = ("valid", "game", "rules", "findings", "deals", "match", "source", "unreadable", "inferred", "rulings")

    valid: bool
    game: str | None
    rules: dict | None
    findings: list[Finding]
    deals: list[dict]
    match: dict | None
    source: str | None
    unreadable: bool  # the input could not be read as a record at all
    inferred: dict | None  # the rule sets the record is valid under, when asked (infer.py)
    rulings: int | None  # the rulings applied, for a record that has `rulings` (notation §10)

    def __init__(
        self,
        valid: bool,
        game: str | None,
        rules: dict | None,
        findings: list[Finding],
        deals: list[dict] | None = None,
        match: dict | None = None,
        source: str | None = None,
        unreadable: bool = False,
        inferred: dict | None = None,
        rulings: int | None = None,
    ) -> None:
        self.valid, self.game, self.rules, self.findings = valid, game, rules, findings
        self.deals = [] if deals is None else deals
        self.match, self.source, self.unreadable = match, source, unreadable
        self.inferred, self.rulings = inferred, rulings

    @property
    def verdict(self) -> str:
        """ "valid", "invalid" or "unreadable" (the input could not be read as a record), as `validate` says it."""
        return "unreadable" if self.unreadable else "valid" if self.valid else "invalid"

    @classmethod
    def from_dict(cls, data: dict) -> Report:
        """A report read back from its JSON form (as stored)."""
        return cls(
            data["valid"],
            data["game"],
            data["rules"],
            [_finding_from_dict(f) for f in data["findings"]],
            data["deals"],
            data.get("match"),
            data.get("source"),
            rulings=data.get("rulings"),
        )

    def as_dict(self, lang: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.source is not None:
            out["source"] = self.source
        out.update(
            valid=self.valid,
            game=self.game,
            rules=self.rules,
            findings=[f.as_dict(lang) for f in self.findings],
            deals=phrases_shown(self.deals, lang),
        )
        if self.match is not None:
            out["match"] = phrases_shown(self.match, lang)
        if self.rulings is not None:
            out["rulings"] = self.rulings
        if self.inferred is not None:
            out["inferred_rules"] = self.inferred
        return out


# an outcome's phrases that programs read as values (Gou Ji's mode: NORMAL, DUEL 1-4), the viewer in its own words
FOR_PROGRAMS = ("mode",)


def phrases_shown(value, lang: str | None):
    """An outcome with its sentences for people (phrases: a multiplier's reason, a ruling) in `lang`; its
    words for programs (a status, a mode) stay the values the notation documents. In English (or no language
    named) the value itself: a phrase is its English, which is how JSON writes a str."""
    if not lang or lang == DEFAULT:
        return value
    if isinstance(value, Phrase):
        return value.shown(lang)
    if isinstance(value, list):
        return [phrases_shown(item, lang) for item in value]
    if isinstance(value, dict):
        return {key: item if key in FOR_PROGRAMS else phrases_shown(item, lang) for key, item in value.items()}
    return value


def _finding_from_dict(data: dict) -> Finding:
    """A finding read back from JSON; its parameters come back as plain values (cards as codes)."""
    fields = {key: value for key, value in data.items() if key not in ("template", "params")}
    if "template" in data:
        fields["message"] = Msg.from_json(data)
    return Finding(**fields)


def pointer(*parts) -> str:
    """A JSON Pointer (RFC 6901) from path parts."""
    return "".join(["/" + (str(p) if type(p) is int else str(p).replace("~", "~0").replace("/", "~1")) for p in parts])


def grouped_plays(plays) -> Listing:
    """(type's word, card codes) pairs, weakest first, grouped by type: 'pair 5C BJ, 2D BJ; bomb 9S 9H 9D 9C'."""
    groups: dict[str, list[Cards]] = {}
    for kind, cards in plays:
        groups.setdefault(kind, []).append(Cards(cards))
    return Listing(
        [msg("{type} {plays}", type=kind, plays=Listing(cards, ", ")) for kind, cards in groups.items()], "; "
    )


PLAYS_SAID = 12  # the most plays a `may` sentence names; `legal.plays` lists them all


def plays_said(plays: list) -> Listing | Msg:
    """The plays, (type's word, card codes) weakest first, as a `may` sentence names them: all of them
    grouped by type, or the first PLAYS_SAID and how many more the full list (`legal.plays`) holds."""
    named = grouped_plays(plays[:PLAYS_SAID])
    if len(plays) <= PLAYS_SAID:
        return named
    return msg_n(
        "{plays}; and {n} more play: all {total} are listed in legal.plays",
        "{plays}; and {n} more plays: all {total} are listed in legal.plays",
        len(plays) - PLAYS_SAID,
        plays=named,
        total=len(plays),
    )


def plain(value) -> str:
    """A value as a message shows it: strings in double quotes, true/false/null, lists as
    comma-separated items ("none" when empty); never a Python repr."""
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, str):
        return '"' + value.replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return ", ".join(plain(v) for v in value) if value else "none"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{plain(k)}: {plain(v)}" for k, v in value.items()) + "}"
    return str(value)
