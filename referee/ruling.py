"""The ruling document (issue 21 item 6, issue 35): one self-contained HTML file to hand to the teams.

A cover names the game, the rules, the event, round and table and the players in words, with the
verdict and the list of findings. Each error follows on a page of its own: where it is, the message,
the action, the table at its step drawn as the viewer draws it (the viewer's own stylesheet,
inlined), a claim's claimed value against the computed one, what was legal as cards and the clause
of the rules page its rule id names, rendered from the page's Markdown. Warnings and info go to an
appendix. Nothing in it is fetched: no script, no link, no font or image from anywhere; a
Content-Security-Policy forbids any load. The HTML is made from Jinja2 templates
(referee/templates/) with autoescape: everything taken from the record is text, and the controls
that reorder text are shown as markers, as the viewer shows them.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markupsafe import Markup

from . import __version__
from .actions import CARD_VERBS
from .cards import rank_shown
from .findings import Finding
from .game import games
from .messages import DEFAULT, Cards, Listing, Msg, Phrase, Term, counted, part, shown, word_in
from .notation import seated_players
from .replay import (
    GAME_NAMES,
    acting_seats,
    check_record,
    deals_steps,
    finishing_place,
    game_word,
    reading_shown,
    step_of_action,
)
from .ruledocs import clause, rule_entries, sections
from .rulings import DECISION_WORDS

msg, msg_n, word, word_of = part("ruling")

TEMPLATES = Path(__file__).resolve().parent / "templates"
# the repository's api/ folder, installed as referee/api (pyproject.toml, package-dir)
VIEWER_CSS = (
    next(folder for folder in (TEMPLATES.parent / "api", TEMPLATES.parent.parent / "api") if folder.is_dir())
    / "web"
    / "viewer.css"
)
POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
CARD = re.compile(r"^([2-9TJQKA][SHDC]|BJ|RJ)$")
CARD_LIST = re.compile(r'^\[\s*"[^"]+"(\s*,\s*"[^"]+")*\s*\]$')
TEAM_GAMES = ("guandan", "gouji")  # notation §3: team = seat mod 2
CLAIM = re.compile(r"^(?:/deals/(\d+))?/result/([^/]+)$")
# where seats sit around the table, as in the viewer (seat 0 at the bottom, the next to its right)
PLACES = {
    2: ["bc", "tc"],
    3: ["bc", "tr", "tl"],
    4: ["bc", "mr", "tc", "ml"],
    5: ["bc", "mr", "tr", "tl", "ml"],
    6: ["bc", "br", "tr", "tc", "tl", "bl"],
}
SEVERITIES = {"error": word("error"), "warning": word("warning"), "info": word("info")}
JOKER_FACE = word("Jo")  # a joker's face, where a card shows its rank
YES, NO = word("yes"), word("no")
# controls that reorder or hide text (bidi overrides and isolates, marks, C0 controls): shown, never obeyed
HIDDEN_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
SNAPSHOT_DRAWN = ("hands", "table", "wild")
TEAM_KEYS = ("declaring",)
SEAT_KEYS = ("turn", "dealer", "leader", "seat", "to", "winner")
SEAT_LISTS = ("order", "out", "penalised")


class Placed(NamedTuple):
    """One part of a ruling: a finding (its number in the report) or, with neither, one action; the deal it
    is placed in and the replay's frame it is drawn at (None: no table)."""

    number: int | None
    finding: Finding | None
    deal: int | None
    frame: dict | None


class RulingError(ValueError):
    """A ruling asked of what the record does not hold (a finding, deal or action that is not there)."""

    def __init__(self, text: Msg):
        super().__init__(str(text))
        self.text = text


def ruling(
    record: dict,
    record_id: str,
    lang: str = DEFAULT,
    finding: int | None = None,
    deal: int | None = None,
    action: int | None = None,
    report=None,
) -> str:
    """The ruling on a parsed record as one HTML document: on its finding `finding`, on the findings
    of `deal` (at `action`), or on every finding (indexes from 0, as the REST API gives them; the
    document numbers them from 1). Raises RulingError for what is not there. `report`: the record's,
    when the caller has checked it already."""
    report = report or check_record(record)
    doc = _Document(record, report, lang)
    chosen = _chosen(doc, finding, deal, action)
    # errors (and a finding asked for by its number) each on pages of their own; warnings and info after
    main = [
        c for c in chosen if c[1] is None or c[1].severity == "error" or c[1].ruling is not None or finding is not None
    ]
    appendix = [c for c in chosen if c not in main]
    return (
        _environment()
        .get_template("ruling.html")
        .render(
            doc=doc.cover(record_id),
            css=Markup(_css()),
            policy=POLICY,
            labels=doc.labels(),
            parts=[doc.part(*c) for c in main],
            appendix=[doc.part(*c, drawn=False) for c in appendix],
        )
    )


def _chosen(doc: _Document, finding: int | None, deal: int | None, action: int | None) -> list[Placed]:
    """Each part of the ruling."""
    findings = doc.report.findings
    if finding is not None and (deal is not None or action is not None):
        raise RulingError(msg("name a finding, or a deal and an action, not both"))
    if finding is not None:
        if not 0 <= finding < len(findings):
            raise RulingError(
                msg_n(
                    "there is no finding {index}: the record has {n} finding",
                    "there is no finding {index}: the record has {n} findings",
                    len(findings),
                    index=counted(finding),
                )
            )
        return doc.placed([finding])
    if deal is None and action is None:
        return doc.placed(range(len(findings)))
    deal = deal or 0
    if not 0 <= deal < len(doc.deals):
        raise RulingError(
            msg_n(
                "there is no deal {index}: the record has {n} deal",
                "there is no deal {index}: the record has {n} deals",
                len(doc.deals),
                index=counted(deal),
            )
        )
    chosen = doc.placed(
        [n for n, f in enumerate(findings) if f.deal == deal and (action is None or f.action == action)]
    )
    if action is None or chosen:
        return chosen
    steps = doc.steps(deal)
    at = step_of_action(steps, action) if action >= 0 else None
    if at is None:
        raise RulingError(
            msg(
                "deal {deal} replays to action {last} at most",
                deal=counted(deal),
                last=counted(steps[-1]["step"] - 1) if steps else 0,
            )
        )
    return [Placed(None, None, deal, steps[at])]


@functools.lru_cache(maxsize=1)
def _environment() -> Environment:
    """The templates, every value escaped unless it is Markup made here (cards, the rules' Markdown)."""
    return Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


class _Document:
    """What every part of one ruling shares: the record, its report, the language, the players."""

    def __init__(self, record: dict, report, lang: str):
        self.record, self.report, self.lang = record, report, lang
        deals = record.get("deals")
        self.deals: list = deals if isinstance(deals, list) else []
        self.players = [p if isinstance(p, str) else str(p) for p in seated_players(record)]
        self.teams = record.get("game") in TEAM_GAMES
        self.rules = _documented_rules()
        self._steps: dict[int, list] = {}

    # ------------------------------------------------------------ words

    def say(self, text) -> str:
        """A message (or a listing, a term, plain text) in the document's language, as text."""
        return str(shown(text, self.lang))

    def seat(self, seat) -> Msg | str:
        """A seat by its player's name (plain text, for a message's parameter)."""
        if not isinstance(seat, int) or isinstance(seat, bool):
            return visible(seat)
        if 0 <= seat < len(self.players):
            return msg("{name} (seat {seat})", name=visible(self.players[seat]), seat=seat)
        return msg("seat {seat}", seat=seat)

    def team(self, team: int) -> Msg:
        names = Listing([visible(name) for name in self.players[team::2]], ", ")
        return msg("team {team} ({players})", team=team, players=names)

    def labels(self) -> dict[str, str]:
        """The document's fixed words, in its language."""
        words = {
            "ruling": msg("Ruling"),
            "record": msg("The record"),
            "findings": msg("Findings"),
            "none": msg("The referee finds nothing wrong with this record."),
            "appendix": msg("Appendix: warnings and notes"),
            "appendix_note": msg("Findings that do not decide the verdict: warnings and information."),
            "action": msg("The action"),
            "legal": msg("Legal then"),
            "rule": msg("The rule"),
            "claim": msg("Claimed against computed"),
            "claimed": msg("claimed"),
            "computed": msg("computed"),
            "outcome": msg("The deal's outcome"),
            "decision": msg("The arbiter's decision"),
            "trick": msg("Trick"),
            "made_by": msg("Made by cgr-referee {version}.", version=__version__),
        }
        return {key: self.say(text) for key, text in words.items()}

    # ------------------------------------------------------------ the findings' places

    def steps(self, deal: int) -> list:
        self._replay([deal])
        return self._steps[deal]

    def _replay(self, deals) -> None:
        """The steps of every deal in `deals`, from one replay of the record (not one per deal)."""
        missing = {deal for deal in deals if deal not in self._steps and 0 <= deal < len(self.deals)}
        if missing:
            self._steps.update(deals_steps(self.record, sorted(missing))[1])

    def placed(self, numbers) -> list[Placed]:
        """Each of the report's findings `numbers` in its place; a claim about the match is shown after the
        last deal, a finding about the whole record on no table."""
        placed = [(n, self.report.findings[n], self._deal_of(self.report.findings[n])) for n in numbers]
        self._replay(deal for _, _, deal in placed if deal is not None)
        return [Placed(n, finding, deal, self._frame_of(finding, deal)) for n, finding, deal in placed]

    def _frame_of(self, finding: Finding, deal: int | None) -> dict | None:
        frames = self._steps.get(deal, []) if deal is not None else []
        return next((frame for frame in frames if finding in frame["findings"]), None)

    def _deal_of(self, finding) -> int | None:
        if finding.deal is None and finding.at.startswith("/result") and self.deals:
            return len(self.deals) - 1
        return finding.deal

    # ------------------------------------------------------------ the cover

    def cover(self, record_id: str) -> dict:
        meta = self.record.get("meta")
        meta = meta if isinstance(meta, dict) else {}
        game = self.report.game or self.record.get("game")
        said = {
            key: visible(meta[key])
            for key in ("event", "round", "table", "date", "site")
            if meta.get(key) not in (None, "")
        }
        where = [said["event"]] if "event" in said else []
        where += [
            self.say(msg("round {round}", round=said["round"])) if "round" in said else "",
            self.say(msg("table {table}", table=said["table"])) if "table" in said else "",
        ]
        rows = [
            (msg("Game"), self._game_name(game, "-")),
            (msg("Rules"), self._rules_words(game)),
            *[
                (label, said[key])
                for key, label in (
                    ("event", msg("Event")),
                    ("round", msg("Round")),
                    ("table", msg("Table")),
                    ("date", msg("Date")),
                    ("site", msg("Site")),
                )
                if key in said
            ],
            (msg("Record id"), Markup("<code>{}</code>").format(record_id)),
        ]
        errors = sum(f.severity == "error" for f in self.report.findings)
        return {
            "lang": "zh-Hans" if self.lang == "zh" else "en",
            "title": " · ".join([self.say(msg("Ruling")), *[w for w in where if w]]),
            "game": self._game_name(game, ""),
            "where": self.say(Listing([w for w in where if w], ", ")),
            "rows": [(self.say(label), value) for label, value in rows],
            "players_label": self.say(msg("Players")),
            "players": self._players(),
            "valid": self.report.valid,
            "verdict": self.say(self._verdict()),
            "verdict_note": "" if self.report.valid else self.say(msg_n("{n} error", "{n} errors", errors)),
            "findings": [self._listed(n, f) for n, f in enumerate(self.report.findings)],
        }

    def _game_name(self, game: object, blank: str) -> str:
        """The game's name, or what the record says it is, or `blank`."""
        name = GAME_NAMES.get(game) if isinstance(game, str) else None
        return self.say(name if name is not None else visible(game or blank))

    def _verdict(self) -> Msg:
        if self.report.valid and self.report.rulings:
            return msg_n("VALID as ruled ({n} ruling)", "VALID as ruled ({n} rulings)", self.report.rulings)
        return msg("VALID") if self.report.valid else msg("INVALID")

    def _rules_words(self, game) -> str:
        """The preset, and each option it or the record sets apart from the rules page's defaults, with
        what that option changes, in words."""
        rules, written = self.report.rules, self.record.get("rules")
        if not rules:
            return "-"
        module = games().get(game)
        preset = rules.get("preset")
        changes = dict(module.PRESETS.get(preset, {})) if module else {}
        options = written.get("options") if isinstance(written, dict) else None  # notation §8: {preset, options}
        changes.update(options if isinstance(options, dict) else {})
        words = [
            self.say(msg("the “{preset}” preset of docs/rules/{game}.md", preset=visible(preset), game=visible(game)))
        ]
        if not changes:
            words.append(self.say(msg("every option as the page sets it")))
        for name, value in changes.items():
            option = module.OPTIONS.get(name) if module else None
            effect = f": {self.say(option.effect)}" if option else ""
            words.append(f"{visible(name)} = {visible(json.dumps(value))}{effect}")
        return self.say(Listing(words, "; "))

    def _players(self) -> list[str]:
        """Each player with seat and, in a team game, team."""
        if not self.teams:
            return [self.say(self.seat(seat)) for seat in range(len(self.players))]
        return [
            self.say(msg("{player}, team {team}", player=self.seat(seat), team=seat % 2))
            for seat in range(len(self.players))
        ]

    def _listed(self, number: int, finding) -> dict:
        where, message = self._where(finding), visible(finding.shown(self.lang))
        return {
            "anchor": f"finding-{counted(number)}",
            "number": counted(number),
            "severity": finding.severity,
            "severity_word": self.say(SEVERITIES.get(finding.severity, finding.severity)),
            "rule": finding.rule,
            "message": message,
            "where": where,
            # what follows its rule id in the list, in the language's brackets and colon
            "tail": self.say(msg(" ({where}): {message}", where=where, message=message))
            if where
            else self.say(msg(": {message}", message=message)),
        }

    def _where(self, finding) -> str:
        parts = [
            self.say(msg("deal {deal}", deal=counted(finding.deal))) if finding.deal is not None else "",
            self.say(msg("action {action}", action=counted(finding.action))) if finding.action is not None else "",
            self.say(self.seat(finding.seat)) if finding.seat is not None else "",
        ]
        return self.say(Listing([part for part in parts if part], ", "))

    # ------------------------------------------------------------ one finding

    def part(self, number, finding, deal, frame, drawn: bool = True) -> dict:
        """One finding (or, `finding` None, one action without a finding) with all it is shown with; not
        `drawn`: without its table and what was legal (a warning or a note, in the appendix)."""
        part: dict[str, Any]
        if finding is None:
            part = {
                "anchor": None,
                "severity": "info",
                "head": self.say(
                    msg("Deal {deal}, action {action}", deal=counted(deal), action=counted(frame["step"] - 1))
                ),
                "message": self.say(msg("The referee finds no fault in this action.")),
                "where": "",
                "at": None,
            }
        else:
            part = {
                **self._listed(number, finding),
                "at": finding.at or "/",
                "head": self.say(
                    msg(
                        "Finding {number}: {severity} {rule}",
                        number=counted(number),
                        severity=SEVERITIES.get(finding.severity, finding.severity),
                        rule=finding.rule,
                    )
                ),
            }
        wild = set(frame["table"].get("wild") or []) if frame else set()
        shows_action = frame is not None and (finding is None or finding.action is not None)
        part.update(
            action=self.action(frame) if shows_action else None,
            claim=self.claim(finding) if finding is not None else None,
            table=self.table(frame, deal, finding is not None and finding.action is not None)
            if frame and drawn
            else None,
            outcome=self.outcome(frame["outcome"]) if frame and drawn and frame.get("outcome") else None,
            legal=self.legal(finding.legal, wild) if finding is not None and drawn else [],
            rule=self.rule(finding) if finding is not None else None,
            decision=self.decision(finding) if finding is not None else None,
        )
        return part

    def decision(self, finding) -> dict | None:
        """The arbiter's decision on a finding (notation §10): for one a ruling decided, the decision in
        words, the arbiter, the date and the reason; for an error none decides yet, a block to fill in at
        the table (the four decisions as boxes, the arbiter's name, the date, a signature)."""
        rulings = self.record.get("rulings")
        rulings = rulings if isinstance(rulings, list) else []
        if finding.ruling is not None and finding.ruling < len(rulings) and isinstance(rulings[finding.ruling], dict):
            ruling = rulings[finding.ruling]
            said = DECISION_WORDS.get(ruling.get("decision"))
            rows = [
                (msg("decision"), self.say(said) if said else visible(ruling.get("decision"))),
                (msg("arbiter"), visible(ruling.get("by", ""))),
                (msg("date"), visible(ruling.get("date", "-"))),
                (msg("reason"), visible(ruling.get("reason", "-"))),
                (msg("ruling"), Markup("<code>/rulings/{}</code>").format(finding.ruling)),
            ]
            return {"rows": [(self.say(label), value) for label, value in rows]}
        if finding.severity != "error":
            return None
        return {
            "boxes": [self.say(text) for text in DECISION_WORDS.values()],
            "blanks": [self.say(label) for label in (msg("arbiter"), msg("date"), msg("reason"), msg("signature"))],
        }

    def action(self, frame) -> dict:
        action = frame["action"]
        head = (
            msg("The action, refused: the table is the one it was tried on")
            if frame.get("rejected")
            else msg("The action")
        )
        line = self.action_line(action) if isinstance(action, dict) else [self.say(msg("as dealt: no action yet"))]
        return {"head": self.say(head), "line": line}

    def action_line(self, action: dict) -> list:
        """The action in words, its cards drawn (marked: they are the ones in question)."""
        who = self.seat(action.get("seat"))
        parts: list = []
        if "pass" in action:
            parts.append(self.say(msg("{player} passes", player=who)))
        if isinstance(action.get("play"), list):
            parts += [self.say(msg("{player} plays", player=who)), self.cards(action["play"], marked=True)]
        if "tribute" in action:
            parts += [self.say(msg("{player} pays tribute", player=who)), self.cards([action["tribute"]], marked=True)]
        if "return" in action:
            parts += [self.say(msg("{player} returns", player=who)), self.cards([action["return"]], marked=True)]
        if "declare" in action:
            parts.append(
                self.say(
                    msg(
                        "{player} declares {declaration}",
                        player=who,
                        declaration=game_word(self.report.game, visible(action["declare"])),
                    )
                )
            )
        if "count" in action:
            parts.append(self.say(msg("({count} cards left)", count=visible(action["count"]))))
        if "to" in action:
            parts.append(self.say(msg("to {player}", player=self.seat(action["to"]))))
        if "as" in action:
            parts.append(
                self.say(
                    msg(
                        "as {reading}",
                        reading=reading_shown(self.report.game, visible(action["as"]), action.get("play")),
                    )
                )
            )
        return _spaced(parts)

    def claim(self, finding) -> dict | None:
        """A claim's claimed value against the computed one, for a finding on a claim (`/deals/D/result/KEY`
        or `/result/KEY`); None for any other finding."""
        found = CLAIM.match(finding.at or "")
        if not found:
            return None
        key = found.group(2)
        if found.group(1) is None:
            claims = self.record.get("result")
            computed = (self.report.match or {}).get(key)
        else:
            deal = int(found.group(1))
            claims = (
                self.deals[deal].get("result")
                if deal < len(self.deals) and isinstance(self.deals[deal], dict)
                else None
            )
            computed = next((d.get(key) for d in self.report.deals if d.get("deal") == deal), None)
        claimed = claims.get(key) if isinstance(claims, dict) else None
        return {
            "key": self.say(Term(key.replace("_", " "))),
            "claimed": self.value(key, claimed),
            "computed": self.value(key, computed) if computed is not None else [self.say(msg("not computed"))],
            "differs": claimed != computed,
        }

    # ------------------------------------------------------------ cards and the table

    def card(self, code, wild=(), marked=False) -> dict:
        if not isinstance(code, str) or not CARD.match(code):
            return {"classes": "card", "raw": visible(code)}
        label = Cards(code).shown(self.lang)
        if code in ("BJ", "RJ"):
            classes, rank, suit = (
                "card joker" + " red" * (code == "RJ"),
                self.say(JOKER_FACE),
                "★" if code == "RJ" else "☆",
            )
        else:
            classes, rank, suit = "card" + " red" * (code[1] in "HD"), rank_shown(code[0]), SUITS[code[1]]
        if code in wild:
            classes += " wild"
            label = self.say(msg("{card}, {wild}", card=label, wild=game_word(self.report.game, "wild card")))
        return {"classes": classes + " marked" * marked, "rank": rank, "suit": suit, "label": label}

    def cards(self, codes, wild=(), marked=False) -> dict:
        return {"cards": [self.card(code, wild, marked) for code in codes]}

    def table(self, frame: dict, deal: int, offending: bool) -> dict:
        """The table at the frame's step; where its action is the one in question (`offending`, or
        refused) its cards are marked."""
        snap = frame["table"]
        hands = snap.get("hands") if isinstance(snap.get("hands"), list) else []
        seats = max(len(hands), len(self.players))
        wild = set(snap.get("wild") or [])
        marked = _marked(frame, offending)
        return {
            "head": self.say(msg("The table at step {step} (deal {deal})", step=frame["step"], deal=counted(deal))),
            "layout": f"seats-{seats}" if seats in PLACES else "seats-many",
            "seats": [
                self.seat_view(
                    seat,
                    hands[seat] if seat < len(hands) else [],
                    snap,
                    wild,
                    marked.get(seat, []),
                    PLACES[seats][seat] if seats in PLACES else None,
                )
                for seat in range(seats)
            ],
            "trick": self.trick(snap, wild, frame["action"] if frame.get("rejected") else None),
            "state": self.state(snap),
        }

    def seat_view(self, seat: int, hand: list, snap: dict, wild: set, marked: list, place: str | None) -> dict:
        """A seat as the viewer draws it: its name, its badges, its hand low to high; `marked` cards are
        marked one copy each (a multi-deck hand may hold several)."""
        to_mark = Counter(marked)
        turn = seat in acting_seats(snap.get("turn"))
        out = snap["out"].index(seat) if isinstance(snap.get("out"), list) and seat in snap["out"] else None
        badges = [(self.say(msg("team {team}", team=seat % 2)), "team")] if self.teams else []
        owes = {"tribute": msg("owes tribute"), "return": msg("owes a return")}.get(
            str(snap.get("phase") or snap.get("mode") or "").split(" ")[0].lower()
        )
        badges += [(self.say(owes or msg("to act")), "turn owes" if owes else "turn")] if turn else []
        badges += (
            [(self.say(finishing_place(self.report.game, out) or msg("out {place}", place=out + 1)), "out")]
            if out is not None
            else []
        )
        cards = []
        for code in hand:
            cards.append(self.card(code, wild, to_mark[code] > 0))
            to_mark[code] -= 1
        return {
            "name": visible(self.players[seat])
            if seat < len(self.players)
            else self.say(msg("seat {seat}", seat=seat)),
            "count": self.say(msg_n("seat {seat} · {n} card", "seat {seat} · {n} cards", len(hand), seat=seat)),
            "badges": badges,
            "cards": cards,
            "place": place,
            "turn": turn,
        }

    def trick(self, snap: dict, wild: set, refused: dict | None) -> dict:
        """The trick, and a `refused` action after it."""
        rows = []
        for entry in snap.get("table") or []:
            if isinstance(entry.get("play"), list):
                played = [self.cards(entry["play"], wild)] + (
                    [" ", self.say(reading_shown(self.report.game, visible(entry["as"]), entry["play"]))]
                    if "as" in entry
                    else []
                )
                rows.append({"who": self.say(self.seat(entry.get("seat"))), "played": played, "refused": False})
            else:
                rows.append(
                    {"who": self.say(self.seat(entry.get("seat"))), "pass": self.say(msg("pass")), "refused": False}
                )
        if refused:
            tried = [self.say(msg("pass"))] if "pass" in refused else [self.cards(_cards_of(refused), wild, True)]
            rows.append(
                {
                    "who": self.say(self.seat(refused.get("seat"))),
                    "refused": True,
                    "played": [self.say(msg("refused:")), " ", *tried],
                }
            )
        return {"rows": rows, "empty": self.say(msg("no cards on the table"))}

    def state(self, snap: dict) -> list[tuple]:
        """The rest of the table: who is to act, levels, phase, talon, what is owed... as the viewer lists it."""
        acting = acting_seats(snap.get("turn"))
        rows: list[tuple[Msg | Term, list[str]]] = [
            (msg("to act"), [self.say(Listing([self.seat(s) for s in acting], " or ") if acting else msg("nobody"))])
        ]
        if isinstance(snap.get("levels"), list):
            rows.append(
                (
                    msg("levels"),
                    [
                        self.say(
                            Listing(
                                [
                                    msg("{team}: {level}", team=self.team(t), level=visible(v))
                                    for t, v in enumerate(snap["levels"])
                                ],
                                "; ",
                            )
                        )
                    ],
                )
            )
        if "declaring" in snap:
            rows.append(
                (
                    msg("declaring team"),
                    [
                        self.say(self.team(snap["declaring"]))
                        if isinstance(snap["declaring"], int)
                        else self.say(msg("none (first deal)"))
                    ],
                )
            )
        drawn = SNAPSHOT_DRAWN + ("turn", "levels", "declaring")
        rows += [
            (_key(key), self.value(key, value))
            for key, value in snap.items()
            if key not in drawn and value not in (None, [], {}, "")
        ]
        return [(self.say(label), value) for label, value in rows]

    def outcome(self, outcome: dict) -> list[tuple]:
        """The deal's outcome as the referee computes it, with what the record claims beside it."""
        return [
            (self.say(_key(key)), self.value(key, value))
            for key, value in outcome.items()
            if key != "deal" and value not in (None, [], {})
        ]

    def value(self, key: str, value) -> list:
        """A snapshot's value as the viewer shows it (text and cards): seats by name, lists per seat."""
        if isinstance(value, int) and not isinstance(value, bool) and key in TEAM_KEYS + ("winner",) * self.teams:
            return [self.say(self.team(value))]
        if isinstance(value, int) and not isinstance(value, bool) and key in SEAT_KEYS:
            return [self.say(self.seat(value))]
        if isinstance(value, list):
            if key in SEAT_LISTS and all(isinstance(v, int) for v in value):
                return [self.say(Listing([self.seat(v) for v in value], ", "))]
            if value and all(isinstance(v, str) and CARD.match(v) for v in value):
                return [self.cards(value)]
            if len(value) == len(self.players):
                return self._joined(
                    [[f"{self.say(self.seat(seat))}: ", *self.value("", v)] for seat, v in enumerate(value)]
                )
            if self.teams and len(value) == 2 and not any(isinstance(v, (list, dict)) for v in value):
                return self._joined(
                    [[f"{self.say(self.team(team))}: ", *self.value("", v)] for team, v in enumerate(value)]
                )
            return self._joined([self.value(key, v) for v in value])
        if isinstance(value, dict):
            return self._joined(
                [
                    [f"{visible(self.say(_key(k)))} ", *self.value(k, v)]
                    for k, v in value.items()
                    if v not in (None, [], {})
                ],
                ", ",
            )
        if isinstance(value, str) and CARD.match(value):
            return [self.cards([value])]
        if isinstance(value, bool):
            return [self.say(YES if value else NO)]
        return [self.say(value) if isinstance(value, (Msg, Phrase, Term)) else visible(value)]

    def _joined(self, values: list[list], separator: str = "; ") -> list:
        """Parts of a value one after another, `separator` (a Listing's, "; " or ", ") in the document's language."""
        said = self.say(Term(separator))
        joined: list = []
        for value in values:
            joined += [said, *value] if joined else value
        return joined

    # ------------------------------------------------------------ what was legal, and the rule

    def legal(self, legal: dict | None, wild: set) -> list[dict]:
        """What would have been legal, drawn as cards (wild cards marked): grouped by combination, or by
        seat where several seats might act (Gou Ji); the referee's sentence after them."""
        if not legal:
            return []
        lines = [
            {"label": self.say(label), "plays": [self.cards(p.split(), wild) for p in plays]}
            for label, plays in _legal_groups(self, legal.get("plays"))
        ]
        if isinstance(legal.get("plays"), (list, dict)) and not lines:
            lines.append({"text": self.say(msg("Nothing in hand may follow."))})
        lines += [{"text": self.say(legal[key])} for key in ("may", "ruling") if legal.get(key)]
        return lines

    def rule(self, finding) -> dict | None:
        """The rule id's meaning and, of each section that decides it, the clause the finding is about,
        rendered from the page's Markdown."""
        entry = self.rules.get(finding.rule)
        if entry is None:
            return None
        clauses = []
        # the rules pages are normative in English only: quoted as the English original, meaning said beside
        original = "" if self.lang == DEFAULT else " · " + self.say(msg("the English original"))
        for page, numbers in sections(finding.rule):
            for number in numbers:
                kind, key, text = clause(page, number, finding.rule, finding.shown(DEFAULT), entry["meaning"])
                if text:
                    clauses.append(
                        {
                            "cite": f"{page} {number}" + self._clause_name(kind, key) + original,
                            "html": self.markdown(text),
                        }
                    )
        return {
            "id": finding.rule,
            "meaning": self.say(Term(entry["meaning"])),
            "clauses": clauses,
            "sections": "; ".join(
                f"{page} {', '.join(numbers)}" for page, numbers in sections(finding.rule) if numbers
            ),
        }

    def _clause_name(self, kind: str, key: str) -> str:
        if kind == "item":
            return ", " + self.say(msg("item {item}", item=key))
        if kind == "row":
            row = key.strip("`")
            codes = card_codes(row)
            return ", " + self.say(msg("table row {row}", row=glyphs(codes, self.lang) if codes else row))
        return f", {key.rstrip('.')}" if kind == "point" and key else ""

    def markdown(self, text: str) -> Markup:
        """A clause of a rules page as HTML: Markdown rendered (no HTML of its own passes), a card or a JSON
        list of cards in code drawn as the cards' glyphs."""
        return Markup(_markdown(self.lang).render(text))


@functools.lru_cache(maxsize=4)
def _markdown(lang: str) -> MarkdownIt:
    md = MarkdownIt("js-default", {"html": False, "linkify": False})

    def code(renderer, tokens, idx, options, env):
        content = tokens[idx].content
        codes = card_codes(content)
        if not codes:
            return RendererHTML.code_inline(renderer, tokens, idx, options, env)
        return str(Markup('<code class="cards" title="{}">{}</code>').format(content, glyphs(codes, lang)))

    md.add_render_rule("code_inline", code)
    return md


def _key(key: str) -> Term:
    """A key of a snapshot or an outcome in words ("bombs played"), from the ruling's catalogue, else another's."""
    return word_in("ruling", key.replace("_", " "))


def card_codes(text: str) -> list[str]:
    """The cards a rules page writes in code: one card (`KS`) or a JSON list of cards; [] for other code."""
    codes = json.loads(text) if CARD_LIST.match(text) else [text] if CARD.match(text) else []
    return codes if all(isinstance(c, str) and CARD.match(c) for c in codes) else []


def glyphs(codes: list[str], lang: str) -> str:
    """Cards as they are printed in a line of text: 6♠ 10♥, the jokers named."""
    return " ".join(
        Cards(code).shown(lang) if code in ("BJ", "RJ") else rank_shown(code[0]) + SUITS[code[1]] for code in codes
    )


def _spaced(parts: list) -> list:
    """Parts of a line with a space between each two."""
    spaced: list = []
    for item in parts:
        spaced += [" ", item] if spaced else [item]
    return spaced


def visible(value) -> str:
    """Text with the controls that would reorder or hide it shown as markers: ⟨U+202E⟩."""
    return HIDDEN_CONTROLS.sub(lambda c: f"⟨U+{ord(c.group()):04X}⟩", str(value))


def _legal_groups(doc: _Document, plays) -> list[tuple]:
    """(label, plays) as `legal` groups them: by seat (a dict), else by combination ("CARDS as TYPE:RANK")."""
    if isinstance(plays, dict):
        return [
            (doc.seat(int(seat)) if seat.isdigit() else visible(seat), cards) for seat, cards in plays.items() if cards
        ]
    groups: dict[str, list[str]] = {}
    for play in plays if isinstance(plays, list) else []:
        cards, _, reading = str(play).partition(" as ")
        groups.setdefault(reading.split(":")[0], []).append(cards)
    return [(_key(kind) if kind else msg("plays"), cards) for kind, cards in groups.items()]


@functools.lru_cache(maxsize=1)
def _css() -> str:
    """The viewer's stylesheet for a document of one table per finding (.table, not #table), whose
    narrow-window layout (one column) is for screens only, then the ruling's own (ruling.css)."""
    css = VIEWER_CSS.read_text(encoding="utf-8").replace("#table", ".table")
    css = css.replace("@media (max-width: 760px)", "@media screen and (max-width: 760px)")
    return css + (TEMPLATES / "ruling.css").read_text(encoding="utf-8")


def _documented_rules() -> dict:
    try:
        return rule_entries()
    except OSError:  # installed without the checkout's docs/: a ruling without the rules' text
        return {}


def _marked(frame: dict, offending: bool) -> dict:
    """The cards in question by the seat whose hand holds them on the table shown: a refused action's in
    its player's hand (the table it was tried on), a tribute or return that stood in its receiver's."""
    action = frame["action"]
    if not isinstance(action, dict):
        return {}
    if frame.get("rejected"):
        return {action.get("seat"): _cards_of(action)}
    given = [card for card in map(action.get, CARD_VERBS) if isinstance(card, str)]
    return {action["to"]: given} if offending and given and isinstance(action.get("to"), int) else {}


def _cards_of(action: dict | None) -> list[str]:
    if not action:
        return []
    play = action.get("play")
    cards = play if isinstance(play, list) else []
    return [c for c in [*cards, *map(action.get, CARD_VERBS)] if isinstance(c, str)]
