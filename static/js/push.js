/* The live push (docs/game-systems.md): follow the stream named by #poller's data-stream and
 * poll the moment it says the match changed. While live, periodic polls are held back (a slow
 * safety poll runs); otherwise the page polls, and reopens the stream with back-off and jitter.
 * <html data-push> says "live" or "polling". */
(function () {
  "use strict";

  var poller = function () { return document.getElementById("poller"); };
  var push = window.BlitzPush = { live: false };
  var root = document.documentElement;
  var first = poller();
  var url = first && first.dataset.stream;
  var hiddenAt = Date.now();
  root.dataset.push = "polling";
  if (!first || typeof htmx === "undefined") return;

  function poll() {
    var p = poller();
    if (p && p.hasAttribute("hx-get")) htmx.trigger(p, "poll-now");
  }

  // Back to the tab or back online: poll at once (and open the stream again, below).
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) {
      hiddenAt = Date.now();
    } else {
      poll();
    }
  });
  window.addEventListener("online", poll);
  if (!url || typeof EventSource === "undefined") return;

  var STALE_MS = 45000;
  var MAX_WAIT_MS = 60000;
  var source = null;
  var failures = 0;
  var timer = null;
  var seen = -1; // the highest change the stream announced
  var pollXhr = null;

  function setLive(live) {
    push.live = live;
    root.dataset.push = live ? "live" : "polling";
  }

  function connect() {
    clearTimeout(timer);
    timer = null;
    if (source) source.close();
    source = new EventSource(url);
    source.addEventListener("seq", function (evt) {
      failures = 0;
      seen = Math.max(seen, parseInt(evt.data, 10) || 0);
      setLive(true);
      poll();
    });
    source.onerror = function () {
      // Dropped, refused or ended: poll meanwhile, and try again later.
      if (source) source.close();
      source = null;
      setLive(false);
      var wait = Math.min(MAX_WAIT_MS, 1000 * Math.pow(2, failures));
      failures += 1;
      timer = setTimeout(connect, wait + Math.random() * wait / 2);
    };
  }

  function reopen() {
    failures = 0;
    connect();
  }

  document.addEventListener("visibilitychange", function () {
    // Hidden a long while (a sleeping tablet): its stream may have died without a word.
    if (!document.hidden && (!push.live || Date.now() - hiddenAt > STALE_MS)) reopen();
  });
  window.addEventListener("online", reopen);

  // Registered before static/js/match.js's, which leaves a poll held back here alone.
  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    if (evt.detail.elt !== poller()) return;
    var asked = evt.detail.requestConfig && evt.detail.requestConfig.triggeringEvent;
    if (push.live && !(asked && asked.type === "poll-now")) {
      evt.preventDefault();
      return;
    }
    pollXhr = evt.detail.xhr;
  });
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    var polled = pollXhr && evt.detail.xhr === pollXhr;
    if (polled) pollXhr = null;
    if (!push.live || (polled && evt.detail.xhr.status !== 200)) return;
    setTimeout(function () {
      var p = poller();
      var shown = p ? parseInt(p.dataset.seq, 10) : seen;
      // A poll found a change the stream never announced: the stream is stale.
      if (polled && shown > seen) reopen();
      // A change announced while a tap was on its way (its poll held back): fetch it now.
      if (!polled && shown < seen) poll();
    }, 0);
  });

  var safety = parseInt(first.dataset.safetyPoll, 10);
  if (safety > 0) {
    setInterval(function () {
      if (push.live) poll();
    }, safety * 1000);
  }
  connect();
})();
