// The lobby's WebSocket (/ws/lobby), on a server that keeps accounts: the open seeks and challenges as they change,
// and the signed-in player's own news (whose turn it is in their games), pushed by the server instead of asked for.
// Its first message, "hello", is the lobby as it stands; the changes follow (docs/site/accounts.rst lists them).
// It is open while the lobby shows or a player is signed in, opened again after a drop (and when who is signed in
// changes: the session's cookie says who it is for). When it cannot be opened (refused, or the network keeps it
// from opening), `live()` stays false and the lobby asks for its lists every few seconds instead.

import { app } from "../page.js";
import { onAccountChange } from "../players/account.js";

const listeners = []; // each gets every message: listener(message)
const watchers = []; // each is told when the socket goes live or stops: watcher(live)
let socket = null;
let isLive = false;
let wanted = false;
let showing = false; // the lobby shows
let signed = false; // a player is signed in (their news comes through it wherever the page is)
let delay = 500;
let failures = 0; // opening attempts in a row that got no message
let timer = null;

// Whether the socket is open and has sent its hello (the lists it keeps are the server's).
export function live() { return isLive; }

export function onLobbyMessage(listener) { listeners.push(listener); }
export function onLobbyLive(watcher) { watchers.push(watcher); }

function setLive(value) {
  if (isLive === value) return;
  isLive = value;
  document.body.dataset.lobby = value ? "live" : "down"; // for a test to wait on
  for (const watcher of watchers) watcher(value);
}

function open() {
  clearTimeout(timer);
  if (!wanted || !app.assets.accounts) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/lobby`);
  socket = ws;
  let heard = false;
  ws.onmessage = (evt) => {
    if (socket !== ws || evt.data === "pong") return;
    const message = JSON.parse(evt.data);
    if (!heard) { heard = true; failures = 0; delay = 500; }
    if (message.type === "hello") setLive(true);
    for (const listener of listeners) listener(message);
  };
  ws.onclose = (evt) => {
    if (socket !== ws) return;
    socket = null;
    if (!heard) failures++;
    if (isLive) setLive(false);
    else for (const watcher of watchers) watcher(false); // it could not open: the lobby may poll
    if (!wanted || evt.code === 4404) return; // no lobby on this server
    // refused for too many sockets: try again later, polling meanwhile
    timer = setTimeout(open, evt.code === 4429 ? 30000 : delay);
    delay = Math.min(delay * 2, 10000);
  };
}

function sync() {
  const want = showing || signed;
  if (want === wanted) return;
  wanted = want;
  if (want && !socket) open();
  if (!want && socket) { const ws = socket; socket = null; ws.close(); setLive(false); clearTimeout(timer); }
}

// The lobby shows (its lists want the socket), or no longer.
export function lobbyShowing(on) { showing = on; sync(); }

// Who is signed in changed: the socket is for the session it was opened with, so it is opened again.
function reopen() {
  if (socket) { const ws = socket; socket = null; ws.close(); setLive(false); }
  failures = 0;
  delay = 500;
  clearTimeout(timer);
  if (wanted) open();
}

onAccountChange((name) => {
  const was = wanted;
  signed = !!name;
  sync();
  if (was && wanted) reopen(); // open already, for the session before
});

// How many attempts in a row got nothing (the lobby polls meanwhile).
export function lobbyFailures() { return failures; }

// Keep the connection alive through proxies that close quiet ones.
setInterval(() => { if (socket && socket.readyState === WebSocket.OPEN) socket.send("ping"); }, 25000);
