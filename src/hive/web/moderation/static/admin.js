// The admin screen, at /admin on a server that keeps accounts, for an admin (the server refuses anyone else the page
// and its API): the reports queue, each reported line shown among the lines around it in its room, with who wrote
// and who reported it; mute, ban and unban, a one-time link that sets a new password (shown here, to hand over),
// deleting a spam account, a report marked handled; and the audit list of every admin's action. The top bar links
// here for an admin only. The screen is built here (no markup in index.html) and styled by admin.css.

import { formatDate, t } from "../i18n.js";
import { api } from "../net.js";
import { $, h, stylesheet, toast } from "../page.js";
import { csrfHeaders, isAdmin, onAccountChange } from "../players/account.js";
import { playerLink } from "../players/players.js";

// The screen's texts, from the page's catalog (page-admin.po).
const TEXTS = {
  title: t("admin.title"),
  link: t("admin.link"),
  linkTitle: t("admin.link_title"),
  reports: t("admin.reports"),
  showHandled: t("admin.show_handled"),
  noReports: t("admin.no_reports"),
  inGame: t("admin.in_game"),
  inTournament: t("admin.in_tournament"),
  reportedBy: t("admin.reported_by"),
  open: t("admin.open"),
  handled: t("admin.handled"),
  muted: t("admin.muted"),
  banned: t("admin.banned"),
  mute: t("admin.mute"),
  unmute: t("admin.unmute"),
  ban: t("admin.ban"),
  unban: t("admin.unban"),
  markHandled: t("admin.mark_handled"),
  reopen: t("admin.reopen"),
  deleteAccount: t("admin.delete_account"),
  resetLink: t("admin.reset_link"),
  reportActions: t("admin.report_actions"),
  accounts: t("admin.accounts"),
  accountName: t("admin.account_name"),
  accountHint: t("admin.account_hint"),
  linkFor: t("admin.link_for"),
  copy: t("admin.copy"),
  copied: t("admin.copied"),
  audit: t("admin.audit"),
  noAudit: t("admin.no_audit"),
  older: t("admin.older"),
  when: t("admin.when"),
  what: t("admin.what"),
  confirmDelete: t("admin.confirm_delete"),
  needName: t("admin.need_name"),
};

const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, key) => String(values[key]));
const when = (seconds) => formatDate(seconds * 1000, { dateStyle: "medium", timeStyle: "short" });
// A text whose placeholders are shown in bold (names, in the audit list).
const rich = (text, values) => text.split(/\{(\w+)\}/).map((part, i) => (i % 2 ? h("b", "", String(values[part])) : part));

let root = null; // the screen's <main>, once built
let auditBefore = null; // the oldest audit row shown, for "Older"

function button(text, onClick, className = "") {
  const b = h("button", className, text);
  b.type = "button";
  b.onclick = onClick;
  return b;
}

// ------------------------------------------------------------------ the screen

function build() {
  stylesheet(new URL("./admin.css", import.meta.url));
  root = h("main", "lobby admin");
  root.id = "admin";
  root.setAttribute("aria-labelledby", "admin-title");
  root.hidden = true;
  const title = h("h1", "", TEXTS.title);
  title.id = "admin-title";

  const reports = h("section", "admin-section");
  reports.setAttribute("aria-labelledby", "admin-reports-title");
  const head = h("div", "lobby-head");
  const reportsTitle = h("h2", "", TEXTS.reports);
  reportsTitle.id = "admin-reports-title";
  const toggle = h("label", "admin-toggle");
  const box = h("input");
  box.type = "checkbox";
  box.id = "admin-show-handled";
  box.onchange = loadReports;
  toggle.append(box, " ", TEXTS.showHandled);
  head.append(reportsTitle, toggle);
  const list = h("ul", "admin-reports");
  list.id = "admin-report-list";
  list.setAttribute("aria-labelledby", "admin-reports-title");
  const empty = h("p", "muted", TEXTS.noReports);
  empty.id = "admin-reports-empty";
  empty.hidden = true;
  reports.append(head, list, empty);

  const accounts = h("section", "admin-section");
  accounts.setAttribute("aria-labelledby", "admin-accounts-title");
  const accountsTitle = h("h2", "", TEXTS.accounts);
  accountsTitle.id = "admin-accounts-title";
  const form = h("form", "admin-account");
  form.id = "form-admin-account";
  const label = h("label", "", TEXTS.accountName + " ");
  const input = h("input");
  Object.assign(input, { id: "admin-name", maxLength: 20, autocomplete: "off", spellcheck: false });
  input.setAttribute("autocapitalize", "none");
  label.append(input);
  const buttons = h("div", "admin-buttons");
  const named = (action) => () => {
    const name = input.value.trim();
    if (!name) { toast(TEXTS.needName); input.focus(); return; }
    act(action, name);
  };
  buttons.append(
    button(TEXTS.resetLink, named("reset"), "primary"),
    button(TEXTS.mute, named("mute")), button(TEXTS.unmute, named("unmute")),
    button(TEXTS.ban, named("ban"), "danger"), button(TEXTS.unban, named("unban")),
    button(TEXTS.deleteAccount, named("delete"), "danger"),
  );
  form.onsubmit = (evt) => { evt.preventDefault(); };
  const hint = h("p", "hint", TEXTS.accountHint);
  const linkBox = h("div", "admin-link");
  linkBox.id = "admin-link";
  linkBox.hidden = true;
  form.append(label, hint, buttons);
  accounts.append(accountsTitle, form, linkBox);

  const audit = h("section", "admin-section");
  audit.setAttribute("aria-labelledby", "admin-audit-title");
  const auditTitle = h("h2", "", TEXTS.audit);
  auditTitle.id = "admin-audit-title";
  const scroll = h("div", "t-scroll");
  const table = h("table", "t-table admin-audit");
  table.id = "admin-audit";
  const thead = h("thead");
  const row = h("tr");
  for (const text of [TEXTS.when, TEXTS.what]) {
    const th = h("th", "", text);
    th.scope = "col";
    row.append(th);
  }
  thead.append(row);
  const tbody = h("tbody");
  tbody.id = "admin-audit-rows";
  table.append(thead, tbody);
  scroll.append(table);
  const noAudit = h("p", "muted", TEXTS.noAudit);
  noAudit.id = "admin-audit-empty";
  const older = button(TEXTS.older, () => loadAudit(true));
  older.id = "btn-admin-older";
  older.hidden = true;
  audit.append(auditTitle, scroll, noAudit, older);

  root.append(title, reports, accounts, audit);
  $("lobby").after(root);
}

// One report: where the line was said, the lines around it (the reported one marked), who wrote and reported it,
// and what the admin may do.
function renderReport(report) {
  const item = h("li", "admin-report" + (report.handled ? " handled" : ""));
  item.dataset.id = report.id;
  const head = h("div", "admin-report-head");
  const who = playerLink(report.name);
  head.append(who);
  for (const [flag, text] of [["muted", TEXTS.muted], ["banned", TEXTS.banned]]) {
    if (report[flag]) head.append(" ", h("span", `admin-badge ${flag}`, text));
  }
  const place = report.tournament_id
    ? h("a", "", TEXTS.inTournament) : h("a", "", fill(TEXTS.inGame, { room: t(`admin.room_${report.room}`) }));
  place.href = report.tournament_id ? `/tournament/${report.tournament_id}` : `/game/${report.game_id}`;
  const by = report.reports > 1
    ? t("admin.more_reports", { name: report.reported_by, count: report.reports - 1 })
    : fill(TEXTS.reportedBy, { name: report.reported_by });
  const state = h("span", "admin-state" + (report.handled ? " handled" : ""), report.handled ? TEXTS.handled : TEXTS.open);
  head.append(" ", place, h("span", "muted", ` · ${by} · ${when(report.at)} `), state);
  const context = h("ol", "admin-context");
  for (const line of report.context) {
    const li = h("li", line.id === report.id ? "reported" : "");
    li.append(h("span", "admin-line-name", line.name), h("span", "admin-line-text", line.text));
    if (line.id === report.id) li.setAttribute("aria-current", "true");
    context.append(li);
  }
  const actions = h("div", "admin-buttons");
  actions.setAttribute("role", "group");
  actions.setAttribute("aria-label", fill(TEXTS.reportActions, { name: report.name }));
  actions.append(
    button(report.muted ? TEXTS.unmute : TEXTS.mute, () => act(report.muted ? "unmute" : "mute", report.name)),
    button(report.banned ? TEXTS.unban : TEXTS.ban, () => act(report.banned ? "unban" : "ban", report.name),
      report.banned ? "" : "danger"),
    button(report.handled ? TEXTS.reopen : TEXTS.markHandled,
      () => act(report.handled ? "reopened" : "handled", report.id), report.handled ? "" : "primary"),
    button(TEXTS.deleteAccount, () => act("delete", report.name), "danger"),
  );
  item.append(head, context, actions);
  return item;
}

async function loadReports() {
  const all = $("admin-show-handled").checked;
  try {
    const { reports } = await api("GET", "/api/admin/reports", undefined, null);
    const shown = reports.filter((report) => all || !report.handled);
    $("admin-report-list").replaceChildren(...shown.map(renderReport));
    $("admin-reports-empty").hidden = shown.length > 0;
  } catch (err) {
    toast(err.message);
  }
}

async function loadAudit(more = false) {
  const query = more && auditBefore ? `?before=${auditBefore}` : "";
  try {
    const { audit } = await api("GET", `/api/admin/audit${query}`, undefined, null);
    const rows = audit.map((entry) => {
      const tr = h("tr");
      const what = h("td", "name");
      what.append(...rich(t(`admin.did_${entry.action}`), entry));
      tr.append(h("td", "admin-when", when(entry.at)), what);
      return tr;
    });
    if (more) $("admin-audit-rows").append(...rows);
    else $("admin-audit-rows").replaceChildren(...rows);
    if (audit.length) auditBefore = audit[audit.length - 1].id;
    $("btn-admin-older").hidden = audit.length < 100;
    $("admin-audit-empty").hidden = $("admin-audit-rows").children.length > 0;
  } catch (err) {
    toast(err.message);
  }
}

function showLink(answer) {
  const box = $("admin-link");
  const input = h("input");
  Object.assign(input, { readOnly: true, value: answer.link, id: "admin-link-url" });
  input.setAttribute("aria-label", fill(TEXTS.linkFor, { name: answer.name, time: when(answer.expires) }));
  input.onfocus = () => input.select();
  const copy = button(TEXTS.copy, async () => {
    input.select();
    try { await navigator.clipboard.writeText(answer.link); toast(TEXTS.copied, false); } catch (err) { /* selected */ }
  });
  const row = h("div", "admin-link-row");
  row.append(input, copy);
  box.replaceChildren(h("p", "", fill(TEXTS.linkFor, { name: answer.name, time: when(answer.expires) })), row);
  box.hidden = false;
}

// An admin's action on an account (by name) or a report (by id); the lists shown again after.
async function act(action, target) {
  const account = `/api/admin/accounts/${encodeURIComponent(target)}`;
  const calls = {
    mute: ["POST", `${account}/mute`, { muted: true }],
    unmute: ["POST", `${account}/mute`, { muted: false }],
    ban: ["POST", `${account}/ban`, { banned: true }],
    unban: ["POST", `${account}/ban`, { banned: false }],
    reset: ["POST", `${account}/reset`, {}],
    delete: ["DELETE", account, undefined],
    handled: ["POST", `/api/admin/reports/${target}/handled`, { handled: true }],
    reopened: ["POST", `/api/admin/reports/${target}/handled`, { handled: false }],
  };
  if (action === "delete" && !window.confirm(fill(TEXTS.confirmDelete, { name: target }))) return;
  const [method, path, body] = calls[action];
  try {
    const answer = await api(method, path, body, null, csrfHeaders());
    if (action === "reset") showLink(answer);
    toast(t(`admin.done_${action}`, { name: (answer && answer.name) || target }), false);
  } catch (err) {
    toast(err.message);
  }
  await Promise.all([loadReports(), loadAudit()]);
}

// ------------------------------------------------------------------ showing it

export async function showAdmin() {
  if (!root) build();
  document.title = TEXTS.title;
  root.hidden = false;
  $("admin-link").hidden = true;
  auditBefore = null;
  await Promise.all([loadReports(), loadAudit()]);
}

export function hideAdmin() { if (root) root.hidden = true; }

// The top bar's link, for an admin only; goTo(path) opens a page of the site.
export function wireAdmin(goTo) {
  const link = h("a", "button-link", TEXTS.link);
  Object.assign(link, { id: "link-admin", href: "/admin", title: TEXTS.linkTitle, hidden: !isAdmin() });
  link.onclick = (evt) => { evt.preventDefault(); document.body.classList.remove("menu-open"); goTo("/admin"); };
  $("btn-account").before(link);
  onAccountChange(() => { link.hidden = !isAdmin(); });
}
