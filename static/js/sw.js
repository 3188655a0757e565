// The service worker (served from /sw.js, so its scope is the whole app). It lets a game page
// or a scoreboard open again while the server cannot be reached: every answer comes from the
// network first, and only when the network fails from the copy kept of the last answer.
// Kept: the static files, the game pages and the boards (GET, 200, this origin); nothing
// else, never a post. A kept page opened offline says so itself: its connection indicator
// turns "offline" as soon as its first request fails (static/js/connection.js).
"use strict";

var CACHE = "scorekeeper-v1";
var KEPT = [/^\/static\//, /^\/games\/\d+$/, /^\/games\/\d+\/board$/];

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

function keepable(request) {
  if (request.method !== "GET") { return false; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return false; }
  return KEPT.some(function (pattern) { return pattern.test(url.pathname); });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (!keepable(request)) { return; }  // the browser fetches it as if there were no worker
  // Kept by path alone: /games/5?saved=3 (the page after a save) is /games/5.
  var url = new URL(request.url);
  var kept = url.origin + url.pathname;
  event.respondWith(
    fetch(request).then(function (response) {
      if (response.ok && response.type === "basic" && !response.redirected) {
        var copy = response.clone();
        event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.put(kept, copy); }));
      }
      return response;
    }).catch(function () {
      return caches.match(kept).then(function (copy) { return copy || Response.error(); });
    })
  );
});
