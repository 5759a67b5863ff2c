// Accounts, on a server that keeps them (app.assets.accounts: a club's server; one machine's has none): the header's
// button, the dialog that signs in or creates an account, and the one of the account signed in (a new password,
// signing out). The session is an HttpOnly cookie the page never sees; the CSRF token the server answers with is
// kept here, in memory only, and sent with every change made with the cookie.

import { accountLanguage } from "../language.js";
import { api } from "../net.js";
import { $, app, toast } from "../page.js";

const session = { name: null, csrf: null };
const listeners = []; // called when who is signed in changes (the lobby's seeks)

// Who is signed in (null: a guest), and the headers of a change made with the session's cookie.
export function signedIn() { return session.name; }
export function csrfHeaders() { return { "x-csrf-token": session.csrf }; }
export function onAccountChange(listener) { listeners.push(listener); }
// The sign-in dialog (a guest's "Sign in to play").
export function askSignIn() { openSign(); }

// The header's button: "Sign in", or the name signed in (opening the account's dialog).
function show() {
  const button = $("btn-account");
  button.hidden = false;
  button.textContent = session.name || "Sign in";
  button.title = session.name ? "Your account: change the password, or sign out" : "Sign in, or create an account";
  button.classList.toggle("signed-in", !!session.name);
}

// Keep what an answer of the API says of the session ({name, csrf}, or {name: null}).
function keep(data) {
  const before = session.name;
  session.name = (data && data.name) || null;
  session.csrf = session.name ? data.csrf : null;
  if (session.name) accountLanguage(data.language); // the account's choice of language follows it to this browser
  show();
  if (session.name !== before) for (const listener of listeners) listener(session.name);
}

const creating = () => new FormData($("form-sign")).get("account-mode") === "create";

// The sign-in dialog's words and fields for its mode: signing in, or creating an account.
function syncMode() {
  const create = creating();
  $("sign-title").textContent = create ? "Create an account" : "Sign in";
  $("btn-sign").textContent = create ? "Create account" : "Sign in";
  $("sign-password").autocomplete = create ? "new-password" : "current-password";
  $("sign-rules").hidden = !create;
  for (const id of ["sign-name", "sign-password"]) {
    if (create) $(id).setAttribute("aria-describedby", "sign-rules");
    else $(id).removeAttribute("aria-describedby");
  }
  $("sign-error").textContent = "";
}

function openSign() {
  $("form-sign").querySelector("[value=sign-in]").checked = true; // signing in is what one does most
  syncMode();
  $("dlg-sign").showModal();
  $("sign-name").focus();
}

function openAccount() {
  $("account-name").textContent = session.name;
  $("password-user").value = session.name; // for a password manager, which files the new password under the name
  $("password-error").textContent = "";
  $("dlg-account").showModal();
  $("password-old").focus();
}

// Run a call of the API with the form's submit button disabled; its error goes into the dialog's live line.
async function submitting(button, error, call) {
  button.disabled = true;
  error.textContent = "";
  try {
    return await call();
  } catch (err) {
    error.textContent = err.message;
    return null;
  } finally {
    button.disabled = false;
  }
}

async function signIn() {
  const name = $("sign-name").value.trim();
  const body = { name, password: $("sign-password").value };
  const path = creating() ? "/api/accounts" : "/api/session";
  const data = await submitting($("btn-sign"), $("sign-error"), () => api("POST", path, body, null));
  if (!data) return;
  keep(data);
  $("dlg-sign").close();
  toast(`Signed in as ${session.name}`, false);
}

async function changePassword() {
  const body = { old: $("password-old").value, new: $("password-new").value };
  const call = () => api("POST", "/api/session/password", body, null, { "x-csrf-token": session.csrf });
  const data = await submitting($("btn-password"), $("password-error"), call);
  if (!data) return;
  keep(data);
  $("dlg-account").close();
  toast("Password changed", false);
}

async function signOut() {
  try {
    keep(await api("DELETE", "/api/session", undefined, null, { "x-csrf-token": session.csrf }));
    $("dlg-account").close();
    toast("Signed out", false);
  } catch (err) {
    $("password-error").textContent = err.message;
    await load(); // the session may have ended meanwhile (elsewhere, or by a new password)
    if (!session.name) $("dlg-account").close();
  }
}

// Who is signed in, as the server says.
async function load() {
  try {
    keep(await api("GET", "/api/session", undefined, null));
  } catch (err) {
    keep(null); // the server did not answer: the button signs in, and says why then
  }
}

// Nothing shows unless the server keeps accounts. Resolves once the page knows who is signed in.
export async function wireAccount() {
  if (!app.assets.accounts) return;
  $("btn-account").onclick = () => (session.name ? openAccount() : openSign());
  $("form-sign").addEventListener("change", (evt) => { if (evt.target.name === "account-mode") syncMode(); });
  $("form-sign").addEventListener("submit", (evt) => { evt.preventDefault(); signIn(); });
  $("form-password").addEventListener("submit", (evt) => { evt.preventDefault(); changePassword(); });
  $("btn-sign-out").onclick = signOut;
  for (const dialog of [$("dlg-sign"), $("dlg-account")]) {
    dialog.querySelector("[data-close]").onclick = () => dialog.close();
    // no password stays in the page once its dialog is closed (by a button, or Esc)
    dialog.addEventListener("close", () => { for (const input of dialog.querySelectorAll("[type=password]")) input.value = ""; });
  }
  await load();
}
