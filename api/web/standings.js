// An event's standings page (/view/events/EVENT): GET /v1/events/EVENT/standings drawn as one table
// per game, then every match with links to its records in the replay viewer.
"use strict";

const $ = (selector) => document.querySelector(selector);
const COLUMNS = [["rank", "Rank"], ["entrant", "Entrant"], ["played", "Played"], ["won", "W"], ["drawn", "D"],
                 ["lost", "L"], ["match_points", "Points"], ["margin", "Margin"], ["tie_break", "Tie-break"]];

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  Object.entries(attrs).forEach(([key, value]) => node.setAttribute(key, value));
  children.forEach((child) => node.append(child));
  return node;
}

function recordLinks(records) {
  const span = el("span", {class: "records"});
  records.forEach((id, n) => {
    if (n) span.append(", ");
    span.append(el("a", {href: `/view/${encodeURIComponent(id)}`}, records.length > 1 ? `part ${n + 1}` : "replay"));
  });
  return span;
}

function where(match) {
  return match.round === null ? match.id : `Round ${match.round}, table ${match.table}`;
}

function gameTable(game, rows, points) {
  const head = el("tr", {}, ...COLUMNS.map(([, title]) => el("th", {scope: "col"}, title)));
  const body = rows.map((row) => el("tr", {}, ...COLUMNS.map(([key]) =>
    key === "entrant" ? el("th", {scope: "row"}, row[key]) : el("td", {}, String(row[key] ?? "–")))));
  const caption = el("caption", {}, `${game} (match points ${points.join("/")} for a win/draw/loss)`);
  return el("table", {class: "standings"}, caption, el("thead", {}, head), el("tbody", {}, ...body));
}

function matchItem(match) {
  const result = match.winner === null ? `${match.entrants.join(" and ")} drew`
    : `${match.winner} won by ${match.margin} (${match.entrants.join(" v ")})`;
  return el("li", {}, `${where(match)} · ${match.game} · ${result} · `, recordLinks(match.records));
}

function draw(body) {
  $("#event-title").textContent = `${body.event ?? "Event"}: ${body.counted} of ${body.matches} match(es) counted`;
  const games = [...new Set(body.standings.map((row) => row.game))];
  games.forEach((game) => $("#tables").append(gameTable(game, body.standings.filter((r) => r.game === game),
                                                         body.points)));
  body.results.forEach((match) => $("#matches").append(matchItem(match)));
  const apart = [...body.invalid.filter((item) => !item.counted), ...body.not_counted];
  apart.forEach((item) => $("#apart ul").append(
    el("li", {}, `${where(item)} · ${item.game}: ${item.reason} · `, recordLinks(item.records))));
  $("#apart").hidden = apart.length === 0;
  $("#standings").hidden = false;
  $("#status").textContent = "";
}

async function main() {
  const event = decodeURIComponent(location.pathname.replace(/^\/view\/events\//, ""));
  document.title = `${event} · Standings · CGR/1 referee`;
  const response = await fetch(`/v1/events/${encodeURIComponent(event)}/standings`);
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    $("#status").textContent = body.message || `the standings could not be loaded (HTTP ${response.status})`;
    $("#status").classList.add("error");
    return;
  }
  draw(body);
}

main();
