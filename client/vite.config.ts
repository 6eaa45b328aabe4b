import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin, type Rollup } from "vite";
import { VitePWA } from "vite-plugin-pwa";

// In development the API runs on :3000 (npm run dev); vite proxies to it so cookies stay same-origin.
const api = process.env.TIDELINE_API ?? "http://localhost:3000";

/**
 * The screens a board's address opens, by the kind of board (public/preload-local.js's names).
 * Their code is loaded lazily, so the browser would ask for it only once the app had started and
 * the router had matched: ~45 files, each dependency added to the page by a script (bench
 * browser-board: a second wave of requests starting ~400 ms into a warm open).
 */
const BOARD_SCREENS: Record<string, string[]> = {
  issues: ["src/screens/workspace/layout.tsx", "src/screens/work-items/project-work-items-screen.tsx"],
  cycles: ["src/screens/workspace/layout.tsx", "src/screens/cycles/cycle-work-items-screen.tsx"],
  modules: ["src/screens/workspace/layout.tsx", "src/screens/modules/module-work-items-screen.tsx"],
  views: ["src/screens/workspace/layout.tsx", "src/screens/views/view-board-screen.tsx"],
};

/**
 * Writes, per kind of board, the JavaScript files its screens need beyond the app's first files
 * into index.html (`<meta name="tideline-board-modules">`, a JSON object of paths); on a board's
 * address public/preload-local.js adds them as modulepreload links at once, so they download and
 * compile while the app starts. Only the scripts: each screen's stylesheet still comes with it, in
 * the order the cascade was written for.
 */
function boardModulePreload(): Plugin {
  return {
    name: "tideline-board-modulepreload",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c): c is Rollup.OutputChunk => c.type === "chunk");
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const withImports = (roots: Rollup.OutputChunk[]): Set<string> => {
          const seen = new Set<string>();
          const visit = (chunk: Rollup.OutputChunk | undefined) => {
            if (!chunk || seen.has(chunk.fileName)) return;
            seen.add(chunk.fileName);
            for (const file of chunk.imports) visit(byFile.get(file));
          };
          for (const root of roots) visit(root);
          return seen;
        };
        const first = withImports(chunks.filter((c) => c.isEntry));
        const modules: Record<string, string[]> = {};
        for (const [kind, screens] of Object.entries(BOARD_SCREENS)) {
          const roots = screens.map((screen) => {
            const chunk = chunks.find((c) => c.facadeModuleId?.endsWith(`/client/${screen}`));
            if (!chunk) throw new Error(`boardModulePreload: no chunk for ${screen}`);
            return chunk;
          });
          modules[kind] = [...withImports(roots)].filter((file) => !first.has(file)).map((file) => `/${file}`);
        }
        // The build, for what is kept between visits and fits one build only (the prepaint's
        // markup: public/prepaint.js, src/lib/prepaint.ts): the entry's file, hashed per build.
        const entry = chunks.find((c) => c.isEntry)?.fileName ?? "";
        return [
          {
            tag: "meta",
            attrs: { name: "tideline-board-modules", content: JSON.stringify(modules) },
            injectTo: "head-prepend",
          },
          { tag: "meta", attrs: { name: "tideline-build", content: entry }, injectTo: "head-prepend" },
        ];
      },
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    boardModulePreload(),
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
