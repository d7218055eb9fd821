// Small progressive enhancements for every page (no inline scripts anywhere).
document.addEventListener("click", (event) => {
  const printer = event.target.closest("[data-print]");
  if (printer) {
    event.preventDefault();
    window.print();
  }
});
