// First: zod must be jitless before any schema exists (the CSP allows no eval).
import "./lib/zod-config";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import { router } from "./app/router";
import { initI18n } from "./i18n";
import { registerServiceWorker } from "./lib/offline/service-worker";
import { startPrepaintKeeping } from "./lib/prepaint";
import { startOfflineChanges } from "./stores/offline-changes";
import { session, startSession } from "./stores/session";
import { applyTheme } from "./stores/theme";
// The UI font ships with the app (no font CDN): Inter, variable weights, every subset.
import "@fontsource-variable/inter/wght.css";
import "./styles/tokens.css";
import "./styles/base.css";
import "./styles/ui.css";

applyTheme();
// Who is signed in is asked now, beside i18n's start, not after the first render (a warm open
// answers it from the kept answers: local reads that need not wait for the app's first frame).
void startSession();
await initI18n();

const root = document.getElementById("root");
if (!root) throw new Error("#root missing from index.html");
createRoot(root).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
registerServiceWorker();
startOfflineChanges();
// The board shown when the page is left paints first on the next visit (public/prepaint.js).
startPrepaintKeeping(() => session.user?.id);
// A page's first comparison of names loads the language's collation rules (~18 ms in Chromium),
// which fell in the board's first render (its members are sorted by name): paid in a task of its
// own while the page waits for its local copy. A plain timer: Chromium runs neither idle callbacks
// nor background-priority tasks while a page is loading, so those came after the board.
setTimeout(() => void "a".localeCompare("b"), 0);
