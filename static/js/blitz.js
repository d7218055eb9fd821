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
