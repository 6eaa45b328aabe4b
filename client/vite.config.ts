import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";

// In development the API runs on :3000 (npm run dev); vite proxies to it so cookies stay same-origin.
const api = process.env.TIDELINE_API ?? "http://localhost:3000";

export default defineConfig({
  plugins: [
    react(),
    // The app shell offline (issue 12): a service worker precaches the built files; see
    // client/src/lib/offline/README.md for why navigations go to the network first.
    VitePWA({
      strategies: "generateSW",
      // Registered by main.tsx in production builds only; `vite dev` never has a worker.
      injectRegister: false,
      manifest: false,
      workbox: {
        globPatterns: ["**/*.{js,css,html,svg,woff2}"],
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
        // No catch-all fallback: navigations are handled below, everything else unmatched
        // (the API, auth, the live socket, uploads) never touches the worker's caches.
        navigateFallback: null,
        // Without this the precache would answer "/" from the cache before the network.
        directoryIndex: null,
        skipWaiting: true,
        clientsClaim: true,
        cleanupOutdatedCaches: true,
        runtimeCaching: [
          {
            // A page load always asks the server first, so a new build's index.html (and its
            // new bundle) wins at once; only when the network fails does the precached shell answer.
            urlPattern: ({ request, url }) =>
              request.mode === "navigate" && !/^\/(api|auth|live)(\/|$)/.test(url.pathname),
            handler: "NetworkOnly",
            options: { precacheFallback: { fallbackURL: "index.html" } },
          },
        ],
      },
    }),
  ],
  server: {
    port: 5173,
    proxy: {
      "/api": { target: api, changeOrigin: false },
      "/auth": { target: api, changeOrigin: false },
      "/live": { target: api, ws: true },
    },
  },
  build: {
    outDir: "dist",
    sourcemap: true,
    chunkSizeWarningLimit: 700,
    rollupOptions: {
      output: {
        // zod with its jitless switch in one chunk: every chunk that builds a schema imports it,
        // so zod never probes `new Function` (a violation of the app's CSP; lib/zod-config.ts).
        // The icons in one chunk: split per screen they were ~100 files of a few hundred bytes,
        // each a request the service worker answers before the board can paint.
        manualChunks: (id) => {
          if (/\/node_modules\/zod\/|\/src\/lib\/zod-config\.ts$/.test(id)) return "zod";
          if (/\/node_modules\/lucide-react\//.test(id)) return "icons";
          return undefined;
        },
      },
    },
  },
});
