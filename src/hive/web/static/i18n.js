// The page's language: its catalog (/i18n/<lang>.json, from the server's .po files), loaded before any other module
// draws anything (this module awaits it at the top level, so every module importing it waits), t() for a text by its
// key, dates and numbers in the language's forms, and the choice remembered in this browser (localStorage and the
// hive_lang cookie the server reads). The shell's static texts name their keys (data-i18n="key" for the text,
// data-i18n-title, data-i18n-placeholder, data-i18n-aria-label for attributes) and are translated here.

const STORE = "hive.lang";
const COOKIE = "hive_lang";
const root = document.documentElement;

function cookie() {
  const found = document.cookie.split("; ").find((c) => c.startsWith(`${COOKIE}=`));
  return found ? found.slice(COOKIE.length + 1) : null;
}

function remember(code) {
  try { localStorage.setItem(STORE, code); } catch (err) { /* private mode: the cookie still remembers */ }
  document.cookie = `${COOKIE}=${code}; path=/; max-age=${365 * 86400}; samesite=lax`;
}

function stored() {
  try { return localStorage.getItem(STORE); } catch (err) { return null; }
}

// The server chose the shell's language (the account's, the cookie's, the browser's); a choice this browser
// remembers whose cookie has gone wins, and is given back to the server.
let chosen = root.lang || "en";
let url = root.dataset.catalog || `/i18n/${chosen}.json`;
const kept = stored();
if (kept && kept !== chosen && !cookie() && /^[a-z]{2,3}$/.test(kept)) {
  chosen = kept;
  url = `/i18n/${kept}.json`;
  remember(kept);
}

async function load(address) {
  try {
    const response = await fetch(address);
    return response.ok ? await response.json() : null;
  } catch (err) {
    return null;
  }
}

const catalog = (await load(url)) || (await load("/i18n/en.json")) || { lang: "en", languages: [], messages: {} };

// The page's language (a code: en, fr, de, es), and the languages on offer ([{code, name}], each in its own words).
export const lang = catalog.lang;
export const languages = catalog.languages;
const messages = catalog.messages;
const plurals = new Intl.PluralRules(lang);
const numbers = new Intl.NumberFormat(lang);
root.lang = lang;

// A number in the language's forms (1 234,5 in French); options as Intl.NumberFormat's.
export function formatNumber(value, options = undefined) {
  return options ? new Intl.NumberFormat(lang, options).format(value) : numbers.format(value);
}

// A date (a Date, or milliseconds since the epoch) in the language's forms; options as Intl.DateTimeFormat's
// (by default the day: 6 déc. 2026).
export function formatDate(value, options = { dateStyle: "medium" }) {
  return new Intl.DateTimeFormat(lang, options).format(value instanceof Date ? value : new Date(value));
}

// Whether the catalog has a text for key.
export function has(key) {
  return Object.hasOwn(messages, key);
}

// The text of key in the page's language, its {name} placeholders filled from values (numbers in the language's
// forms). A text with plural forms picks the one values.count takes. A key missing from the catalog shows as itself.
export function t(key, values = {}) {
  let text = messages[key];
  if (text === undefined) return key;
  if (typeof text === "object") text = text[plurals.select(Number(values.count ?? 0))] ?? text.other;
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!Object.hasOwn(values, name)) return whole;
    const value = values[name];
    return typeof value === "number" ? formatNumber(value) : String(value);
  });
}

// A side's name in the page's language, from its game's catalog (keys "<kind>.side.<name>"); as given where it has none.
export function side(kind, name) {
  const key = `${kind}.side.${name}`;
  return has(key) ? t(key) : name;
}

// A game type's name as the server gives it (Base, Base+MLP: the UHP's game type string) in the page's language: the
// base game's word translated, the expansions' letters kept (the notation's, as every edition's box prints them).
export function gameType(name) {
  return typeof name === "string" && /^Base(\+|$)/.test(name) ? t("games.base") + name.slice(4) : name;
}

// A speed's name (bullet, blitz, rapid, classical, correspondence) in the page's language; as given where it has none.
export function speedName(speed) {
  return has(`pairing.speed.${speed}`) ? t(`pairing.speed.${speed}`) : speed;
}

// A text of the server's in English as a game's state gives it to every viewer (why the game ended: "{loser}
// resigned" rendered), in the page's language: a key of the server's catalog, or one with {placeholders} it renders
// (the values translated in turn); as it is otherwise.
const server = catalog.server || {};
let patterns = null;
export function serverText(text) {
  if (!text || lang === "en") return text;
  if (Object.hasOwn(server, text)) return server[text];
  patterns ??= Object.keys(server).filter((key) => /\{\w+\}/.test(key)).map((key) => {
    const names = [];
    const source = key.split(/(\{\w+\})/).map((part) => {
      const name = /^\{(\w+)\}$/.exec(part);
      if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(name[1]);
      return "(.+?)";
    }).join("");
    return { key, names, pattern: new RegExp(`^${source}$`), literal: key.replace(/\{\w+\}/g, "").length };
  }).sort((a, b) => b.literal - a.literal);
  for (const { key, names, pattern } of patterns) {
    const found = pattern.exec(text);
    if (!found) continue;
    const values = Object.fromEntries(names.map((name, i) => [name, serverText(found[i + 1])]));
    return server[key].replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(values, name) ? values[name] : whole));
  }
  return text;
}

// Translate the static texts under node (the shell's, or a fragment built from HTML) that name their keys.
export function translate(node = document) {
  for (const el of node.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const [data, attribute] of [["i18nTitle", "title"], ["i18nPlaceholder", "placeholder"], ["i18nAriaLabel", "aria-label"]]) {
    const selector = `[data-${data.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}]`;
    for (const el of node.querySelectorAll(selector)) el.setAttribute(attribute, t(el.dataset[data]));
  }
}

// Switch the page to the language code: remembered in this browser, and the page drawn again in it. (The account's
// choice is kept by the server: see language.js.)
export function setLanguage(code) {
  remember(code);
  if (code !== lang) location.reload();
}

translate();
root.classList.add("i18n-ready");
