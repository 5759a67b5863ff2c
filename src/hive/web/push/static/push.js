// Web Push on the page: the service worker registered (/sw.js, which also makes the page installable), and, on a
// server with accounts, the "Notifications" part of the account's dialog: which notifications this device is sent
// with the page closed (a player's turn, a challenge, a tournament's start), turned on and off. The browser asks
// for the permission to notify only when the player clicks "Turn on".

import { t, lang } from "../i18n.js";
import { api } from "../net.js";
import { $, app, h, stylesheet } from "../page.js";
import { csrfHeaders, onAccountChange, signedIn } from "../players/account.js";

const KINDS = ["turn", "challenge", "tournament"];
// Each kind's label (the keys literal, for the catalogs' test).
const LABELS = { turn: () => t("push.turn"), challenge: () => t("push.challenge"), tournament: () => t("push.tournament") };

let worker = null; // the service worker's registration, once made
const state = { subscription: null, busy: false };

const supported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

// Register the service worker, for the whole site.
function register() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return Promise.resolve(null);
  worker = navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(
    () => navigator.serviceWorker.ready,
    (err) => { console.warn("the service worker could not be registered:", err); return null; },
  );
  return worker;
}

function build() {
  const section = h("section", "push-prefs");
  section.id = "push-prefs";
  section.setAttribute("aria-labelledby", "push-heading");
  const heading = h("h3", "", t("push.heading"));
  heading.id = "push-heading";
  const fields = h("fieldset", "push-kinds");
  const legend = h("legend", "", t("push.intro"));
  fields.append(legend);
  for (const kind of KINDS) {
    const label = h("label", "check");
    const box = h("input");
    Object.assign(box, { type: "checkbox", id: `push-${kind}`, checked: true, value: kind });
    box.onchange = () => choose();
    label.append(box, ` ${LABELS[kind]()}`);
    fields.append(label);
  }
  const status = h("p", "hint push-status");
  status.id = "push-status";
  status.setAttribute("aria-live", "polite");
  const button = h("button", "push-toggle", t("push.on"));
  Object.assign(button, { type: "button", id: "btn-push" });
  button.onclick = () => toggle();
  const actions = h("div", "push-actions");
  actions.append(button);
  section.append(heading, fields, actions, status);
  const dialog = $("dlg-account").querySelector("form");
  dialog.insertBefore(section, dialog.querySelector(".dialog-buttons"));
}

const kinds = () => KINDS.filter((kind) => $(`push-${kind}`).checked);

function show(message = null) {
  const on = !!state.subscription;
  $("btn-push").textContent = on ? t("push.off") : t("push.on");
  $("btn-push").classList.toggle("primary", !on);
  $("btn-push").disabled = state.busy || !supported();
  const status = !supported() ? t("push.unsupported") : on ? t("push.is_on") : t("push.is_off");
  $("push-status").textContent = message ?? status;
  document.body.dataset.push = on ? "on" : "off"; // for a test to wait on
}

// What the server keeps of this browser's subscription, for the account signed in.
async function refresh() {
  state.subscription = null;
  if (!supported() || !signedIn()) { show(); return; }
  const registration = await worker;
  const subscription = registration && await registration.pushManager.getSubscription();
  if (subscription) {
    const endpoint = encodeURIComponent(subscription.endpoint);
    const kept = await api("GET", `/api/push/subscription?endpoint=${endpoint}`).catch(() => null);
    if (kept && kept.subscribed) {
      state.subscription = subscription;
      for (const kind of KINDS) $(`push-${kind}`).checked = kept.kinds.includes(kind);
    }
  }
  show();
}

async function busy(work) {
  state.busy = true;
  show();
  let message = null;
  try { await work(); } catch (err) { message = err.denied ? err.message : t("push.failed", { error: err.message }); }
  state.busy = false;
  show(message);
}

function toggle() {
  return busy(async () => {
    const registration = await worker;
    if (!registration) throw new Error(t("push.unsupported"));
    if (state.subscription) {
      const { endpoint } = state.subscription;
      await state.subscription.unsubscribe().catch(() => false);
      state.subscription = null;
      await api("POST", "/api/push/unsubscribe", { endpoint }, null, csrfHeaders());
      return;
    }
    if (await Notification.requestPermission() !== "granted") throw Object.assign(new Error(t("push.denied")), { denied: true });
    const { key } = await api("GET", "/api/push/key");
    const subscription = await registration.pushManager.getSubscription()
      ?? await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    const body = { ...subscription.toJSON(), kinds: kinds(), language: lang };
    await api("POST", "/api/push/subscribe", body, null, csrfHeaders());
    state.subscription = subscription;
  });
}

function choose() {
  if (!state.subscription) return;
  const endpoint = state.subscription.endpoint;
  busy(() => api("POST", "/api/push/preferences", { endpoint, kinds: kinds() }, null, csrfHeaders()));
}

// Register the service worker; on a server with accounts, the dialog's part (shown when the dialog opens).
export function wirePush() {
  register();
  if (!app.assets.accounts) return;
  stylesheet(new URL("./push.css", import.meta.url));
  build();
  show();
  $("btn-account").addEventListener("click", () => { if (signedIn()) refresh(); });
  onAccountChange((name) => (name ? refresh() : forget()));
}

// Signed out: this browser's subscription ends (its push service then answers the server that it is gone, and the
// server deletes it), so that the next player on this browser is not sent the last one's notifications.
async function forget() {
  const registration = supported() && await worker;
  const subscription = registration && await registration.pushManager.getSubscription();
  if (subscription) await subscription.unsubscribe().catch(() => false);
  state.subscription = null;
  show();
}
