// The replay viewer: draws whatever steps the API returns (GET .../deals/{d}/steps for a stored
// record, POST /v1/replay for a local one) with the report's findings and outcomes, and a dispute
// panel at every finding's step. Every text goes through _() (the viewer's catalogue: docs/i18n.md).
"use strict";

const SUIT_GLYPHS = {S: "♠", H: "♥", D: "♦", C: "♣"};
const RANK_GLYPHS = {T: "10"};
const CARD = /^([2-9TJQKA][SHDC]|BJ|RJ)$/;
const TEAM_GAMES = ["guandan", "gouji"];          // notation §3: team = seat mod 2
const SEAT_KEYS = ["turn", "dealer", "leader", "seat", "to"];
const SEAT_LISTS = ["order", "out", "penalised"];
const TEAM_KEYS = ["declaring"];
const RUNNING = ["levels", "totals"];             // values a deal carries on from the one before
// where seats sit around the table (seat 0 at the bottom, the next seat to its right: notation §3)
const PLACES = {
  2: ["bc", "tc"], 3: ["bc", "tr", "tl"], 4: ["bc", "mr", "tc", "ml"],
  5: ["bc", "mr", "tr", "tl", "ml"], 6: ["bc", "br", "tr", "tc", "tl", "bl"],
};

// controls that reorder or hide text (bidi overrides and isolates, marks, NUL and the other C0 controls)
const HIDDEN_CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

const $ = (selector) => document.querySelector(selector);
const view = {source: null, record: null, report: null, deal: 0, steps: [], moves: [], index: 0,
              lang: "en", langInUrl: false};

// ---------------------------------------------------------------- plain helpers

// text from a record as it is written: each control shown as a visible marker, ⟨U+202E⟩, never obeyed
function visible(text) {
  return String(text).replace(HIDDEN_CONTROLS,
    (c) => `⟨U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}⟩`);
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, visible(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(...(child instanceof Node ? [child] : unitsKept(visible(child))));
  }
  return node;
}

// A number and its Chinese unit ("1队", "（5号位）", "第25步") never broken across lines: each in a
// span that does not wrap (viewer.css .unit); the rest of the text as it is.
const UNIT = /（\d+号位）|\d+号位|\d+队|第\d+[局步轮桌项条]/g;

function unitsKept(text) {
  const parts = [];
  let last = 0;
  for (const found of text.matchAll(UNIT)) {
    if (found.index > last) parts.push(text.slice(last, found.index));
    const unit = document.createElement("span");
    unit.className = "unit";
    unit.textContent = found[0];
    parts.push(unit);
    last = found.index + found[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

// the cards of a space-separated string or a list
function codesOf(cards) {
  if (typeof cards === "string") return cards.split(" ").filter((code) => CARD.test(code));
  return Array.isArray(cards) ? cards.filter((code) => typeof code === "string" && CARD.test(code)) : [];
}

// `hand` less one copy of each card of `cards`
function without(hand, cards) {
  const left = [...hand];
  for (const code of cards) {
    const at = left.indexOf(code);
    if (at >= 0) left.splice(at, 1);
  }
  return left;
}

// Deals, actions and findings are indexes from 0 in the record, the report and the API; people read
// and type them counted from 1 (README, "Numbering"): on the page and in the viewer's URL.
const counted = (index) => index + 1;

// the index a URL's parameter names (counted from 1), or NaN when it names none
function urlIndex(params, name) {
  const number = params.get(name);
  return /^\d+$/.test(number) && Number(number) >= 1 ? Number(number) - 1 : NaN;
}

// ---------------------------------------------------------------- cards, names, values

function suitName(suit) {
  return {S: _("spades"), H: _("hearts"), D: _("diamonds"), C: _("clubs")}[suit];
}

function cardName(code) {
  if (code === "BJ") return _("black joker");
  if (code === "RJ") return _("red joker");
  const names = {T: "10", J: _("jack"), Q: _("queen"), K: _("king"), A: _("ace")};
  return _("{rank} of {suit}", {rank: names[code[0]] || code[0], suit: suitName(code[1])});
}

function cardGlyphs(code) {
  if (code === "BJ") return _("black joker");
  if (code === "RJ") return _("red joker");
  return (RANK_GLYPHS[code[0]] || code[0]) + SUIT_GLYPHS[code[1]];
}

function cardsText(codes) {
  return codes.map(cardGlyphs).join(" ");
}

// one card as drawn on the table; `marks` counts the copies still to mark (one copy at a time: a
// multi-deck hand may hold two of the card, and only the one played is marked)
// a wild card's label as the game names it: Guandan's heart level card is 逢人配, the others' wilds 百搭
function wildLabel() {
  return view.record && view.record.game === "guandan" ? pgettext("guandan", ", wild card") : _(", wild card");
}

function cardNode(code, wild = new Set(), marks = new Map()) {
  const isWild = wild.has(code);
  const marked = (marks.get(code) || 0) > 0;
  if (marked) marks.set(code, marks.get(code) - 1);
  const label = cardName(code) + (isWild ? wildLabel() : "") + (marked ? _(", marked") : "");
  let classes = "card";
  let rank, suit;
  if (code === "BJ" || code === "RJ") {
    classes += code === "RJ" ? " joker red" : " joker";
    rank = _("Jo");
    suit = code === "RJ" ? "★" : "☆";
  } else {
    rank = RANK_GLYPHS[code[0]] || code[0];
    suit = SUIT_GLYPHS[code[1]];
    if (code[1] === "H" || code[1] === "D") classes += " red";
  }
  if (isWild) classes += " wild";
  if (marked) classes += " marked";
  return el("span", {class: classes, title: label, "aria-label": label, role: "img", "data-code": code},
    el("b", {"aria-hidden": "true"}, rank), el("i", {"aria-hidden": "true"}, suit));
}

function cardsNode(codes, wild, marks) {
  return el("span", {class: "cards"}, codes.map((code) => cardNode(code, wild, marks)));
}

function marksOf(codes) {
  const marks = new Map();
  for (const code of codes) marks.set(code, (marks.get(code) || 0) + 1);
  return marks;
}

function wildOf(snapshot) {
  return new Set([].concat((snapshot && snapshot.wild) || []));
}

function playerName(seat) {
  const name = (view.record.players || [])[seat];
  return typeof name === "string" ? _("{name} (seat {seat})", {name, seat}) : _("seat {seat}", {seat});
}

function teamName(team) {
  const names = (view.record.players || []).filter((_name, seat) => seat % 2 === team);
  return _("team {team} ({names})", {team, names: names.join(_(", "))});
}

// a finishing place (0: the first out) as players name it: 头游 … 末游 in Guandan, 头科 … 大落 in Gou Ji
function placeText(out) {
  const places = {guandan: [_("first out"), _("second out"), _("third out"), _("last out")],
                  gouji: [_("main winner"), _("second winner"), _("third winner"), _("fourth winner"),
                          _("second loser"), _("big loser")]}[view.record.game] || [];
  return places[out] || _("out {n}", {n: out + 1});
}

function hasTeams() {
  return TEAM_GAMES.includes(view.record.game);
}

// a combination as the referee reads it ("single:K", "straight:K") of `cards` in words, as players name
// it: a run by both ends (9到K的顺子), a Gou Ji set by its size (三张4); the rank as written on cards
const RUN_RANKS = {straight: () => 5, straight_flush: () => 5, tube: () => 3, plate: () => 2, sequence: (n) => n,
                   double_sequence: (n) => n / 2, triplet_sequence: (n) => n / 3};
const RANKS = "A23456789TJQKA";

function rankText(rank) {
  return rank === "T" ? "10" : rank === "RJ" ? _("red joker") : rank === "BJ" ? _("black joker") : rank;
}

function readingText(reading, cards = []) {
  const [kind, rank] = String(reading).split(":");
  if (rank === undefined) return kindName(kind);
  const span = RUN_RANKS[kind] && RANKS.includes(rank) ? RUN_RANKS[kind](cards.length) : 0;
  if (span >= 2) {
    const low = RANKS[Math.max(0, RANKS.lastIndexOf(rank) - span + 1)];
    return _("{kind} from {low} to {high}", {kind: kindName(kind), low: rankText(low), high: rankText(rank)});
  }
  if (kind === "set" && cards.length > 1) return _("a set of {n} {rank}", {n: countText(cards.length), rank: rankText(rank)});
  return _("{kind} {rank}", {kind: kindName(kind === "set" && cards.length === 1 ? "single" : kind), rank: rankText(rank)});
}

// a number of cards: in Chinese a numeral up to ten, as players say it (三张4)
function countText(n) {
  return view.lang === "zh" && n >= 1 && n <= 10 ? "一二三四五六七八九十"[n - 1] : String(n);
}

function kindName(kind) {
  const names = {
    single: _("single"), pair: _("pair"), triple: _("triple"), triplet: _("triplet"), set: _("set"),
    full_house: _("full house"), straight: _("straight"), tube: _("tube"), plate: _("plate"), bomb: _("bomb"),
    straight_flush: _("straight flush"), joker_bomb: _("four jokers"), sequence: _("sequence"),
    double_sequence: _("sequence of pairs"), triplet_sequence: _("sequence of triplets"), four_bomb: _("bomb of four"),
  };
  return names[kind] || kind.replace(/_/g, " ");
}

function declarationText(action) {
  const count = action.count;
  const words = {
    report: Number.isInteger(count) ? ngettext("reports {n} card left", "reports {n} cards left", count)
      : _("reports the cards left"),
    revolution: _("declares revolution"), liberation: _("declares liberation"),
    waive_tribute: _("waives the tribute"), swap_losers: _("swaps the losers"),
    shao_pai: _("declares Shao Pai"), xian_rang_rang: _("declares Xian Rang Rang"),
  };
  return words[action.declare] || _("declares {name}", {name: valueText("declare", action.declare)});
}

// a phase, mode, deal status or kind of tribute in words (Gou Ji's mode keeps its seats: "DUEL 0-3")
function phaseText(phase) {
  const words = {play: _("play"), tribute: _("tribute"), return: _("return"), over: _("the deal is over"),
                 NORMAL: _("normal play"), DUEL: _("duel"), complete: _("complete"), stopped: _("stopped"),
                 incomplete: _("incomplete"), void: _("void"), dead: _("dead"), none: _("none"),
                 single: _("single tribute"), double: _("double tribute"), ordinary: _("ordinary tribute")};
  const [name, ...rest] = String(phase).split(" ");
  return words[name] ? [words[name], ...rest].join(" ") : String(phase);
}

function keyName(key) {
  const names = {
    turn: _("to act"), dealer: _("dealer"), leader: _("leader"), order: _("finishing order"), out: _("out"),
    level: _("level"), levels: _("levels"), declaring: _("declaring team"), tribute: _("tribute"),
    scores: _("scores"), totals: _("totals"), winner: _("winner"), margin: _("margin"), draw: _("draw"),
    status: _("status"), phase: _("phase"), mode: _("mode"), talon: _("stock"), left: _("cards left"),
    held: _("cards held"), owed: _("owed"), penalised: _("penalised"), payments: _("payments"),
    multipliers: _("multipliers"), a_attempts: _("attempts at A"), claimed: _("claimed"), result: _("result"),
    ruling: _("ruling"), drawn: _("drawn"), bombs_played: _("bombs played"), lock: _("lock"),
    totals_before_the_deal: _("totals before the deal"), from_claim: _("carried on from the claim"),
    wild: view.record && view.record.game === "guandan" ? pgettext("guandan", "wild cards") : _("wild cards"),
    kind: _("kind"), paid: _("paid"), returned: _("returned"), settled: _("settled"),
  };
  return names[key] || String(key).replace(/_/g, " ");
}

function valueText(key, value) {
  if (value === null || value === undefined) return "—";
  if (value === true) return _("yes");
  if (value === false) return _("no");
  if (SEAT_KEYS.includes(key) && Number.isInteger(value)) return playerName(value);
  if (key === "turn" && Array.isArray(value)) return value.length ? value.map(playerName).join(_(", ")) : "—";
  if ((TEAM_KEYS.includes(key) || (key === "winner" && hasTeams())) && Number.isInteger(value)) return teamName(value);
  if (key === "winner" && Number.isInteger(value)) return playerName(value);
  if (["phase", "mode", "status", "tribute", "kind"].includes(key) && typeof value === "string") return phaseText(value);
  if (Array.isArray(value)) return listText(key, value);
  if (typeof value === "object") {
    if (typeof value.seat === "number" && typeof value.card === "string") {
      return `${playerName(value.seat)}: ${cardsText([value.card])}` + (Number.isInteger(value.to) ? ` → ${playerName(value.to)}` : "");
    }
    if (typeof value.seat === "number" && Array.isArray(value.play)) return `${playerName(value.seat)}: ${cardsText(value.play)}`;
    return Object.entries(value).map(([k, v]) => `${keyName(k)} ${valueText(k, v)}`).join(_(", "));
  }
  if (typeof value === "string" && CARD.test(value)) return cardsText([value]);
  return String(value);
}

function listText(key, value) {
  if (value.length === 0) return "—";
  if (SEAT_LISTS.includes(key) && value.every(Number.isInteger)) return value.map(playerName).join(_(", "));
  if (value.every((v) => typeof v === "string" && CARD.test(v))) return cardsText(value);
  const seats = (view.record.players || []).length;
  if (value.length === seats && !value.every((v) => typeof v === "string" && v.includes(" "))) {
    return value.map((v, seat) => `${playerName(seat)}: ${valueText("", v)}`).join(_("; "));
  }
  if (hasTeams() && value.length === 2 && value.every((v) => !Array.isArray(v) && typeof v !== "object")) {
    return value.map((v, team) => _("team {team}: {value}", {team, value: v})).join(_("; "));
  }
  return value.map((v) => valueText(key, v)).join(_("; "));
}

// [key, value, label]: the label defaults to the key's name
function definitions(list, entries) {
  list.replaceChildren(...entries.flatMap(([key, value, label = keyName(key)]) =>
    [el("dt", {}, label), el("dd", {}, valueText(key, value))]));
}

function actionText(action) {
  if (!action) return _("as dealt");
  const who = Number.isInteger(action.seat) ? playerName(action.seat) : "?";
  const parts = [who];
  if (action.pass) parts.push(_("passes"));
  if (Array.isArray(action.play)) parts.push(_("plays {cards}", {cards: cardsText(action.play)}));
  if (typeof action.tribute === "string") parts.push(_("pays tribute {cards}", {cards: cardsText([action.tribute])}));
  if (typeof action.return === "string") parts.push(_("returns {cards}", {cards: cardsText([action.return])}));
  if (Number.isInteger(action.to)) parts.push(_("to {seat}", {seat: playerName(action.to)}));
  if (action.declare !== undefined) parts.push(declarationText(action));
  else if (action.count !== undefined) parts.push(_("({n} left)", {n: action.count}));
  if (typeof action.as === "string") parts.push(_("as {reading}", {reading: readingText(action.as, action.play || [])}));
  if (typeof action.comment === "string") parts.push(`— “${action.comment}”`);
  return parts.join(" ");
}

function cardsOf(action) {
  return codesOf([].concat(action.play || [], action.tribute || [], action.return || []));
}

function isMove(action) {
  return Boolean(action && (action.pass || Array.isArray(action.play)));
}

// ---------------------------------------------------------------- findings and steps

// the same finding in the report and in the steps (whatever language each was written in)
const findingKey = (f) => `${f.severity}|${f.rule}|${f.at}`;

function stepOfFinding(finding) {
  const key = findingKey(finding);
  const index = view.steps.findIndex((step) => step.findings.some((f) => findingKey(f) === key));
  return index >= 0 ? index : view.steps.length - 1;
}

// findings of this deal that first show at step `index`; at the last step also those no step shows
// (an action the replay rejected: it never became a table)
function findingsAt(index) {
  const before = new Set(index > 0 ? view.steps[index - 1].findings.map(findingKey) : []);
  const keys = new Set(view.steps[index].findings.filter((f) => !before.has(findingKey(f))).map(findingKey));
  const here = dealFindings().filter((f) => keys.has(findingKey(f)));
  if (index !== view.steps.length - 1) return {here, rejected: []};
  const shown = new Set(view.steps.flatMap((step) => step.findings.map(findingKey)));
  const rejected = dealFindings().filter((f) => !shown.has(findingKey(f)));
  return {here, rejected};
}

function dealFindings() {
  return view.report.findings.filter((f) => f.deal === view.deal);
}

function recordAction(finding) {
  if (!Number.isInteger(finding.action)) return undefined;
  const deal = (view.record.deals || [])[finding.deal];
  return deal && Array.isArray(deal.actions) ? deal.actions[finding.action] : undefined;
}

// the cards a finding is about: those of its parameters the action holds (a parameter may also name
// a card it should have been), else the action's cards; for an action without cards, the parameters'
function offendingCards(finding, action) {
  const params = finding.params || {};
  const named = codesOf(params.cards).concat(codesOf(params.card));
  const acted = action ? cardsOf(action) : [];
  const inAction = named.filter((code) => acted.includes(code));
  return acted.length ? (inAction.length ? inAction : acted) : named;
}

// the tables an action was tried on and left: {before, after, rejected}; null when no step shows it
function tablesAround(actionIndex) {
  const at = view.steps.findIndex((step) => step.step === actionIndex + 1);
  if (at < 0) return null;
  const step = view.steps[at];
  if (step.rejected) return {before: step.table, after: null, rejected: true};
  return {before: at > 0 ? view.steps[at - 1].table : step.table, after: step.table, rejected: false};
}

// ---------------------------------------------------------------- the history of a deal

// One row per trick ({steps, entries, winner}) or per other action ({steps, action}): the steps
// (indexes into view.steps) each entry was made at. A trick ends where the table is cleared.
function movesOf(steps) {
  const rows = [];
  let trick = null;
  steps.forEach((step, index) => {
    const action = step.action;
    if (!action) return;
    if (step.rejected) {
      rows.push({steps: [index], action, rejected: true});
    } else if (!isMove(action)) {
      rows.push({steps: [index], action});
    } else {
      const cards = Array.isArray(step.table.table) ? step.table.table : [];
      if (!trick || (cards.length && cards.length <= trick.entries.length)) {
        trick = {steps: [], entries: [], number: rows.filter((row) => row.entries).length + 1};
        rows.push(trick);
      }
      trick.steps.push(index);
      trick.entries = cards.length ? [...cards] : [...trick.entries, {seat: action.seat, pass: true}];
      if (!cards.length) {
        trick.winner = lastPlayer(trick.entries);
        trick = null;
      }
    }
  });
  const last = steps[steps.length - 1];
  if (trick && last && last.table.turn === null && !last.rejected) trick.winner = lastPlayer(trick.entries);
  return rows;
}

function lastPlayer(entries) {
  const played = entries.filter((entry) => Array.isArray(entry.play));
  return played.length ? played[played.length - 1].seat : undefined;
}

// the trick that ended at step `index`, kept on the table with its winner
function trickEndedAt(index) {
  return view.moves.find((row) => row.entries && row.winner !== undefined && row.steps[row.steps.length - 1] === index);
}

function rowFindings(row) {
  const steps = new Set(row.steps);
  return dealFindings().filter((f) => steps.has(stepOfFinding(f)));
}

// ---------------------------------------------------------------- drawing

function draw() {
  const step = view.steps[view.index];
  const last = view.index === view.steps.length - 1;
  const {here, rejected} = findingsAt(view.index);
  const offending = here.some((f) => Number.isInteger(f.action));
  // the action the referee refused: a step of its own (`rejected`), or one the steps do not show
  const pending = rejected.map(recordAction).find((action) => action);
  const refused = step.rejected ? step.action : pending;
  drawControls(step, last);
  drawAction(step, offending, pending);
  drawDispute([...here, ...rejected]);
  drawTable(step.table, offending && !step.rejected ? step.action : null, refused);
  drawFindings([...here, ...rejected]);
  drawOutcome(last);
  drawMoves();
  drawDeals();
  definitions($("#state dl"), Object.entries(step.table).filter(([key]) => !["hands", "table"].includes(key)));
  const url = viewUrl({deal: view.deal, step: step.step});
  if (location.pathname + location.search !== url) history.replaceState(null, "", url);
}

// autoplay: a step every AUTOPLAY_MS until the deal's last step, or until the user moves
const AUTOPLAY_MS = 1000;
const autoplay = {timer: null};

function setAutoplay(on) {
  clearInterval(autoplay.timer);
  autoplay.timer = on && view.index < view.steps.length - 1 ? setInterval(autoStep, AUTOPLAY_MS) : null;
  drawAutoplay();
}

function autoStep() {
  go(view.index + 1);
  if (view.index >= view.steps.length - 1) setAutoplay(false);
}

function drawAutoplay() {
  const playing = autoplay.timer !== null;
  const button = $("#play");
  button.setAttribute("aria-pressed", String(playing));
  button.textContent = playing ? "■" : "▶▶";
  button.setAttribute("aria-label", playing ? _("Stop autoplay") : _("Autoplay"));
  button.title = playing ? _("Stop autoplay") : _("Autoplay: a step a second");
}

// a control the user moves stops the autoplay first
function byUser(move) {
  return (...args) => {
    setAutoplay(false);
    return move(...args);
  };
}

function drawControls(step, last) {
  const slider = $("#slider");
  slider.max = view.steps.length - 1;
  slider.value = view.index;
  slider.setAttribute("aria-valuetext", last ? _("step {step}, the last", {step: step.step}) : _("step {step}", {step: step.step}));
  $("#step").value = step.step;
  $("#step").min = view.steps[0].step;
  $("#step").max = view.steps[view.steps.length - 1].step;
  const end = view.steps[view.steps.length - 1].step;
  $("#step-count").textContent = last ? _("of {last} (end)", {last: end}) : _("of {last}", {last: end});
  // aria-disabled, not disabled: a button at its end keeps the keyboard's focus
  for (const id of ["#first", "#prev"]) $(id).setAttribute("aria-disabled", String(view.index === 0));
  for (const id of ["#next", "#last"]) $(id).setAttribute("aria-disabled", String(last));
  $("#deal").value = String(view.deal);
  drawSliderMarks();
}

// a mark under the slider at every step where a finding shows
function drawSliderMarks() {
  const span = Math.max(1, view.steps.length - 1);
  const indexes = [...new Set(dealFindings().map(stepOfFinding))].sort((a, b) => a - b);
  $("#marks").replaceChildren(...indexes.map((index) => {
    const mark = el("a", {class: "mark", href: viewUrl({deal: view.deal, step: view.steps[index].step}),
                          title: _("finding at step {step}", {step: view.steps[index].step}),
                          "aria-label": _("finding at step {step}", {step: view.steps[index].step}),
                          onclick: (event) => { event.preventDefault(); visit(() => go(index)); }}, "▲");
    mark.style.left = `${(100 * index) / span}%`;
    return mark;
  }));
}

function drawAction(step, offending, pending) {
  const line = $("#action");
  line.className = offending ? "offending" : "";
  line.replaceChildren(el("strong", {}, _("Deal {deal}, step {step}: ", {deal: counted(view.deal), step: step.step})),
    step.rejected ? el("span", {class: "rejected"}, _("Rejected: {action}", {action: actionText(step.action)}))
      : visible(actionText(step.action)));
  if (pending) line.append(el("span", {class: "rejected"}, _("Rejected next: {action}", {action: actionText(pending)})));
}

// ---------------------------------------------------------------- the dispute panel

function drawDispute(findings) {
  const box = $("#dispute");
  box.hidden = findings.length === 0;
  $("#dispute-list").replaceChildren(...findings.map(disputeNode));
}

function severityWord(severity) {
  return {error: _("error"), warning: _("warning"), info: _("info")}[severity] || severity;
}

function disputeNode(finding) {
  const action = recordAction(finding);
  return el("article", {class: `dispute ${finding.severity}`, "data-rule": finding.rule},
    el("h3", {}, el("span", {class: `severity ${finding.severity}`}, severityWord(finding.severity)), " ",
       el("code", {}, finding.rule),
       Number.isInteger(finding.action) ? " " + _("(action {n})", {n: counted(finding.action)}) : ""),
    el("p", {class: "message"}, finding.message),
    action ? actionPanel(finding, action) : null,
    claimPanel(finding),
    finding.legal ? legalPanel(finding.legal, legalWild(finding), action ? action.seat : undefined) : null,
    decisionPanel(finding),
    rulingLink(finding));
}

// the arbiter's decision on a finding that a ruling of the record decided (notation §10)
function decisionPanel(finding) {
  const rulings = Array.isArray(view.record.rulings) ? view.record.rulings : [];
  const ruling = Number.isInteger(finding.ruling) ? rulings[finding.ruling] : undefined;
  if (!ruling || typeof ruling !== "object") return null;
  const decisions = {stands: _("the action stands"), score: _("the deal is scored as decided"),
                     void: _("the deal is void"), claim: _("the claim stands")};
  const rows = [["decision", _("Decision"), decisions[ruling.decision] || String(ruling.decision)],
                ["arbiter", _("Arbiter"), String(ruling.by ?? "-")], ["date", _("Date"), String(ruling.date ?? "-")],
                ["reason", _("Reason"), String(ruling.reason ?? "-")]];
  return el("div", {class: "dispute-decision"}, el("h4", {}, _("Decided by ruling {n}", {n: finding.ruling + 1})),
    el("dl", {}, rows.flatMap(([part, label, value]) => [el("dt", {}, label), el("dd", {class: part}, value)])));
}

// a stored record's ruling on this finding, as the one HTML file to hand out (GET /v1/records/{id}/ruling)
function rulingLink(finding) {
  if (!view.source.ruling) return null;
  const href = view.source.ruling(view.report.findings.indexOf(finding), view.lang);
  return el("p", {class: "ruling"}, el("a", {href, download: ""}, _("Ruling to hand out (HTML)")));
}

// who acted, who was to act and why, and the acting seat's hand before and after, the offending cards marked
function actionPanel(finding, action) {
  const tables = tablesAround(finding.action);
  const seat = action.seat;
  const cards = offendingCards(finding, action);
  const rows = [["action", _("Action"), actionText(action)]];
  if (cards.length) rows.push(["offending", _("Offending cards"), cardsNode(cards, wildOf(tables && tables.before))]);
  if (tables) {
    rows.push(["to-act", _("To act"), turnText(tables.before)], ["why", _("Why"), whyText(tables.before, finding.legal)]);
    const before = handOf(tables.before, seat);
    const after = tables.after ? handOf(tables.after, seat) : without(before, cardsOf(action));
    const wild = wildOf(tables.before);
    rows.push(["before", _("Hand before"), handNode(before, wild, marksOf(cards))],
              ["after", tables.rejected ? _("Hand after, had it stood") : _("Hand after"), handNode(after, wild)]);
  }
  return el("dl", {class: "dispute-action"},
    rows.flatMap(([part, label, value]) => [el("dt", {}, label), el("dd", {class: part}, value)]));
}

function handOf(snapshot, seat) {
  return Array.isArray(snapshot.hands) && Array.isArray(snapshot.hands[seat]) ? snapshot.hands[seat] : [];
}

function handNode(hand, wild, marks) {
  return hand.length ? el("span", {class: "hand"}, hand.map((code) => cardNode(code, wild, marks)))
    : el("span", {class: "empty"}, _("no cards"));
}

function turnText(snapshot) {
  const seats = turnSeats(snapshot);
  return seats.length ? seats.map(playerName).join(_(", ")) : _("nobody");
}

// why those seats were to act: the phase (tribute, return, play), what is owed, the play to beat
function whyText(snapshot, legal) {
  const parts = [];
  const phase = snapshot.phase || snapshot.mode;
  if (phase) parts.push(_("phase: {phase}", {phase: phaseText(phase)}));
  if (typeof snapshot.owed === "string") parts.push(snapshot.owed);
  const trick = Array.isArray(snapshot.table) ? snapshot.table : [];
  const top = [...trick].reverse().find((entry) => Array.isArray(entry.play));
  if (top) {
    parts.push(_("to beat: {cards} by {seat}", {cards: cardsText(top.play), seat: playerName(top.seat)})
      + (top.as ? ` (${readingText(top.as, top.play)})` : ""));
  } else if (legal && legal.top) {
    parts.push(_("to beat: {reading}", {reading: readingText(legal.top)}));
  } else if (!phase || ["play", "NORMAL"].includes(String(phase).split(" ")[0])) {
    parts.push(_("a new lead"));
  }
  return parts.join(_("; "));
}

// the wild cards on the table a finding's legal plays were made from
function legalWild(finding) {
  const tables = Number.isInteger(finding.action) ? tablesAround(finding.action) : null;
  return wildOf(tables ? tables.before : view.steps[view.index] && view.steps[view.index].table);
}

// A legal play, focusable: pointed at or focused, its cards light up in the hand that holds them (the
// dispute's hand before, and the seat's hand on the table).
function alternativeNode(codes, wild, seat) {
  const light = (on) => {
    const hands = [...document.querySelectorAll("#dispute dd.before .hand")];
    if (Number.isInteger(seat)) hands.push(...document.querySelectorAll(`#table .seat[data-seat="${seat}"] .hand`));
    for (const hand of hands) {
      const wanted = marksOf(codes);
      for (const card of hand.querySelectorAll(".card")) {
        const code = card.dataset.code;
        const lit = on && (wanted.get(code) || 0) > 0;
        if (lit) wanted.set(code, wanted.get(code) - 1);
        card.classList.toggle("candidate", lit);
      }
    }
  };
  return el("span", {class: "alternative", tabindex: "0", role: "group", "aria-label": cardsText(codes),
                     onmouseenter: () => light(true), onmouseleave: () => light(false),
                     onfocus: () => light(true), onblur: () => light(false)},
    cardsNode(codes, wild));
}

// what was legal, drawn as cards (wild cards marked) and grouped as `legal` groups them (by kind; Gou Ji by seat)
function legalPanel(legal, wild, seat) {
  const groups = legalGroups(legal);
  const pass = legal.top ? el("li", {}, el("span", {class: "group"}, _("pass"))) : null;
  return el("section", {class: "legal"},
    el("h4", {}, _("Legal then")),
    // the referee's sentence names cards by code: it stands only where no card is drawn
    legal.may && !groups.length ? el("p", {}, legal.may) : null,
    groups.length || pass ? el("ul", {class: "alternatives"}, pass, groups.map(([label, plays, owner]) => el("li", {},
      el("span", {class: "group"}, label),
      plays.map((codes) => alternativeNode(codes, wild, owner ?? seat)))))
      : null);
}

// [label, plays, the seat whose plays they are (Gou Ji groups by seat; else undefined: the actor's)]
function legalGroups(legal) {
  const groups = new Map();
  const add = (label, codes, seat) => {
    if (!groups.has(label)) groups.set(label, [label, [], seat]);
    groups.get(label)[1].push(codes);
  };
  if (Array.isArray(legal.plays)) {
    for (const play of legal.plays) {
      const [cards, reading] = String(play).split(" as ");
      add(reading ? kindName(reading.split(":")[0]) : _("play"), codesOf(cards));
    }
  } else if (legal.plays && typeof legal.plays === "object") {
    for (const [seat, plays] of Object.entries(legal.plays)) {
      for (const play of plays) add(playerName(Number(seat)), codesOf(play), Number(seat));
    }
  }
  return [...groups.values()];
}

// a claim: the claimed value beside the computed one, each labelled before/after the deal
function claimPanel(finding) {
  const claim = claimOf(finding);
  if (!claim) return null;
  const rows = [];
  if (claim.before !== undefined) rows.push([_("before the deal (computed)"), claim.before]);
  rows.push([_("claimed, after the deal"), claim.claimed], [_("computed, after the deal"), claim.computed]);
  const width = Math.max(...rows.map(([, value]) => (Array.isArray(value) ? value.length : 1)));
  const heads = Array.from({length: width}, (_unused, i) => columnName(claim.key, i, width));
  const differs = (i) => cell(claim.claimed, i) !== cell(claim.computed, i);
  return el("table", {class: "claim"},
    el("caption", {}, _("{what}: claimed against computed", {what: keyName(claim.key)})),
    el("thead", {}, el("tr", {}, el("td", {}), heads.map((head) => el("th", {scope: "col"}, head)))),
    el("tbody", {}, rows.map(([label, value]) => el("tr", {},
      el("th", {scope: "row"}, label),
      heads.map((_head, i) => el("td", {class: value !== claim.before && differs(i) ? "differs" : null},
        cellText(claim.key, cell(value, i))))))));
}

// {key, claimed, computed, before}: from the record's claim (/deals/D/result/KEY or /result/KEY)
function claimOf(finding) {
  const found = String(finding.at).match(/^(?:\/deals\/(\d+))?\/result\/([^/]+)/);
  if (!found) return null;
  const key = found[2];
  if (found[1] === undefined) {
    const claimed = (view.record.result || {})[key];
    return claimed === undefined ? null : {key, claimed, computed: (view.report.match || {})[key]};
  }
  const deal = Number(found[1]);
  const claimed = (((view.record.deals || [])[deal] || {}).result || {})[key];
  const outcome = view.report.deals.find((d) => d.deal === deal) || {};
  if (claimed === undefined) return null;
  return {key, claimed, computed: outcome[key], before: valueBefore(deal, key)};
}

// a running value (levels, totals) as it stood before deal `deal`
function valueBefore(deal, key) {
  if (!RUNNING.includes(key)) return undefined;
  const first = deal === view.deal && view.steps.length ? view.steps[0].table : {};
  if (first[key] !== undefined) return first[key];
  if (first[`${key}_before_the_deal`] !== undefined) return first[`${key}_before_the_deal`];
  const previous = view.report.deals.find((d) => d.deal === deal - 1);
  return previous ? previous[key] : undefined;
}

function cell(value, i) {
  return Array.isArray(value) ? value[i] : i === 0 ? value : undefined;
}

function cellText(key, value) {
  if (value === undefined) return "";
  return key === "order" && Number.isInteger(value) ? playerName(value) : valueText("", value);
}

function columnName(key, i, width) {
  if (key === "order") return _("place {n}", {n: i + 1});
  const seats = (view.record.players || []).length;
  if (width === seats && width > 1 && !(hasTeams() && ["levels", "scores", "totals"].includes(key))) return playerName(i);
  if (hasTeams() && width === 2) return teamName(i);
  return width === 1 ? keyName(key) : String(i);
}

// ---------------------------------------------------------------- the table

function drawTable(snapshot, offendingAction, refused) {
  const hands = Array.isArray(snapshot.hands) ? snapshot.hands : [];
  const played = playedUpTo(view.index);
  const seats = Math.max(hands.length, (view.record.players || []).length);
  const table = $("#table");
  table.className = PLACES[seats] ? `seats-${seats}` : "seats-many";
  const wild = wildOf(snapshot);
  const nodes = [];
  for (let seat = 0; seat < seats; seat++) {
    const marks = marksOf(refused && refused.seat === seat ? cardsOf(refused) : []);
    const node = seatNode(seat, hands[seat] || [], snapshot, wild, marks, played.get(seat) || []);
    if (PLACES[seats]) node.style.gridArea = PLACES[seats][seat];
    nodes.push(node);
  }
  nodes.push(trickNode(snapshot, wild, offendingAction, refused));
  table.replaceChildren(...nodes);
}

// what the seats to act owe while tribute is paid or returned (Guandan's phase, Gou Ji's mode); null in play
function owedIn(snapshot) {
  const phase = String(snapshot.phase || snapshot.mode || "").split(" ")[0].toLowerCase();
  return {tribute: _("owes tribute"), return: _("owes a return")}[phase] || null;
}

function turnSeats(snapshot) {
  return [].concat(snapshot.turn ?? []).filter(Number.isInteger);
}

// each seat's plays in this deal up to step `index` (a refused play is none of them)
function playedUpTo(index) {
  const played = new Map();
  for (const step of view.steps.slice(0, index + 1)) {
    const action = step.action;
    if (!action || step.rejected || !Array.isArray(action.play)) continue;
    if (!played.has(action.seat)) played.set(action.seat, []);
    played.get(action.seat).push(action.play);
  }
  return played;
}

function seatNode(seat, hand, snapshot, wild, marks, plays) {
  const name = (view.record.players || [])[seat];
  const turn = turnSeats(snapshot).includes(seat);
  const out = Array.isArray(snapshot.out) ? snapshot.out.indexOf(seat) : -1;
  const badges = [];
  if (hasTeams()) badges.push(el("span", {class: "badge team"}, _("team {team}", {team: seat % 2})));
  const owing = turn ? owedIn(snapshot) : null;
  if (turn) badges.push(el("span", {class: `badge turn${owing ? " owes" : ""}`}, owing || _("to act")));
  if (out >= 0) badges.push(el("span", {class: "badge out"}, placeText(out)));
  const who = typeof name === "string" ? name : _("seat {seat}", {seat});
  return el("section", {class: `seat${turn ? " turn" : ""}`,
                        "aria-label": !turn ? _("{name}, seat {seat}", {name: who, seat})
                          : owing ? _("{name}, seat {seat}, {owes}", {name: who, seat, owes: owing})
                          : _("{name}, seat {seat}, to act", {name: who, seat}),
                        "data-seat": seat},
    el("h3", {}, el("span", {class: "name"}, who),
       el("span", {class: "seatno"}, " ", _("seat {seat}", {seat}), " · ", ngettext("{n} card", "{n} cards", hand.length)), ...badges),
    el("div", {class: "hand", role: "list"}, hand.map((code) =>
      el("span", {role: "listitem"}, cardNode(code, wild, marks)))),
    // the seat's discard row: what it has played this deal so far, play by play
    el("div", {class: "discards", role: "list", "aria-label": _("played this deal")},
      plays.length ? plays.map((play) => el("span", {role: "listitem"}, cardsNode(play, wild)))
        : el("span", {class: "empty"}, _("nothing played yet"))));
}

function trickEntryNode(entry, wild, offending) {
  return el("li", {class: offending ? "offending" : null},
    el("span", {class: "who"}, playerName(entry.seat)),
    entry.pass || !Array.isArray(entry.play) ? el("span", {class: "pass"}, _("pass"))
      : el("span", {class: "played"}, entry.play.map((code) => cardNode(code, wild)),
           entry.as ? el("small", {}, ` ${readingText(entry.as, entry.play)}`) : null));
}

function trickNode(snapshot, wild, offendingAction, refused) {
  let trick = Array.isArray(snapshot.table) ? snapshot.table : [];
  const ended = trick.length ? null : trickEndedAt(view.index);
  if (ended) trick = ended.entries;
  const lastIndex = trick.length - 1;
  const rows = trick.map((entry, i) =>
    trickEntryNode(entry, wild, offendingAction && i === lastIndex && entry.seat === offendingAction.seat));
  if (refused) {
    rows.push(el("li", {class: "offending refused"}, el("span", {class: "who"}, playerName(refused.seat)),
      el("span", {class: "played"}, _("refused: "), refused.pass ? _("pass") : cardsOf(refused).map((code) => cardNode(code, wild)))));
  }
  return el("section", {class: "trick", "aria-label": _("Current trick")},
    el("h3", {}, _("Trick")),
    rows.length ? el("ol", {}, rows) : el("p", {class: "empty"}, _("no cards on the table")),
    ended ? el("p", {class: "winner"}, _("won by {seat}", {seat: playerName(ended.winner)})) : null);
}

// ---------------------------------------------------------------- beside the table

function drawFindings(current) {
  const keys = new Set(current.map(findingKey));
  const list = $("#findings ol");
  const all = view.report.findings;
  const focused = list.contains(document.activeElement) ? document.activeElement.dataset.finding : undefined;
  list.replaceChildren(...all.map((f, n) => {
    const where = [...placeParts(f), Number.isInteger(f.seat) ? playerName(f.seat) : null].filter(Boolean).join(_(", "));
    const here = f.deal === view.deal && keys.has(findingKey(f));
    const label = el("span", {}, el("strong", {class: f.severity}, severityWord(f.severity)), " ", el("code", {}, f.rule),
      where ? ` (${where})` : "", el("br"), f.message);
    const item = Number.isInteger(f.deal)
      ? el("a", {href: viewUrl({deal: f.deal, finding: n}), "data-finding": n, "aria-current": here ? "step" : null,
                 onclick: (event) => { event.preventDefault(); openFinding(n); }}, label)
      : label;
    return el("li", {class: here ? "current" : null}, item);
  }));
  if (!all.length) list.replaceChildren(el("li", {class: "none"}, _("none: the referee finds nothing wrong")));
  if (focused !== undefined) list.querySelector(`[data-finding="${focused}"]`).focus();    // keep the keyboard's place
}

function drawOutcome(last) {
  const section = $("#outcome");
  const outcome = view.report.deals.find((d) => d.deal === view.deal);
  section.hidden = !(last && outcome);
  if (section.hidden) return;
  const entries = Object.entries(outcome).filter(([key]) => key !== "deal");
  const match = view.report.match;
  if (match && view.deal === view.report.deals.length - 1) entries.push(...matchEntries(match));
  definitions(section.querySelector("dl"), entries);
  $("#outcome-title").textContent = _("Deal {deal} outcome", {deal: counted(view.deal)});
}

// the match's outcome, its winner on one row ("match winner": the result's winner, a draw, or not yet decided
// where a deal stopped without a claimed result)
function matchEntries(match) {
  const result = match.result || {};
  const entries = Object.entries(match).filter(([key]) => !["result", "winner", "settled"].includes(key))
    .map(([key, value]) => [key, value, _("match {what}", {what: keyName(key)})]);
  const winner = match.settled === false ? _("not yet decided") : result.draw ? _("a draw")
    : Number.isInteger(result.winner) ? valueText("winner", result.winner)
    : match.winner !== undefined ? valueText("winner", match.winner) : undefined;
  if (winner !== undefined) entries.push(["", winner, _("match winner")]);
  if (result.margin !== undefined) entries.push(["margin", result.margin, _("match margin")]);
  return entries;
}

// the move list: one row per trick (lead, follows, passes, its winner), each entry a link to its step
function drawMoves() {
  $("#moves-title").textContent = _("Moves of deal {deal}", {deal: counted(view.deal)});
  $("#moves ol").replaceChildren(...view.moves.map((row) => {
    const found = rowFindings(row);
    const current = row.steps.includes(view.index) || (row.steps[0] <= view.index && view.index <= row.steps[row.steps.length - 1]);
    const cells = row.entries ? trickRowCells(row) : [stepLink(row.steps[0], row.rejected
      ? _("Rejected: {action}", {action: actionText(row.action)}) : actionText(row.action))];
    return el("li", {class: [found.length ? "finding" : "", current ? "current" : ""].join(" ").trim() || null,
                     "aria-current": current ? "step" : null},
      row.entries ? el("span", {class: "trick-no"}, _("Trick {n}", {n: row.number})) : null,
      cells,
      found.length ? el("span", {class: "badge finding"}, ngettext("{n} finding", "{n} findings", found.length)) : null);
  }));
  keepCurrentMoveInSight();
}

// the current row in sight in the list's own scroll (never the page's: stepping must not move it)
function keepCurrentMoveInSight() {
  const list = $("#moves ol");
  const row = list.querySelector("li.current");
  if (row && (row.offsetTop < list.scrollTop || row.offsetTop + row.offsetHeight > list.scrollTop + list.clientHeight)) {
    list.scrollTop = row.offsetTop - list.clientHeight / 3;
  }
}

function trickRowCells(row) {
  const links = row.entries.map((entry, i) => stepLink(row.steps[i] ?? row.steps[0],
    Array.isArray(entry.play) ? `${playerName(entry.seat)} ${cardsText(entry.play)}` : _("{seat} passes", {seat: playerName(entry.seat)})));
  if (row.winner !== undefined) links.push(el("strong", {class: "won"}, _("won by {seat}", {seat: playerName(row.winner)})));
  return links;
}

function stepLink(index, text) {
  const step = view.steps[index];
  return el("a", {href: viewUrl({deal: view.deal, step: step.step}), class: index === view.index ? "here" : null,
                  onclick: (event) => { event.preventDefault(); visit(() => go(index)); }}, text);
}

// the deals at a glance: order, tribute, levels or scores, running totals, claims, findings
function drawDeals() {
  const outcomes = view.report.deals;
  const columns = ["order", "winner", "tribute", "levels", "scores", "totals"]
    .filter((key) => outcomes.some((outcome) => outcome[key] !== undefined && outcome[key] !== null));
  const head = el("tr", {}, el("th", {scope: "col"}, _("Deal")), columns.map((key) => el("th", {scope: "col"}, keyName(key))),
    el("th", {scope: "col"}, _("Claimed against computed")), el("th", {scope: "col"}, _("Findings")));
  const rows = outcomes.map((outcome) => el("tr", {class: outcome.deal === view.deal ? "current" : null},
    el("th", {scope: "row"}, el("a", {href: viewUrl({deal: outcome.deal}), "aria-current": outcome.deal === view.deal ? "page" : null,
                                      onclick: (event) => { event.preventDefault(); visit(() => openDeal(outcome.deal, () => go(0))); }},
      _("Deal {deal}", {deal: counted(outcome.deal)}))),
    columns.map((key) => el("td", {}, key === "tribute" ? tributeText(outcome) : valueText(key, outcome[key]))),
    el("td", {}, claimsText(outcome)),
    el("td", {}, String(view.report.findings.filter((f) => f.deal === outcome.deal).length))));
  $("#deals table").replaceChildren(el("thead", {}, head), el("tbody", {}, rows));
}

// who paid what to whom: the record's tribute and return actions (a return goes back to the payer)
function tributeText(outcome) {
  const actions = (((view.record.deals || [])[outcome.deal] || {}).actions || []).filter((a) => a && (a.tribute || a.return));
  const paid = actions.map((a) => {
    const to = a.return ? a.to : (actions.find((b) => b.return && b.to === a.seat) || {}).seat;
    const card = cardsText(codesOf([a.tribute || a.return]));
    const text = Number.isInteger(to) ? _("{from} → {to}: {card}", {from: playerName(a.seat), to: playerName(to), card})
      : _("{from}: {card}", {from: playerName(a.seat), card});
    return a.return ? _("return {what}", {what: text}) : text;
  });
  const kind = typeof outcome.tribute === "string" ? phaseText(outcome.tribute) : "";
  return [kind, ...paid].filter((text) => text).join(_("; ")) || "—";
}

// each claim of the deal, ✗ where the referee finds it wrong (a claimed order may leave out the last seat)
function claimsText(outcome) {
  const claimed = (((view.record.deals || [])[outcome.deal] || {}).result) || {};
  const parts = Object.entries(claimed).filter(([key]) => outcome[key] !== undefined).map(([key, value]) => {
    const at = `/deals/${outcome.deal}/result/${key}`;
    const same = !view.report.findings.some((f) => f.at === at || String(f.at).startsWith(at + "/"));
    return same ? _("{what} ✓", {what: keyName(key)})
      : _("{what} ✗ claimed {claimed}, computed {computed}", {what: keyName(key), claimed: valueText(key, value),
                                                              computed: valueText(key, outcome[key])});
  });
  return parts.join(_("; ")) || "—";
}

function drawHeader() {
  const {record, report} = view;
  const meta = record.meta && typeof record.meta === "object" ? record.meta : {};
  const rules = report.rules && report.rules.preset ? ` (${report.rules.preset})` : "";
  const errors = report.findings.filter((f) => f.severity === "error").length;
  const metaText = ["event", "round", "table", "date"].filter((k) => meta[k]).map((k) => ` · ${metaLabel(k, meta[k])}`).join("");
  const game = gameName(report.game);
  $("#record-title").replaceChildren(
    el("span", {class: report.valid ? "verdict valid" : "verdict invalid"}, report.valid ? _("VALID") : _("INVALID")),
    visible(` ${game}${rules}`), visible(metaText),
    errors ? " · " + ngettext("{n} error", "{n} errors", errors) : "");
  const what = meta.event || report.game || _("record");
  document.title = visible(_("{what} · replay viewer", {what}));
  const deals = Array.isArray(record.deals) ? record.deals.length : 0;
  $("#deal").replaceChildren(...Array.from({length: deals}, (_unused, d) => el("option", {value: d}, `${counted(d)}`)));
}

function gameName(game) {
  const names = {guandan: _("Guandan"), gouji: _("Gou Ji"), gandengyan: _("Gan Deng Yan")};
  return names[game] || game || _("unknown game");
}

function metaLabel(key, value) {
  if (key === "round") return _("round {value}", {value});
  if (key === "table") return _("table {value}", {value});
  return String(value);
}

function clearRecord() {
  $("#viewer").hidden = true;
  $("#record-title").replaceChildren();
  document.title = _("Replay viewer · CGR/1 referee");
  view.record = null;
  view.report = null;
}

// ---------------------------------------------------------------- moving

// the viewer's URL: the deal and step shown, and the language when it was chosen in the URL
function viewUrl({deal, step, finding}) {
  const params = new URLSearchParams();
  if (deal !== undefined) params.set("deal", counted(deal));
  if (step !== undefined) params.set("step", step);
  if (finding !== undefined) params.set("finding", counted(finding));
  if (view.langInUrl) params.set("lang", view.lang);
  return `${location.pathname}?${params}`;
}

// a move to another view, kept in the browser's history (Back and Forward); stepping replaces it
async function visit(move) {
  const before = location.pathname + location.search;
  await move();
  const now = location.pathname + location.search;
  if (now !== before) {
    history.replaceState(null, "", before);
    history.pushState(null, "", now);
  }
}

function go(index) {
  view.index = Math.max(0, Math.min(view.steps.length - 1, index));
  draw();
}

function goToStepNumber(number) {
  const exact = view.steps.findIndex((s) => s.step === number);
  go(exact >= 0 ? exact : number > view.steps[view.steps.length - 1].step ? view.steps.length - 1 : 0);
}

async function openDeal(deal, then) {
  if (!Number.isInteger(deal) || deal < 0 || deal >= (view.record.deals || []).length) return;
  status(_("Replaying deal {deal}…", {deal: counted(deal)}));
  const answer = await view.source.steps(deal);
  if (!answer.ok) {
    $("#viewer").hidden = true;
    showError(answer.body, _("deal {deal} could not be replayed", {deal: counted(deal)}));
    return;
  }
  view.deal = deal;
  view.steps = answer.body.steps;
  view.moves = movesOf(view.steps);
  status("");
  $("#viewer").hidden = false;
  then();
}

function openFinding(n) {
  const finding = view.report.findings[n];
  const show = () => go(stepOfFinding(finding));
  return visit(() => (finding.deal === view.deal ? show() : openDeal(finding.deal, show)));
}

// the next (or previous) finding's step: in this deal, else in the next deal that has one
function nextFinding(direction) {
  const indexes = [...new Set(dealFindings().map(stepOfFinding))].sort((a, b) => a - b);
  const target = direction > 0 ? indexes.find((i) => i > view.index) : [...indexes].reverse().find((i) => i < view.index);
  if (target !== undefined) return visit(() => go(target));
  const others = view.report.findings.map((f, n) => [f, n])
    .filter(([f]) => Number.isInteger(f.deal) && (direction > 0 ? f.deal > view.deal : f.deal < view.deal));
  if (!others.length) return undefined;
  const deal = direction > 0 ? Math.min(...others.map(([f]) => f.deal)) : Math.max(...others.map(([f]) => f.deal));
  const inDeal = others.filter(([f]) => f.deal === deal);
  return openFinding((direction > 0 ? inDeal[0] : inDeal[inDeal.length - 1])[1]);
}

const STEP_KEYS = {
  ArrowRight: () => go(view.index + 1), ArrowLeft: () => go(view.index - 1),
};
const OTHER_KEYS = {
  Home: () => go(0), End: () => go(view.steps.length - 1),
  PageDown: () => visit(() => openDeal(view.deal + 1, () => go(0))),
  PageUp: () => visit(() => openDeal(view.deal - 1, () => go(0))),
  n: () => nextFinding(1), p: () => nextFinding(-1),
};

// the arrow keys step whatever has the focus (a select would change the deal, the slider move twice);
// the other keys leave alone a control that types
function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || $("#viewer").hidden || !view.record) return;
  const typing = event.target.matches("input[type=number], select, textarea");
  const move = STEP_KEYS[event.key] || (!typing && OTHER_KEYS[event.key]);
  if (move) {
    event.preventDefault();
    setAutoplay(false);
    move();
  }
}

// Back and Forward: the view the URL names
async function onHistory() {
  if (!view.record) return;
  const params = new URLSearchParams(location.search);
  const deal = params.has("deal") ? urlIndex(params, "deal") : 0;
  const show = () => (params.has("step") ? goToStepNumber(Number(params.get("step"))) : go(0));
  if (deal === view.deal) show();
  else await openDeal(deal, show);
}

// ---------------------------------------------------------------- loading

function status(text, error = false) {
  const line = $("#status");
  line.className = error ? "error" : "";
  line.replaceChildren(visible(text));
}

function showError(body, fallback) {
  status((body && body.message) || fallback, true);
  const findings = (body && body.findings) || [];
  if (findings.length) {
    $("#status").append(el("ul", {}, findings.map((f) => el("li", {}, el("code", {}, f.rule), ` ${f.at || "/"}: ${f.message}`))));
  }
}

async function fetchJson(url, options = {}) {
  try {
    // the reports in the viewer's language (the API answers in English where it has no other)
    const headers = {...(options.headers || {}), "Accept-Language": view.lang};
    const response = await fetch(url, {...options, headers});
    const body = await response.json().catch(() => null);
    return {ok: response.ok, status: response.status, body};
  } catch (error) {
    return {ok: false, status: 0, body: {message: _("the server could not be reached: {why}", {why: error.message})}};
  }
}

function storedSource(id) {
  const base = `/v1/records/${encodeURIComponent(id)}`;
  return {
    load: async () => [await fetchJson(base), await fetchJson(`${base}/report`)],
    steps: (deal) => fetchJson(`${base}/deals/${deal}/steps`),
    ruling: (finding, lang) => `${base}/ruling?finding=${finding}&lang=${lang}`,
  };
}

function localSource(text) {
  const post = (url) => fetchJson(url, {method: "POST", body: text, headers: {"Content-Type": "application/json"}});
  return {
    load: async () => {
      const report = await post("/v1/validate");
      let record = null;
      try { record = JSON.parse(text); } catch (error) { record = null; }
      return [{ok: report.ok, body: record}, report];
    },
    steps: (deal) => post(`/v1/replay?deal=${deal}`),
  };
}

// what the URL asks for that the record does not have, in words; null when all is there
function badUrl(params) {
  const deals = (view.record.deals || []).length;
  if (params.has("deal") && !(urlIndex(params, "deal") < deals)) {
    return ngettext("The link asks for deal {deal}, but the record has {n} deal (from 1).",
                    "The link asks for deal {deal}, but the record has {n} deals (from 1).", deals, {deal: params.get("deal")});
  }
  if (params.has("finding") && !view.report.findings[urlIndex(params, "finding")]) {
    return ngettext("The link asks for finding {finding}, but the record has {n} finding (from 1).",
                    "The link asks for finding {finding}, but the record has {n} findings (from 1).",
                    view.report.findings.length, {finding: params.get("finding")});
  }
  return null;
}

function badStep(params) {
  if (!params.has("step")) return null;
  const asked = params.get("step");
  if (/^-?\d+$/.test(asked) && view.steps.some((s) => s.step === Number(asked))) return null;
  return _("The link asks for step {step} of deal {deal}, but its steps run from {first} to {last}.",
           {step: asked, deal: counted(view.deal), first: view.steps[0].step, last: view.steps[view.steps.length - 1].step});
}

async function start(source, params) {
  clearRecord();
  view.source = source;
  status(_("Checking the record…"));
  const [record, report] = await source.load();
  if (!record.ok || !report.ok) {
    showError((report.ok ? record : report).body, _("the record could not be read"));
    return;
  }
  view.record = record.body;
  view.report = report.body;
  drawHeader();
  const problem = badUrl(params);
  if (problem) {
    status(problem, true);
    return;
  }
  if (!Array.isArray(view.record.deals) || !view.record.deals.length) {     // a structural error: nothing to replay
    showError({message: _("The record has no deal to replay; the referee's findings:"), findings: view.report.findings},
              _("the record could not be read"));
    return;
  }
  const finding = params.has("finding") ? view.report.findings[urlIndex(params, "finding")] : undefined;
  const deal = params.has("deal") ? urlIndex(params, "deal") : finding && Number.isInteger(finding.deal) ? finding.deal : 0;
  await openDeal(deal, () => {
    const wrongStep = badStep(params);
    if (wrongStep) {
      $("#viewer").hidden = true;
      status(wrongStep, true);
    } else if (params.has("step")) goToStepNumber(Number(params.get("step")));
    else if (finding && finding.deal === view.deal) go(stepOfFinding(finding));
    else go(0);
  });
}

// The records of a file, as the command line reads them: one JSON document, or JSON Lines when the
// first line is a JSON value of its own and more lines follow; a broken document stays one record,
// so the referee places its fault by line:column.
function recordsOf(text) {
  const lines = text.split(/\r?\n/).filter((line) => line.trim());
  if (lines.length < 2 || parses(text) || !parses(lines[0])) return [text];
  return lines;
}

function parses(text) {
  try {
    JSON.parse(text);
    return true;
  } catch (error) {
    return false;
  }
}

async function openFile(file) {
  if (!file) return;
  const text = await file.text();
  const lines = recordsOf(text);
  const pick = $("#line-pick");
  pick.hidden = lines.length < 2;
  $("#line").replaceChildren(...lines.map((line, i) => el("option", {value: i}, _("line {n}", {n: i + 1}))));
  $("#line").onchange = () => start(localSource(lines[Number($("#line").value)]), new URLSearchParams());
  $("#open").classList.add("loaded");
  $("#stored").hidden = true;
  await start(localSource(lines[0] || ""), new URLSearchParams());
}

async function listStored() {
  const answer = await fetchJson("/v1/records?per_page=100");
  if (!answer.ok || !answer.body.items.length) return;
  const {items, total} = answer.body;
  $("#stored ul").replaceChildren(...items.map(storedItem));
  if (total > items.length) $("#stored ul").append(el("li", {}, _("… and {n} more (GET /v1/records)", {n: total - items.length})));
  $("#stored").hidden = false;
}

// one stored record, told apart from the others of its event: round, table, verdict and first finding
function storedItem(item) {
  const where = [item.round != null ? _("round {value}", {value: item.round}) : null,
                 item.table != null ? _("table {value}", {value: item.table}) : null].filter(Boolean).join(_(", "));
  const name = [item.event || gameName(item.game), where].filter(Boolean).join(" · ");
  const first = item.first_finding;
  return el("li", {class: "stored"},
    el("a", {href: `/view/${encodeURIComponent(item.id)}${view.langInUrl ? "?lang=" + view.lang : ""}`}, name), " ",
    el("span", {class: item.valid ? "verdict valid" : "verdict invalid"}, item.valid ? _("VALID") : _("INVALID")),
    first ? el("span", {class: "first-finding"}, " ", _("first finding:"), " ",
               el("span", {class: `severity ${first.severity}`}, severityWord(first.severity)), " ",
               el("code", {}, first.rule), findingPlace(first)) : null,
    el("br"),
    el("span", {class: "about"}, [gameName(item.game), item.players.join(_(", ")), item.date].filter(Boolean).join(" · ")),
    ...(item.event ? [" · ", el("a", {href: `/view/events/${encodeURIComponent(item.event)}`}, _("standings"))] : []));
}

// where a finding is, counted from 1: ["deal 1", "action 25"]
function placeParts(finding) {
  return [[finding.deal, () => _("deal {n}", {n: counted(finding.deal)})],
          [finding.action, () => _("action {n}", {n: counted(finding.action)})]]
    .filter(([value]) => Number.isInteger(value)).map(([, text]) => text());
}

function findingPlace(finding) {
  const parts = placeParts(finding);
  return parts.length ? ` (${parts.join(_(", "))})` : "";
}

// ---------------------------------------------------------------- the page's own words

// index.html's texts in the viewer's language: [selector, attribute (null: the text), template]
function pageTexts() {
  return [
    ["header h1 a", null, _("Replay viewer")], ["#elsewhere", "aria-label", _("Elsewhere")],
    ["#open-file", null, _("Open a file")], ["#api-docs", null, _("API docs")], ["#lang-label", null, _("Language")],
    ["#open-title", null, _("Open a record")],
    ["#open-help", null, _("Pick or drop a CGR/1 file (JSON, or JSON Lines). This server checks it and keeps nothing.")],
    ["#file-label", null, _("Record file")], ["#drop p", null, _("or drop it anywhere on this page")],
    ["#stored-title", null, _("Stored records")], ["#line-label", null, _("Record (line of the file)")],
    ["#controls", "aria-label", _("Deal and step")], ["#deal-label", null, _("Deal")], ["#step-label", null, _("Step")],
    ["#first", "aria-label", _("First step")], ["#first", "title", _("First step (Home)")],
    ["#prev", "aria-label", _("Previous step")], ["#prev", "title", _("Previous step (←)")],
    ["#next", "aria-label", _("Next step")], ["#next", "title", _("Next step (→)")],
    ["#last", "aria-label", _("Last step")], ["#last", "title", _("Last step (End)")],
    ["#slider", "aria-label", _("Step slider")], ["#marks", "aria-label", _("Findings on the slider")],
    ["#dispute-title", null, _("Dispute")], ["#table-title", null, _("Table")], ["#table", "aria-label", _("Card table")],
    ["#findings-title", null, _("Findings")], ["#outcome-title", null, _("Deal outcome")],
    ["#state-title", null, _("Table state")], ["#moves-title", null, _("Moves")], ["#deals-title", null, _("Deals")],
    ["#keys-title", null, _("Keys")], ["#key-step", null, _("step")], ["#key-ends", null, _("first and last step")],
    ["#key-deal", null, _("deal")], ["#key-finding", null, _("next and previous finding, in any deal")],
    ["#key-tab", null, _("reaches every control and finding")],
  ];
}

function translatePage() {
  for (const [selector, attribute, text] of pageTexts()) {
    const node = $(selector);
    if (attribute) node.setAttribute(attribute, text);
    else node.textContent = text;
  }
  if (!view.record) document.title = _("Replay viewer · CGR/1 referee");  // a record's title is its own
  drawAutoplay();
}

function wire() {
  $("#first").addEventListener("click", byUser(() => go(0)));
  $("#prev").addEventListener("click", byUser(() => go(view.index - 1)));
  $("#next").addEventListener("click", byUser(() => go(view.index + 1)));
  $("#last").addEventListener("click", byUser(() => go(view.steps.length - 1)));
  $("#play").addEventListener("click", () => setAutoplay(autoplay.timer === null));
  $("#slider").addEventListener("input", byUser((event) => go(Number(event.target.value))));
  $("#step").addEventListener("change", byUser((event) => goToStepNumber(Number(event.target.value))));
  $("#deal").addEventListener("change", byUser((event) => visit(() => openDeal(Number(event.target.value), () => go(0)))));
  $("#file").addEventListener("change", (event) => openFile(event.target.files[0]));
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", onHistory);
  document.addEventListener("dragover", (event) => { event.preventDefault(); document.body.classList.add("dragging"); });
  document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
  document.addEventListener("drop", (event) => {
    event.preventDefault();
    document.body.classList.remove("dragging");
    if ($("#open").hidden) $("#open").hidden = false;
    openFile(event.dataTransfer.files[0]);
  });
}

async function main() {
  const params = new URLSearchParams(location.search);
  await startLanguage();
  view.lang = speech.lang;
  view.langInUrl = speech.langInUrl;
  translatePage();
  wire();
  const match = location.pathname.match(/^\/view\/([^/]+)\/?$/);
  if (match) start(storedSource(decodeURIComponent(match[1])), params);
  else {
    $("#open").hidden = false;
    listStored();
  }
}

main();
