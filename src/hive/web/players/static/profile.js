// A player's profile, at /player/{name} on a server that keeps accounts: the name (BOT for a bot's account), the
// ratings by game and speed (a provisional one with "?" and about how many more rated games establish it), a rating history graph for each game and speed
// (rating_graph.js), and the player's games, filtered by opponent (head to head), result, game and speed as the API
// filters them (the filters kept in the address, ?opponent=...), with the W/D/L they add up to, each game opened to
// play, watch or review, and the games shown downloaded as one file of records. An unknown name says so.

import { formatDate, gameType, serverText, speedName, t } from "../i18n.js";
import { api } from "../net.js";
import { $, h } from "../page.js";
import { signedIn } from "./account.js";
import { ratingGraph, graphSummary } from "../ratings/rating_graph.js";
import { SPEEDS, botMark, challenge, enterGame, playerLink, profilePath, ratingText } from "./players.js";

const FILTERS = ["opponent", "result", "game", "speed"];
const RESULTS = { win: t("shell.won"), draw: t("shell.drawn"), loss: t("shell.lost"), aborted: t("shell.aborted"), ongoing: t("shell.in_progress") };

let current = null; // the player on show (their name as the address has it)
let player = null; // what the API answered about them
let run = 0; // the last list of games asked for: an older one's answer is dropped
const known = { games: new Set(), opponents: new Set() }; // what the filters offer, from the games seen
let resizing = null;

function when(seconds) { return formatDate(seconds * 1000); }

function option(select, value, text = value) {
  const node = h("option", "", text);
  node.value = value;
  select.append(node);
}

// ------------------------------------------------------------------ ratings and their history

function renderRatings() {
  const rows = [];
  const notes = []; // each provisional rating: how many more games establish it
  for (const [game, speeds] of Object.entries(player.ratings)) {
    for (const speed of SPEEDS) {
      const r = speeds[speed];
      if (!r) continue;
      const tr = h("tr");
      const rating = h("td", "num", ratingText(r.rating, r.provisional));
      if (r.provisional) {
        rating.title = t("profile.provisional_title", { count: r.more });
        notes.push(h("li", "", t("profile.provisional_note", { game: gameType(game), speed: speedName(speed), count: r.more })));
      }
      tr.append(h("td", "", gameType(game)), h("td", "", speedName(speed)), rating, h("td", "num", String(r.games)),
        h("td", "num", `${r.wins}/${r.draws}/${r.losses}`));
      rows.push(tr);
    }
  }
  const head = h("thead");
  const tr = h("tr");
  for (const [text, cls, title] of [[t("shell.game"), ""], [t("shell.speed"), ""], [t("seeks.rating"), "num"], [t("shell.games"), "num", t("players.games_title")], [t("players.wdl"), "num", t("players.wdl_title")]]) {
    const th = h("th", cls);
    th.scope = "col";
    if (title) { const abbr = h("abbr", "", text); abbr.title = title; th.append(abbr); } else th.textContent = text;
    tr.append(th);
  }
  head.append(tr);
  const body = h("tbody");
  body.append(...rows);
  $("p-ratings").replaceChildren(h("caption", "sr-only", t("profile.ratings_of", { name: player.name })), head, body);
  $("p-ratings-box").hidden = !rows.length;
  $("p-provisional").replaceChildren(...notes);
  $("p-provisional").hidden = !notes.length;
  $("p-ratings-empty").hidden = rows.length > 0;
}

// One graph for each game and speed the player has rated games in, drawn at the width the page gives it.
function renderGraphs() {
  const box = $("p-graphs");
  const figures = [];
  for (const [game, speeds] of Object.entries(player.history)) {
    for (const speed of SPEEDS) {
      const points = speeds[speed];
      if (!points || !points.length) continue;
      const what = `${gameType(game)}, ${speedName(speed)}`;
      const figure = h("figure", "p-graph");
      figure.dataset.game = game;
      figure.dataset.speed = speed;
      const caption = h("figcaption");
      caption.append(h("strong", "", what), h("span", "muted", ` ${graphSummary(points, t("profile.graph_label", { name: player.name, speed: speedName(speed), game: gameType(game) }))}`));
      figure.append(caption);
      figures.push([figure, points, what]);
    }
  }
  box.replaceChildren(...figures.map(([figure]) => figure));
  $("p-history-box").hidden = !figures.length;
  const width = box.clientWidth || 320;
  for (const [figure, points, what] of figures) figure.prepend(ratingGraph(points, width, what));
}

// ------------------------------------------------------------------ the games

function filters() {
  const query = new URLSearchParams();
  const values = { opponent: $("p-opponent").value.trim(), result: $("p-result").value, game: $("p-game").value, speed: $("p-speed").value };
  for (const name of FILTERS) if (values[name]) query.set(name, values[name]);
  return query;
}

function setFilters(query) {
  $("p-opponent").value = query.get("opponent") || "";
  $("p-result").value = query.get("result") || "";
  for (const name of ["game", "speed"]) {
    const select = $(`p-${name}`);
    const value = query.get(name) || "";
    if (value && ![...select.options].some((o) => o.value === value)) option(select, value);
    select.value = value;
  }
}

// The game filter's and the opponent's suggestions: every one seen so far.
function learn(games) {
  for (const game of games) {
    if (!known.games.has(game.game)) { known.games.add(game.game); if (![...$("p-game").options].some((o) => o.value === game.game)) option($("p-game"), game.game, gameType(game.game)); }
    if (game.opponent && !known.opponents.has(game.opponent)) { known.opponents.add(game.opponent); option($("p-opponents"), game.opponent); }
  }
}

function gameRow(game) {
  const li = h("li", `seek-row p-game result-${game.result}`);
  li.dataset.id = game.id;
  const head = h("div", "seek-row-head");
  head.append(h("span", `p-result p-${game.result}`, RESULTS[game.result] || game.result), h("span", "muted", t("lobby.versus")));
  const who = h("span", "seek-player");
  if (game.opponent) who.append(playerLink(game.opponent)); else who.textContent = t("profile.guest");
  head.append(who);
  const bits = [gameType(game.game), speedName(game.speed), t(game.rated ? "seeks.rated" : "seeks.casual"), t("lobby.moves", { count: game.moves }), when(game.updated)];
  if (game.reason) bits.splice(4, 0, serverText(game.reason));
  const detail = h("div", "seek-detail muted", bits.join(" · "));
  const buttons = h("div", "game-buttons");
  const mine = signedIn() && player && signedIn().toLowerCase() === player.name.toLowerCase();
  const action = game.result !== "ongoing" ? "review" : mine ? "play" : "watch";
  const label = t(`lobby.action_${action}`);
  const a = h("a", "button-link", label);
  a.href = `/game/${game.id}`;
  a.dataset.action = action;
  const opponent = game.opponent || t("profile.guest");
  a.setAttribute("aria-label", `${label}: ${player.name} ${t("lobby.versus")} ${opponent}, ${gameType(game.game)} ${speedName(game.speed)}, ${when(game.updated)}`);
  a.onclick = (evt) => {
    evt.preventDefault();
    const names = mine ? [player.name, game.opponent] : [];
    enterGame(game.id, names.filter(Boolean), game.result !== "ongoing");
  };
  buttons.append(a);
  li.append(head, detail, buttons);
  return li;
}

function totalsText(answer, query) {
  const counts = [t("profile.wins", { count: answer.wins }), t("profile.draws", { count: answer.draws }), t("profile.losses", { count: answer.losses })].join(", ");
  const opponent = query.get("opponent");
  return opponent ? t("profile.against", { name: opponent, counts }) : counts;
}

async function loadGames() {
  const mine = ++run;
  const name = current;
  const query = filters();
  const text = query.toString();
  history.replaceState(history.state, "", `${profilePath(name)}${text ? `?${text}` : ""}`);
  $("p-error").textContent = "";
  try {
    const answer = await api("GET", `/api/players/${encodeURIComponent(name)}/games${text ? `?${text}` : ""}`, undefined, null);
    if (mine !== run || name !== current) return;
    learn(answer.games);
    $("p-totals").textContent = totalsText(answer, query);
    $("p-games").replaceChildren(...answer.games.map(gameRow));
    $("p-games-empty").hidden = answer.games.length > 0;
    $("p-games-empty").textContent = t(text ? "profile.no_match" : "profile.no_game");
    const finished = answer.games.some((game) => game.result !== "ongoing");
    $("p-records").hidden = !finished;
    $("p-records").href = `/api/players/${encodeURIComponent(name)}/records${text ? `?${text}` : ""}`;
    $("p-records").download = `${player.name}-games.txt`;
    $("p-records").textContent = t(text ? "shell.download_these_games" : "profile.download_all");
  } catch (err) {
    if (mine === run) $("p-error").textContent = err.message;
  }
}

// ------------------------------------------------------------------ the page

function notFound(name, message) {
  $("p-name").textContent = t("profile.no_such");
  $("p-since").textContent = message || t("profile.nobody_named", { name });
  $("p-found").hidden = true;
  $("btn-p-challenge").hidden = true;
  document.title = t("profile.no_such");
}

export async function showProfile(name) {
  const changed = current !== name;
  current = name;
  $("profile").hidden = false;
  if (changed) {
    player = null;
    known.games.clear();
    known.opponents.clear();
    $("p-game").replaceChildren();
    option($("p-game"), "", t("shell.any"));
    $("p-opponents").replaceChildren();
    $("p-name").textContent = name;
    $("p-since").textContent = "";
    for (const id of ["p-ratings", "p-graphs", "p-games"]) $(id).replaceChildren();
    $("p-totals").textContent = "";
  }
  $("p-error").textContent = "";
  setFilters(new URLSearchParams(location.search));
  let found;
  try {
    found = await api("GET", `/api/players/${encodeURIComponent(name)}`, undefined, null);
  } catch (err) {
    if (current !== name) return;
    if (err.status === 404) notFound(name, err.message);
    else $("p-error").textContent = err.message;
    return;
  }
  if (current !== name) return;
  player = found;
  document.title = `${player.name} · ${t("profile.player")}`;
  $("p-found").hidden = false;
  $("p-name").replaceChildren(player.name);
  if (player.bot) $("p-name").append(" ", botMark());
  const since = [t("profile.since", { date: when(player.created) })];
  if (player.banned) since.push(t("profile.banned"));
  $("p-since").textContent = since.join(" · ");
  const me = signedIn();
  $("btn-p-challenge").hidden = !me || me.toLowerCase() === player.name.toLowerCase() || player.banned;
  $("btn-p-challenge").setAttribute("aria-label", t("players.challenge_label", { name: player.name }));
  renderRatings();
  renderGraphs();
  await loadGames();
}

export function hideProfile() {
  $("profile").hidden = true;
  current = null;
  run++;
}

export function wireProfile() {
  for (const speed of SPEEDS) option($("p-speed"), speed, speedName(speed));
  $("form-p-filters").addEventListener("change", () => { if (current) loadGames(); });
  $("form-p-filters").addEventListener("submit", (evt) => { evt.preventDefault(); if (current) loadGames(); });
  $("btn-p-challenge").onclick = () => { if (player) challenge(player.name); };
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => { if (current && player && !$("profile").hidden) renderGraphs(); }, 200);
  });
}
