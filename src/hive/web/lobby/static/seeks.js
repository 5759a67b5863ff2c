// The game list's "Play someone", on a server that keeps accounts (app.assets.accounts; one machine's has none): the
// open seeks (Accept, or Cancel on one's own; a guest is asked to sign in), the challenges to and from the account
// (Accept and Decline, Withdraw), and the dialog that seeks a game or challenges one player. The lists are kept by
// the lobby's WebSocket (lobbysocket.js), which the server pushes every change to; only when it cannot be opened are
// they asked for again every few seconds while the game list shows. A game starts when a seek or a challenge is
// accepted: the accepting page has its seat token in the answer; the seeker's hears its own seek taken (its
// game_id), asks for its seat (/api/games/{id}/seat), and both keep the token and open the game as a created game is
// opened.

import { gameType, serverText, side as sideOf, t } from "../i18n.js";
import { api } from "../net.js";
import { $, app, h, toast } from "../page.js";
import { keepToken } from "../play/seats.js";
import { csrfHeaders, onAccountChange, signedIn } from "../players/account.js";
import { clockForRated, openSignedInDialog, optionFields, timeControl } from "../play/dialogs.js";
import { live, lobbyFailures, lobbyShowing, onLobbyLive, onLobbyMessage } from "./lobbysocket.js";
import { playerLink } from "../players/players.js";
import { showQuick, wireQuick } from "./quickpair.js";

const POLL_MS = 3000;
// How long the lists wait for the lobby's socket to open before they are asked for by polling.
const SOCKET_WAIT_MS = 5000;

let open = null; // the shell's: open game id, its address pushed, as a created game is opened
let load = null; // the shell's: the page module of a kind of game, as a promise
let active = false; // the game list shows: the lists are refreshed
let timer = null;
let run = 0; // the last refresh asked for: an older one's answer is dropped
let shown = null; // what the lists show, to draw them again only when it changed (a button keeps its focus)
let entering = false; // a game is being opened
let failed = false; // the last refresh failed: its error shows
// The account's own open seeks and challenges, by id: once one is gone from the lists, its game (if it was
// accepted) is opened.
const watched = new Map();
let pushed = null; // {seeks, incoming, outgoing}: the lists as the lobby's socket keeps them
let waited = false; // the lists waited once for the socket to open

// A change made with the session's cookie, its CSRF token sent.
const changing = (method, path, body = undefined) => api(method, path, body, null, csrfHeaders());

function say(text) { $("seeks-error").textContent = text; }

// ------------------------------------------------------------------ the lists

function gameName(seek) {
  const title = (app.games[seek.kind] || { title: seek.kind }).title;
  return seek.game && seek.game !== title ? `${title} (${gameType(seek.game)})` : title;
}

// The side the seeker plays, in the game's own names.
function sideText(seek) {
  if (seek.colour === "random") return t("seeks.random_sides");
  const sides = (app.games[seek.kind] || { sides: [] }).sides;
  const side = sides.find((name) => name.toLowerCase() === seek.colour) || seek.colour;
  return t(seek.player === signedIn() ? "seeks.you_play" : "seeks.plays", { side: sideOf(seek.kind, side) });
}

// The ratings a seek's opponent may have: "for 1400–1800", "for 1600+", "for up to 1800", or null for any.
function rangeText([low, high] = [null, null]) {
  if (low === null && high === null) return null;
  const [from, to] = [String(low), String(high)]; // a rating as the lists write it: no thousands separator
  if (low === null) return t("pairing.range_below", { high: to });
  return high === null ? t("pairing.range_above", { low: from }) : t("pairing.range_between", { low: from, high: to });
}

function detailText(seek) {
  const range = rangeText(seek.rating_range);
  return [gameName(seek), serverText(seek.time_control), t(seek.rated ? "seeks.rated" : "seeks.casual"), sideText(seek), ...(range ? [range] : [])].join(" · ");
}

// One seek or challenge: who (and their rating), what game, and its buttons ([label, action, class, handler]).
function row(seek, who, buttons, { rating = true, note = null } = {}) {
  const li = h("li", "seek-row");
  li.dataset.id = seek.id;
  const head = h("div", "seek-row-head");
  const name = h("b", "seek-player");
  name.append(playerLink(who)); // to the player's profile
  head.append(name);
  if (seek.bot) {
    const bot = h("span", "bot-mark", "BOT");
    bot.title = t("players.bot_title");
    head.append(bot);
  }
  if (rating) {
    const score = h("span", "seek-rating", `${seek.rating}${seek.provisional ? "?" : ""}`);
    score.title = t(seek.provisional ? "seeks.rating_provisional" : "seeks.rating");
    head.append(score);
  }
  if (note) head.append(h("span", "seek-note", note));
  const detail = h("div", "seek-detail muted", detailText(seek));
  const box = h("div", "game-buttons");
  for (const [label, action, cls, handler] of buttons) {
    if (!handler) { box.append(h("span", "seek-hint", label)); continue; }
    const button = h("button", cls, label);
    button.dataset.action = action;
    button.setAttribute("aria-label", `${label}: ${who}, ${detailText(seek)}`);
    button.onclick = () => handler(button);
    box.append(button);
  }
  li.append(head, detail, box);
  return li;
}

// Redraw a list, the focus kept on the same button of the same seek.
function fill(list, rows) {
  const focused = list.contains(document.activeElement) ? document.activeElement : null;
  const where = focused && focused.closest("[data-id]");
  list.replaceChildren(...rows);
  if (where) {
    const again = list.querySelector(`[data-id="${where.dataset.id}"] [data-action="${focused.dataset.action}"]`);
    if (again) again.focus();
  }
}

function render(seeks, challenges) {
  const me = signedIn();
  const key = JSON.stringify([me, seeks, challenges]);
  if (key === shown) return;
  shown = key;
  showQuick(seeks);
  $("btn-seek").textContent = t(me ? "seeks.seek" : "seeks.sign_in_to_play");
  const guest = [[t("seeks.sign_in_to_play"), "", "", null]];
  fill($("seek-list"), seeks.map((seek) => {
    if (seek.player === me) return row(seek, seek.player, [[t("seeks.cancel"), "cancel", "danger", (b) => cancel(b, seek)]], { note: t("seeks.yours") });
    return row(seek, seek.player, me ? [[t("seeks.accept"), "accept", "primary", (b) => accept(b, `/api/seeks/${seek.id}/accept`)]] : guest);
  }));
  $("seeks-empty").hidden = seeks.length > 0;
  fill($("challenge-in-list"), challenges.incoming.map((seek) => row(seek, seek.player, [
    [t("seeks.accept"), "accept", "primary", (b) => accept(b, `/api/challenges/${seek.id}/accept`)],
    [t("seeks.decline"), "decline", "", (b) => decline(b, seek, t("seeks.declined"))],
  ], { note: t("seeks.challenges_you") })));
  $("challenges-in").hidden = !challenges.incoming.length;
  fill($("challenge-out-list"), challenges.outgoing.map((seek) => row(seek, seek.to, [
    [t("seeks.withdraw"), "withdraw", "danger", (b) => decline(b, seek, t("seeks.withdrawn"))],
  ], { rating: false, note: t("seeks.waiting_answer") })));
  $("challenges-out").hidden = !challenges.outgoing.length;
}

// ------------------------------------------------------------------ refreshing, and the games that start

// Show the lists as the lobby's socket keeps them; without it, ask for them again, and again in a few seconds
// while the game list shows.
async function refresh() {
  const mine = ++run;
  clearTimeout(timer);
  if (!active) return;
  if (live()) {
    if (pushed) render(pushed.seeks, pushed);
    return;
  }
  if (!lobbyFailures() && !waited) { // the socket is opening: its hello brings the lists
    waited = true;
    timer = setTimeout(refresh, SOCKET_WAIT_MS);
    return;
  }
  if (!document.hidden) {
    try {
      const me = signedIn();
      const [listed, challenges] = await Promise.all([
        api("GET", "/api/seeks", undefined, null),
        me ? api("GET", "/api/challenges", undefined, null) : { incoming: [], outgoing: [] },
      ]);
      if (mine !== run || !active) return;
      if (failed) { failed = false; say(""); }
      render(listed.seeks, challenges);
      if (me === signedIn()) await follow(me, listed.seeks, challenges.outgoing);
    } catch (err) {
      if (mine !== run || !active) return;
      failed = true;
      say(t("seeks.not_refreshed", { error: err.message }));
    }
  }
  if (mine === run && active) timer = setTimeout(refresh, POLL_MS);
}

// A message of the lobby's socket: the lists as they change, and the account's own seeks taken or declined.
function heard(message) {
  const me = signedIn();
  if (message.type === "hello") {
    pushed = { seeks: message.seeks, incoming: message.incoming, outgoing: message.outgoing };
  } else if (!pushed || (message.type !== "seek" && message.type !== "challenge")) {
    return;
  } else if (message.change === "opened" && message.type === "seek") {
    pushed.seeks = [message.seek, ...pushed.seeks.filter((seek) => seek.id !== message.id)];
  } else if (message.change === "opened") {
    const list = message.challenge.player === me ? "outgoing" : "incoming";
    pushed[list] = [message.challenge, ...pushed[list].filter((seek) => seek.id !== message.id)];
  } else {
    for (const list of ["seeks", "incoming", "outgoing"]) pushed[list] = pushed[list].filter((seek) => seek.id !== message.id);
    watched.delete(message.id);
    if (message.player === me && message.change === "accepted") taken(message);
    if (message.player === me && message.change === "declined") toast(t("seeks.challenge_declined", { name: message.to }), false);
  }
  if (active && live()) render(pushed.seeks, pushed);
}

// The account's own seek or challenge was taken: at the game list, its game opens (elsewhere a notice says so).
async function taken(message) {
  if (!active || entering) return;
  try {
    const seat = await api("GET", `/api/games/${message.game_id}/seat`, undefined, null);
    if (!active) return;
    toast(message.to ? t("seeks.challenge_accepted", { name: message.to }) : t("seeks.seek_accepted"), false);
    await enter(seat.id, seat.token);
  } catch (err) {
    say(err.message);
  }
}

// Watch the account's own open seeks and challenges; open the game of one that is gone because it was accepted.
async function follow(me, seeks, outgoing) {
  const own = [...seeks.filter((seek) => seek.player === me), ...outgoing];
  for (const seek of own) watched.set(seek.id, seek);
  const ids = new Set(own.map((seek) => seek.id));
  for (const [id, seek] of watched) {
    if (ids.has(id)) continue;
    let now;
    try {
      now = await api("GET", `/api/seeks/${id}`, undefined, null);
    } catch (err) {
      watched.delete(id); // gone: cancelled elsewhere, or the challenge declined
      if (seek.to) toast(t("seeks.challenge_declined", { name: seek.to }), false);
      continue;
    }
    if (!now.game_id || !active) continue;
    const seat = await api("GET", `/api/games/${now.game_id}/seat`, undefined, null);
    watched.delete(id);
    keepToken(seat.id, seat.token);
    if (!active) return;
    toast(seek.to ? t("seeks.challenge_accepted", { name: seek.to }) : t("seeks.seek_accepted"), false);
    await enter(seat.id, seat.token);
    return;
  }
}

// Open a game the account plays, as a created game is opened (its seat token kept in this browser).
async function enter(id, token) {
  keepToken(id, token);
  if (entering) return;
  entering = true;
  try {
    hideSeeks();
    if ($("dlg-seek").open) $("dlg-seek").close(); // another seek was being made when this one was taken
    await open(id);
  } finally {
    entering = false;
  }
}

async function accept(button, path) {
  button.disabled = true;
  say("");
  try {
    const data = await changing("POST", path);
    await enter(data.id, data.token);
  } catch (err) {
    say(err.message);
    button.disabled = false;
    refresh();
  }
}

async function cancel(button, seek) {
  button.disabled = true;
  say("");
  try {
    await changing("DELETE", `/api/seeks/${seek.id}`);
    watched.delete(seek.id);
    toast(t("seeks.cancelled"), false);
  } catch (err) {
    say(err.message);
  }
  refresh();
}

// Decline a challenge to the account, or withdraw one of its own (the same call).
async function decline(button, seek, done) {
  button.disabled = true;
  say("");
  watched.delete(seek.id);
  try {
    await changing("POST", `/api/challenges/${seek.id}/decline`);
    toast(done, false);
  } catch (err) {
    say(err.message);
  }
  refresh();
}

// ------------------------------------------------------------------ the dialog

// The option fields of a kind of game, drawn by its page module as New game's are (dialogs.js), into the dialog.
function fieldsFor(kind) { return optionFields(kind, $("seek-options")); }

// The dialog's fields for the game chosen (its sides, its options), whether the game is rated (untimed is not
// for a rated game) and whether it challenges a player.
async function syncDialog() {
  const kind = $("seek-game").value;
  const info = app.games[kind];
  const sides = $("seek-colour").options;
  info.sides.forEach((side, seat) => {
    sides[seat].value = side.toLowerCase();
    sides[seat].textContent = seat === info.first ? `${sideOf(kind, side)} (${info.first_note})` : sideOf(kind, side);
  });
  clockForRated($("seek-rated").checked, $("seek-time"));
  const to = $("seek-to").value.trim();
  $("seek-title").textContent = t(to ? "seeks.challenge_title" : "seeks.seek");
  $("btn-seek-send").textContent = t(to ? "seeks.challenge" : "seeks.seek_short");
  const { box } = await fieldsFor(kind);
  if ($("seek-game").value !== kind) return; // another game was chosen meanwhile
  for (const other of $("seek-options").children) other.hidden = other !== box;
}

function openDialog() { openSignedInDialog("seek", syncDialog, "seek-game"); }

async function send() {
  const kind = $("seek-game").value;
  const { module, box } = await fieldsFor(kind);
  const body = {
    kind, options: module.options(box), time_control: timeControl($("seek-time").value),
    rated: $("seek-rated").checked, colour: $("seek-colour").value,
  };
  const bound = (id) => ($(id).value.trim() === "" ? null : Number($(id).value));
  if (bound("seek-low") !== null || bound("seek-high") !== null) body.rating_range = [bound("seek-low"), bound("seek-high")];
  const to = $("seek-to").value.trim();
  const button = $("btn-seek-send");
  button.disabled = true;
  $("seek-error").textContent = "";
  try {
    const seek = await (to ? changing("POST", "/api/challenges", { ...body, to }) : changing("POST", "/api/seeks", body));
    watched.set(seek.id, seek);
    $("dlg-seek").close();
    $("seek-to").value = "";
    toast(to ? t("seeks.challenge_sent", { name: seek.to }) : t("seeks.seek_open"), false);
    refresh();
  } catch (err) {
    $("seek-error").textContent = err.message;
  } finally {
    button.disabled = false;
  }
}

// ------------------------------------------------------------------ wiring

// Show the section with the game list (nothing on a server without accounts), and keep its lists fresh.
export function showSeeks() {
  if (!app.assets.accounts) return;
  $("seeks").hidden = false;
  active = true;
  waited = false;
  lobbyShowing(true);
  refresh();
}

// The game list is left: stop asking.
export function hideSeeks() {
  active = false;
  run++;
  clearTimeout(timer);
  if (app.assets && app.assets.accounts) lobbyShowing(false);
}

// Whether the game list with the seeks shows.
export function seeksShowing() { return active; }

// openGame(id) opens a game (its address pushed); loadModule(kind) is the shell's. Resolves once the dialog's
// fields are drawn.
export async function wireSeeks(openGame, loadModule) {
  if (!app.assets.accounts) return;
  open = openGame;
  load = loadModule;
  for (const info of app.assets.games) {
    const option = h("option", "", info.title);
    option.value = info.kind;
    $("seek-game").append(option);
  }
  // the time controls of New game, but for a custom one
  for (const node of $("time-control").children) $("seek-time").append(node.cloneNode(true));
  $("seek-time").querySelector("[value=custom]").remove();
  $("seek-time").value = "blitz";
  $("btn-seek").onclick = openDialog;
  $("form-seek").addEventListener("change", syncDialog);
  $("seek-to").addEventListener("input", syncDialog);
  $("form-seek").addEventListener("submit", (evt) => { evt.preventDefault(); send(); });
  $("dlg-seek").querySelector("[data-close]").onclick = () => $("dlg-seek").close();
  onAccountChange(() => { watched.clear(); shown = null; pushed = null; if (active) refresh(); });
  onLobbyMessage(heard);
  onLobbyLive((on) => {
    if (!on && !lobbyFailures()) waited = false; // dropped, opening again: its hello brings the lists
    if (active) refresh();
  });
  document.addEventListener("visibilitychange", () => { if (active && !document.hidden) refresh(); });
  const quick = wireQuick({ enter, watch: (seek) => watched.set(seek.id, seek) });
  await Promise.all([quick, ...app.assets.games.map((info) => fieldsFor(info.kind))]);
  await syncDialog();
}
