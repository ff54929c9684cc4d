"""The ruling document (issue 21 item 6): one self-contained HTML file to hand to the teams.

It holds the record's identity and verdict and, for each finding ruled on, the table at its step
drawn as the viewer draws it (the viewer's own stylesheet, inlined), the action, the message, the
legal alternatives as cards and the text of the rule from the rules page. Nothing in it is
fetched: no script, no link, no font or image from anywhere; a Content-Security-Policy forbids
any load. Everything taken from the record is escaped, and the controls that reorder text are
shown as markers, as the viewer shows them.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from html import escape
from pathlib import Path

from . import __version__
from .cards import rank_shown
from .messages import DEFAULT, Cards, Listing, Msg, Phrase, Term, part, shown, word_in
from .replay import (acting_seats, check_record, deals_steps, finishing_place, game_name, game_word, reading_shown,
                     step_of_action)
from .ruledocs import meaning, rule_entries, section, section_text, sections

msg, msg_n, word, word_of = part("ruling")

VIEWER_CSS = Path(__file__).resolve().parent.parent / "api" / "web" / "viewer.css"
POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
CARD = re.compile(r"^([2-9TJQKA][SHDC]|BJ|RJ)$")
TEAM_GAMES = ("guandan", "gouji")          # notation §3: team = seat mod 2
# where seats sit around the table, as in the viewer (seat 0 at the bottom, the next to its right)
PLACES = {2: ["bc", "tc"], 3: ["bc", "tr", "tl"], 4: ["bc", "mr", "tc", "ml"],
          5: ["bc", "mr", "tr", "tl", "ml"], 6: ["bc", "br", "tr", "tc", "tl", "bl"]}
SEVERITIES = {"error": word("error"), "warning": word("warning"), "info": word("info")}
JOKER_FACE = word("Jo")     # a joker's face, where a card shows its rank
COLON = word(": ")          # between a seat and its value
YES, NO = word("yes"), word("no")
FROM_CLAIM = word("from claim")     # an outcome's key: the outcome is the record's claim
# controls that reorder or hide text (bidi overrides and isolates, marks, C0 controls): shown, never obeyed
HIDDEN_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
SNAPSHOT_DRAWN = ("hands", "table", "wild")
PRINT_CSS = """
body.ruling { background: #fff; }
.ruling main { max-width: 60rem; margin: 0 auto; }
.ruling header p { margin: .4rem 0; }
.ruling section.part { background: #fff; padding: .2rem 0 1rem; }
.ruling h2 { font-size: 1.2rem; margin: 1rem 0 .4rem; border-bottom: 2px solid #263238; }
.ruling h3 { font-size: 1rem; margin: .8rem 0 .3rem; }
.ruling .message { border-left: .35rem solid var(--bad); padding: .3rem .8rem; background: #fff5f6; }
.ruling .message.warning, .ruling .message.info { border-color: var(--warn); background: #fffaf0; }
.ruling .line { display: flex; flex-wrap: wrap; gap: .3rem; align-items: center; margin: .2rem 0; }
.ruling .rule-text { white-space: pre-wrap; font-size: .9rem; background: #f7f7f4; border: 1px solid #ddd;
  border-radius: .3rem; padding: .5rem .7rem; }
.ruling .state dl { font-size: .9rem; }
.ruling .line .played { margin-right: .6rem; }
@page { size: A4; margin: 12mm; }
@media print {
  .ruling header { background: none; color: #000; border-bottom: 2px solid #000; }
  .ruling .finding { break-before: page; }
  .ruling .seat, .ruling .trick, .ruling .line, .ruling dl { break-inside: avoid; }
  .ruling * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""


class RulingError(ValueError):
    """A ruling asked of what the record does not hold (a finding, deal or action that is not there)."""

    def __init__(self, text: Msg):
        super().__init__(str(text))
        self.text = text


def ruling(record: dict, record_id: str, lang: str = DEFAULT, finding: int | None = None,
           deal: int | None = None, action: int | None = None) -> str:
    """The ruling on a parsed record as one HTML document: on its finding `finding`, on the findings
    of `deal` (at `action`), or on every finding. Raises RulingError for what is not there."""
    report = check_record(record)
    doc = _Document(record, report, lang)
    return doc.html(record_id, [doc.part(*chosen) for chosen in _chosen(doc, finding, deal, action)])


def _chosen(doc, finding, deal, action) -> list[tuple]:
    """(number, finding or None, deal, frame or None) of each part of the ruling."""
    findings = doc.report.findings
    if finding is not None and (deal is not None or action is not None):
        raise RulingError(msg("name a finding, or a deal and an action, not both"))
    if finding is not None:
        if not 0 <= finding < len(findings):
            raise RulingError(msg_n("there is no finding {index}: the record has {n} finding",
                                    "there is no finding {index}: the record has {n} findings",
                                    len(findings), index=finding))
        return doc.placed([finding])
    if deal is None and action is None:
        return doc.placed(range(len(findings)))
    deal = deal or 0
    if not 0 <= deal < len(doc.deals):
        raise RulingError(msg_n("there is no deal {index}: the record has {n} deal",
                                "there is no deal {index}: the record has {n} deals", len(doc.deals), index=deal))
    chosen = doc.placed([n for n, f in enumerate(findings)
                         if f.deal == deal and (action is None or f.action == action)])
    if action is None or chosen:
        return chosen
    steps = doc.steps(deal)
    at = step_of_action(steps, action) if action >= 0 else None
    if at is None:
        raise RulingError(msg("deal {deal} replays to action {last} at most", deal=deal,
                              last=steps[-1]["step"] - 1 if steps else -1))
    return [(None, None, deal, steps[at])]


class _Document:
    """What every part of one ruling shares: the record, its report, the language, the players."""

    def __init__(self, record: dict, report, lang: str):
        self.record, self.report, self.lang = record, report, lang
        self.deals = record.get("deals") if isinstance(record.get("deals"), list) else []
        players = record.get("players") if isinstance(record.get("players"), list) else []
        self.players = [p if isinstance(p, str) else str(p) for p in players]
        self.teams = record.get("game") in TEAM_GAMES
        self.rules = _documented_rules()
        self._steps: dict[int, list] = {}

    # ------------------------------------------------------------ words

    def say(self, text) -> str:
        """A message (or a listing, a term, plain text) in the document's language, escaped: its
        parameters are plain text."""
        return escape(str(shown(text, self.lang)))

    def text(self, value) -> str:
        """Text from the record, escaped."""
        return escape(visible(value))

    def seat(self, seat) -> Msg | str:
        """A seat by its player's name (plain text, for a message's parameter)."""
        if not isinstance(seat, int) or isinstance(seat, bool):
            return visible(seat)
        if 0 <= seat < len(self.players):
            return msg("{name} (seat {seat})", name=visible(self.players[seat]), seat=seat)
        return msg("seat {seat}", seat=seat)

    def team(self, team: int) -> Msg:
        names = ", ".join(visible(name) for name in self.players[team::2])
        return msg("team {team} ({players})", team=team, players=names)

    # ------------------------------------------------------------ the findings' places

    def steps(self, deal: int) -> list:
        self._replay([deal])
        return self._steps[deal]

    def _replay(self, deals) -> None:
        """The steps of every deal in `deals`, from one replay of the record (not one per deal)."""
        missing = {deal for deal in deals if deal not in self._steps and 0 <= deal < len(self.deals)}
        if missing:
            self._steps.update(deals_steps(self.record, sorted(missing))[1])

    def placed(self, numbers) -> list[tuple]:
        """(number, finding, deal, frame) of each of the report's findings `numbers`; a claim about the
        match is shown after the last deal, a finding about the whole record on no table."""
        placed = [(n, self.report.findings[n], self._deal_of(self.report.findings[n])) for n in numbers]
        self._replay(deal for _, _, deal in placed if deal is not None)
        return [(n, finding, deal, next((f for f in self._steps.get(deal, []) if finding in f["findings"]), None))
                for n, finding, deal in placed]

    def _deal_of(self, finding) -> int | None:
        if finding.deal is None and finding.at.startswith("/result") and self.deals:
            return len(self.deals) - 1
        return finding.deal

    # ------------------------------------------------------------ the document

    def html(self, record_id: str, parts: list[str]) -> str:
        meta = self.record.get("meta") if isinstance(self.record.get("meta"), dict) else {}
        title = self.say(msg("Ruling")) + "".join(f" · {self.text(meta[k])}" for k in ("event", "round", "table")
                                                   if meta.get(k) not in (None, ""))
        css = _viewer_css()
        if not self.report.findings:
            parts = [element("p", self.say(msg("The referee finds nothing wrong with this record.")))] + parts
        return "\n".join([
            "<!DOCTYPE html>",
            f'<html lang="{"zh-Hans" if self.lang == "zh" else "en"}">',
            "<head>",
            '<meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            '<meta name="referrer" content="no-referrer">',
            f"<title>{title}</title>",
            f"<style>{css}{PRINT_CSS}</style>",
            "</head>",
            '<body class="ruling">',
            f"<header><h1>{title}</h1><p>{self.verdict()}</p></header>",
            "<main>",
            self.identity(meta, record_id),
            *parts,
            "</main>",
            element("footer", element("p", self.say(msg("Made by cgr-referee {version}.", version=__version__)))),
            "</body>",
            "</html>",
            ""])

    def verdict(self) -> str:
        if self.report.valid:
            return element("span", self.say(msg("VALID")), "verdict valid")
        errors = sum(f.severity == "error" for f in self.report.findings)
        return element("span", self.say(msg("INVALID")), "verdict invalid") + " " + \
            self.say(msg_n("{n} error", "{n} errors", errors))

    def identity(self, meta: dict, record_id: str) -> str:
        words = {"event": msg("event"), "round": msg("round"), "table": msg("table"), "date": msg("date"),
                 "site": msg("site")}
        rows = [(msg("game"), self.say(game_name(visible(self.report.game or self.record.get("game"))))),
                (msg("rules"), self.text(_rules_text(self.report.rules, self.record.get("rules"))))]
        rows += [(words[key], self.text(meta[key])) for key in words if meta.get(key) not in (None, "")]
        rows += [(msg("players"), "<br>".join(self.say(self.seat(seat))
                                              for seat in range(len(self.players)))),
                 (msg("record id"), f"<code>{self.text(record_id)}</code>"),
                 (msg("verdict"), self.verdict()),
                 (msg("findings"), self.findings_list())]
        items = "".join(f"<dt>{self.say(label)}</dt><dd>{value}</dd>" for label, value in rows)
        return element("section", element("h2", self.say(msg("The record"))) + element("dl", items), "part identity")

    def findings_list(self) -> str:
        if not self.report.findings:
            return self.say(msg("none"))
        items = "".join(f'<li><a href="#finding-{n}">{self.say(SEVERITIES.get(f.severity, f.severity))} '
                        f"<code>{self.text(f.rule)}</code></a>: {self.text(f.shown(self.lang))}</li>"
                        for n, f in enumerate(self.report.findings))
        return f'<ol start="0">{items}</ol>'

    # ------------------------------------------------------------ one finding

    def part(self, number, finding, deal, frame) -> str:
        if finding is None:
            head = self.say(msg("Deal {deal}, action {action}", deal=deal, action=frame["step"] - 1))
            blocks = [element("p", self.say(msg("The referee finds no fault in this action.")), "message info")]
        else:
            head = self.say(msg("Finding {number}: {severity} {rule}", number=number,
                                severity=SEVERITIES.get(finding.severity, finding.severity), rule=finding.rule))
            blocks = [self.where(finding),
                      f'<p class="message {self.text(finding.severity)}">{self.text(finding.shown(self.lang))}</p>']
        if frame is not None and (finding is None or finding.action is not None):
            blocks.append(self.action_block(frame))
        if frame is not None:
            blocks.append(self.table_block(frame, deal, finding is not None and finding.action is not None))
        if frame is not None and frame.get("outcome"):
            blocks.append(self.outcome_block(frame["outcome"]))
        if finding is not None:
            blocks += [self.legal_block(finding.legal), self.rule_block(finding.rule)]
        anchor = f' id="finding-{number}"' if number is not None else ""
        return f'<section class="part finding"{anchor}><h2>{head}</h2>{"".join(blocks)}</section>'

    def where(self, finding) -> str:
        parts = [self.say(msg("deal {deal}", deal=finding.deal)) if finding.deal is not None else "",
                 self.say(msg("action {action}", action=finding.action)) if finding.action is not None else "",
                 self.say(self.seat(finding.seat)) if finding.seat is not None else "",
                 f"<code>{self.text(finding.at or '/')}</code>"]
        return f'<p class="where">{" · ".join(part for part in parts if part)}</p>'

    def action_block(self, frame) -> str:
        action = frame["action"]
        line = self.action_line(action) if isinstance(action, dict) else self.say(msg("as dealt: no action yet"))
        head = msg("The action, refused: the table is the one it was tried on") if frame.get("rejected") else \
            msg("The action")
        return f'<h3>{self.say(head)}</h3><p class="line">{line}</p>'

    def action_line(self, action: dict) -> str:
        """The action in words, its cards drawn (marked: they are the ones in question)."""
        who = self.seat(action.get("seat"))
        parts = []
        if "pass" in action:
            parts.append(self.say(msg("{player} passes", player=who)))
        if isinstance(action.get("play"), list):
            parts += [self.say(msg("{player} plays", player=who)), self.cards(action["play"], marked=True)]
        if "tribute" in action:
            parts += [self.say(msg("{player} pays tribute", player=who)), self.cards([action["tribute"]], marked=True)]
        if "return" in action:
            parts += [self.say(msg("{player} returns", player=who)), self.cards([action["return"]], marked=True)]
        if "declare" in action:
            parts.append(self.say(msg("{player} declares {declaration}", player=who,
                                      declaration=game_word(self.report.game, visible(action["declare"])))))
        if "count" in action:
            parts.append(self.say(msg("({count} cards left)", count=visible(action["count"]))))
        if "to" in action:
            parts.append(self.say(msg("to {player}", player=self.seat(action["to"]))))
        if "as" in action:
            parts.append(self.say(msg("as {reading}", reading=reading_shown(self.report.game, visible(action["as"]),
                                                                         action.get("play")))))
        return " ".join(parts)

    # ------------------------------------------------------------ cards and the table

    def card(self, code, wild=(), marked=False) -> str:
        if not isinstance(code, str) or not CARD.match(code):
            return f'<span class="card">{self.text(code)}</span>'
        label = Cards(code).shown(self.lang)
        if code in ("BJ", "RJ"):
            classes, rank, suit = "card joker" + " red" * (code == "RJ"), self.say(JOKER_FACE), "★" if code == "RJ" else "☆"
        else:
            classes, suit = "card" + " red" * (code[1] in "HD"), SUITS[code[1]]
            rank = rank_shown(code[0])
        if code in wild:
            classes += " wild"
            label = self.say(msg("{card}, {wild}", card=label, wild=game_word(self.report.game, "wild card")))
        classes += " marked" * marked
        return (f'<span class="{classes}" title="{label}" role="img" aria-label="{label}">'
                f'<b aria-hidden="true">{rank}</b><i aria-hidden="true">{suit}</i></span>')

    def cards(self, codes, wild=(), marked=False) -> str:
        return f'<span class="played">{"".join(self.card(code, wild, marked) for code in codes)}</span>'

    def table_block(self, frame: dict, deal: int, offending: bool) -> str:
        """The table at the frame's step; where its action is the one in question (`offending`, or
        refused) its cards are marked."""
        snap = frame["table"]
        hands = snap.get("hands") if isinstance(snap.get("hands"), list) else []
        seats = max(len(hands), len(self.players))
        wild = set(snap.get("wild") or [])
        marked = _marked(frame, offending)
        nodes = [self.seat_node(seat, hands[seat] if seat < len(hands) else [], snap, wild, marked.get(seat, []),
                                PLACES[seats][seat] if seats in PLACES else None)
                 for seat in range(seats)]
        nodes.append(self.trick_node(snap, wild, frame["action"] if frame.get("rejected") else None))
        layout = f"seats-{seats}" if seats in PLACES else "seats-many"
        head = msg("The table at step {step} (deal {deal})", step=frame["step"], deal=deal)
        return (f'<h3>{self.say(head)}</h3><div class="table {layout}">{"".join(nodes)}</div>'
                + self.state_block(snap))

    def seat_node(self, seat: int, hand: list, snap: dict, wild: set, marked: list, place: str | None) -> str:
        """A seat as the viewer draws it: its name, its badges, its hand low to high; `marked` cards are
        marked one copy each (a multi-deck hand may hold several)."""
        to_mark = Counter(marked)
        turn = seat in acting_seats(snap.get("turn"))
        out = snap["out"].index(seat) if isinstance(snap.get("out"), list) and seat in snap["out"] else None
        badges = [element("span", self.say(msg("team {team}", team=seat % 2)), "badge team") if self.teams else "",
                  element("span", self.say(msg("to act")), "badge turn") if turn else "",
                  element("span", self.say(finishing_place(self.report.game, out) or msg("out {place}", place=out + 1)),
                          "badge out") if out is not None else ""]
        cards = []
        for code in hand:
            cards.append(f'<span role="listitem">{self.card(code, wild, to_mark[code] > 0)}</span>')
            to_mark[code] -= 1
        name = self.text(self.players[seat]) if seat < len(self.players) else self.say(msg("seat {seat}", seat=seat))
        count = self.say(msg_n("seat {seat} · {n} card", "seat {seat} · {n} cards", len(hand), seat=seat))
        style = f' style="grid-area: {place}"' if place else ""
        return (f'<section class="seat{" turn" * turn}"{style}><h3><span class="name">{name}</span>'
                f'<span class="seatno">{count}</span>{"".join(badges)}</h3>'
                f'<div class="hand" role="list">{"".join(cards)}</div></section>')

    def trick_node(self, snap: dict, wild: set, refused: dict | None) -> str:
        """The trick, and a `refused` action after it."""
        rows = []
        for entry in snap.get("table") or []:
            if isinstance(entry.get("play"), list):
                played = self.cards(entry["play"], wild) + (
                    f" <small>{self.say(reading_shown(self.report.game, visible(entry['as']), entry['play']))}</small>"
                    if "as" in entry else "")
            else:
                played = element("span", self.say(msg("pass")), "pass")
            rows.append(element("li", element("span", self.say(self.seat(entry.get("seat"))), "who") + played))
        if refused:
            tried = self.say(msg("pass")) if "pass" in refused else self.cards(_cards_of(refused), wild, marked=True)
            rows.append(f'<li class="offending refused"><span class="who">'
                        f'{self.say(self.seat(refused.get("seat")))}</span>'
                        + self.say(msg("refused:")) + f" {tried}</li>")
        inside = element("ol", "".join(rows)) if rows else element("p", self.say(msg("no cards on the table")), "empty")
        return element("section", element("h3", self.say(msg("Trick"))) + inside, "trick")

    def state_block(self, snap: dict) -> str:
        """The rest of the table: who is to act, levels, phase, talon, what is owed... as the viewer lists it."""
        acting = acting_seats(snap.get("turn"))
        rows = [(msg("to act"), self.say(Listing([self.seat(s) for s in acting], " or ") if acting else msg("nobody")))]
        if isinstance(snap.get("levels"), list):
            rows.append((msg("levels"), "; ".join(self.say(msg("{team}: {level}", team=self.team(t), level=visible(v)))
                                                  for t, v in enumerate(snap["levels"]))))
        if "declaring" in snap:
            rows.append((msg("declaring team"), self.say(self.team(snap["declaring"])) if isinstance(
                snap["declaring"], int) else self.say(msg("none (first deal)"))))
        shown = SNAPSHOT_DRAWN + ("turn", "levels", "declaring")
        rows += [(_key(key), self.value(key, value)) for key, value in snap.items()
                 if key not in shown and value not in (None, [], {}, "")]
        items = "".join(f"<dt>{self.say(label)}</dt><dd>{value}</dd>" for label, value in rows)
        return f'<div class="state"><dl>{items}</dl></div>'

    def outcome_block(self, outcome: dict) -> str:
        """The deal's outcome as the referee computes it, with what the record claims beside it."""
        items = "".join(f"<dt>{self.say(_key(key))}</dt><dd>{self.value(key, value)}</dd>"
                        for key, value in outcome.items() if key != "deal" and value is not None)
        return element("h3", self.say(msg("The deal's outcome"))) + element("div", element("dl", items), "state")

    def value(self, key: str, value) -> str:
        """A snapshot's value as the viewer shows it: seats by name, cards drawn, lists per seat."""
        if isinstance(value, int) and not isinstance(value, bool) and key in TEAM_KEYS + ("winner",) * self.teams:
            return self.say(self.team(value))
        if isinstance(value, int) and not isinstance(value, bool) and key in SEAT_KEYS:
            return self.say(self.seat(value))
        if isinstance(value, list):
            if key in SEAT_LISTS and all(isinstance(v, int) for v in value):
                return self.say(Listing([self.seat(v) for v in value], ", "))
            if value and all(isinstance(v, str) and CARD.match(v) for v in value):
                return self.cards(value)
            semicolon, colon = self.say(Term("; ")), self.say(COLON)
            if len(value) == len(self.players):
                return semicolon.join(f"{self.say(self.seat(seat))}{colon}{self.value('', v)}"
                                      for seat, v in enumerate(value))
            if self.teams and len(value) == 2 and not any(isinstance(v, (list, dict)) for v in value):
                return semicolon.join(f"{self.say(self.team(team))}{colon}{self.value('', v)}"
                                      for team, v in enumerate(value))
            return semicolon.join(self.value(key, v) for v in value)
        if isinstance(value, dict):
            return self.say(Term(", ")).join(f"{self.say(_key(k))} {self.value(k, v)}"
                                             for k, v in value.items() if v not in (None, [], {}))
        if isinstance(value, str) and CARD.match(value):
            return self.card(value)
        if isinstance(value, bool):
            return self.say(YES if value else NO)
        return self.say(value) if isinstance(value, (Msg, Phrase, Term)) else self.text(value)

    # ------------------------------------------------------------ what was legal, and the rule

    def legal_block(self, legal: dict | None) -> str:
        """What would have been legal, drawn as cards: grouped by combination, or by seat where several
        seats might act (Gou Ji); the referee's sentence beside them."""
        if not legal:
            return ""
        lines = [f'<p class="line"><strong>{self.say(label)}</strong> {" ".join(self.cards(p.split()) for p in plays)}'
                 f"</p>" for label, plays in _legal_groups(self, legal.get("plays"))]
        if isinstance(legal.get("plays"), (list, dict)) and not lines:
            lines.append(element("p", self.say(msg("Nothing in hand may follow."))))
        for key in ("may", "ruling"):
            if legal.get(key):
                lines.append(f'<p class="legal">{self.say(legal[key])}</p>')
        return element("h3", self.say(msg("Legal then"))) + "".join(lines)

    def rule_block(self, rule: str) -> str:
        """The rule id's meaning, the sections that decide it and their text, as the rules pages say it."""
        entry = self.rules.get(rule)
        if entry is None:
            return ""
        texts = [(f"{page} {number}", section_text(page, number)) for page, numbers in sections(rule, entry["meaning"])
                 for number in numbers]
        original = msg("the English original")     # the rules pages are normative in English only
        original = "" if self.lang == DEFAULT else f" · {self.say(original)}"
        blocks = "".join(f"<h4>{self.text(cite)}{original}</h4>"
                         f"<div class=\"rule-text\" lang=\"en\">{_marked_up(self.text(text))}</div>"
                         for cite, text in texts if text)
        return (element("h3", self.say(msg("The rule")))
                + f'<p><code>{self.text(rule)}</code>: {self.text(meaning(rule, self.lang))}'
                f' ({self.text(section(rule, entry["meaning"]))})</p>{blocks}')


def _key(key: str) -> Term:
    """A key of a snapshot or an outcome in words ("bombs played"), from the ruling's catalogue, else another's."""
    return word_in("ruling", key.replace("_", " "))


def element(tag: str, inner: str, classes: str | None = None) -> str:
    """An element around HTML already escaped."""
    return f'<{tag} class="{classes}">{inner}</{tag}>' if classes else f"<{tag}>{inner}</{tag}>"


TEAM_KEYS = ("declaring",)
SEAT_KEYS = ("turn", "dealer", "leader", "seat", "to", "winner")
SEAT_LISTS = ("order", "out", "penalised")


def visible(value) -> str:
    """Text with the controls that would reorder or hide it shown as markers: ⟨U+202E⟩."""
    return HIDDEN_CONTROLS.sub(lambda c: f"⟨U+{ord(c.group()):04X}⟩", str(value))


def _legal_groups(doc: _Document, plays) -> list[tuple]:
    """(label, plays) as `legal` groups them: by seat (a dict), else by combination ("CARDS as TYPE:RANK")."""
    if isinstance(plays, dict):
        return [(doc.seat(int(seat)) if seat.isdigit() else visible(seat), cards) for seat, cards in plays.items()
                if cards]
    groups: dict[str, list[str]] = {}
    for play in plays if isinstance(plays, list) else []:
        cards, _, reading = str(play).partition(" as ")
        groups.setdefault(reading.split(":")[0], []).append(cards)
    return [(Term(kind).shown(doc.lang).replace("_", " ") if kind else msg("plays"), cards)
            for kind, cards in groups.items()]


def _viewer_css() -> str:
    """The viewer's stylesheet for a document of one table per finding (.table, not #table), whose
    narrow-window layout (one column) is for screens only: on paper the seats sit around the trick."""
    css = VIEWER_CSS.read_text(encoding="utf-8").replace("#table", ".table")
    return css.replace("@media (max-width: 760px)", "@media screen and (max-width: 760px)")


def _documented_rules() -> dict:
    try:
        return rule_entries()
    except OSError:         # installed without the checkout's docs/: a ruling without the rules' text
        return {}


def _marked(frame: dict, offending: bool) -> dict:
    """The cards in question by the seat whose hand holds them on the table shown: a refused action's in
    its player's hand (the table it was tried on), a tribute or return that stood in its receiver's."""
    action = frame["action"]
    if not isinstance(action, dict):
        return {}
    if frame.get("rejected"):
        return {action.get("seat"): _cards_of(action)}
    given = [card for card in (action.get("tribute"), action.get("return")) if isinstance(card, str)]
    return {action["to"]: given} if offending and given and isinstance(action.get("to"), int) else {}


def _cards_of(action: dict | None) -> list[str]:
    if not action:
        return []
    cards = action.get("play") if isinstance(action.get("play"), list) else []
    return [c for c in [*cards, action.get("tribute"), action.get("return")] if isinstance(c, str)]


def _rules_text(rules: dict | None, written) -> str:
    """The preset, and the options the record sets itself (the rest are the preset's)."""
    if not rules:
        return "-"
    options = ", ".join(f"{name}={json.dumps(value)}" for name, value in written.items()
                        if name != "preset") if isinstance(written, dict) else ""
    return f"{rules.get('preset')}" + (f" ({options})" if options else "")


def _marked_up(text: str) -> str:
    """Escaped Markdown of a rules page with its **bold** and `code` shown so."""
    text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", text)
