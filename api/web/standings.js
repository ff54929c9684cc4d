// An event's standings page (/view/events/EVENT): GET /v1/events/EVENT/standings drawn as one table
// per game, then every match with links to its records in the replay viewer; every text through _()
// (language.js: ?lang=, else the browser's language, and the switch at the top).
"use strict";

const $ = (selector) => document.querySelector(selector);
const GAMES = {guandan: () => _("Guandan"), gouji: () => _("Gou Ji"), gandengyan: () => _("Gan Deng Yan")};

function columns() {
  return [["rank", _("Rank")], ["entrant", _("Entrant")], ["played", _("Played")], ["won", _("W")], ["drawn", _("D")],
          ["lost", _("L")], ["match_points", _("Points")], ["margin", _("Margin")], ["tie_break", _("Tie-break")]];
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  Object.entries(attrs).forEach(([key, value]) => node.setAttribute(key, value));
  children.forEach((child) => node.append(child));
  return node;
}

// a game as the record names it (guandan), in another language as players say it (掼蛋)
function gameName(game) {
  return GAMES[game] && speech.lang !== "en" ? GAMES[game]() : String(game);
}

function withLanguage(href) {
  return speech.langInUrl ? `${href}?lang=${speech.lang}` : href;
}

function recordLinks(records) {
  const span = el("span", {class: "records"});
  records.forEach((id, n) => {
    if (n) span.append(_(", "));
    span.append(el("a", {href: withLanguage(`/view/${encodeURIComponent(id)}`)},
                   records.length > 1 ? _("part {n}", {n: n + 1}) : _("replay")));
  });
  return span;
}

function where(match) {
  return match.round === null ? match.id : _("Round {round}, table {table}", {round: match.round, table: match.table});
}

// a tie-break as the referee names it (the API's values: margin, head-to-head, name)
function tieBreak(value) {
  const names = {margin: _("margin"), "head-to-head": _("head-to-head"), name: _("name")};
  return value === null || value === undefined ? "–" : names[value] || String(value);
}

function gameTable(game, rows, points) {
  const head = el("tr", {}, ...columns().map(([, title]) => el("th", {scope: "col"}, title)));
  const body = rows.map((row) => el("tr", {}, ...columns().map(([key]) =>
    key === "entrant" ? el("th", {scope: "row"}, row[key])
      : el("td", {}, key === "tie_break" ? tieBreak(row[key]) : String(row[key] ?? "–")))));
  const caption = el("caption", {}, _("{game} (match points {points} for a win/draw/loss)",
                                      {game: gameName(game), points: points.join("/")}));
  return el("table", {class: "standings"}, caption, el("thead", {}, head), el("tbody", {}, ...body));
}

function matchItem(match) {
  const and = _(" and ");
  const versus = _(" v ");
  const result = match.winner === null ? _("{entrants} drew", {entrants: match.entrants.join(and)})
    : _("{winner} won by {margin} ({entrants})", {winner: match.winner, margin: match.margin,
                                                 entrants: match.entrants.join(versus)});
  return el("li", {}, `${where(match)} · ${gameName(match.game)} · ${result} · `, recordLinks(match.records));
}

function draw(body) {
  const event = body.event === null || body.event === undefined ? _("Event") : body.event;
  $("#event-title").textContent = ngettext("{event}: {counted} of {n} match counted",
                                           "{event}: {counted} of {n} matches counted", body.matches,
                                           {event, counted: body.counted});
  const games = [...new Set(body.standings.map((row) => row.game))];
  games.forEach((game) => $("#tables").append(gameTable(game, body.standings.filter((r) => r.game === game),
                                                         body.points)));
  body.results.forEach((match) => $("#matches").append(matchItem(match)));
  const apart = [...body.invalid.filter((item) => !item.counted), ...body.not_counted];
  apart.forEach((item) => $("#apart ul").append(
    el("li", {}, _("{where} · {game}: {reason} · ", {where: where(item), game: gameName(item.game), reason: item.reason}),
       recordLinks(item.records))));
  $("#apart").hidden = apart.length === 0;
  $("#standings").hidden = false;
  $("#status").textContent = "";
}

// the page's own texts in its language: [selector, text]
function translatePage() {
  [["#viewer-link", _("Replay viewer")], ["#open-file", _("Open a file")], ["#api-docs", _("API docs")],
   ["#lang-label", _("Language")], ["#status", _("Loading the standings…")], ["#matches-title", _("Matches")],
   ["#apart-title", _("Not counted")]].forEach(([selector, text]) => { $(selector).textContent = text; });
  $("#elsewhere").setAttribute("aria-label", _("Elsewhere"));
  $("#viewer-link").href = withLanguage("/view");
  $("#open-file").href = withLanguage("/view");
}

async function main() {
  await startLanguage();
  translatePage();
  const event = decodeURIComponent(location.pathname.replace(/^\/view\/events\//, ""));
  document.title = _("{event} · Standings · CGR/1 referee", {event});
  const response = await fetch(`/v1/events/${encodeURIComponent(event)}/standings`,
                               {headers: {"Accept-Language": speech.lang}});
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    $("#status").textContent = body.message || _("the standings could not be loaded (HTTP {status})",
                                                 {status: response.status});
    $("#status").classList.add("error");
    return;
  }
  draw(body);
}

main();
