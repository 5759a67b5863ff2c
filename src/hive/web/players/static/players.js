// Players, on a server that keeps accounts (app.assets.accounts; one machine's has none): their names as links to
// their profiles (/player/{name}, profile.js) wherever accounts show, the lobby's "Live games" (strongest first, each
// to watch) and "Who is online" (each with a Challenge, which opens the seek dialog of seeks.js with their name), the
// leaderboard at /leaderboard (a game and a speed chosen, with how many rated games a rating needs to be listed and
// how many the player has), a rated game's rating change once it is over (on the result banner and beside each
// player's name), and the ☰ menu's and the account dialog's links to the player's own profile, the leaderboard and
// the lobby's tournaments. The lobby's lists are asked for again every few seconds while it
// shows, and drawn again only when they changed.

import { gameType, speedName, t } from "../i18n.js";
import { api } from "../net.js";
import { $, app, h, toast } from "../page.js";
import { keepToken } from "../play/seats.js";
import { onAccountChange, signedIn } from "./account.js";
import { onLobbyMessage } from "../lobby/lobbysocket.js";

const POLL_MS = 8000;
export const SPEEDS = ["bullet", "blitz", "rapid", "classical", "correspondence"];
const DEFAULT_BOARD = { game: "Base+MLP", speed: "blitz" }; // the leaderboard's, as the API's

let go = null; // the shell's: go to an address of the page (pushed), as its links do
let open = null; // the shell's: open a game (its address pushed), {review} to start reviewing it
let active = false; // the lobby shows: its lists are refreshed
let timer = null;
let run = 0; // the last refresh asked for: an older one's answer is dropped
let shown = null; // what the lists show, to draw them again only when it changed
let challenging = false; // the seek dialog was opened by a Challenge here: its name is cleared when it closes

// ------------------------------------------------------------------ names, ratings and games

export function profilePath(name) { return `/player/${encodeURIComponent(name)}`; }

export function botMark() {
  const mark = h("span", "bot-mark", "BOT");
  mark.title = t("players.bot_title");
  return mark;
}

// A player's name as a link to their profile (a plain click stays in the page).
export function playerLink(name, className = "player-link") {
  const a = h("a", className, name);
  a.href = profilePath(name);
  a.onclick = (evt) => {
    if (!go || evt.button || evt.ctrlKey || evt.metaKey || evt.shiftKey || evt.altKey) return;
    evt.preventDefault();
    go(a.getAttribute("href"));
  };
  return a;
}

// A rating as hivegame.com shows it: "1500?" while provisional.
export function ratingText(rating, provisional) { return `${Math.round(rating)}${provisional ? "?" : ""}`; }

// A change of rating: "+12", "−12" (a minus sign), "±0".
export function changeText(diff) { return diff > 0 ? `+${diff}` : diff < 0 ? `−${-diff}` : "±0"; }

// A rated game's effect on seat's rating, once it is over ({before, after, diff}, rounded as shown), or null.
export function ratingChange(state, seat) {
  if (!state || !state.ratings) return null;
  const before = Math.round(state.ratings.before[seat]), after = Math.round(state.ratings.after[seat]);
  return { before, after, diff: after - before };
}

function changeClass(diff) { return diff > 0 ? "up" : diff < 0 ? "down" : "even"; }

// A side card's rating badge in a rated game over: the rating after and the change ("1512 +12").
export function ratingBadge(state, seat) {
  const change = ratingChange(state, seat);
  if (!change) return null;
  const badge = h("span", `rating-badge ${changeClass(change.diff)}`);
  badge.append(h("span", "", String(change.after)), " ", h("b", "", changeText(change.diff)));
  badge.title = t("players.rating_change", { before: change.before, after: change.after, diff: changeText(change.diff) });
  badge.setAttribute("aria-label", badge.title);
  return badge;
}

// A side card's rating while the game is played: the account's rating in the game's game and speed when it began
// ("1500?" while provisional), or null for a guest's seat.
export function ratingNow(state, seat) {
  const account = state && state.accounts && state.accounts[seat];
  if (!account || typeof account.rating !== "number") return null;
  const text = ratingText(account.rating, account.provisional);
  const badge = h("span", "card-rating", text);
  badge.title = t(account.provisional ? "players.rating_provisional" : "players.rating", { rating: text });
  return badge;
}

// The result banner's lines of a rated game over: each side's rating before → after, and the change.
export function renderRatingChange(sideName) {
  const box = $("banner-ratings");
  const s = app.state;
  const rows = [];
  for (const seat of [0, 1]) {
    const change = ratingChange(s, seat);
    if (!change) continue;
    const li = h("li", changeClass(change.diff));
    li.dataset.seat = seat;
    const who = s.names[seat] || sideName(seat);
    li.append(h("span", "who", who), h("span", "num", `${change.before} → ${change.after}`),
      h("b", "num", changeText(change.diff)));
    li.setAttribute("aria-label", t("players.rating_change_label", { who, before: change.before, after: change.after, diff: changeText(change.diff) }));
    rows.push(li);
  }
  box.hidden = !rows.length;
  box.replaceChildren(...rows);
}

// Open a game from a list: one the signed-in player plays with their seat (as a tournament's), any other watched.
export async function enterGame(id, names, review = false) {
  const me = signedIn();
  if (me && names.includes(me)) {
    try {
      const seat = await api("GET", `/api/games/${id}/seat`, undefined, null);
      keepToken(seat.id, seat.token);
    } catch (err) { /* no seat after all: watched */ }
  }
  await open(id, { review });
}

// Challenge a player: the seek dialog of seeks.js, its name filled in (a guest is asked to sign in there).
export function challenge(name) {
  $("seek-to").value = name;
  challenging = true;
  $("btn-seek").click();
  if (!$("dlg-seek").open) { challenging = false; $("seek-to").value = ""; }
}

// ------------------------------------------------------------------ the lobby's lists

function liveRow(game) {
  const li = h("li", "seek-row live-row");
  li.dataset.id = game.id;
  const head = h("div", "seek-row-head");
  game.names.forEach((name, seat) => {
    if (seat) head.append(h("span", "muted", t("lobby.versus")));
    const who = h("span", "seek-player");
    who.append(playerLink(name), " ", h("span", "seek-rating", String(game.ratings[seat])));
    head.append(who);
  });
  const detail = h("div", "seek-detail muted",
    [gameType(game.game), speedName(game.speed), t(game.rated ? "seeks.rated" : "seeks.casual"), t("lobby.moves", { count: game.moves })].join(" · "));
  const buttons = h("div", "game-buttons");
  const me = signedIn();
  const action = me && game.names.includes(me) ? "play" : "watch";
  const label = t(`lobby.action_${action}`);
  const watch = h("a", "button-link primary-link", label);
  watch.href = `/game/${game.id}`;
  watch.dataset.action = action;
  watch.setAttribute("aria-label", `${label}: ${game.names.join(` ${t("lobby.versus")} `)}, ${gameType(game.game)} ${speedName(game.speed)}`);
  watch.onclick = (evt) => { evt.preventDefault(); enterGame(game.id, game.names); };
  buttons.append(watch);
  li.append(head, detail, buttons);
  return li;
}

function onlineItem(player, me) {
  const li = h("li", player.name === me ? "mine" : "");
  li.dataset.id = player.name;
  li.append(playerLink(player.name));
  if (player.bot) li.append(botMark());
  if (player.name === me) li.append(h("span", "muted", t("players.you")));
  else if (me) {
    const button = h("button", "small-button", t("seeks.challenge"));
    button.dataset.action = "challenge";
    button.setAttribute("aria-label", t("players.challenge_label", { name: player.name }));
    button.onclick = () => challenge(player.name);
    li.append(button);
  }
  return li;
}

// Redraw a list, the focus kept on the same control of the same item.
function fill(list, items) {
  const focused = list.contains(document.activeElement) ? document.activeElement : null;
  const where = focused && focused.closest("[data-id]");
  const action = focused && (focused.dataset.action || null);
  list.replaceChildren(...items);
  if (where) {
    const item = list.querySelector(`[data-id="${CSS.escape(where.dataset.id)}"]`);
    const again = item && (action ? item.querySelector(`[data-action="${action}"]`) : item.querySelector("a"));
    if (again) again.focus();
  }
}

function renderLobby(players, games) {
  const me = signedIn();
  const key = JSON.stringify([me, players.map((p) => [p.name, p.bot]), games]);
  if (key === shown) return;
  shown = key;
  fill($("live-list"), games.map(liveRow));
  $("live-empty").hidden = games.length > 0;
  fill($("online-list"), players.map((player) => onlineItem(player, me)));
  $("online-empty").hidden = players.length > 0;
}

async function refresh() {
  const mine = ++run;
  clearTimeout(timer);
  if (!active) return;
  if (!document.hidden) {
    try {
      const [online, live] = await Promise.all([
        api("GET", "/api/online", undefined, null), api("GET", "/api/live", undefined, null),
      ]);
      if (mine !== run || !active) return;
      renderLobby(online.players, live.games);
    } catch (err) {
      if (mine !== run || !active) return;
      toast(t("players.online_not_refreshed", { error: err.message }));
    }
  }
  if (mine === run && active) timer = setTimeout(refresh, POLL_MS);
}

// A refresh in a moment: the pushes that come together (a game begun tells both players) make one.
let soonTimer = null;
function soon() {
  clearTimeout(soonTimer);
  soonTimer = setTimeout(() => { if (active) refresh(); }, 200);
}

// Show the lobby's live games and who is online (nothing on a server without accounts), kept fresh.
export function showCommunity() {
  if (!app.assets.accounts) return;
  $("live-games").hidden = false;
  $("online").hidden = false;
  active = true;
  refresh();
}

// The lobby is left: stop asking.
export function hideCommunity() {
  active = false;
  run++;
  clearTimeout(timer);
}

// ------------------------------------------------------------------ the leaderboard

function option(select, value, text = value) {
  const node = h("option", "", text);
  node.value = value;
  select.append(node);
}

function leaderRow(line, me) {
  const tr = h("tr", line.name === me ? "mine" : "");
  const who = h("th", "name");
  who.scope = "row";
  who.append(playerLink(line.name));
  if (line.bot) who.append(" ", botMark());
  tr.append(h("td", "num", String(line.rank)), who, h("td", "num", ratingText(line.rating, line.provisional)),
    h("td", "num", String(line.games)), h("td", "num", `${line.wins}/${line.draws}/${line.losses}`));
  return tr;
}

function headRow(cells) {
  const thead = h("thead");
  const tr = h("tr");
  for (const [text, title, cls] of cells) {
    const th = h("th", cls);
    th.scope = "col";
    if (title) { const abbr = h("abbr", "", text); abbr.title = title; th.append(abbr); } else th.textContent = text;
    tr.append(th);
  }
  thead.append(tr);
  return thead;
}

// What it takes to be listed: about established_after rated games in the game and speed; the player's own count.
function renderThreshold(board) {
  $("lb-threshold").textContent = t("players.threshold", { count: board.established_after });
  const you = board.you;
  $("lb-you").hidden = !you;
  if (!you) return;
  const have = t("players.you_have", { count: you.games, game: gameType(board.game), speed: speedName(board.speed) });
  $("lb-you").textContent = you.provisional ? t("players.to_go", { have, count: you.more }) : t("players.established", { have });
}

export async function showLeaderboard() {
  $("leaderboard").hidden = false;
  document.title = t("top.leaderboard");
  const query = new URLSearchParams(location.search);
  const game = query.get("game") || DEFAULT_BOARD.game, speed = query.get("speed") || DEFAULT_BOARD.speed;
  $("lb-error").textContent = "";
  let board;
  try {
    board = await api("GET", `/api/leaderboard?${new URLSearchParams({ game, speed })}`, undefined, null);
  } catch (err) {
    $("lb-error").textContent = err.message;
    return;
  }
  const games = [...new Set([DEFAULT_BOARD.game, ...board.games, game])].sort();
  $("lb-game").replaceChildren();
  for (const name of games) option($("lb-game"), name, gameType(name));
  $("lb-game").value = board.game;
  $("lb-speed").value = board.speed;
  renderThreshold(board);
  const me = signedIn();
  const body = h("tbody");
  body.append(...board.leaders.map((line) => leaderRow(line, me)));
  $("lb-table").replaceChildren(h("caption", "sr-only", t("players.board_caption", { game: gameType(board.game), speed: speedName(board.speed) })),
    headRow([["#", t("players.rank"), "num"], [t("panel.player"), null, "name"], [t("seeks.rating"), null, "num"],
      [t("shell.games"), t("players.games_title"), "num"], [t("players.wdl"), t("players.wdl_title"), "num"]]), body);
  $("lb-box").hidden = !board.leaders.length;
  $("lb-empty").hidden = board.leaders.length > 0;
}

function chooseBoard() {
  const query = new URLSearchParams({ game: $("lb-game").value, speed: $("lb-speed").value });
  history.replaceState(history.state, "", `/leaderboard?${query}`);
  showLeaderboard();
}

export function hideLeaderboard() { $("leaderboard").hidden = true; }

// ------------------------------------------------------------------ wiring

// The ☰ menu's links (a phone's; the wide top bar has the account's button, and the lobby these lists) and the
// account dialog's: the player's own profile, the leaderboard, the lobby's tournaments.
function wireMenu() {
  const follow = (id, path, before = () => {}) => {
    $(id).onclick = (evt) => {
      if (evt.button || evt.ctrlKey || evt.metaKey || evt.shiftKey || evt.altKey) return;
      evt.preventDefault();
      before();
      go(path());
    };
  };
  $("menu-leaderboard").hidden = false;
  $("menu-tournaments").hidden = false;
  follow("menu-leaderboard", () => "/leaderboard");
  follow("menu-tournaments", () => "/#tournaments");
  follow("menu-profile", () => profilePath(signedIn()));
  follow("account-profile", () => profilePath(signedIn()), () => $("dlg-account").close());
  const mine = (name) => {
    $("menu-profile").hidden = !name;
    for (const id of ["menu-profile", "account-profile"]) $(id).href = name ? profilePath(name) : "/";
  };
  onAccountChange(mine);
  mine(signedIn());
}

// goTo(path) goes to an address of the page (pushed); openGame(id, {review}) opens a game (its address pushed).
export function wirePlayers(goTo, openGame) {
  if (!app.assets.accounts) return;
  go = goTo;
  open = openGame;
  for (const speed of SPEEDS) option($("lb-speed"), speed, speedName(speed));
  $("form-lb").addEventListener("change", chooseBoard);
  $("form-lb").addEventListener("submit", (evt) => { evt.preventDefault(); chooseBoard(); });
  $("link-leaderboard").onclick = (evt) => { evt.preventDefault(); go("/leaderboard"); };
  wireMenu();
  $("dlg-seek").addEventListener("close", () => {
    if (challenging) { challenging = false; $("seek-to").value = ""; }
  });
  onAccountChange(() => { shown = null; if (active) refresh(); });
  // pushed: an account came online, a game of the player's moved, a game began from a seek or a challenge
  onLobbyMessage((message) => {
    if (!active) return;
    if (message.type === "online" || message.type === "turn" || message.change === "accepted") soon();
  });
  document.addEventListener("visibilitychange", () => { if (active && !document.hidden) refresh(); });
}
