import { startWindowClosed } from "./last-answers";

/**
 * The app shell offline: register the service worker that vite-plugin-pwa generates at build
 * time (client/vite.config.ts). Only production builds have one; `vite dev` serves modules that
 * change on every save, which a precache would only get in the way of.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
      // Without a worker the app still works online; it only can't start offline.
    });
  };
  // After the page's own loading and its first board (or the 5 s start window): a first visit's
  // precaching downloads every file of the app, which competed with that board's first paint
  // for the server and the CPU (bench browser-board, cold open).
  const afterLoad = () => void startWindowClosed().then(register);
  if (document.readyState === "complete") afterLoad();
  else window.addEventListener("load", afterLoad, { once: true });
}
