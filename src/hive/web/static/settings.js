// The page's options (Sound, Confirm moves): a gear in the top bar opens them in a small box under it; where the top
// bar is a ☰ menu (a narrow window), they are listed in the menu under their title instead. What each option does and
// how it is remembered in the browser stays with its module (alerts.js, premove.js): this one opens and closes the box.
// The box closes on Esc (the focus back on the gear), on a press outside it, and when the focus leaves it.

import { $, stylesheet } from "./page.js";

stylesheet(new URL("./settings.css", import.meta.url));

function isOpen() { return $("btn-settings").getAttribute("aria-expanded") === "true"; }

function open() {
  $("settings-box").classList.add("open");
  $("btn-settings").setAttribute("aria-expanded", "true");
  $("settings").querySelector("button").focus();
}

// Close the box; true when it was open. refocus: give the focus back to the gear (the keyboard closed it).
export function closeSettings(refocus = false) {
  if (!isOpen()) return false;
  $("settings-box").classList.remove("open");
  $("btn-settings").setAttribute("aria-expanded", "false");
  if (refocus) $("btn-settings").focus();
  return true;
}

export function wireSettings() {
  const box = $("settings-box");
  $("btn-settings").onclick = () => { if (!closeSettings()) open(); };
  box.addEventListener("keydown", (evt) => {
    if (evt.key === "Escape" && closeSettings(true)) evt.stopPropagation();
  });
  box.addEventListener("focusout", (evt) => { if (evt.relatedTarget && !box.contains(evt.relatedTarget)) closeSettings(); });
  document.addEventListener("pointerdown", (evt) => { if (!box.contains(evt.target)) closeSettings(); });
}
