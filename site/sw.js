// DaemonLab's service worker: the page works offline after its first visit, and a new version
// is taken only when the learner says so. `make dist` writes VERSION and PRECACHE (wasm/dist);
// the page registers this worker only when it is served from such a build (site/main.js).
//
//  1. Install: every URL of PRECACHE — the pages and every asset, each under its hashed name —
//     goes into the cache of this version ("daemonlab-" + VERSION), revalidated past the HTTP
//     cache; if one fails, the version is not installed and the one before stays.
//  2. A new version waits (no skipWaiting at install): the page open on the old version keeps
//     running on its assets, and shows "a new version is ready — Reload"; Reload posts
//     "skipWaiting" and the page reloads once the new version controls it.
//  3. Activate: the caches of other versions are deleted, but for the one just before (another
//     tab may still run on it until it reloads; hashed names never clash), and the worker takes
//     control of the open pages (on a first visit, so that it is offline-ready at once).
//  4. Fetch, same origin, GET only:
//     a. a page (a navigation) is served from this version's cache, the network only when it is
//        not there. Cache first rather than network first: a page and its assets then always
//        come from one version, a repeat visit waits for no network, and a new version comes
//        through the update check (2), never by mixing a new page with an old worker's assets;
//     b. a hashed asset from any DaemonLab cache (its name is its content), else the network;
//     c. anything else is left to the network.
"use strict";

const VERSION = "dev";
const PRECACHE = [];
const PREFIX = "daemonlab-";
const CACHE = PREFIX + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) =>
    cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "no-cache" })))));
});

self.addEventListener("message", (event) => {
  if (event.data === "skipWaiting") {
    self.skipWaiting();
  }
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const ours = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
    const before = ours.pop(); // caches.keys() lists in the order they were made
    await Promise.all(ours.filter((name) => name !== before).map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

// hashed tells a hashed asset's name (as package hosting names them).
const hashed = /\.[0-9a-f]{10}\.[^./]+$/;

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin) {
    return;
  }
  if (request.mode === "navigate") {
    const page = url.pathname.endsWith("/") ? new URL("./", url) : url;
    event.respondWith(caches.open(CACHE)
      .then((cache) => cache.match(page.href, { ignoreSearch: true }))
      .then((cached) => cached || fetch(request)));
  } else if (hashed.test(url.pathname)) {
    event.respondWith(caches.match(request).then((cached) => cached || fetch(request)));
  }
});
