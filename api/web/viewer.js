// The replay viewer: draws whatever steps the API returns (GET .../deals/{d}/steps for a stored
// record, POST /v1/replay for a local one) with the report's findings and outcomes.
"use strict";

const SUITS = {S: ["♠", "spades"], H: ["♥", "hearts"], D: ["♦", "diamonds"], C: ["♣", "clubs"]};
const RANKS = {T: ["10", "10"], J: ["J", "jack"], Q: ["Q", "queen"], K: ["K", "king"], A: ["A", "ace"]};
const JOKERS = {BJ: "black joker", RJ: "red joker"};
const CARD = /^([2-9TJQKA][SHDC]|BJ|RJ)$/;
const TEAM_GAMES = ["guandan", "gouji"];          // notation §3: team = seat mod 2
const SEAT_KEYS = ["turn", "dealer", "leader", "seat", "to"];
const SEAT_LISTS = ["order", "out"];
const TEAM_KEYS = ["declaring"];
// where seats sit around the table (seat 0 at the bottom, the next seat to its right: notation §3)
const PLACES = {
  2: ["bc", "tc"], 3: ["bc", "tr", "tl"], 4: ["bc", "mr", "tc", "ml"],
  5: ["bc", "mr", "tr", "tl", "ml"], 6: ["bc", "br", "tr", "tc", "tl", "bl"],
};

// controls that reorder or hide text (bidi overrides and isolates, marks, NUL and the other C0 controls)
const HIDDEN_CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

const $ = (selector) => document.querySelector(selector);
const view = {source: null, record: null, report: null, deal: 0, steps: [], index: 0, focus: null};

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
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : visible(child));
  }
  return node;
}

// ---------------------------------------------------------------- cards, names, values

function cardName(code) {
  if (JOKERS[code]) return JOKERS[code];
  const rank = RANKS[code[0]] ? RANKS[code[0]][1] : code[0];
  return `${rank} of ${SUITS[code[1]][1]}`;
}

function cardNode(code, wild = new Set(), marked = new Set()) {
  const isWild = wild.has(code);
  const label = cardName(code) + (isWild ? ", wild card" : "");
  let classes = "card";
  let rank, suit;
  if (JOKERS[code]) {
    classes += code === "RJ" ? " joker red" : " joker";
    rank = "Jo";
    suit = code === "RJ" ? "★" : "☆";
  } else {
    rank = RANKS[code[0]] ? RANKS[code[0]][0] : code[0];
    suit = SUITS[code[1]][0];
    if (code[1] === "H" || code[1] === "D") classes += " red";
  }
  if (isWild) classes += " wild";
  if (marked.has(code)) classes += " marked";
  return el("span", {class: classes, title: label, "aria-label": label, role: "img"},
    el("b", {"aria-hidden": "true"}, rank), el("i", {"aria-hidden": "true"}, suit));
}

function cardsText(codes) {
  return codes.map((code) => JOKERS[code] ? (code === "RJ" ? "red joker" : "black joker")
    : (RANKS[code[0]] ? RANKS[code[0]][0] : code[0]) + SUITS[code[1]][0]).join(" ");
}

function playerName(seat) {
  const players = view.record.players || [];
  return typeof players[seat] === "string" ? `${players[seat]} (seat ${seat})` : `seat ${seat}`;
}

function teamName(team) {
  const players = view.record.players || [];
  const names = players.filter((_, seat) => seat % 2 === team);
  return `team ${team} (${names.join(", ")})`;
}

function hasTeams() {
  return TEAM_GAMES.includes(view.record.game);
}

function valueText(key, value) {
  if (value === null || value === undefined) return "—";
  if (SEAT_KEYS.includes(key) && Number.isInteger(value)) return playerName(value);
  if (key === "turn" && Array.isArray(value)) return value.length ? value.map(playerName).join(", ") : "—";
  if ((TEAM_KEYS.includes(key) || (key === "winner" && hasTeams())) && Number.isInteger(value)) return teamName(value);
  if (key === "winner" && Number.isInteger(value)) return playerName(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return "—";
    if (SEAT_LISTS.includes(key) && value.every(Number.isInteger)) return value.map(playerName).join(", ");
    if (value.every((v) => typeof v === "string" && CARD.test(v))) return cardsText(value);
    const seats = (view.record.players || []).length;
    if (value.length === seats && !value.every((v) => typeof v === "string" && v.includes(" "))) {
      return value.map((v, seat) => `${playerName(seat)}: ${valueText("", v)}`).join("; ");
    }
    if (hasTeams() && value.length === 2 && value.every((v) => !Array.isArray(v) && typeof v !== "object")) {
      return value.map((v, team) => `team ${team}: ${v}`).join("; ");
    }
    return value.map((v) => valueText(key, v)).join("; ");
  }
  if (typeof value === "object") {
    return Object.entries(value).map(([k, v]) => `${k.replace(/_/g, " ")} ${valueText(k, v)}`).join(", ");
  }
  if (typeof value === "string" && CARD.test(value)) return cardsText([value]);
  return String(value);
}

// [key, value, label]: the label defaults to the key
function definitions(list, entries) {
  list.replaceChildren(...entries.flatMap(([key, value, label = key]) =>
    [el("dt", {}, label.replace(/_/g, " ")), el("dd", {}, valueText(key, value))]));
}

function actionText(action) {
  if (!action) return "as dealt";
  const who = Number.isInteger(action.seat) ? playerName(action.seat) : "?";
  const parts = [who];
  if (action.pass) parts.push("passes");
  if (Array.isArray(action.play)) parts.push("plays " + cardsText(action.play));
  for (const verb of ["tribute", "return"]) {
    if (typeof action[verb] === "string") parts.push(`${verb === "tribute" ? "pays tribute" : "returns"} ${cardsText([action[verb]])}`);
  }
  if (Number.isInteger(action.to)) parts.push("to " + playerName(action.to));
  if (action.declare !== undefined) parts.push("declares " + valueText("declare", action.declare));
  if (action.count !== undefined) parts.push(`(${action.count} left)`);
  if (typeof action.as === "string") parts.push(`as ${action.as}`);
  if (typeof action.comment === "string") parts.push(`— “${action.comment}”`);
  return parts.join(" ");
}

// ---------------------------------------------------------------- findings and steps

const findingKey = (f) => `${f.rule}|${f.at}|${f.message}`;

function stepOfFinding(finding) {
  const key = findingKey(finding);
  const index = view.steps.findIndex((step) => step.findings.some((f) => findingKey(f) === key));
  return index >= 0 ? index : view.steps.length - 1;
}

// findings of this deal that first show at step `index`; at the last step also those no step shows
// (an action the replay rejected: it never became a table)
function findingsAt(index) {
  const before = new Set(index > 0 ? view.steps[index - 1].findings.map(findingKey) : []);
  const here = view.steps[index].findings.filter((f) => !before.has(findingKey(f)));
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
  drawExplain([...here, ...rejected]);
  drawTable(step.table, offending && !step.rejected ? step.action : null, refused);
  drawFindings([...here, ...rejected]);
  drawOutcome(last);
  definitions($("#state dl"), Object.entries(step.table).filter(([key]) => !["hands", "table"].includes(key)));
  const url = `${location.pathname}?deal=${view.deal}&step=${step.step}`;
  if (location.pathname + location.search !== url) history.replaceState(null, "", url);
}

function drawControls(step, last) {
  const slider = $("#slider");
  slider.max = view.steps.length - 1;
  slider.value = view.index;
  slider.setAttribute("aria-valuetext", `step ${step.step}${last ? ", the last" : ""}`);
  $("#step").value = step.step;
  $("#step").min = view.steps[0].step;
  $("#step").max = view.steps[view.steps.length - 1].step;
  $("#step-count").textContent = `of ${view.steps[view.steps.length - 1].step}` + (last ? " (end)" : "");
  // aria-disabled, not disabled: a button at its end keeps the keyboard's focus
  for (const id of ["#first", "#prev"]) $(id).setAttribute("aria-disabled", String(view.index === 0));
  for (const id of ["#next", "#last"]) $(id).setAttribute("aria-disabled", String(last));
  $("#deal").value = String(view.deal);
}

function drawAction(step, offending, pending) {
  const line = $("#action");
  line.className = offending ? "offending" : "";
  line.replaceChildren(el("strong", {}, `Deal ${view.deal}, step ${step.step}: `),
    step.rejected ? el("span", {class: "rejected"}, `Rejected: ${actionText(step.action)}`) : visible(actionText(step.action)));
  if (pending) line.append(el("span", {class: "rejected"}, `Rejected next: ${actionText(pending)}`));
}

function drawExplain(findings) {
  const box = $("#explain");
  box.hidden = findings.length === 0;
  box.replaceChildren(...findings.map((f) => el("p", {class: f.severity},
    el("strong", {}, `${f.severity} ${f.rule}`), Number.isInteger(f.action) ? ` (action ${f.action})` : "",
    ": ", f.message,
    f.legal && f.legal.may ? el("span", {class: "legal"}, `Legal then: ${f.legal.may}`) : null)));
}

function drawTable(snapshot, offendingAction, refused) {
  const hands = Array.isArray(snapshot.hands) ? snapshot.hands : [];
  const seats = Math.max(hands.length, (view.record.players || []).length);
  const table = $("#table");
  table.className = PLACES[seats] ? `seats-${seats}` : "seats-many";
  const wild = new Set([].concat(snapshot.wild || []));
  const nodes = [];
  for (let seat = 0; seat < seats; seat++) {
    const marked = new Set(refused && refused.seat === seat ? cardsOf(refused) : []);
    const node = seatNode(seat, hands[seat] || [], snapshot, wild, marked);
    if (PLACES[seats]) node.style.gridArea = PLACES[seats][seat];
    nodes.push(node);
  }
  nodes.push(trickNode(snapshot, wild, offendingAction, refused));
  table.replaceChildren(...nodes);
}

function cardsOf(action) {
  return [].concat(action.play || [], action.tribute || [], action.return || []).filter((c) => typeof c === "string");
}

function turnSeats(snapshot) {
  return [].concat(snapshot.turn ?? []).filter(Number.isInteger);
}

function seatNode(seat, hand, snapshot, wild, marked) {
  const name = (view.record.players || [])[seat];
  const turn = turnSeats(snapshot).includes(seat);
  const out = Array.isArray(snapshot.out) ? snapshot.out.indexOf(seat) : -1;
  const badges = [];
  if (hasTeams()) badges.push(el("span", {class: "badge team"}, `team ${seat % 2}`));
  if (turn) badges.push(el("span", {class: "badge turn"}, "to act"));
  if (out >= 0) badges.push(el("span", {class: "badge out"}, `out ${out + 1}`));
  return el("section", {class: `seat${turn ? " turn" : ""}`,
                        "aria-label": `${name || "seat " + seat}, seat ${seat}${turn ? ", to act" : ""}`,
                        "data-seat": seat},
    el("h3", {}, el("span", {class: "name"}, typeof name === "string" ? name : `seat ${seat}`),
       el("span", {class: "seatno"}, ` seat ${seat} · ${hand.length} card${hand.length === 1 ? "" : "s"}`), ...badges),
    el("div", {class: "hand", role: "list"}, hand.map((code) =>
      el("span", {role: "listitem"}, cardNode(code, wild, marked)))));
}

function trickNode(snapshot, wild, offendingAction, refused) {
  const trick = Array.isArray(snapshot.table) ? snapshot.table : [];
  const lastIndex = trick.length - 1;
  const rows = trick.map((entry, i) => {
    const offending = offendingAction && i === lastIndex && entry.seat === offendingAction.seat;
    return el("li", {class: offending ? "offending" : null},
      el("span", {class: "who"}, playerName(entry.seat)),
      entry.pass || !Array.isArray(entry.play) ? el("span", {class: "pass"}, "pass")
        : el("span", {class: "played"}, entry.play.map((code) => cardNode(code, wild)),
             entry.as ? el("small", {}, ` ${entry.as}`) : null));
  });
  if (refused) {
    rows.push(el("li", {class: "offending refused"}, el("span", {class: "who"}, playerName(refused.seat)),
      el("span", {class: "played"}, "refused: ", refused.pass ? "pass" : cardsOf(refused).map((code) => cardNode(code, wild)))));
  }
  return el("section", {class: "trick", "aria-label": "Current trick"},
    el("h3", {}, "Trick"), rows.length ? el("ol", {}, rows) : el("p", {class: "empty"}, "no cards on the table"));
}

function drawFindings(current) {
  const keys = new Set(current.map(findingKey));
  const list = $("#findings ol");
  const all = view.report.findings;
  const focused = list.contains(document.activeElement) ? document.activeElement.dataset.finding : undefined;
  list.replaceChildren(...all.map((f, n) => {
    const where = ["deal", "action", "seat"].filter((k) => Number.isInteger(f[k])).map((k) => `${k} ${f[k]}`).join(", ");
    const here = keys.has(findingKey(f));
    const label = el("span", {}, el("strong", {class: f.severity}, f.severity), " ", el("code", {}, f.rule),
      where ? ` (${where})` : "", el("br"), f.message);
    const item = Number.isInteger(f.deal)
      ? el("a", {href: findingHref(f, n), "data-finding": n, "aria-current": here ? "step" : null,
                 onclick: (event) => { event.preventDefault(); openFinding(n); }}, label)
      : label;
    return el("li", {class: here ? "current" : null}, item);
  }));
  if (!all.length) list.replaceChildren(el("li", {class: "none"}, "none: the referee finds nothing wrong"));
  if (focused !== undefined) list.querySelector(`[data-finding="${focused}"]`).focus();    // keep the keyboard's place
}

function findingHref(finding, n) {
  if (finding.deal !== view.deal) return `${location.pathname}?deal=${finding.deal}&finding=${n}`;
  return `${location.pathname}?deal=${finding.deal}&step=${view.steps[stepOfFinding(finding)].step}&finding=${n}`;
}

function drawOutcome(last) {
  const section = $("#outcome");
  const outcome = view.report.deals.find((d) => d.deal === view.deal);
  section.hidden = !(last && outcome);
  if (section.hidden) return;
  const entries = Object.entries(outcome).filter(([key]) => key !== "deal");
  if (view.report.match && view.deal === view.report.deals.length - 1) {
    entries.push(...Object.entries(view.report.match).map(([key, value]) => [key, value, `match ${key}`]));
  }
  definitions(section.querySelector("dl"), entries);
  $("#outcome-title").textContent = `Deal ${view.deal} outcome`;
}

function drawHeader() {
  const {record, report} = view;
  const meta = record.meta && typeof record.meta === "object" ? record.meta : {};
  const rules = report.rules && report.rules.preset ? ` (${report.rules.preset})` : "";
  const errors = report.findings.filter((f) => f.severity === "error").length;
  $("#record-title").replaceChildren(
    el("span", {class: report.valid ? "verdict valid" : "verdict invalid"}, report.valid ? "VALID" : "INVALID"),
    visible(` ${report.game || "unknown game"}${rules}`),
    visible(["event", "round", "table", "date"].filter((k) => meta[k]).map((k) => ` · ${k === "event" ? "" : k + " "}${meta[k]}`).join("")),
    errors ? ` · ${errors} error${errors > 1 ? "s" : ""}` : "");
  document.title = visible(`${meta.event || report.game || "record"} · replay viewer`);
  const deals = Array.isArray(record.deals) ? record.deals.length : 0;
  $("#deal").replaceChildren(...Array.from({length: deals}, (_, d) => el("option", {value: d}, `${d}`)));
}

// ---------------------------------------------------------------- moving

function go(index) {
  view.index = Math.max(0, Math.min(view.steps.length - 1, index));
  draw();
}

function goToStepNumber(number) {
  const exact = view.steps.findIndex((s) => s.step === number);
  go(exact >= 0 ? exact : number > view.steps[view.steps.length - 1].step ? view.steps.length - 1 : 0);
}

async function openDeal(deal, then) {
  if (!Number.isInteger(deal) || deal < 0 || deal >= (view.record.deals || []).length) deal = 0;
  status(`Replaying deal ${deal}…`);
  const answer = await view.source.steps(deal);
  if (!answer.ok) {
    showError(answer.body, `deal ${deal} could not be replayed`);
    return;
  }
  view.deal = deal;
  view.steps = answer.body.steps;
  status("");
  $("#viewer").hidden = false;
  then();
}

function openFinding(n) {
  const finding = view.report.findings[n];
  const show = () => go(stepOfFinding(finding));
  if (finding.deal === view.deal) show();
  else openDeal(finding.deal, show);
}

function nextFinding(direction) {
  const indexes = [...new Set(dealFindings().map(stepOfFinding))].sort((a, b) => a - b);
  const target = direction > 0 ? indexes.find((i) => i > view.index) : indexes.reverse().find((i) => i < view.index);
  if (target !== undefined) go(target);
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || $("#viewer").hidden) return;
  const target = event.target;
  if (target.matches("input[type=number], select, textarea")) return;
  if (target.matches("input[type=range]") && ["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
  const moves = {
    ArrowRight: () => go(view.index + 1), ArrowLeft: () => go(view.index - 1),
    Home: () => go(0), End: () => go(view.steps.length - 1),
    PageDown: () => openDeal(view.deal + 1, () => go(0)), PageUp: () => openDeal(view.deal - 1, () => go(0)),
    n: () => nextFinding(1), p: () => nextFinding(-1),
  };
  if (event.key === "PageDown" && view.deal + 1 >= view.record.deals.length) return;
  if (event.key === "PageUp" && view.deal === 0) return;
  if (moves[event.key]) {
    event.preventDefault();
    moves[event.key]();
  }
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

async function fetchJson(url, options) {
  try {
    const response = await fetch(url, options);
    const body = await response.json().catch(() => null);
    return {ok: response.ok, status: response.status, body};
  } catch (error) {
    return {ok: false, status: 0, body: {message: `the server could not be reached: ${error.message}`}};
  }
}

function storedSource(id) {
  const base = `/v1/records/${encodeURIComponent(id)}`;
  return {
    load: async () => [await fetchJson(base), await fetchJson(`${base}/report`)],
    steps: (deal) => fetchJson(`${base}/deals/${deal}/steps`),
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

async function start(source, params) {
  view.source = source;
  status("Checking the record…");
  const [record, report] = await source.load();
  if (!record.ok || !report.ok) {
    showError((report.ok ? record : report).body, "the record could not be read");
    return;
  }
  view.record = record.body;
  view.report = report.body;
  drawHeader();
  const finding = view.report.findings[Number(params.get("finding"))];
  const deal = params.has("deal") ? Number(params.get("deal")) : finding && Number.isInteger(finding.deal) ? finding.deal : 0;
  await openDeal(deal, () => {
    if (params.has("finding") && finding && finding.deal === view.deal && !params.has("step")) go(stepOfFinding(finding));
    else if (params.has("step")) goToStepNumber(Number(params.get("step")));
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
  $("#line").replaceChildren(...lines.map((line, i) => el("option", {value: i}, `line ${i + 1}`)));
  $("#line").onchange = () => start(localSource(lines[Number($("#line").value)]), new URLSearchParams());
  $("#viewer").hidden = true;
  $("#open").classList.add("loaded");
  $("#stored").hidden = true;
  await start(localSource(lines[0] || ""), new URLSearchParams());
}

async function listStored() {
  const answer = await fetchJson("/v1/records?per_page=100");
  if (!answer.ok || !answer.body.items.length) return;
  const {items, total} = answer.body;
  $("#stored ul").replaceChildren(...items.map((item) => el("li", {},
    el("a", {href: `/view/${encodeURIComponent(item.id)}`}, item.event || item.game),
    ` · ${item.game} · ${item.players.join(", ")}${item.date ? " · " + item.date : ""} · ${item.valid ? "valid" : "invalid"}`,
    ...(item.event ? [" · ", el("a", {href: `/view/events/${encodeURIComponent(item.event)}`}, "standings")] : []))));
  if (total > items.length) $("#stored ul").append(el("li", {}, `… and ${total - items.length} more (GET /v1/records)`));
  $("#stored").hidden = false;
}

function wire() {
  $("#first").addEventListener("click", () => go(0));
  $("#prev").addEventListener("click", () => go(view.index - 1));
  $("#next").addEventListener("click", () => go(view.index + 1));
  $("#last").addEventListener("click", () => go(view.steps.length - 1));
  $("#slider").addEventListener("input", (event) => go(Number(event.target.value)));
  $("#step").addEventListener("change", (event) => goToStepNumber(Number(event.target.value)));
  $("#deal").addEventListener("change", (event) => openDeal(Number(event.target.value), () => go(0)));
  $("#file").addEventListener("change", (event) => openFile(event.target.files[0]));
  document.addEventListener("keydown", onKey);
  document.addEventListener("dragover", (event) => { event.preventDefault(); document.body.classList.add("dragging"); });
  document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
  document.addEventListener("drop", (event) => {
    event.preventDefault();
    document.body.classList.remove("dragging");
    if ($("#open").hidden) $("#open").hidden = false;
    openFile(event.dataTransfer.files[0]);
  });
}

function main() {
  wire();
  const match = location.pathname.match(/^\/view\/([^/]+)\/?$/);
  const params = new URLSearchParams(location.search);
  if (match) start(storedSource(decodeURIComponent(match[1])), params);
  else {
    $("#open").hidden = false;
    listStored();
  }
}

main();
