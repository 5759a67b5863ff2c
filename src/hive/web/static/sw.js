// The page's service worker, served as /sw.js so that its scope is the whole site. It shows the server's push
// notifications (a player's turn, a challenge, a tournament's start: see web/push/notices.py) while no page is open,
// and a click on one focuses the page already showing its address, or opens it. It caches nothing: the page is
// always the server's.

const ICON = "/static/icons/icon-192.png";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// The message is the server's JSON ({title, body, url, tag, kind}); the address opened is the site's own only.
function notification(event) {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (err) { data = { body: event.data.text() }; }
  const url = typeof data.url === "string" && data.url.startsWith("/") && !data.url.startsWith("//") ? data.url : "/";
  const options = { body: typeof data.body === "string" ? data.body : "", icon: ICON, badge: ICON, data: { url } };
  if (typeof data.tag === "string") Object.assign(options, { tag: data.tag, renotify: true });
  return [typeof data.title === "string" && data.title ? data.title : self.location.host, options];
}

self.addEventListener("push", (event) => {
  const [title, options] = notification(event);
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil((async () => {
    const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const showing = pages.find((page) => page.url === url);
    if (showing) return showing.focus();
    const ours = pages.find((page) => new URL(page.url).origin === self.location.origin && "navigate" in page);
    if (ours) {
      try { return await (await ours.navigate(url)).focus(); } catch (err) { /* not ours to steer: open one */ }
    }
    return self.clients.openWindow(url);
  })());
});
