// Web Push on the page: the service worker registered (/sw.js, which also makes the page installable), and, on a
// server with accounts, the "Notifications" part of the account's dialog: which notifications this device is sent
// with the page closed (a player's turn, a challenge, a tournament's start), turned on and off. The browser asks
// for the permission to notify only when the player clicks "Turn on".

import { csrfHeaders, onAccountChange, signedIn } from "./account.js";
import { api } from "./net.js";
import { $, app, h, stylesheet } from "./page.js";

const TEXTS = {
  heading: "Notifications",
  intro: "Tell me on this device, even with the page closed:",
  turn: "Your turn in a game",
  challenge: "A challenge for you",
  tournament: "Your tournament starts",
  on: "Turn on notifications",
  off: "Turn off notifications",
  isOn: "Notifications are on for this device.",
  isOff: "Notifications are off for this device.",
  unsupported: "This browser cannot show the server's notifications.",
  denied: "Notifications are blocked for this site: allow them in the browser's site settings, then try again.",
  failed: "Notifications could not be changed: ",
};
const KINDS = ["turn", "challenge", "tournament"];

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
  const heading = h("h3", "", TEXTS.heading);
  heading.id = "push-heading";
  const fields = h("fieldset", "push-kinds");
  const legend = h("legend", "", TEXTS.intro);
  fields.append(legend);
  for (const kind of KINDS) {
    const label = h("label", "check");
    const box = h("input");
    Object.assign(box, { type: "checkbox", id: `push-${kind}`, checked: true, value: kind });
    box.onchange = () => choose();
    label.append(box, ` ${TEXTS[kind]}`);
    fields.append(label);
  }
  const status = h("p", "hint push-status");
  status.id = "push-status";
  status.setAttribute("aria-live", "polite");
  const button = h("button", "push-toggle", TEXTS.on);
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
  $("btn-push").textContent = on ? TEXTS.off : TEXTS.on;
  $("btn-push").classList.toggle("primary", !on);
  $("btn-push").disabled = state.busy || !supported();
  $("push-status").textContent = message ?? (!supported() ? TEXTS.unsupported : on ? TEXTS.isOn : TEXTS.isOff);
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
  try { await work(); } catch (err) { message = err.message === TEXTS.denied ? TEXTS.denied : TEXTS.failed + err.message; }
  state.busy = false;
  show(message);
}

function toggle() {
  return busy(async () => {
    const registration = await worker;
    if (!registration) throw new Error(TEXTS.unsupported);
    if (state.subscription) {
      const { endpoint } = state.subscription;
      await state.subscription.unsubscribe().catch(() => false);
      state.subscription = null;
      await api("POST", "/api/push/unsubscribe", { endpoint }, null, csrfHeaders());
      return;
    }
    if (await Notification.requestPermission() !== "granted") throw new Error(TEXTS.denied);
    const { key } = await api("GET", "/api/push/key");
    const subscription = await registration.pushManager.getSubscription()
      ?? await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    const body = { ...subscription.toJSON(), kinds: kinds(), language: document.documentElement.lang || "en" };
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
