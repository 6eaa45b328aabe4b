/**
 * Browser end-to-end tests: Playwright drives the system Chromium (see scripts/ensure-chromium.mjs)
 * against the built app, started the way a self-hoster starts it (`node live-server/src/main.ts`
 * after `npm run build`) on a fresh embedded database. The server's log — which is also the
 * outbox while SMTP is not configured — goes to test-results/e2e-server.log, where
 * client/e2e/support/mail-log.ts reads sign-in codes from.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";
import { serverNodeFlags } from "./live-server/src/server-node-flags.ts";

const ROOT = path.dirname(fileURLToPath(import.meta.url));
// E2E_PORT / E2E_RESULTS_DIR / E2E_CLIENT_DIST let two runs share a machine (each its own port,
// server log and client build); unset, one run uses :3100, test-results/ and client/dist.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE_URL = `http://localhost:${PORT}`;

/**
 * This file is loaded by the runner and again by every worker. The runner creates the data
 * folder once and passes it on through the environment (workers inherit it), so each run gets
 * exactly one fresh database, removed when the runner exits.
 */
function e2eDataDir(): string {
  const existing = process.env.TIDELINE_E2E_DATA_DIR;
  if (existing) return existing;
  const dir = mkdtempSync(path.join(os.tmpdir(), "tideline-e2e-"));
  process.env.TIDELINE_E2E_DATA_DIR = dir;
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * As scripts/ensure-chromium.mjs chooses: CHROMIUM_PATH, else the headless shell (about a fifth
 * less CPU than the full browser headless), else the full Chromium. `--headed` needs the full one:
 * CHROMIUM_PATH=/usr/bin/chromium.
 */
function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  const candidates = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  return candidates.find((file) => existsSync(file)) ?? "/usr/bin/chromium";
}

/** Read by client/e2e/support/mail-log.ts; the runner clears test-results/ before starting the server. */
const RESULTS_DIR = process.env.E2E_RESULTS_DIR ?? "test-results";
const SERVER_LOG = path.join(RESULTS_DIR, "e2e-server.log");
process.env.E2E_SERVER_LOG = path.resolve(ROOT, SERVER_LOG);
const UNSET = ["DATABASE_URL", "REDIS_URL", "SMTP_HOST", "STORAGE_DRIVER"];
const dataDir = e2eDataDir();
// The Node that runs Playwright (Node 24 from node_modules/.bin under npm/npx) also runs the server.
const node = JSON.stringify(process.execPath);

export default defineConfig({
  testDir: "client/e2e",
  // Two specs at once unless E2E_WORKERS says otherwise: every spec makes its own users and
  // workspaces, and tests in one file run in order (`describe.serial` journeys), so two workers
  // keep both cores busy (the full run on a 2-core machine under other load: 10.0 → about 6 min).
  // The specs wait for what they check, never for a time, so they hold with two browsers at once.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  reporter: "list",
  timeout: 60_000,
  // A web-first assertion retries until it holds; on a loaded 2-core machine a screen can take
  // longer than Playwright's 5 s default to settle. The deadline costs time only when it fails.
  expect: { timeout: 15_000 },
  forbidOnly: !!process.env.CI,
  // 01-foundation sets the instance up through its first-run screen, so it runs before the rest
  // (which would otherwise set it up through the API first). `--no-deps` runs one spec alone.
  projects: [
    { name: "foundation", testMatch: /01-foundation\.spec\.ts$/ },
    { name: "journeys", testIgnore: /01-foundation\.spec\.ts$/, dependencies: ["foundation"] },
  ],
  outputDir: RESULTS_DIR,
  use: {
    baseURL: BASE_URL,
    // No trace unless asked (E2E_TRACE=retain-on-failure, or on): recording one streams a
    // screencast and DOM snapshots of every test, which nearly doubled the suite on 2 cores (8.6 →
    // 4.8 min; Chromium's GPU process alone 169 → 23 CPU-s). A failure still leaves its screenshot
    // and the page's accessibility snapshot (error-context.md); re-run that spec with a trace.
    trace: (process.env.E2E_TRACE as "off" | "on" | "retain-on-failure" | undefined) ?? "off",
    screenshot: "only-on-failure",
    // No service worker, except where a spec tests it (21-offline): every fresh context is a first
    // visit, whose worker downloads and stores all ~250 files of the app, about 55 contexts a run.
    // Without it, three specs measured: 3.1 → 2.5 min, Chromium's browser process 57 → 36 CPU-s.
    serviceWorkers: "block",
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: {
    // A fresh embedded database and mail in the log, whatever the developer's shell exports;
    // `exec` hands the shell's place to node, so the shutdown signal reaches the server itself.
    command: `unset ${UNSET.join(" ")}; mkdir -p ${RESULTS_DIR} && exec ${node} ${serverNodeFlags().join(" ")} live-server/src/main.ts > ${SERVER_LOG} 2>&1`,
    cwd: ROOT,
    env: {
      PORT: String(PORT),
      APP_BASE_URL: BASE_URL,
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      CLIENT_DIST: path.resolve(ROOT, process.env.E2E_CLIENT_DIST ?? "client/dist"),
      // e2e 30-webhooks delivers to a receiver the spec starts on this machine's loopback.
      WEBHOOK_ALLOW_PRIVATE: "true",
    },
    url: `${BASE_URL}/api/instances/`,
    reuseExistingServer: false,
    timeout: 120_000,
    // Let the server close its embedded database cleanly before the data folder is removed.
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
  },
});
