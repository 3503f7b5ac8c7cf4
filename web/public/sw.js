// LinkUp offline worker. Registered once cookies are accepted. On install it keeps every file of the build
// (the list below is filled in at build time from the build's manifests by scripts/sw-precache.ts) and the
// pages "/", "/chat", "/emergency" and "/settings", so LinkUp and every screen's scripts run with no network at
// all and those screens open offline even on their first offline visit (docs/decisions/066-phones-paired-by-code.md);
// a new build has a new version and drops the old cache. Chat history and the outbox live in IndexedDB (web/app/mesh/db.ts).
const BUILD = self.__LINKUP_PRECACHE || { version: "dev", files: [] };
const VERSION = `linkup-${BUILD.version}`;
const PAGES = ["/", "/chat", "/emergency", "/settings"];
// Pages a repeat visit gets from the cache at once, refreshed behind it (stale-while-revalidate), when the kept copy
// was made for the person signed in now (docs/decisions/078-each-page-carries-its-own-words.md).
const DEVICE_FIRST = ["/", "/chat", "/emergency"];
/** The document's header naming whose page it is (web/app/lib/device-served.ts). */
const OWNER = "x-linkup-page-owner";
/** Where the signed-in person's id is kept between the worker's restarts (cleared with the pages on sign-out). */
const WHO_KEY = "/__linkup/who";
const STATIC = ["/manifest.webmanifest", "/icon.svg", "/icon-192.png"];

/**
 * Keeps a page and the words files it names (docs/decisions/078-each-page-carries-its-own-words.md): the page's
 * scripts wait for its words before they run, so a kept page without them would open offline without its scripts.
 */
async function keepPage(cache, url, res) {
  const text = await res.clone().text();
  await cache.put(url, res);
  const words = [...new Set(text.match(/\/assets\/words-\w+\/[\w-]+\/[\w.-]+\.json/g) || [])];
  if (words.length) await cacheFiles(words).catch(() => {});
}

/** Caches pages as the signed-in person sees them (a redirect, e.g. to /onboarding, cannot stand in). */
async function cachePages(urls) {
  const cache = await caches.open(VERSION);
  await Promise.all(
    urls.map(async (url) => {
      try {
        const res = await fetch(url, { credentials: "same-origin" });
        if (res.ok && !res.redirected) await keepPage(cache, url, res);
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
  // Who is signed in now, said by every page as it runs: kept pages of anyone else are not painted.
  if (data.type === "session" && typeof data.who === "string") {
    event.waitUntil(setWho(data.who));
    return;
  }
  if (data.type === "clear-pages") {
    who = null;
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

// Who is signed in, as the last page said (web/app/lib/device-served.ts): a string (empty: no session), or null when
// unknown. Undefined until read back from the cache after a restart.
let who;
async function currentWho() {
  if (who === undefined) {
    const kept = await caches.open(VERSION).then((c) => c.match(WHO_KEY));
    who = kept ? await kept.text() : null;
  }
  return who;
}
function setWho(value) {
  who = value;
  return caches.open(VERSION).then((c) => (value === null ? c.delete(WHO_KEY) : c.put(WHO_KEY, new Response(value))));
}

/**
 * Requests that may change who is signed in: a screen's form (sign-in, sign-out, settings: React Router posts them
 * to the page's address) and the session's API calls. Until a page says again who it is for, no kept page is painted.
 */
function maySwitchPerson(url) {
  return !url.pathname.startsWith("/api/") || /^\/api\/(auth|me|security|device-links)(\/|$)/.test(url.pathname);
}

/** The kept page, at once, marked for the page (Server-Timing) so it asks for fresh data as it starts. */
function fromDevice(hit) {
  const headers = new Headers(hit.headers);
  headers.append("Server-Timing", "linkup-device");
  return new Response(hit.body, { status: hit.status, statusText: hit.statusText, headers });
}

/** A fresh copy for next time, kept only if it is still the signed-in person's page (never a redirect). */
async function refreshPage(url, owner) {
  const cache = await caches.open(VERSION);
  try {
    const res = await fetch(url, { credentials: "same-origin" });
    if (res.ok && !res.redirected && res.headers.get(OWNER) === owner && (await currentWho()) === owner) await keepPage(cache, url, res);
    else await cache.delete(url);
  } catch {
    // Offline: the kept copy stays.
  }
}

async function deviceFirst(event, url, fallbacks) {
  const owner = await currentWho();
  const hit = owner === null ? null : await caches.match(url.pathname);
  if (hit && hit.headers.get(OWNER) === owner) {
    event.waitUntil(refreshPage(url.pathname, owner));
    return fromDevice(hit);
  }
  return networkFirst(event.request, fallbacks);
}

function networkFirst(request, fallbacks) {
  return fetch(request)
    .then((res) => {
      if (res.ok && !res.redirected) {
        const copy = res.clone();
        caches.open(VERSION).then((c) => (request.mode === "navigate" ? keepPage(c, request, copy) : c.put(request, copy)));
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
  if (url.origin !== self.location.origin) return;
  // A post that may sign someone in or out: forget who is signed in before its answer can load a page. The post
  // itself goes to the network as before (never answered here: SOS forms and every other post are live).
  if (request.method !== "GET") {
    if (maySwitchPerson(url)) {
      who = null;
      event.waitUntil(setWho(null));
    }
    return;
  }
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
    const fallbacks = [
      () => caches.match(request),
      () => caches.match(url.pathname, { ignoreSearch: true }),
      () => caches.match(request, { ignoreSearch: true }),
      () => caches.match("/"),
    ];
    // A repeat visit to /, /chat or /emergency (no query: a link to a room or an alert asks for fresh) paints from
    // the device; every other page, network first.
    if (DEVICE_FIRST.includes(url.pathname) && !url.search) event.respondWith(deviceFirst(event, url, fallbacks));
    else event.respondWith(networkFirst(request, fallbacks));
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
