// The seat tokens this browser holds, kept in its storage and never in the address bar: a link's token is read on
// load and taken out of the address at once. A link's token that holds no seat of the game, or that is the other
// seat's (a player opening their own invitation), is not kept, and the page says why; a valid stored token is
// never overwritten.

import { api } from "../net.js";

const SEAT_KEY = (id) => `hive.token.${id}`;
const INVITE_KEY = (id) => `hive.invite.${id}`;

export function storedToken(id) { return localStorage.getItem(SEAT_KEY(id)); }

// Every seat token this browser keeps (a server with accounts lists a guest's games by them).
export function storedTokens() {
  const tokens = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && key.startsWith("hive.token.")) tokens.push(localStorage.getItem(key));
  }
  return tokens.filter(Boolean);
}
export function storedInvite(id) { return localStorage.getItem(INVITE_KEY(id)); }

export function keepToken(id, token, invite = null) {
  localStorage.setItem(SEAT_KEY(id), token);
  if (invite) localStorage.setItem(INVITE_KEY(id), invite);
}

export function forgetGame(id) {
  localStorage.removeItem(SEAT_KEY(id));
  localStorage.removeItem(INVITE_KEY(id));
}

// The token in the address's #seat=..., removed from the address bar (and so from what a player copies).
export function takeLinkToken() {
  const token = new URLSearchParams(location.hash.slice(1)).get("seat");
  if (token !== null) history.replaceState(history.state, "", location.pathname + location.search);
  return token || null;
}

async function seatsOf(id, token) {
  try {
    const state = await api("GET", `/api/games/${id}`, undefined, token);
    return state.seats;
  } catch (err) {
    return null; // the game is gone or the server is down: the shell reports it when it opens the game
  }
}

// The token this browser plays game id with, given the token of the link it was opened by (or null), and a
// warning for the player when the link's token was not kept.
export async function resolveSeat(id, linkToken) {
  const stored = storedToken(id);
  if (!linkToken || linkToken === stored) return { token: stored, warning: null };
  if (linkToken === storedInvite(id)) {
    return {
      token: stored,
      warning: "You opened the invitation you created: that link is your opponent's seat. You keep your own seat " +
        "here; send the link to your opponent.",
    };
  }
  const linked = await seatsOf(id, linkToken);
  if (linked !== null && !linked.length) {
    return {
      token: stored,
      warning: "This link's seat token does not belong to this game, so it was not kept" +
        (stored ? "; you keep your own seat." : "; you are watching."),
    };
  }
  const mine = stored ? await seatsOf(id, stored) : null;
  if (mine && mine.length && linked && !linked.every((seat) => mine.includes(seat))) {
    return {
      token: stored,
      warning: "This link is for the other seat of a game you already play in this browser; you keep your own " +
        "seat. Open the link in another browser to play the other side.",
    };
  }
  if (linked) keepToken(id, linkToken);
  return { token: linked ? linkToken : stored, warning: null };
}
