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

// Copy buttons. [data-copy="#field"] copies a field's text; [data-copy-url] (a link to a page
// showing the text) fetches the text and copies it. Without JavaScript the buttons stay hidden
// and the field or the link still works: select and copy by hand.
for (const button of document.querySelectorAll("[data-copy][hidden]")) {
  button.hidden = false;
}

function copyWithSelection(text) {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } catch (error) {
    copied = false;
  }
  area.remove();
  return copied;
}

async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch (error) {
      // refused (no permission, or the page lost focus): try the old way
    }
  }
  return copyWithSelection(text);
}

async function copyFromUrl(url) {
  const fetchText = () =>
    fetch(url, { credentials: "same-origin" }).then((answer) => {
      if (!answer.ok) throw new Error(`${answer.status}`);
      return answer.text();
    });
  // Safari allows a clipboard write after a fetch only as a ClipboardItem made during the tap.
  if (navigator.clipboard && window.ClipboardItem && window.isSecureContext) {
    try {
      const blob = fetchText().then((text) => new Blob([text], { type: "text/plain" }));
      await navigator.clipboard.write([new ClipboardItem({ "text/plain": blob })]);
      return true;
    } catch (error) {
      // fall through
    }
  }
  try {
    return await copyText(await fetchText());
  } catch (error) {
    return false;
  }
}

function sayCopied(control, copied) {
  const scope = control.closest(".copy-field, nav, section") || document;
  const status = scope.querySelector("[data-copy-status]");
  if (status) status.textContent = copied ? "Copied." : "Could not copy: select the text and copy it.";
  if (!copied) return;
  const label = control.textContent;
  control.textContent = "Copied ✓";
  setTimeout(() => {
    control.textContent = label;
  }, 2000);
}

document.addEventListener("click", async (event) => {
  const fieldButton = event.target.closest("[data-copy]");
  const linkButton = event.target.closest("[data-copy-url]");
  if (fieldButton) {
    event.preventDefault();
    const field = document.querySelector(fieldButton.dataset.copy);
    if (!field) return;
    const copied = await copyText(field.value);
    if (!copied) field.select();
    sayCopied(fieldButton, copied);
  } else if (linkButton) {
    event.preventDefault();
    const copied = await copyFromUrl(linkButton.dataset.copyUrl);
    if (copied) sayCopied(linkButton, true);
    else window.location.href = linkButton.href; // the page with the text to copy by hand
  }
});

// Editor (htmx): after a swap the player stays where they tapped. The button tapped (or its
// replacement, which keeps its id) gets focus back, and every open model stays open.
// Only the request the tapped button started brings the focus back to it: a tap elsewhere, or
// a form sent with Enter, forgets it (so focus never jumps to an old, unrelated button).
let tapped = "";
let openDetails = [];
let swapTarget = "";
let targetHadFocus = false;
document.addEventListener("click", (event) => {
  const button = event.target.closest("button[id]");
  tapped = button ? button.id : "";
});
document.addEventListener("htmx:beforeRequest", (event) => {
  const button = tapped && document.getElementById(tapped);
  const source = event.detail.elt;
  if (!button || !(source === button || source.contains(button) || button.form === source)) {
    tapped = "";
  }
});
document.addEventListener("htmx:beforeSwap", (event) => {
  openDetails = [...document.querySelectorAll("details[open][id]")].map((details) => details.id);
  const target = event.detail.target;
  swapTarget = target ? target.id : "";
  targetHadFocus = Boolean(target && target.contains(document.activeElement));
});
function restorePlace() {
  for (const id of openDetails) {
    const details = document.getElementById(id);
    if (details && !details.open) details.open = true;
  }
  const again = tapped && document.getElementById(tapped);
  const fallback =
    targetHadFocus && swapTarget && document.getElementById(`${swapTarget}-title`);
  const focus = again || fallback;
  if (focus && document.activeElement !== focus) focus.focus({ preventScroll: true });
  // A refusal drawn by the swap takes focus and comes into view, wherever the tap was.
  // Once only: a later swap elsewhere must not pull the player back to it.
  const refusal = document.querySelector("[data-focus-on-swap]");
  if (refusal) {
    refusal.removeAttribute("data-focus-on-swap");
    refusal.focus({ preventScroll: true });
    refusal.scrollIntoView({ block: "center" });
  }
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
  // A refusal takes focus (and so comes into view): the page's alert, else the first field the
  // form refused, its sentence beside it.
  const alert =
    document.querySelector("[data-focus-on-load]") ||
    document.querySelector('form [aria-invalid="true"]');
  if (alert && document.activeElement !== alert) {
    alert.focus({ preventScroll: true });
    alert.scrollIntoView({ block: "center" }); // with the sentence under a refused field
  }
});
document.addEventListener("click", (event) => {
  const link = event.target.closest('a[href^="#"]');
  if (link) setTimeout(openTargetPanel);
});
