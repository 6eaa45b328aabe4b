import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// In development the API runs on :3000 (npm run dev); vite proxies to it so cookies stay same-origin.
const api = process.env.TIDELINE_API ?? "http://localhost:3000";

export default defineConfig({
  plugins: [react()],
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
        manualChunks: (id) => (/\/node_modules\/zod\/|\/src\/lib\/zod-config\.ts$/.test(id) ? "zod" : undefined),
      },
    },
  },
});
