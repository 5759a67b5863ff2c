// The server: JSON API calls with the seat token, and the game's WebSocket, reconnected when it drops.

import { serverText, t } from "./i18n.js";
import { $, app } from "./page.js";

// A call of the JSON API with the open game's seat token, or with another (token: a text, or null for none);
// extra: more headers (an account's CSRF token).
export async function api(method, path, body, token = undefined, extra = {}) {
  const headers = { "content-type": "application/json", ...extra };
  const seat = token === undefined ? app.token : token;
  if (seat) headers["x-seat-token"] = seat;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new Error(t("net.unreachable"));
  }
  let data = null;
  try { data = await response.json(); } catch (err) { data = null; }
  if (!response.ok) { // the message is in the page's language: callers tell refusals apart by their status
    const error = new Error((data && data.error) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

let socket = null;
let delay = 500;

// Stop watching the open game.
export function disconnect() {
  if (socket) { socket.onclose = null; socket.close(); socket = null; }
}

// Watch the open game: every state the server sends goes to onState; on a server with accounts, the socket also
// says when its game's chat has a new message ({type: "chat", room, id}), which goes to onEvent, as does its
// opening ({type: "open"}: what came while it was closed is to be read again).
export function connect(onState, onEvent = null) {
  if (socket) { socket.onclose = null; socket.close(); }
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const query = new URLSearchParams();
  if (app.token) query.set("token", app.token);
  if (onEvent) query.set("chat", "1");
  const q = query.toString() ? `?${query}` : "";
  const ws = new WebSocket(`${proto}://${location.host}/ws/games/${app.gameId}${q}`);
  socket = ws;
  const conn = $("conn");
  ws.onopen = () => {
    delay = 500; conn.textContent = t("net.live"); conn.className = "conn";
    if (onEvent) onEvent({ type: "open" });
  };
  ws.onmessage = (evt) => {
    if (evt.data === "pong") return;
    const data = JSON.parse(evt.data);
    if (data.type) { if (onEvent) onEvent(data); return; } // a state has no type
    onState(data);
  };
  ws.onclose = (evt) => {
    if (evt.code === 4410 || evt.code === 4404) { conn.textContent = serverText(evt.reason) || t("net.gone"); return; }
    if (evt.code === 4429) { // too many sockets open from here: say why, and try again a while later
      conn.textContent = serverText(evt.reason) || t("net.too_many");
      conn.className = "conn down";
      setTimeout(() => { if (socket === ws) connect(onState, onEvent); }, 30000);
      return;
    }
    conn.textContent = t("net.lost");
    conn.className = "conn down";
    setTimeout(() => { if (socket === ws) connect(onState, onEvent); }, delay);
    delay = Math.min(delay * 2, 5000);
  };
}
