// Small progressive enhancements for every page (no inline scripts anywhere).
document.addEventListener("click", (event) => {
  const printer = event.target.closest("[data-print]");
  if (printer) {
    event.preventDefault();
    window.print();
  }
});

// The app shell: cache static files on the device and show a clear page when offline.
if ("serviceWorker" in navigator && window.isSecureContext) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch(() => {});
  });
}

// Editor (htmx): after a swap the player stays where they tapped. The button tapped (or its
// replacement, which keeps its id) gets focus back, and every open model stays open.
let tapped = "";
let openDetails = [];
let swapTarget = "";
document.addEventListener("click", (event) => {
  const button = event.target.closest("button[id]");
  if (button) tapped = button.id;
});
document.addEventListener("htmx:beforeSwap", (event) => {
  openDetails = [...document.querySelectorAll("details[open][id]")].map((details) => details.id);
  swapTarget = event.detail.target ? event.detail.target.id : "";
});
function restorePlace() {
  for (const id of openDetails) {
    const details = document.getElementById(id);
    if (details && !details.open) details.open = true;
  }
  const again = tapped && document.getElementById(tapped);
  const fallback = swapTarget && document.getElementById(`${swapTarget}-title`);
  const focus = again || fallback;
  if (focus && document.activeElement !== focus) focus.focus({ preventScroll: true });
}
document.addEventListener("htmx:afterSwap", restorePlace);
document.addEventListener("htmx:afterSettle", restorePlace);

// A link to a collapsed panel (#share) opens it.
function openTargetPanel() {
  const target = location.hash && document.getElementById(location.hash.slice(1));
  if (target && target.tagName === "DETAILS") target.open = true;
}
window.addEventListener("hashchange", openTargetPanel);
document.addEventListener("DOMContentLoaded", () => {
  openTargetPanel();
  const alert = document.querySelector("[data-focus-on-load]");
  if (alert && document.activeElement !== alert) alert.focus();
});
document.addEventListener("click", (event) => {
  const link = event.target.closest('a[href^="#"]');
  if (link) setTimeout(openTargetPanel);
});
