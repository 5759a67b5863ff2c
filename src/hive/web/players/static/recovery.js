// A forgotten password, on a server that keeps accounts: the page a one-time link opens (/reset/{token}: a new
// password, then signing in with it), the sign-in dialog's "Forgot password?" (where the server sends mail: the link
// is mailed to the account's address; the answer is the same whatever the name), and the account dialog's e-mail
// address that the link goes to (the player's own; nobody else sees it). Built here, styled by recovery.css.

import { t } from "../i18n.js";
import { api } from "../net.js";
import { $, app, h, stylesheet, toast } from "../page.js";
import { askSignIn, csrfHeaders, onAccountChange, signedIn } from "./account.js";

// The texts, from the page's catalog (page-admin.po).
const TEXTS = {
  resetTitle: t("recovery.reset_title"),
  resetFor: t("recovery.reset_for"),
  resetGone: t("recovery.reset_gone"),
  newPassword: t("recovery.new_password"),
  rules: t("recovery.rules"),
  setPassword: t("recovery.set_password"),
  resetDone: t("recovery.reset_done"),
  signIn: t("recovery.sign_in"),
  forgot: t("recovery.forgot"),
  forgotTitle: t("recovery.forgot_title"),
  forgotHint: t("recovery.forgot_hint"),
  name: t("recovery.name"),
  send: t("recovery.send"),
  close: t("recovery.close"),
  emailTitle: t("recovery.email_title"),
  email: t("recovery.email"),
  emailHint: t("recovery.email_hint"),
  saveEmail: t("recovery.save_email"),
  emailSaved: t("recovery.email_saved"),
  emailRemoved: t("recovery.email_removed"),
};

const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, key) => String(values[key]));

function field(label, attrs) {
  const wrap = h("label", "", `${label} `);
  const input = h("input");
  Object.assign(input, attrs);
  wrap.append(input);
  return [wrap, input];
}

// ------------------------------------------------------------------ the reset page

let page = null;

function buildPage() {
  stylesheet(new URL("./recovery.css", import.meta.url));
  page = h("main", "lobby reset-page");
  page.id = "reset";
  page.setAttribute("aria-labelledby", "reset-title");
  const title = h("h1", "", TEXTS.resetTitle);
  title.id = "reset-title";
  const form = h("form", "reset-form");
  form.id = "form-reset";
  form.noValidate = true;
  const about = h("p", "");
  about.id = "reset-about";
  const user = h("input");
  Object.assign(user, { type: "text", id: "reset-user", autocomplete: "username", hidden: true });
  const [label, password] = field(TEXTS.newPassword, {
    id: "reset-password", type: "password", autocomplete: "new-password", maxLength: 256,
  });
  const rules = h("p", "hint", TEXTS.rules);
  rules.id = "reset-rules";
  password.setAttribute("aria-describedby", "reset-rules");
  const error = h("p", "form-error");
  error.id = "reset-error";
  error.setAttribute("aria-live", "polite");
  const submit = h("button", "primary", TEXTS.setPassword);
  submit.id = "btn-reset";
  form.append(about, user, label, rules, error, submit);
  const done = h("div", "reset-done");
  done.id = "reset-done";
  done.hidden = true;
  const signIn = h("button", "primary", TEXTS.signIn);
  signIn.type = "button";
  signIn.onclick = () => askSignIn($("reset-user").value);
  done.append(h("p", "", TEXTS.resetDone), signIn);
  form.onsubmit = async (evt) => {
    evt.preventDefault();
    submit.disabled = true;
    error.textContent = "";
    try {
      const body = { token: page.dataset.token, password: password.value };
      await api("POST", "/api/password/reset", body, null);
      password.value = "";
      form.hidden = true;
      done.hidden = false;
      signIn.focus();
    } catch (err) {
      error.textContent = err.message;
    } finally {
      submit.disabled = false;
    }
  };
  page.append(title, form, done);
  $("lobby").after(page);
}

export async function showReset() {
  if (!page) buildPage();
  const token = decodeURIComponent(location.pathname.slice("/reset/".length));
  page.dataset.token = token;
  document.title = TEXTS.resetTitle;
  page.hidden = false;
  $("form-reset").hidden = false;
  $("reset-done").hidden = true;
  $("reset-error").textContent = "";
  try {
    const { name } = await api("GET", `/api/password/reset/${encodeURIComponent(token)}`, undefined, null);
    $("reset-user").value = name;
    $("reset-about").textContent = fill(TEXTS.resetFor, { name });
    $("btn-reset").disabled = false;
    $("reset-password").focus();
  } catch (err) {
    $("reset-about").textContent = TEXTS.resetGone;
    $("btn-reset").disabled = true;
  }
}

export function hideReset() { if (page) page.hidden = true; }

// ------------------------------------------------------------------ "Forgot password?", by e-mail

function buildForgot() {
  const dialog = h("dialog", "dialog dialog-small");
  dialog.id = "dlg-forgot";
  dialog.setAttribute("aria-labelledby", "forgot-title");
  const form = h("form");
  form.method = "dialog";
  form.noValidate = true;
  const title = h("h2", "", TEXTS.forgotTitle);
  title.id = "forgot-title";
  const [label, name] = field(TEXTS.name, {
    id: "forgot-name", autocomplete: "username", maxLength: 20, spellcheck: false,
  });
  name.setAttribute("autocapitalize", "none");
  const status = h("p", "form-error");
  status.id = "forgot-status";
  status.setAttribute("aria-live", "polite");
  const buttons = h("div", "dialog-buttons");
  const close = h("button", "", TEXTS.close);
  close.type = "button";
  close.onclick = () => dialog.close();
  const send = h("button", "primary", TEXTS.send);
  send.id = "btn-forgot";
  buttons.append(close, send);
  form.append(title, h("p", "hint", TEXTS.forgotHint), label, status, buttons);
  form.onsubmit = async (evt) => {
    evt.preventDefault();
    send.disabled = true;
    status.textContent = "";
    status.classList.remove("ok");
    try {
      const { message } = await api("POST", "/api/password/forgot", { name: name.value.trim() }, null);
      status.textContent = message;
      status.classList.add("ok");
    } catch (err) {
      status.textContent = err.message;
    } finally {
      send.disabled = false;
    }
  };
  dialog.append(form);
  document.body.append(dialog);
  return dialog;
}

function wireForgot() {
  const dialog = buildForgot();
  const open = h("button", "link-button", TEXTS.forgot);
  open.type = "button";
  open.id = "btn-forgot-open";
  open.onclick = () => {
    $("forgot-name").value = $("sign-name").value.trim();
    $("forgot-status").textContent = "";
    $("dlg-sign").close();
    dialog.showModal();
    $("forgot-name").focus();
  };
  $("sign-error").after(open);
}

// ------------------------------------------------------------------ the account's e-mail address

function wireEmail() {
  const box = h("div", "account-email");
  const title = h("h3", "", TEXTS.emailTitle);
  const [label, input] = field(TEXTS.email, { id: "account-email", type: "email", autocomplete: "email", maxLength: 254 });
  const hint = h("p", "hint", TEXTS.emailHint);
  hint.id = "account-email-hint";
  input.setAttribute("aria-describedby", "account-email-hint");
  const error = h("p", "form-error");
  error.id = "email-error";
  error.setAttribute("aria-live", "polite");
  const save = h("button", "", TEXTS.saveEmail);
  save.type = "button";
  save.id = "btn-email";
  const row = h("div", "account-email-row");
  row.append(label, save);
  box.append(title, row, hint, error);
  const store = async () => {
    save.disabled = true;
    error.textContent = "";
    try {
      const { email } = await api("POST", "/api/account/email", { email: input.value.trim() }, null, csrfHeaders());
      input.value = email || "";
      toast(email ? TEXTS.emailSaved : TEXTS.emailRemoved, false);
    } catch (err) {
      error.textContent = err.message;
    } finally {
      save.disabled = false;
    }
  };
  save.onclick = store;
  input.addEventListener("keydown", (evt) => { if (evt.key === "Enter") { evt.preventDefault(); store(); } });
  // above the password's change, in the account's dialog
  $("form-password").querySelector("h3").before(box);
  const load = async () => {
    error.textContent = "";
    input.value = "";
    if (!signedIn()) return;
    try {
      const { email } = await api("GET", "/api/account/email", undefined, null);
      if (input.value === "") input.value = email || ""; // never over what was typed while it loaded
    } catch (err) { /* shown empty */ }
  };
  $("btn-account").addEventListener("click", load);
  onAccountChange(load);
}

// "Forgot password?" and the e-mail address show only where the server keeps accounts and sends mail.
export function wireRecovery() {
  if (!app.assets.accounts || !app.assets.mail) return;
  stylesheet(new URL("./recovery.css", import.meta.url));
  wireEmail();
  wireForgot();
}
