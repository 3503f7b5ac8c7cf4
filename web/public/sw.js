// LinkUp offline worker. Registered once cookies are accepted. On install it keeps every file of the build
// (the list below is filled in at build time from the build's manifests by scripts/sw-precache.ts) and the
// pages "/", "/chat", "/emergency" and "/settings", so LinkUp and every screen's scripts run with no network at
// all and those screens open offline even on their first offline visit (docs/decisions/066-phones-paired-by-code.md);
// a new build has a new version and drops the old cache. Chat history and the outbox live in IndexedDB (web/app/mesh/db.ts).
const BUILD = self.__LINKUP_PRECACHE || { version: "dev", files: [] };
const VERSION = `linkup-${BUILD.version}`;
const PAGES = ["/", "/chat", "/emergency", "/settings"];
const STATIC = ["/manifest.webmanifest", "/icon.svg", "/icon-192.png"];

/** Caches pages as the signed-in person sees them (a redirect, e.g. to /onboarding, cannot stand in). */
async function cachePages(urls) {
  const cache = await caches.open(VERSION);
  await Promise.all(
    urls.map(async (url) => {
      try {
        const res = await fetch(url, { credentials: "same-origin" });
        if (res.ok && !res.redirected) await cache.put(url, res);
      } catch {
        // Offline or refused: the next visit tries again.
      }
    }),
  );
}

/**
 * Caches the pages of PAGES not kept yet. The install may have run before the person signed in (a page that
 * redirected is not kept), so every later online visit to any page fills the gaps.
 */
async function cacheMissingPages() {
  const cache = await caches.open(VERSION);
  const missing = [];
  for (const page of PAGES) if (!(await cache.match(page))) missing.push(page);
  if (missing.length) await cachePages(missing);
}

/** Caches files not kept yet (built files never change under one name). */
async function cacheFiles(urls) {
  const cache = await caches.open(VERSION);
  await Promise.all(urls.map((u) => cache.match(u).then((hit) => hit || cache.add(u))));
}

self.addEventListener("install", (event) => {
  // A file that cannot be fetched fails the install: the previous worker keeps serving its complete set.
  event.waitUntil(
    cacheFiles([...BUILD.files, ...STATIC])
      .then(() => cachePages(PAGES))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== VERSION).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// A page asks for itself and the assets it loaded to be kept (the first visit happens before the worker
// controls the page, so its requests never passed through here).
self.addEventListener("message", (event) => {
  const data = event.data || {};
  // /cache-status asks which build this worker keeps.
  if (data.type === "version") {
    event.ports[0]?.postMessage({ version: BUILD.version });
    return;
  }
  // On sign-out: forget cached pages and route data (they carry the signed-in person's screen); keep assets.
  if (data.type === "clear-pages") {
    event.waitUntil(
      caches
        .open(VERSION)
        .then((cache) =>
          cache
            .keys()
            .then((requests) =>
              Promise.all(requests.filter((r) => !new URL(r.url).pathname.startsWith("/assets/")).map((r) => cache.delete(r))),
            ),
        ),
    );
    return;
  }
  if (data.type !== "cache-urls" || !Array.isArray(data.urls)) return;
  const urls = data.urls
    .map((u) => {
      try {
        return new URL(u, self.location.origin);
      } catch {
        return null;
      }
    })
    .filter((u) => u && u.origin === self.location.origin && !u.pathname.startsWith("/api/") && !u.pathname.startsWith("/ws/"))
    .map((u) => u.pathname + u.search);
  const pages = urls.filter((u) => !u.startsWith("/assets/"));
  const assets = urls.filter((u) => u.startsWith("/assets/"));
  event.waitUntil(Promise.all([cachePages(pages), cacheFiles(assets).catch(() => {})]));
});

function networkFirst(request, fallbacks) {
  return fetch(request)
    .then((res) => {
      if (res.ok && !res.redirected) {
        const copy = res.clone();
        caches.open(VERSION).then((c) => c.put(request, copy));
      }
      return res;
    })
    .catch(async () => {
      for (const fallback of fallbacks) {
        const hit = await fallback();
        if (hit) return hit;
      }
      return Response.error();
    });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/") || url.pathname === "/sw.js") return;
  // Built assets are content-hashed: cache first.
  if (url.pathname.startsWith("/assets/")) {
    event.respondWith(
      caches.match(request).then(
        (hit) =>
          hit ||
          fetch(request).then((res) => {
            if (res.ok) {
              const copy = res.clone();
              caches.open(VERSION).then((c) => c.put(request, copy));
            }
            return res;
          }),
      ),
    );
    return;
  }
  // Pages: network first; offline, the cached copy of the page (any query), then the shell.
  if (request.mode === "navigate") {
    event.waitUntil(
      new Promise((resolve) => setTimeout(resolve, 3000)).then(() => (self.navigator.onLine === false ? null : cacheMissingPages())),
    );
    event.respondWith(
      networkFirst(request, [
        () => caches.match(request),
        () => caches.match(url.pathname, { ignoreSearch: true }),
        () => caches.match(request, { ignoreSearch: true }),
        () => caches.match("/"),
      ]),
    );
    return;
  }
  // Route data (.data), the route manifest and other same-origin files: network first, cached copy offline.
  event.respondWith(networkFirst(request, [() => caches.match(request)]));
});

// Web Push (SOS area alerts, messages, security and system notices): show the notification the server
// encrypted for this browser; a click focuses an open LinkUp window on the right screen, or opens one.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: "LinkUp", body: event.data ? event.data.text() : "" };
  }
  const emergency = data.type === "emergency";
  // Open LinkUp pages refresh their lists and badges.
  const tellPages = self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    for (const w of windows) w.postMessage({ type: "push", notification: data });
  });
  event.waitUntil(
    Promise.all([
      tellPages,
      self.registration.showNotification(data.title || "LinkUp", {
        body: data.body || "",
        tag: data.tag || undefined,
        icon: "/icon-192.png",
        badge: "/icon-192.png",
        data: { url: data.url || "/notifications", id: data.id || null },
        requireInteraction: emergency,
        renotify: Boolean(data.tag),
        vibrate: emergency ? [300, 100, 300, 100, 300] : undefined,
      }),
    ]),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || "/notifications", self.location.origin);
  if (target.origin !== self.location.origin) return;
  // Opening a notification reads it: mark it so in the notification centre too.
  const id = event.notification.data?.id;
  const markRead = id
    ? fetch(`/api/notifications/${encodeURIComponent(id)}/read`, { method: "POST", credentials: "same-origin" }).catch(() => {})
    : Promise.resolve();
  event.waitUntil(
    Promise.all([
      markRead,
      self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
        for (const w of windows) {
          if (new URL(w.url).origin === self.location.origin && "focus" in w) {
            return w.focus().then((focused) => (focused && "navigate" in focused ? focused.navigate(target.href) : null));
          }
        }
        return self.clients.openWindow(target.href);
      }),
    ]),
  );
});
