// A signed-in player's news, on a server that keeps accounts, from the lobby's socket (lobbysocket.js) wherever
// the page is: a game of theirs becoming their turn (another game than the one on screen), a challenge to them (or
// an offer of a rematch), an invitation to a tournament, and their seek or challenge accepted while they are away
// from the game list. Each shows as
// a notice with a link, the tab's title counts them, and the browser shows a notification too when the player allowed
// it (and the page is in the background). The lobby's "Your turn" list (/api/account/turns) is kept here as well:
// the correspondence games waiting for the player's move, each a link to play it.

import { gameType, serverText, speedName, t } from "../i18n.js";
import { api } from "../net.js";
import { $, app, h } from "../page.js";
import { onAccountChange, signedIn } from "./account.js";
import { onLobbyMessage } from "../lobby/lobbysocket.js";
import { showCount } from "../play/alerts.js";
import { byDays, clockText } from "../play/clocks.js";
import { seeksShowing } from "../lobby/seeks.js";

let open = null; // the shell's: open a game (its address pushed)
let go = null; // the shell's: go to an address of the page (pushed)
let showing = false; // the lobby's "Your turn" list shows
let turns = []; // its games, as /api/account/turns lists them
let asking = 0; // the last request for them: an older one's answer is dropped
const notices = new Map(); // key → the notice's element, in the order shown

// ------------------------------------------------------------------ notices

function count() { showCount(notices.size); }

function dismiss(key) {
  const notice = notices.get(key);
  if (!notice) return;
  notice.remove();
  notices.delete(key);
  count();
}

// Dismiss the notices about a game (it is on screen now).
export function seenGame(id) {
  for (const [key, notice] of notices) if (notice.dataset.game === id) dismiss(key);
}

// Show a notice (again, in place of one with the same key): text, and a link (label, path, what it does).
function notify(key, text, label, path, follow) {
  dismiss(key);
  const notice = h("div", "notice");
  notice.dataset.key = key;
  if (path.startsWith("/game/")) notice.dataset.game = path.slice(6);
  const link = h("a", "button-link primary", label);
  link.href = path;
  link.onclick = (evt) => { evt.preventDefault(); dismiss(key); follow(); };
  const close = h("button", "notice-close", "×");
  close.title = t("notices.dismiss");
  close.setAttribute("aria-label", t("notices.dismiss_label", { text }));
  close.onclick = () => dismiss(key);
  notice.append(h("span", "notice-text", text), link, close);
  $("notices").append(notice);
  notices.set(key, notice);
  count();
  if ("Notification" in window && Notification.permission === "granted" && document.hidden) {
    try {
      const shown = new Notification(document.title.replace(/^\(\d+\) /, ""), { body: text, tag: key });
      shown.onclick = () => { window.focus(); dismiss(key); follow(); shown.close(); };
    } catch (err) { /* a browser that shows notifications only from a service worker */ }
  }
}

function playGame(id) { return () => open(id); }

function heard(message) {
  const me = signedIn();
  if (!me) return;
  if (message.type === "hello") {
    if (message.name === me) { turns = message.turns; renderTurns(); }
    return;
  }
  if (message.type === "turn") {
    const key = `turn:${message.game_id}`;
    if (message.your_turn && message.game_id !== app.gameId) {
      notify(key, t("notices.your_turn", { name: message.opponent, game: gameType(message.game), move: message.moves + 1 }), t("lobby.action_play"),
        `/game/${message.game_id}`, playGame(message.game_id));
    } else if (!message.your_turn) {
      dismiss(key);
    }
    if (showing) loadTurns();
    return;
  }
  if (message.type === "online") return; // who is online (players.js)
  if (message.type === "invite") { // an organiser invited the player to a tournament by invitation
    const path = `/tournament/${encodeURIComponent(message.id)}`;
    notify(`invite:${message.id}`, t("notices.invite", { name: message.by, tournament: message.name }), t("notices.open"), path,
      () => go(path));
    return;
  }
  if (message.type !== "challenge" && message.type !== "seek") return;
  if (message.type === "challenge" && message.change === "opened" && message.challenge.to === me) {
    const c = message.challenge;
    const terms = `${gameType(c.game)}, ${serverText(c.time_control)}, ${t(c.rated ? "seeks.rated" : "seeks.casual")}`;
    if (c.rematch_of) { // answered on the finished game's page, whose banner shows Accept and Decline
      notify(`challenge:${message.id}`, t("notices.rematch", { name: c.player, terms }), t("notices.answer"), `/game/${c.rematch_of}`,
        playGame(c.rematch_of));
    } else {
      notify(`challenge:${message.id}`, t("notices.challenge", { name: c.player, terms }), t("notices.answer"), "/", () => go("/"));
    }
  } else if (message.change !== "opened") {
    dismiss(`challenge:${message.id}`);
    if (message.change === "accepted" && message.player === me && !seeksShowing()) {
      const what = message.type === "challenge" ? "challenge" : "seek";
      notify(`accepted:${message.id}`, t(`notices.accepted_${what}`, { name: message.by }), t("lobby.action_play"),
        `/game/${message.game_id}`, playGame(message.game_id));
    }
  }
}

// ------------------------------------------------------------------ the lobby's "Your turn"

// The time left on the player's clock as the game's clock shows it ("1d 0h left", "23h 55m left", "4:36 left").
function left(game) {
  const clock = game.clock;
  if (!clock) return "";
  return t("notices.left", { time: clockText(clock.remaining[game.seat], byDays(clock)) });
}

function renderTurns() {
  const me = signedIn();
  $("turns").hidden = !showing || !me;
  if ($("turns").hidden) return;
  $("turn-list").replaceChildren(...turns.map((game) => {
    const li = h("li", "seek-row turn-row");
    li.dataset.id = game.id;
    const head = h("div", "seek-row-head");
    head.append(h("b", "", `${t("lobby.versus")} ${game.opponent}`), h("span", "seek-note", left(game)));
    const detail = h("div", "seek-detail muted", [gameType(game.game), speedName(game.speed), t(game.rated ? "seeks.rated" : "seeks.casual"), t("lobby.moves", { count: game.moves })].join(" · "));
    const box = h("div", "game-buttons");
    const a = h("a", "button-link primary", t("lobby.action_play"));
    a.href = `/game/${game.id}`;
    a.dataset.action = "play";
    a.setAttribute("aria-label", t("notices.play_label", { name: game.opponent, game: gameType(game.game) }));
    a.onclick = (evt) => { evt.preventDefault(); open(game.id); };
    box.append(a);
    li.append(head, detail, box);
    return li;
  }));
  $("turns-empty").hidden = turns.length > 0;
  const ask = "Notification" in window && Notification.permission === "default";
  $("btn-notify").hidden = !ask;
}

async function loadTurns() {
  const mine = ++asking;
  if (!signedIn()) { renderTurns(); return; }
  try {
    const answer = await api("GET", "/api/account/turns", undefined, null);
    if (mine !== asking) return;
    turns = answer.games;
  } catch (err) {
    return; // the list stays as it was; the next turn asks again
  }
  renderTurns();
}

// The lobby shows: its "Your turn" list with it, for a signed-in player.
export function showTurns() {
  if (!app.assets.accounts) return;
  showing = true;
  loadTurns();
}

export function hideTurns() {
  showing = false;
  if (app.assets.accounts) $("turns").hidden = true;
}

// openGame(id) opens a game (its address pushed); goTo(path) goes to an address of the page.
export function wireNotices(openGame, goTo) {
  open = openGame;
  go = goTo;
  if (!app.assets.accounts) return;
  onLobbyMessage(heard);
  onAccountChange(() => {
    for (const key of [...notices.keys()]) dismiss(key);
    turns = [];
    if (showing) loadTurns();
  });
  $("btn-notify").onclick = async () => {
    try { await Notification.requestPermission(); } catch (err) { /* asked in the old callback style: no answer */ }
    renderTurns();
  };
}
