// Players finding each other, on a server that keeps accounts: in the lobby, for a signed-in player, a search of
// the names (by their start, as the server compares names: case and look-alikes folded) with a Follow button each,
// and the players followed, each shown online, playing (with a link to watch the game) or away, with an Unfollow
// button. The list is asked for again while the lobby shows, at once when the lobby's socket says someone came
// online, and every few seconds besides.

import { t } from "../i18n.js";
import { api } from "../net.js";
import { $, app, h, stylesheet, toast } from "../page.js";
import { csrfHeaders, onAccountChange, signedIn } from "./account.js";
import { onLobbyMessage } from "../lobby/lobbysocket.js";
import { botMark, enterGame, playerLink } from "./players.js";

const POLL_MS = 15000;
const TYPING_MS = 250;

let followed = []; // the players followed, as the server last listed them
let searchRun = 0; // the last search asked for: an older one's answer is dropped
let typing = null;

const lobbyShows = () => !$("lobby").hidden && !document.hidden;

function followButton(name) {
  const mine = followed.some((p) => p.name === name);
  const button = h("button", "small-button", mine ? t("follows.following") : t("follows.follow"));
  button.type = "button";
  button.dataset.action = "follow";
  button.disabled = mine;
  button.setAttribute("aria-label", mine ? t("follows.following_label", { name }) : t("follows.follow_label", { name }));
  button.onclick = () => follow(name);
  return button;
}

function resultItem(player) {
  const li = h("li");
  li.dataset.id = player.name;
  li.append(playerLink(player.name));
  if (player.bot) li.append(botMark());
  if (player.name !== signedIn()) li.append(followButton(player.name));
  return li;
}

function followedItem(player) {
  const state = player.playing ? "playing" : player.online ? "online" : "away";
  const li = h("li", `followed is-${state}`); // not .online: the lobby's section has that class
  li.dataset.id = player.name;
  const dot = h("span", "presence-dot");
  dot.setAttribute("aria-hidden", "true");
  const who = h("span", "followed-who");
  who.append(dot, playerLink(player.name));
  if (player.bot) who.append(botMark());
  const about = h("div", "followed-about");
  about.append(who, h("span", "followed-state muted", t(`follows.state.${state}`)));
  li.append(about);
  if (player.playing) {
    const watch = h("a", "button-link small-button", t("follows.watch"));
    watch.href = `/game/${player.playing}`;
    watch.dataset.action = "watch";
    watch.setAttribute("aria-label", t("follows.watch_label", { name: player.name }));
    watch.onclick = (evt) => {
      if (evt.button || evt.ctrlKey || evt.metaKey || evt.shiftKey || evt.altKey) return;
      evt.preventDefault();
      enterGame(player.playing, []);
    };
    li.append(watch);
  }
  const button = h("button", "small-button", t("follows.unfollow"));
  button.type = "button";
  button.dataset.action = "unfollow";
  button.setAttribute("aria-label", t("follows.unfollow_label", { name: player.name }));
  button.onclick = () => unfollow(player.name);
  li.append(button);
  return li;
}

function renderFollowed() {
  $("follow-list").replaceChildren(...followed.map(followedItem));
  $("follow-empty").hidden = followed.length > 0;
  for (const li of $("find-results").children) { // the results' buttons say who is followed now
    const old = li.querySelector("[data-action=follow]");
    if (old) old.replaceWith(followButton(li.dataset.id));
  }
}

async function refresh() {
  if (!signedIn() || !lobbyShows()) return;
  try {
    followed = (await api("GET", "/api/follows", undefined, null)).players;
    renderFollowed();
  } catch (err) {
    $("find-error").textContent = err.message;
  }
}

async function search() {
  const prefix = $("find-name").value.trim();
  const mine = ++searchRun;
  $("find-error").textContent = "";
  if (!prefix) { $("find-results").replaceChildren(); $("find-none").hidden = true; return; }
  try {
    const found = await api("GET", `/api/players?${new URLSearchParams({ prefix })}`, undefined, null);
    if (mine !== searchRun) return;
    $("find-results").replaceChildren(...found.players.map(resultItem));
    $("find-none").hidden = found.players.length > 0;
  } catch (err) {
    if (mine !== searchRun) return;
    $("find-results").replaceChildren();
    $("find-none").hidden = true;
    $("find-error").textContent = err.message;
  }
}

async function follow(name) {
  try {
    const done = await api("POST", "/api/follows", { name }, null, csrfHeaders());
    toast(t("follows.followed", { name: done.name }), false);
    await refresh();
  } catch (err) {
    $("find-error").textContent = err.message;
  }
}

async function unfollow(name) {
  try {
    await api("DELETE", `/api/follows/${encodeURIComponent(name)}`, undefined, null, csrfHeaders());
    toast(t("follows.unfollowed", { name }), false);
    await refresh();
  } catch (err) {
    $("find-error").textContent = err.message;
  }
}

function labelled(tag, id, text, className = "") {
  const node = h(tag, className, text);
  node.id = id;
  return node;
}

// The lobby's section, after "Who is online".
function build() {
  const section = labelled("section", "follows", null, "follows");
  section.setAttribute("aria-labelledby", "follows-title");
  section.hidden = true;
  const form = labelled("form", "form-find", null, "find-form");
  form.setAttribute("role", "search");
  form.noValidate = true;
  const label = h("label", "", t("follows.find"));
  const input = labelled("input", "find-name", null);
  input.type = "search";
  input.maxLength = 20;
  input.autocomplete = "off";
  input.autocapitalize = "none";
  input.spellcheck = false;
  input.placeholder = t("follows.find_placeholder");
  label.append(input);
  form.append(label);
  form.addEventListener("submit", (evt) => { evt.preventDefault(); clearTimeout(typing); search(); });
  input.addEventListener("input", () => { clearTimeout(typing); typing = setTimeout(search, TYPING_MS); });
  const error = labelled("p", "find-error", "", "form-error");
  error.setAttribute("aria-live", "polite");
  const results = labelled("ul", "find-results", null, "online-list find-results");
  results.setAttribute("aria-label", t("follows.results"));
  const none = labelled("p", "find-none", t("follows.none_found"), "muted seeks-empty");
  none.hidden = true;
  const list = labelled("ul", "follow-list", null, "follow-list");
  list.setAttribute("aria-labelledby", "follows-title");
  const empty = labelled("p", "follow-empty", t("follows.empty"), "muted seeks-empty");
  empty.hidden = true;
  section.append(labelled("h2", "follows-title", t("follows.title")), form, error, results, none, list, empty);
  $("online").after(section);
}

function showFor(name) {
  $("follows").hidden = !name;
  followed = [];
  $("find-results").replaceChildren();
  $("find-name").value = "";
  $("follow-list").replaceChildren();
  if (name) refresh();
}

export function wireFollows() {
  if (!app.assets.accounts) return;
  stylesheet(new URL("/static/players/follows.css", location.href));
  build();
  onAccountChange(showFor);
  showFor(signedIn());
  onLobbyMessage((message) => { if (message.type === "online") refresh(); });
  new MutationObserver(() => { if (lobbyShows()) refresh(); }).observe($("lobby"), { attributes: true, attributeFilter: ["hidden"] });
  document.addEventListener("visibilitychange", () => { if (lobbyShows()) refresh(); });
  setInterval(refresh, POLL_MS);
}
