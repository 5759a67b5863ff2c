// The bot screen, on a server that keeps accounts: from the account dialog's "Bots" section, a dialog where the
// signed-in account becomes a bot's (for good), mints API tokens (each shown once, with a copy button), lists them
// without their secrets (label, scope, made, last used) and revokes them, sees its games, and reads how to run
// `hive bot` with a token: the same steps as docs/site/accounts.rst's "A bot from the page" (keep the two alike).

import { formatDate, gameType, speedName, t } from "../i18n.js";
import { api } from "../net.js";
import { $, app, h, stylesheet, toast } from "../page.js";
import { csrfHeaders, onAccountChange, signedIn } from "../players/account.js";
import { playerLink } from "../players/players.js";

let account = null; // what /api/players/{name} says of the signed-in account (bot or not)

function when(seconds) { return formatDate(seconds * 1000, { dateStyle: "short", timeStyle: "short" }); }

// The command of the walkthrough, with this server's address.
function command() {
  return `export HIVE_BOT_TOKEN=hive_...\nhive bot --server ${location.origin} --engine "nokamute uhp"`;
}

function tokenItem(token) {
  const li = h("li", "token-row");
  li.dataset.id = token.id;
  const name = token.label || t("bots.no_label");
  const about = h("div", "token-about");
  about.append(h("b", "", name), h("span", "muted",
    [token.scope, t("bots.token_made", { when: when(token.created) }),
      token.used ? t("bots.token_used", { when: when(token.used) }) : t("bots.never")].join(" · ")));
  const button = h("button", "small-button", t("bots.revoke"));
  button.type = "button";
  button.dataset.action = "revoke";
  button.setAttribute("aria-label", t("bots.revoke_label", { label: name }));
  button.onclick = () => revoke(token, name);
  li.append(about, button);
  return li;
}

function gameItem(game) {
  const li = h("li", "token-row");
  const about = h("div", "token-about");
  const head = h("span");
  head.append(game.opponent ? playerLink(game.opponent) : h("span", "muted", "?"));
  about.append(head, h("span", "muted", [gameType(game.game), speedName(game.speed), t(`bots.result.${game.result}`)].filter(Boolean).join(" · ")));
  const watch = h("a", "button-link small-button", game.result === "ongoing" ? t("bots.watch") : t("bots.replay"));
  watch.href = `/game/${game.id}`;
  li.append(about, watch);
  return li;
}

async function loadTokens() {
  const data = await api("GET", "/api/account/tokens", undefined, null);
  $("bots-tokens").replaceChildren(...data.tokens.map(tokenItem));
  $("bots-no-tokens").hidden = data.tokens.length > 0;
  $("bots-limit").textContent = t("bots.limit", { count: data.limit });
}

async function loadGames(name) {
  const data = await api("GET", `/api/players/${encodeURIComponent(name)}/games`, undefined, null);
  const games = data.games.slice(0, 10);
  $("bots-games").replaceChildren(...games.map(gameItem));
  $("bots-no-games").hidden = games.length > 0;
}

function renderStatus() {
  const bot = !!(account && account.bot);
  $("bots-status").textContent = bot ? t("bots.is_bot") : t("bots.is_player");
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
  if (!confirm(t("bots.make_bot_confirm"))) return;
  try {
    const data = await api("POST", "/api/account/bot", undefined, null, csrfHeaders());
    account = { ...(account || {}), bot: data.bot };
    renderStatus();
    toast(t("bots.made_bot"), false);
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
    $("btn-copy-token").textContent = t("bots.copy");
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
    $("btn-copy-token").textContent = t("bots.copied");
  } catch (err) {
    toast(t("bots.copy_failed"));
  }
}

async function revoke(token, name) {
  if (!confirm(t("bots.revoke_confirm", { label: name }))) return;
  try {
    await api("DELETE", `/api/account/tokens/${encodeURIComponent(token.id)}`, undefined, null, csrfHeaders());
    toast(t("bots.revoked"), false);
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
  const makeBotButton = labelled("button", "btn-make-bot", t("bots.make_bot"));
  makeBotButton.type = "button";
  makeBotButton.onclick = makeBot;
  const error = labelled("p", "bots-error", "", "form-error");
  error.setAttribute("aria-live", "polite");

  const form = h("form", "bots-mint");
  form.id = "form-mint";
  form.noValidate = true;
  const label = h("label", "", t("bots.label"));
  const input = labelled("input", "bots-label", null);
  input.maxLength = 40;
  input.autocomplete = "off";
  input.placeholder = t("bots.label_placeholder");
  label.append(input);
  const mintButton = labelled("button", "btn-mint", t("bots.mint"), "primary");
  form.append(label, mintButton);
  form.addEventListener("submit", mint);

  const secretBox = labelled("div", "bots-secret-box", null, "bots-secret-box");
  secretBox.hidden = true;
  secretBox.setAttribute("role", "group");
  secretBox.setAttribute("aria-labelledby", "bots-secret-title");
  const secretTitle = labelled("h4", "bots-secret-title", t("bots.secret_title"));
  const warning = labelled("p", "bots-secret-warning", t("bots.secret_warning"), "bots-warning");
  const secretRow = h("div", "bots-secret-row");
  const secret = labelled("input", "bots-secret", null);
  secret.readOnly = true;
  secret.spellcheck = false;
  secret.setAttribute("aria-labelledby", "bots-secret-title");
  secret.setAttribute("aria-describedby", "bots-secret-warning");
  const copy = labelled("button", "btn-copy-token", t("bots.copy"));
  copy.type = "button";
  copy.onclick = copySecret;
  secretRow.append(secret, copy);
  secretBox.append(secretTitle, warning, secretRow);

  const tokens = labelled("ul", "bots-tokens", null, "token-list");
  tokens.setAttribute("aria-labelledby", "bots-tokens-title");
  const games = labelled("ul", "bots-games", null, "token-list");
  games.setAttribute("aria-labelledby", "bots-games-title");

  const steps = h("ol", "bots-steps");
  const texts = [t("bots.step1"), t("bots.step2"), t("bots.step3"), t("bots.step4"), t("bots.step5"), t("bots.step6")];
  texts.forEach((text, i) => {
    const li = h("li", "", text);
    if (i === 3) { const pre = h("pre", "bots-command"); pre.id = "bots-command"; li.append(pre); }
    steps.append(li);
  });

  body.append(
    labelled("h2", "bots-title", t("bots.title")), status, makeBotButton, error,
    labelled("h3", "bots-tokens-title", t("bots.tokens")), h("p", "hint", t("bots.tokens_hint")), form, secretBox, tokens,
    labelled("p", "bots-no-tokens", t("bots.no_tokens"), "muted"), labelled("p", "bots-limit", "", "hint"),
    labelled("h3", "bots-games-title", t("bots.games")), games, labelled("p", "bots-no-games", t("bots.no_games"), "muted"),
    labelled("h3", "bots-how-title", t("bots.how")), steps,
  );
  const buttons = h("div", "dialog-buttons");
  const close = h("button", "", t("bots.close"));
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
  const button = labelled("button", "btn-bots", t("bots.open"));
  button.type = "button";
  button.setAttribute("aria-haspopup", "dialog");
  button.onclick = openBots;
  section.append(h("h3", "", t("bots.section")), h("p", "hint", t("bots.section_hint")), button);
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
