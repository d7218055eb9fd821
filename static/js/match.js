/* The match board: taps in order, each with its own key, retried until the server confirms it;
 * polling (at once when static/js/push.js hears of a change) that slows down in a hidden tab.
 *
 * Taps: the board is one form (method=post, hx-post). A tap submits it; htmx asks
 * "htmx:confirm" first, and this script takes the tap instead: it gives it a key
 * (crypto.randomUUID), queues it, and sends the queue one tap at a time with htmx.ajax, so the
 * server sees taps in the order they were made. A tap the server did not confirm (no answer, a
 * timeout, a 5xx) is shown as "Not saved" and sent again with the same key: the server applies a
 * key once, so a retry never applies twice. Pending taps are kept in localStorage, so a reload, a
 * closed tab or a flat battery sends them again instead of losing them.
 *
 * Offline: a lost connection shows at once (the browser's offline event); taps made meanwhile
 * wait on the device and go out, in order, the moment the connection returns. No poll goes out
 * while the device is offline.
 *
 * Works for every game's board that keeps these conventions: one form#match-form whose buttons
 * are name="op" (with data-with="<field id>": that field's typed text follows the op), cards
 * with class "unit", #turn, #latest, #poller, #board-status.
 */
(function () {
  "use strict";

  var form = document.getElementById("match-form");
  var poller = function () { return document.getElementById("poller"); };
  var status = document.getElementById("board-status");
  var board = document.getElementById("board");
  if (!board || typeof htmx === "undefined") return;

  // The Content-Security-Policy allows no inline style: htmx must not copy style attributes
  // from the old content to the new while it settles a swap.
  htmx.config.attributesToSettle = ["class", "width", "height"];

  var store = "blitz-pending-" + board.dataset.match;
  var queue = [];
  var current = null;
  var pollXhr = null; // the poll on its way, if any (matched by its XMLHttpRequest: htmx may
  // report the end of a request on a parent once the poller itself has been swapped)
  var lastPoll = 0;
  var HIDDEN_POLL_MS = 15000;

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    if (window.crypto && crypto.getRandomValues) {
      crypto.getRandomValues(bytes);
    } else {
      for (var i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
    }
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  var settled = {}; // keys this tab saw the server answer: never kept or sent again

  /* The device's list of waiting taps is shared by every tab of this board: keep the other
   * tabs' taps (a key sent twice applies once), drop the ones answered here, add ours. */
  function save() {
    try {
      var mine = unanswered().map(function (item) {
        return { op: item.op, key: item.key, card: item.card, tally: item.tally, step: item.step };
      });
      var ours = {};
      mine.forEach(function (item) { ours[item.key] = true; });
      var others = JSON.parse(localStorage.getItem(store) || "[]").filter(function (item) {
        return item && item.key && !ours[item.key] && !settled[item.key];
      });
      localStorage.setItem(store, JSON.stringify(others.concat(mine)));
    } catch (e) { /* private mode: the queue still lives in memory */ }
  }

  function unanswered() {
    return (current ? [current] : []).concat(queue);
  }

  function say(text) {
    if (status) status.textContent = text;
  }

  function markCard(item, unsaved) {
    var card = item.card && document.getElementById(item.card);
    if (card) card.classList.toggle("unsaved", unsaved);
  }

  function pump() {
    if (current || !queue.length || pollXhr || !form || !navigator.onLine) return;
    current = queue.shift();
    send(current);
  }

  function send(item) {
    var p = poller();
    var sent = htmx.ajax("POST", form.getAttribute("action"), {
      source: form,
      swap: "none",
      // "seen": the last event this board shows; when the tap is the next one, the answer moves
      // the poller on, so the next poll does not fetch this tap's change a second time.
      values: { op: item.op, key: item.key, seen: p ? p.dataset.seq : "" },
    });
    // A request that never got an answer (a connection reset, a timeout) rejects htmx's promise:
    // htmx:afterRequest has already put the tap up for a retry, so nothing is left to handle.
    if (sent && sent.catch) sent.catch(function () {});
  }

  function finished(item, problem) {
    markCard(item, false);
    settled[item.key] = true;
    current = null;
    showTallies();
    save();
    say(problem);
    setTimeout(pump, 0);
  }

  function waiting() {
    var count = (current ? 1 : 0) + queue.length;
    return count > 1 ? " (" + count + " taps waiting)" : count === 1 ? " (1 tap waiting)" : "";
  }

  function retry(item) {
    item.tries += 1;
    markCard(item, true);
    if (!navigator.onLine) {
      say("Offline \u2014 taps are kept on this tablet and sent when the connection returns" + waiting() + ".");
      return; // the online event sends it again
    }
    say("Not saved \u2014 retrying" + waiting() + "\u2026");
    var delay = Math.min(8000, 500 * Math.pow(2, item.tries));
    setTimeout(function () { if (current === item) send(item); }, delay);
  }

  function connection() {
    document.body.classList.toggle("is-offline", !navigator.onLine);
    if (!navigator.onLine) {
      say("Offline \u2014 taps are kept on this tablet and sent when the connection returns" + waiting() + ".");
      return;
    }
    say(current || queue.length ? "Back online \u2014 sending your taps\u2026" : "");
    if (current) send(current); else pump();
    var p = poller();
    if (p && p.hasAttribute("hx-get")) htmx.trigger(p, "poll-now");
  }
  window.addEventListener("offline", connection);
  window.addEventListener("online", connection);

  if (form) {
    document.body.addEventListener("htmx:confirm", function (evt) {
      var trigger = evt.detail.triggeringEvent;
      if (evt.detail.elt !== form || !trigger || trigger.type !== "submit") return;
      var button = trigger.submitter;
      evt.preventDefault();
      if (!button || button.name !== "op") return;
      if (button.classList.contains("bx") && doubleTap(button.value)) return;
      if (button.hasAttribute("aria-pressed") && doubleToggle(button.value)) return;
      // Where the answer's message goes: the card, the turn panel, or the bar's latest line.
      var card = button.closest(".unit, #turn") || (button.closest("#match-log, .board-bar") ? document.getElementById("latest") : null);
      var item = { op: button.value, key: newKey(), card: card ? card.id : "", tries: 0 };
      // A button beside a typed field (data-with: the field's id) sends its text after its op.
      var typed = button.dataset.with && document.getElementById(button.dataset.with);
      if (typed && typed.value.trim()) item.op += " " + typed.value.trim().split(/\s+/).join(" ");
      if (button.dataset.tally) {
        item.tally = button.dataset.tally;
        item.step = Number(button.dataset.step) || 0;
      }
      if (item.card) forget(item.card); // acting on a card again replaces its message
      var track = button.classList.contains("bx") ? button.parentElement : null;
      if (track && track.id) item.track = { id: track.id, html: track.innerHTML };
      showPending(button);
      queue.push(item);
      showTallies();
      save();
      if (!navigator.onLine) {
        markCard(item, true);
        say("Offline \u2014 taps are kept on this tablet and sent when the connection returns" + waiting() + ".");
        return;
      }
      pump();
    });

    document.body.addEventListener("htmx:beforeRequest", function (evt) {
      if (evt.detail.elt === form && current) current.xhr = evt.detail.xhr;
    });

    // Whether the server refused the tap (its answer carries a refusal): read before the swap.
    document.body.addEventListener("htmx:beforeSwap", function (evt) {
      if (current && evt.detail.xhr === current.xhr) {
        current.refused = /class="msg error"/.test(evt.detail.serverResponse || "");
      }
    });

    document.body.addEventListener("htmx:afterRequest", function (evt) {
      var xhr = evt.detail.xhr;
      if (!current || !xhr || xhr !== current.xhr) return;
      var code = xhr ? xhr.status : 0;
      if (code >= 200 && code < 300) {
        // A newer tap that went through clears an old refusal from the bottom bar.
        if (!current.refused && /class="msg error"/.test(messages.latest || "")) forget("latest");
        finished(current, "");
      } else if (code === 400 || code === 403 || code === 404 || code === 405) {
        // The server answered and refused: retrying would not help. Say so; never drop silently.
        // A box drawn crossed off before the answer goes back as it was.
        var drawn = current.track && document.getElementById(current.track.id);
        if (drawn) drawn.innerHTML = current.track.html;
        finished(current, "Not saved: " + (xhr.responseText || "the server refused this change.").slice(0, 300));
      } else {
        retry(current);
      }
    });

    window.addEventListener("beforeunload", function (evt) {
      if (current || queue.length) {
        save();
        evt.preventDefault();
        evt.returnValue = "";
      }
    });

    try {
      var pending = JSON.parse(localStorage.getItem(store) || "[]");
      pending.forEach(function (item) {
        if (item && item.op && item.key) {
          queue.push({
            op: item.op, key: item.key, card: item.card || "", tries: 0,
            tally: item.tally || "", step: Number(item.step) || 0,
          });
        }
      });
    } catch (e) { /* nothing saved */ }
    showTallies();
    pump();
  }

  /* Polling: every 2 s while visible, every 15 s while the tab is hidden, never while a tap is on
   * its way (so an answer computed before the tap cannot overwrite it). */
  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    if (evt.detail.elt !== poller() || evt.defaultPrevented) return; // (held back by push.js)
    var now = Date.now();
    var waitingTaps = current || queue.length;
    if (waitingTaps || !navigator.onLine || (document.hidden && now - lastPoll < HIDDEN_POLL_MS)) {
      evt.preventDefault();
      return;
    }
    lastPoll = now;
    pollXhr = evt.detail.xhr;
  });
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    if (!pollXhr || evt.detail.xhr !== pollXhr) return;
    pollXhr = null;
    setTimeout(pump, 0);
  });
  // Coming back to the tab polls at once: static/js/push.js, which also reopens the stream.

  /* A double tap on a box is one tap. When the server's answer redraws the card between the two
   * taps of a double tap, the second lands on the box just crossed off, which is now the button
   * that clears it: within the double-tap window that is the same tap again, not a correction
   * (a real correction is a tap a moment later). */
  var DOUBLE_TAP_MS = 500;
  var lastBox = null;
  function doubleTap(op) {
    var words = op.split(" "); // "mark a-1-2 3" or "clear a-1-2 3"
    var now = Date.now();
    var last = lastBox;
    if (
      last && now - last.at < DOUBLE_TAP_MS && words.length === 3 && last.words[0] !== words[0] &&
      last.words[1] === words[1] && last.words[2] === words[2]
    ) {
      return true;
    }
    lastBox = { words: words, at: now };
    return false;
  }

  /* A double tap on a toggle ("Used", "Keep action", "FO mark") is one tap: a second tap on the
   * same toggle of the same model within the double-tap window is dropped, whether the answer
   * has already turned the button into its opposite ("used a-1-2 0") or not ("used a-1-2 1",
   * which the server would refuse as already done). A real change of mind is a moment later. */
  var lastToggle = null;
  function doubleToggle(op) {
    var what = op.split(" ").slice(0, 2).join(" "); // "used a-1-2"
    var now = Date.now();
    if (lastToggle && lastToggle.what === what && now - lastToggle.at < DOUBLE_TAP_MS) return true;
    lastToggle = { what: what, at: now };
    return false;
  }

  /* A box tap shows at once, before the server answers (offline too): the tapped box is drawn
   * crossed off (or cleared) and is no longer a button, so a double tap sends it once; the next
   * box becomes the button, so a second hit is a tap on box N+1, as on paper. The server's
   * answer then redraws the card as it really is. */
  function asBox(old, op, label) {
    var box = document.createElement(op ? "button" : "span");
    box.className = old.className;
    box.textContent = old.textContent;
    if (op) {
      box.name = "op";
      box.value = op;
      box.setAttribute("aria-label", label);
    } else {
      box.title = old.getAttribute("title") || (old.getAttribute("aria-label") || "").replace(/^.*, /, "");
    }
    old.replaceWith(box);
    return box;
  }
  function showPending(button) {
    var words = button.value.split(" "); // "mark a-1-2 3" or "clear a-1-2 3"
    if (!button.classList.contains("bx") || words.length !== 3) return;
    var track = button.parentElement;
    track.querySelectorAll("button.bx").forEach(function (other) {
      if (other !== button) asBox(other, "", "");
    });
    var box = asBox(button, "", "");
    box.classList.add("pend");
    box.classList.toggle("x", words[0] === "mark");
    var next = words[0] === "mark" ? box.nextElementSibling : null;
    if (next && next.classList.contains("bx")) {
      var number = Number(words[2]) + 1;
      asBox(next, "mark " + words[1] + " " + number, "Cross off box " + number + ", " + next.title);
    }
  }

  /* A counter tap shows at once too (a wound off or back on a Kill Team card: the button's
   * data-tally names the count it changes, data-step by how much, and its op ends with the count
   * the player saw). The count shows the drawn value plus every tap still waiting on it, and
   * every button on that count names the number shown: a second tap before the answer, or
   * offline, is the next step ("wound a-1 7"), not a stale repeat of the first. Idempotent: it
   * runs after every tap, answer and swap; a count drawn again by the server starts afresh. */
  function showTallies() {
    var steps = {};
    unanswered().forEach(function (item) {
      if (item.tally) steps[item.tally] = (steps[item.tally] || 0) + item.step;
    });
    document.querySelectorAll("[data-drawn]").forEach(function (tally) {
      if (!(tally.id in steps)) steps[tally.id] = 0;
    });
    Object.keys(steps).forEach(function (id) {
      var tally = document.getElementById(id);
      if (!tally) return;
      if (!tally.dataset.drawn) tally.dataset.drawn = tally.textContent;
      var shown = Math.max(0, Number(tally.dataset.drawn) + steps[id]);
      if (!steps[id]) delete tally.dataset.drawn;
      tally.textContent = String(shown);
      document.querySelectorAll('[data-tally="' + id + '"]').forEach(function (button) {
        var words = button.value.split(" ");
        words[words.length - 1] = String(shown);
        button.value = words.join(" ");
      });
    });
  }

  /* A rule's warning or refusal stays on its card (or the turn panel, or the log) until the
   * player dismisses it or acts there again: a poll that redraws the card puts it back. */
  var messages = {}; // container id -> the message's HTML
  function remember() {
    document.querySelectorAll(".unit > .msg, #turn > .msg, #latest > .msg").forEach(function (msg) {
      var id = msg.parentElement.id;
      if (messages[id] === msg.outerHTML) return;
      messages[id] = msg.outerHTML;
      // A new message is brought into view (above the bottom bar, below the turn panel).
      if (msg.scrollIntoView) msg.scrollIntoView({ block: "nearest" });
    });
  }
  function restore() {
    Object.keys(messages).forEach(function (id) {
      var box = document.getElementById(id);
      if (!box || box.querySelector(":scope > .msg")) return;
      var holder = document.createElement("div");
      holder.innerHTML = messages[id];
      if (id === "latest") box.prepend(holder.firstChild); else box.appendChild(holder.firstChild);
    });
  }
  function forget(id) {
    delete messages[id];
    var box = document.getElementById(id);
    var msg = box && box.querySelector(":scope > .msg");
    if (msg) msg.remove();
  }
  function keep() { remember(); restore(); showTallies(); pin(); unfold(); }
  document.body.addEventListener("htmx:afterSettle", keep);
  document.body.addEventListener("htmx:oobAfterSwap", keep);
  remember();
  document.addEventListener("click", function (evt) {
    var button = evt.target.closest("[data-dismiss]");
    if (!button) return;
    var msg = button.closest(".msg");
    if (msg && msg.parentElement) forget(msg.parentElement.id);
    pin();
  });

  /* The two sticky bars keep to a fifth of the screen together: the turn panel sticks with only
   * its last part in view (the buttons a player needs now; static/css orders them last), its
   * first part scrolls with the page above it. */
  var SCREEN_SHARE = 0.2;
  function pin() {
    var turn = document.getElementById("turn");
    var bar = board.querySelector(".board-bar");
    if (!turn) return;
    var room = Math.floor(window.innerHeight * SCREEN_SHARE) - (bar ? bar.offsetHeight : 0);
    var over = turn.offsetHeight - Math.max(0, room);
    if (over <= 0) {
      turn.style.top = "";
      return;
    }
    // The part in view starts at a row's top edge, never through a row of buttons.
    var start = over;
    var rows = Array.prototype.map.call(turn.children, function (row) { return row.offsetTop - 2; });
    rows.sort(function (x, y) { return x - y; });
    for (var i = 0; i < rows.length; i++) {
      if (rows[i] >= over) { start = rows[i]; break; }
    }
    turn.style.top = -start + "px";
  }
  window.addEventListener("resize", pin);
  if (window.ResizeObserver) {
    var bar = board.querySelector(".board-bar");
    if (bar) new ResizeObserver(pin).observe(bar);
  }
  pin();

  /* A phone shows one side at a time: the side acting now open, the other folded to its bar
   * (a tap opens it). Models out or Used this round fold to one line, "Open" unfolds one; what
   * the player opened stays open when a tap or a poll redraws the card. */
  var phone = window.matchMedia ? window.matchMedia("(max-width: 600px)") : { matches: false };
  var sides = board.querySelector(".sides[data-open]");
  if (phone.matches && sides && sides.dataset.open) {
    sides.querySelectorAll("details[data-side]").forEach(function (side) {
      side.open = side.dataset.side === sides.dataset.open;
    });
  }
  if (phone.matches) {
    board.querySelectorAll(".share-fold[data-fold]").forEach(function (box) { box.open = false; });
  }
  board.classList.add("folds");
  var unfolded = {}; // card id -> true: the cards this player opened
  function unfold() {
    Object.keys(unfolded).forEach(function (id) {
      var card = document.getElementById(id);
      var button = card && card.querySelector(".unfold");
      if (!button) return;
      card.classList.add("unfolded");
      button.setAttribute("aria-expanded", "true");
    });
  }
  document.addEventListener("click", function (evt) {
    var button = evt.target.closest(".unfold");
    var card = button && button.closest(".unit");
    if (!card) return;
    var open = !card.classList.contains("unfolded");
    card.classList.toggle("unfolded", open);
    button.setAttribute("aria-expanded", String(open));
    if (open) unfolded[card.id] = true; else delete unfolded[card.id];
  });

  /* data-lazy-script/-css: fetched on the first tap of a data-lazy-openers link, then tapped again. */
  document.addEventListener("click", function (evt) {
    var part = document.querySelector("[data-lazy-script]");
    if (!part || part.dataset.lazyLoading || evt.button !== 0 || evt.metaKey || evt.ctrlKey || evt.shiftKey) return;
    var opener = evt.target.closest(part.dataset.lazyOpeners);
    if (!opener) return;
    evt.preventDefault();
    part.dataset.lazyLoading = "1";
    var waiting = 2;
    var ready = function () {
      waiting -= 1;
      if (waiting === 0) opener.click();
    };
    var css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = part.dataset.lazyCss;
    css.onload = css.onerror = ready;
    var script = document.createElement("script");
    script.src = part.dataset.lazyScript;
    script.onload = ready;
    script.onerror = function () { window.location.href = opener.href; };
    document.head.appendChild(css);
    document.head.appendChild(script);
  });
})();
