{% load static %}// Blitz service worker: keeps the app's static files on the device and shows a clear page
// when the network is gone. Pages and taps always go to the server: match state lives there,
// and the board keeps unsent taps on the device itself (see match.js). Pages are never stored:
// many are private (a roster, a board with its join link), and a shared tablet must not hand
// them to the next person once offline or logged out.
const VERSION = "{{ version }}";
const STATIC_CACHE = `blitz-static-${VERSION}`;
const OFFLINE_URL = "{% url 'offline' %}";
const PRECACHE = [
  OFFLINE_URL,
{% for url in precache %}  "{{ url }}",
{% endfor %}];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(STATIC_CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((key) => key.startsWith("blitz-") && !key.endsWith(VERSION)).map((key) => caches.delete(key))
      ))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return; // taps and edits always go to the server
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("{% get_static_prefix %}")) {
    event.respondWith(
      caches.match(request).then((hit) => hit || fetch(request).then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(STATIC_CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      }))
    );
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE_URL)));
  }
});
