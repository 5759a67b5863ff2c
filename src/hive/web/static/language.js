// The top bar's language switch: the languages on offer, each in its own words; a choice is remembered in this
// browser (i18n.js) and, signed in, on the account, whose choice the page takes on when it signs in elsewhere.

import { lang, languages, setLanguage } from "./i18n.js";
import { api } from "./net.js";
import { $, toast } from "./page.js";

// Switch to code; signed in (csrf: the session's CSRF token), the account keeps the choice first.
export async function chooseLanguage(code, csrf = null) {
  if (csrf) {
    try {
      await api("POST", "/api/account/language", { language: code }, null, { "x-csrf-token": csrf });
    } catch (err) {
      toast(err.message);
    }
  }
  setLanguage(code);
}

// The account's language, as the session's answer says: the page takes it on when it differs from this one.
export function accountLanguage(code) {
  if (code && code !== lang && languages.some((l) => l.code === code)) setLanguage(code);
}

// Fill the switch; csrf() gives the session's CSRF token (null for a guest).
export function wireLanguage(csrf) {
  const select = $("language");
  if (!select) return;
  select.replaceChildren(...languages.map(({ code, name }) => {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    return option;
  }));
  select.value = lang;
  select.addEventListener("change", () => chooseLanguage(select.value, csrf()));
}
