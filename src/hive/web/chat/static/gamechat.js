// The game's chat, in the side panel of a game between accounts on a server that keeps them: the players' room for
// its two players, the spectators' room for everyone else (the players read it too once the game is over, as the
// server allows). The game's socket says when a room it may read has a new message ({type: "chat", room, id}; net.js
// hands it here), and the room is read again: every message is written as text, never as markup. Each message of
// another player has Block (their messages are hidden from you, their challenges refused) and Report (to the admins).
// Mute hides the chat, for every game, until it is turned on again; on a phone the chat folds into its title row.

import { api } from "../net.js";
import { $, app, h, toast } from "../page.js";
import { askSignIn, csrfHeaders, onAccountChange, signedIn } from "../players/account.js";
import { accountSeat } from "../play/panel.js";
import { onTab, tabShown } from "../play/sidetabs.js";

const MUTED_KEY = "hive.chat.muted";
let muted = localStorage.getItem(MUTED_KEY) === "1";
let open = !window.matchMedia("(max-width: 860px)").matches; // folded on a phone until tapped
let room = null; // the room on show
let shownFor = null; // "game room": what the list shows
let messages = [];
let unread = 0; // messages come while the chat was folded, or its tab not chosen
let reading = 0; // the last read asked for: an older one's answer is dropped
const blocked = new Set(); // names blocked from this page (to unblock)

// Whether the page's player plays the game with their account (the players' room is theirs).
function playing(s) {
  const me = signedIn();
  return !!me && s.seats.length > 0 && s.seats.every((seat) => accountSeat(s, seat) && s.names[seat] === me);
}

// Whether the player sees the messages: the chat unfolded, and its tab chosen on a wide window.
function seeing() { return open && tabShown("chat"); }

// The count of messages unseen, on the chat's title and on its tab.
function showUnread() {
  $("chat-unread").hidden = muted || open || !unread;
  $("chat-unread").textContent = unread ? String(unread) : "";
  $("tab-chat-unread").hidden = muted || !unread || seeing();
  $("tab-chat-unread").textContent = unread ? String(unread) : "";
  $("tab-chat-unread").setAttribute("aria-label", `${unread} unread`);
}

// The rooms this page may read now.
function rooms(s) {
  if (playing(s)) return s.result ? ["players", "spectators"] : ["players"];
  return ["spectators"];
}

function changing(method, path, body) { return api(method, path, body, null, csrfHeaders()); }

// ------------------------------------------------------------------ drawing

// After every state: show the chat of a game between accounts, with the rooms the page may read.
export function renderChat() {
  const s = app.state;
  const box = $("chat-box");
  const shown = !!(app.assets.accounts && s && (accountSeat(s, 0) || accountSeat(s, 1)));
  box.hidden = !shown;
  if (!shown) { shownFor = null; return; }
  box.classList.toggle("muted-chat", muted);
  $("btn-chat-mute").textContent = muted ? "Unmute" : "Mute";
  $("btn-chat-mute").setAttribute("aria-pressed", String(muted));
  $("btn-chat-mute").title = muted ? "Show the chat again" : "Hide the chat (in every game)";
  $("btn-chat-toggle").disabled = muted;
  $("btn-chat-toggle").setAttribute("aria-expanded", String(open && !muted));
  $("chat-body").hidden = muted || !open;
  showUnread();
  if (muted) return;
  const allowed = rooms(s);
  if (!allowed.includes(room)) room = allowed[0];
  for (const tab of $("chat-rooms").querySelectorAll("[data-room]")) {
    tab.hidden = !allowed.includes(tab.dataset.room);
    tab.setAttribute("aria-pressed", String(tab.dataset.room === room));
  }
  $("chat-rooms").hidden = allowed.length < 2;
  $("chat-title").textContent = allowed.length > 1 ? "Chat" : room === "players" ? "Chat with your opponent" : "Spectators' chat";
  renderForm(s);
  if (shownFor !== `${s.id} ${room}`) load();
}

function renderForm(s) {
  const me = signedIn();
  const writable = me && (room === "players" ? playing(s) : !playing(s));
  $("form-chat").hidden = !writable;
  $("btn-chat-sign").hidden = !!me;
  $("chat-note").hidden = !me || writable;
  if (me && !writable) $("chat-note").textContent = "The players write in their own room; this one is the spectators'.";
  $("chat-text").placeholder = room === "players" ? "A message to your opponent" : "A message to the spectators";
}

function renderMessages() {
  const me = signedIn();
  const list = $("chat-list");
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
  list.replaceChildren(...messages.map((m) => {
    const li = h("li", m.name === me ? "mine" : "");
    li.dataset.id = m.id;
    const who = h("strong", "chat-name", m.name);
    li.append(who);
    if (m.bot) li.append(h("span", "bot-mark", "BOT"));
    li.append(" ", h("span", "chat-text", m.text)); // text, never markup
    if (me && m.name !== me) {
      const actions = h("span", "chat-actions");
      const block = h("button", "chat-action", "Block");
      block.dataset.action = "block";
      block.setAttribute("aria-label", `Block ${m.name}`);
      block.onclick = () => blockPlayer(m.name);
      const report = h("button", "chat-action", "Report");
      report.dataset.action = "report";
      report.setAttribute("aria-label", `Report this message of ${m.name}`);
      report.onclick = () => reportMessage(m);
      actions.append(block, report);
      li.append(actions);
    }
    return li;
  }));
  $("chat-empty").hidden = messages.length > 0;
  if (atEnd || !list.dataset.shown) list.scrollTop = list.scrollHeight;
  list.dataset.shown = "1";
  $("chat-blocked").hidden = !blocked.size;
  $("chat-blocked").replaceChildren();
  if (blocked.size) {
    $("chat-blocked").append("Blocked: ");
    for (const name of blocked) {
      const button = h("button", "chat-action", `Unblock ${name}`);
      button.onclick = () => unblock(name);
      $("chat-blocked").append(button, " ");
    }
  }
}

// ------------------------------------------------------------------ the server

async function load() {
  const s = app.state;
  if (!s || muted) return;
  const mine = ++reading;
  const where = `${s.id} ${room}`;
  try {
    const answer = await api("GET", `/api/games/${s.id}/chat?room=${room}`, undefined, null);
    if (mine !== reading || !app.state || `${app.state.id} ${room}` !== where) return;
    const before = shownFor === where ? messages.length : null;
    messages = answer.messages;
    $("chat-text").maxLength = answer.length;
    if (before !== null && !seeing() && messages.length > before) unread += messages.length - before;
    if (shownFor !== where) unread = 0;
    shownFor = where;
    $("chat-error").textContent = "";
    renderMessages();
    showUnread();
  } catch (err) {
    if (mine === reading) $("chat-error").textContent = err.message;
  }
}

// What the game's socket says beyond its states: a message in a room (read it again if it is the one on show), or
// the socket opened again (messages may have come meanwhile).
export function chatEvent(event) {
  if (!app.state || muted || $("chat-box").hidden) return;
  if (event.type === "open" || (event.type === "chat" && event.room === room)) load();
}

async function send() {
  const text = $("chat-text").value.trim();
  if (!text || !app.state) return;
  const button = $("btn-chat-send");
  button.disabled = true;
  try {
    await changing("POST", `/api/games/${app.state.id}/chat`, { room, text });
    $("chat-text").value = "";
    $("chat-error").textContent = "";
    await load();
  } catch (err) {
    $("chat-error").textContent = err.message;
  } finally {
    button.disabled = false;
  }
}

async function blockPlayer(name) {
  if (!confirm(`Block ${name}? Their messages are hidden from you, and their challenges refused.`)) return;
  try {
    await changing("POST", "/api/account/block", { name });
    blocked.add(name);
    toast(`${name} is blocked.`, false);
    await load();
  } catch (err) {
    toast(err.message);
  }
}

async function unblock(name) {
  try {
    await changing("POST", "/api/account/unblock", { name });
    blocked.delete(name);
    toast(`${name} is no longer blocked.`, false);
    await load();
  } catch (err) {
    toast(err.message);
  }
}

async function reportMessage(m) {
  if (!confirm(`Report this message of ${m.name} to the admins?\n\n${m.text}`)) return;
  try {
    await changing("POST", `/api/chat/${m.id}/report`);
    toast("Reported to the admins. Thank you.", false);
  } catch (err) {
    toast(err.message);
  }
}

export function wireChat() {
  if (!app.assets.accounts) return;
  $("btn-chat-toggle").onclick = () => {
    open = !open;
    if (open) unread = 0;
    renderChat();
    if (open) $("chat-list").scrollTop = $("chat-list").scrollHeight;
  };
  $("btn-chat-mute").onclick = () => {
    muted = !muted;
    localStorage.setItem(MUTED_KEY, muted ? "1" : "0");
    shownFor = null;
    if (!muted) open = true;
    renderChat();
  };
  for (const tab of $("chat-rooms").querySelectorAll("[data-room]")) {
    tab.onclick = () => { room = tab.dataset.room; open = true; unread = 0; renderChat(); }; // a room chosen is shown
  }
  onTab((name) => {
    if (name !== "chat") return;
    if (open) unread = 0;
    showUnread();
    $("chat-list").scrollTop = $("chat-list").scrollHeight;
  });
  $("btn-chat-sign").onclick = askSignIn;
  $("form-chat").addEventListener("submit", (evt) => { evt.preventDefault(); send(); });
  onAccountChange(() => { shownFor = null; blocked.clear(); if (app.state) renderChat(); });
}
