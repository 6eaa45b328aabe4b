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
  // After the page's own loading, so precaching never competes with the first paint.
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
