// The bot screen, on a server that keeps accounts: from the account dialog's "Bots" section, a dialog where the
// signed-in account becomes a bot's (for good), mints API tokens (each shown once, with a copy button), lists them
// without their secrets (label, scope, made, last used) and revokes them, sees its games, and reads how to run
// `hive bot` with a token: the same steps as docs/site/accounts.rst's "A bot from the page" (keep the two alike).

import { api } from "../net.js";
import { $, app, h, stylesheet, toast } from "../page.js";
import { csrfHeaders, onAccountChange, signedIn } from "../players/account.js";
import { playerLink } from "../players/players.js";

// Every text of the module (to be moved into the message catalogs as they are).
const TEXTS = {
  section: "Bots",
  sectionHint: "Let a program play this account through the bot API, with an API token.",
  open: "Bots and API tokens",
  title: "Bots and API tokens",
  close: "Close",
  isBot: "This account is a bot's: a program plays it with an API token.",
  isPlayer: "This account is a player's. A bot needs an account of its own: make one for it, sign in as it, and make it a bot here.",
  makeBot: "Make this account a bot",
  makeBotConfirm: "Make this account a bot's for good? Its games are then played by a program, and it cannot go back.",
  madeBot: "This account is now a bot's",
  tokens: "API tokens",
  tokensHint: "A token acts as this account for a program: it reads and plays, but never changes the account.",
  label: "Label (where it runs)",
  labelPlaceholder: "optional, e.g. home server",
  mint: "Make a token",
  secretTitle: "Your new token",
  secretWarning: "Copy it now: it is shown this once and never again. Anyone with it plays as this account; revoke it if it leaks.",
  copy: "Copy",
  copied: "Copied",
  copyFailed: "Select the token and copy it by hand",
  noTokens: "No API token yet.",
  noLabel: "(no label)",
  made: "made",
  used: "last used",
  never: "never used",
  revoke: "Revoke",
  revokeConfirm: (label) => `Revoke the token ${label}? A program using it is refused at once.`,
  revoked: "Token revoked",
  limit: (n) => `An account holds at most ${n} tokens.`,
  games: "This account's games",
  noGames: "No game yet.",
  watch: "Watch",
  replay: "Replay",
  how: "How to run a bot",
  steps: [
    "Sign up a new account for the bot (one that has played rated games stays a player's), and sign in as it.",
    "Press “Make this account a bot” above: it is for good.",
    "Make a token, with a label saying where it runs, and copy it: it is shown once.",
    "On the machine of the engine (any UHP engine, or the project's own), run:",
    "It says it is online. Challenge it from the lobby's “Who is online”: it accepts and plays. Its games show here.",
    "Revoke a token you no longer use, or one that leaked: it is refused at once.",
  ],
};

let account = null; // what /api/players/{name} says of the signed-in account (bot or not)

function when(seconds) { return new Date(seconds * 1000).toLocaleString(); }

// The command of the walkthrough, with this server's address.
function command() {
  return `export HIVE_BOT_TOKEN=hive_...\nhive bot --server ${location.origin} --engine "nokamute uhp"`;
}

function tokenItem(token) {
  const li = h("li", "token-row");
  li.dataset.id = token.id;
  const name = token.label || TEXTS.noLabel;
  const about = h("div", "token-about");
  about.append(h("b", "", name), h("span", "muted",
    [token.scope, `${TEXTS.made} ${when(token.created)}`, token.used ? `${TEXTS.used} ${when(token.used)}` : TEXTS.never].join(" · ")));
  const button = h("button", "small-button", TEXTS.revoke);
  button.type = "button";
  button.dataset.action = "revoke";
  button.setAttribute("aria-label", `${TEXTS.revoke}: ${name}`);
  button.onclick = () => revoke(token, name);
  li.append(about, button);
  return li;
}

function gameItem(game) {
  const li = h("li", "token-row");
  const about = h("div", "token-about");
  const head = h("span");
  head.append(game.opponent ? playerLink(game.opponent) : h("span", "muted", "?"));
  about.append(head, h("span", "muted", [game.game, game.speed, game.result].filter(Boolean).join(" · ")));
  const watch = h("a", "button-link small-button", game.result === "ongoing" ? TEXTS.watch : TEXTS.replay);
  watch.href = `/game/${game.id}`;
  li.append(about, watch);
  return li;
}

async function loadTokens() {
  const data = await api("GET", "/api/account/tokens", undefined, null);
  $("bots-tokens").replaceChildren(...data.tokens.map(tokenItem));
  $("bots-no-tokens").hidden = data.tokens.length > 0;
  $("bots-limit").textContent = TEXTS.limit(data.limit);
}

async function loadGames(name) {
  const data = await api("GET", `/api/players/${encodeURIComponent(name)}/games`, undefined, null);
  const games = data.games.slice(0, 10);
  $("bots-games").replaceChildren(...games.map(gameItem));
  $("bots-no-games").hidden = games.length > 0;
}

function renderStatus() {
  const bot = !!(account && account.bot);
  $("bots-status").textContent = bot ? TEXTS.isBot : TEXTS.isPlayer;
  $("btn-make-bot").hidden = bot;
}

async function refresh() {
  const name = signedIn();
  if (!name) return;
  $("bots-error").textContent = "";
  try {
    account = await api("GET", `/api/players/${encodeURIComponent(name)}`, undefined, null);
    renderStatus();
    await Promise.all([loadTokens(), loadGames(name)]);
  } catch (err) {
    $("bots-error").textContent = err.message;
  }
}

async function makeBot() {
  if (!confirm(TEXTS.makeBotConfirm)) return;
  try {
    const data = await api("POST", "/api/account/bot", undefined, null, csrfHeaders());
    account = { ...(account || {}), bot: data.bot };
    renderStatus();
    toast(TEXTS.madeBot, false);
  } catch (err) {
    $("bots-error").textContent = err.message;
  }
}

async function mint(evt) {
  evt.preventDefault();
  $("bots-error").textContent = "";
  const button = $("btn-mint");
  button.disabled = true;
  try {
    const made = await api("POST", "/api/account/token", { scope: "bot", label: $("bots-label").value.trim() }, null, csrfHeaders());
    $("bots-secret").value = made.token;
    $("bots-secret-box").hidden = false;
    $("btn-copy-token").textContent = TEXTS.copy;
    $("bots-label").value = "";
    $("bots-secret").focus();
    $("bots-secret").select();
    await loadTokens();
  } catch (err) {
    $("bots-error").textContent = err.message;
  } finally {
    button.disabled = false;
  }
}

async function copySecret() {
  const field = $("bots-secret");
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    $("btn-copy-token").textContent = TEXTS.copied;
  } catch (err) {
    toast(TEXTS.copyFailed);
  }
}

async function revoke(token, name) {
  if (!confirm(TEXTS.revokeConfirm(name))) return;
  try {
    await api("DELETE", `/api/account/tokens/${encodeURIComponent(token.id)}`, undefined, null, csrfHeaders());
    toast(TEXTS.revoked, false);
    await loadTokens();
  } catch (err) {
    $("bots-error").textContent = err.message;
  }
}

// No secret stays in the page once the dialog is closed.
function forget() {
  $("bots-secret").value = "";
  $("bots-secret-box").hidden = true;
}

function openBots() {
  if ($("dlg-account").open) $("dlg-account").close();
  forget();
  $("dlg-bots").showModal();
  refresh();
}

function labelled(tag, id, text, className = "") {
  const node = h(tag, className, text);
  node.id = id;
  return node;
}

// The dialog, built once.
function buildDialog() {
  const dialog = h("dialog", "dialog bots-dialog");
  dialog.id = "dlg-bots";
  dialog.setAttribute("aria-labelledby", "bots-title");
  const body = h("div", "bots-body");
  const status = labelled("p", "bots-status", "", "bots-status");
  const makeBotButton = labelled("button", "btn-make-bot", TEXTS.makeBot);
  makeBotButton.type = "button";
  makeBotButton.onclick = makeBot;
  const error = labelled("p", "bots-error", "", "form-error");
  error.setAttribute("aria-live", "polite");

  const form = h("form", "bots-mint");
  form.id = "form-mint";
  form.noValidate = true;
  const label = h("label", "", TEXTS.label);
  const input = labelled("input", "bots-label", null);
  input.maxLength = 40;
  input.autocomplete = "off";
  input.placeholder = TEXTS.labelPlaceholder;
  label.append(input);
  const mintButton = labelled("button", "btn-mint", TEXTS.mint, "primary");
  form.append(label, mintButton);
  form.addEventListener("submit", mint);

  const secretBox = labelled("div", "bots-secret-box", null, "bots-secret-box");
  secretBox.hidden = true;
  secretBox.setAttribute("role", "group");
  secretBox.setAttribute("aria-labelledby", "bots-secret-title");
  const secretTitle = labelled("h4", "bots-secret-title", TEXTS.secretTitle);
  const warning = labelled("p", "bots-secret-warning", TEXTS.secretWarning, "bots-warning");
  const secretRow = h("div", "bots-secret-row");
  const secret = labelled("input", "bots-secret", null);
  secret.readOnly = true;
  secret.spellcheck = false;
  secret.setAttribute("aria-labelledby", "bots-secret-title");
  secret.setAttribute("aria-describedby", "bots-secret-warning");
  const copy = labelled("button", "btn-copy-token", TEXTS.copy);
  copy.type = "button";
  copy.onclick = copySecret;
  secretRow.append(secret, copy);
  secretBox.append(secretTitle, warning, secretRow);

  const tokens = labelled("ul", "bots-tokens", null, "token-list");
  tokens.setAttribute("aria-labelledby", "bots-tokens-title");
  const games = labelled("ul", "bots-games", null, "token-list");
  games.setAttribute("aria-labelledby", "bots-games-title");

  const steps = h("ol", "bots-steps");
  TEXTS.steps.forEach((text, i) => {
    const li = h("li", "", text);
    if (i === 3) { const pre = h("pre", "bots-command"); pre.id = "bots-command"; li.append(pre); }
    steps.append(li);
  });

  body.append(
    labelled("h2", "bots-title", TEXTS.title), status, makeBotButton, error,
    labelled("h3", "bots-tokens-title", TEXTS.tokens), h("p", "hint", TEXTS.tokensHint), form, secretBox, tokens,
    labelled("p", "bots-no-tokens", TEXTS.noTokens, "muted"), labelled("p", "bots-limit", "", "hint"),
    labelled("h3", "bots-games-title", TEXTS.games), games, labelled("p", "bots-no-games", TEXTS.noGames, "muted"),
    labelled("h3", "bots-how-title", TEXTS.how), steps,
  );
  const buttons = h("div", "dialog-buttons");
  const close = h("button", "", TEXTS.close);
  close.type = "button";
  close.onclick = () => dialog.close();
  buttons.append(close);
  body.append(buttons);
  dialog.append(body);
  dialog.addEventListener("close", forget);
  document.body.append(dialog);
}

// The account dialog's "Bots" section, which opens the screen.
function buildSection() {
  const section = h("div", "bots-section");
  const button = labelled("button", "btn-bots", TEXTS.open);
  button.type = "button";
  button.setAttribute("aria-haspopup", "dialog");
  button.onclick = openBots;
  section.append(h("h3", "", TEXTS.section), h("p", "hint", TEXTS.sectionHint), button);
  const who = $("dlg-account").querySelector(".account-who");
  who.after(section);
}

export function wireBots() {
  if (!app.assets.accounts) return;
  stylesheet(new URL("/static/bots/bots.css", location.href));
  buildDialog();
  buildSection();
  $("bots-command").textContent = command();
  onAccountChange(() => { if ($("dlg-bots").open) $("dlg-bots").close(); account = null; });
}
