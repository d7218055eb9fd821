/* The attack helper in place on the board: a card's "Attack…" link opens the helper in
 * #attack-panel (templates/matches/_attack_panel.html) instead of leaving the board. htmx loads
 * it with panel=1, so the helper pushes no URL into the board's history; applying an attack
 * answers with the "blitz:attack-applied" event: the board polls at once (the card shows the
 * damage) and the panel closes, unless the answer has a warning to read (it then stays open with
 * a Close button). Without JavaScript the link opens the helper's own page, as before.
 *
 * A card's "FO mark…" link opens the same way: the player names the observer, and the choice
 * posts the board's own tap.
 *
 * Kept apart from match.js: it relies only on the board's #poller and htmx.
 */
(function () {
  "use strict";

  var panel = document.getElementById("attack-panel");
  var body = document.getElementById("attack-panel-body");
  if (!panel || !body || typeof htmx === "undefined") return;
  var opener = null; // the link that opened the panel: focus goes back to it on close

  function withPanel(href) {
    var url = new URL(href, window.location.href);
    url.searchParams.set("panel", "1");
    return url.pathname + url.search;
  }

  function open(link) {
    if (!panel.contains(link)) opener = link;
    body.innerHTML = "";
    var title = document.getElementById("attack-panel-title");
    if (title) title.textContent = link.classList.contains("obs") ? "Forward observation" : "Attack helper";
    if (!panel.open) panel.show();
    document.body.classList.add("attack-panel-open");
    htmx.ajax("GET", withPanel(link.getAttribute("href")), { target: body, swap: "innerHTML" }).then(function () {
      var title = document.getElementById("attack-panel-title");
      if (title) title.focus();
    });
  }

  function close() {
    if (panel.open) panel.close();
  }

  function pollNow() {
    var poller = document.getElementById("poller");
    if (poller && poller.hasAttribute("hx-get")) htmx.trigger(poller, "poll-now");
  }

  panel.addEventListener("close", function () {
    body.innerHTML = "";
    document.body.classList.remove("attack-panel-open");
    // The poll may have redrawn the card meanwhile: its new "Attack…" link takes the focus.
    var card = opener && opener.closest(".unit");
    var back = card && document.getElementById(card.id);
    var link = back && back.querySelector("a.atk");
    if (link) link.focus(); else if (opener && document.contains(opener)) opener.focus();
    opener = null;
  });

  document.addEventListener("click", function (evt) {
    if (evt.defaultPrevented || evt.button !== 0 || evt.metaKey || evt.ctrlKey || evt.shiftKey) return;
    var link = evt.target.closest("#board a.atk, #board a.obs, #attack-panel a[data-panel-open]");
    if (link) {
      evt.preventDefault();
      open(link);
      return;
    }
    if (evt.target.closest("#attack-panel [data-panel-close]")) close();
  });

  /* A roll resolved (on screen or typed): its result and the Apply button come into view in the
   * panel, wherever the player had scrolled to ("Roll on screen" sits below the odds' start). */
  document.body.addEventListener("htmx:afterSettle", function () {
    if (!panel.open) return;
    var result = body.querySelector("#attack-result");
    if (result && result.scrollIntoView) result.scrollIntoView({ block: "nearest" });
  });

  panel.addEventListener("keydown", function (evt) {
    if (evt.key === "Escape") close();
  });

  /* A form of the panel that posts a board tap (the observer of a forward observation): the
   * answer redraws the cards by itself (out-of-band swaps); the panel closes when it is taken,
   * and says why when it is refused. */
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    var elt = evt.detail.elt;
    var done = elt && elt.closest && elt.closest("#attack-panel [data-panel-done]");
    if (!done) return;
    var xhr = evt.detail.xhr;
    if (xhr && xhr.status >= 200 && xhr.status < 300) {
      close();
      return;
    }
    var error = body.querySelector("[data-panel-error]");
    if (error) {
      error.textContent = "Not saved: " + ((xhr && xhr.responseText) || "no answer; try again.").slice(0, 300);
      error.hidden = false;
    }
  });

  document.body.addEventListener("blitz:attack-applied", function (evt) {
    pollNow();
    if (!(evt.detail && evt.detail.warned)) close();
  });
})();
