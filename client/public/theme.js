// Apply the saved theme before first paint so there is no flash of the wrong theme. A file of
// its own (not an inline script) so the Content-Security-Policy allows only 'self' scripts.
(() => {
  try {
    let t = localStorage.getItem("tideline:theme") || "system";
    if (t === "system") t = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
    document.documentElement.dataset.theme = t;
  } catch {}
})();
