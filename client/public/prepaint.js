// Paints the board this browser showed last, as it looked, before the app's code has run (issue 21).
//
// A warm open of a board spends half a second starting the app (its modules, the router, the
// session) before React paints anything of the board, however fast its local copy is read. When
// the app leaves a board page it keeps what the board looked like — the markup of #root and the
// page's styles — in localStorage (src/lib/prepaint.ts). On the next load of that same
// address, with the same build, this script (a plain file: the CSP allows no inline script; in
// <head> right after theme.js, so it is fetched before the app's many files queue up — measured:
// placed after #root it waited ~75 ms behind them, and the app's scripts behind it) puts that
// markup in an overlay above #root (in a closed shadow root, with those styles), so it paints with
// the page's first frame. Run in <head>, it adds the overlay to <html> (there is no <body> yet).
// The app starts underneath it, and once its own board has painted it removes the overlay
// (src/lib/prepaint.ts `handOverPrepaint`), at the same place, so nothing moves. A click on a
// work item (or a link) in the overlay is remembered and replayed on the app's board then: a row
// clicked at once opens its peek as soon as the app can.
//
// Same trust as the local copy it mirrors: it is the signed-in browser's own, deleted at sign-out
// and when the project's copy is dropped, and the app replaces it within its first answers.
// Nothing of the overlay is for assistive technology or the keyboard (aria-hidden, no focus).
(() => {
  const KEY = "tideline:prepaint";
  const GLOBAL = "__tidelinePrepaint";
  // The longest the overlay stays if the app never takes over (its code failed to load).
  const GIVE_UP_MS = 15000;

  try {
    if (localStorage.getItem("tideline:local-db-enabled") === "false") return;
    const raw = localStorage.getItem(KEY);
    if (!raw) return;
    const saved = JSON.parse(raw);
    if (saved?.v !== 2 || saved.path !== location.pathname) return;
    // Only the build that kept it takes over from it without a jump (its markup, its class names).
    // The build names itself in a meta at the top of <head> (client/vite.config.ts).
    const build = document.querySelector('meta[name="tideline-build"]')?.getAttribute("content");
    if (!build || build !== saved.build) return;

    // A closed shadow root: the picture is not part of the page the app and its tests work with
    // (no query, locator or assistive technology finds its copies of the app's elements). The
    // styles are the ones the page had when the board was kept, in its order — the board's own
    // come with lazily loaded screens, not yet on this page — so it paints as it was, at once.
    const overlay = document.createElement("div");
    overlay.id = "prepaint";
    overlay.setAttribute("aria-hidden", "true");
    const shadow = overlay.attachShadow({ mode: "closed" });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(saved.css);
    shadow.adoptedStyleSheets = [sheet];
    // Parsed in a template (nothing runs, nothing loads yet), then cleaned: the markup is React's
    // own output, but whatever sits in localStorage is treated as untrusted.
    const template = document.createElement("template");
    template.innerHTML = saved.html;
    for (const el of template.content.querySelectorAll("script, iframe, object, embed, form, base, meta, link, style"))
      el.remove();
    for (const el of template.content.querySelectorAll("*")) {
      for (const attr of [...el.attributes]) {
        const name = attr.name.toLowerCase();
        const value = attr.value.trim().toLowerCase();
        if (name.startsWith("on") || ((name === "href" || name === "src") && value.startsWith("javascript:")))
          el.removeAttribute(attr.name);
      }
      if (el.hasAttribute("tabindex") || /^(a|button|input|select|textarea)$/i.test(el.tagName))
        el.setAttribute("tabindex", "-1");
    }
    // #root's own rules (its height) apply to the copy: ids are the shadow tree's own.
    const page = document.createElement("div");
    page.id = "root";
    page.appendChild(template.content);
    shadow.appendChild(page);

    // `shadow` for tests, which read the picture (the app never does).
    const state = { path: saved.path, userId: saved.userId, pending: null, done: false, shadow };
    // Remembers what a click on the overlay meant; the app replays it once its board is there.
    shadow.addEventListener(
      "click",
      (event) => {
        event.preventDefault();
        event.stopPropagation();
        const target = event.target instanceof Element ? event.target : null;
        const item = target?.closest("[data-item-id]");
        const link = target?.closest("a[href]");
        if (item) state.pending = { itemId: item.getAttribute("data-item-id") };
        else if (link) state.pending = { href: link.getAttribute("href") };
        overlay.classList.add("is-waiting");
      },
      true,
    );
    state.finish = () => {
      if (state.done) return null;
      state.done = true;
      overlay.remove();
      const pending = state.pending;
      state.pending = null;
      return pending;
    };
    (document.body ?? document.documentElement).appendChild(overlay);
    globalThis[GLOBAL] = state;
    performance.mark("tideline:prepaint:shown");
    // After the frame that shows it (the same measure as the app's own board mark).
    requestAnimationFrame(() => setTimeout(() => performance.mark("tideline:prepaint:painted"), 0));
    setTimeout(() => state.finish(), GIVE_UP_MS);
  } catch {
    const left = document.getElementById("prepaint");
    if (left) left.remove();
  }
})();
